// The CPU kernel emulator's debug-mode bounds checks (part of loom_cuda_emu.h, split out by purpose):
// inlined into that header where it says `#include "loom_cuda_emu_checks.h"  // loom:inline` when the
// header is embedded (cmake/embed_file_run.cmake), so the host compile still sees one
// header. Not a header of its own: it relies on what loom_cuda_emu.h declares before it.
// ---------------------------------------------------------------- debug-mode bounds checks
// In debug mode (LOOM_EMULATOR_DEBUG=1 or launch option debug=True) loom compiles a second
// library from the same source in which every pointer parameter of a __global__ function,
// `const float* x`, is declared `loom_emu::Checked<const float> x` instead (a source rewrite,
// emu_debug_source.cpp). A Checked pointer knows the byte range of the loom array it was
// launched with and checks each access made through it: [], *, -> and pointer arithmetic
// keep the range. It converts implicitly to T*, so it can be passed to __device__ helpers
// and stored in plain pointers: accesses made through those are not checked.
namespace loom_emu {

// Out of line, never inlined: its return address is the failing access in the kernel, which
// the executor maps to the kernel's source line (the debug library is built with -g).
[[noreturn]] __attribute__((noinline)) inline void out_of_bounds(const void* addr, size_t size, const ArgRange* r) {
  ThreadCtx* c = loom_emu_current;
  c->fault = Fault{__builtin_return_address(0), static_cast<const char*>(addr), size, r->arg};
  LOOM_EMU_THROW_RANGE("out-of-bounds access");
}

#define LOOM_EMU_ALWAYS_INLINE __attribute__((always_inline)) inline
template <class T>
class Checked {
  template <class I>
  using IfIndex = std::enable_if_t<std::is_integral<I>::value || std::is_enum<I>::value, int>;

 public:
  Checked() = default;
  Checked(T* p, const ArgRange* r) : p_(p), r_(r && r->checked ? r : nullptr) {}
  // A plain pointer assigned to the parameter: its provenance is unknown, so unchecked.
  Checked& operator=(T* p) {
    p_ = p;
    r_ = nullptr;
    return *this;
  }
  LOOM_EMU_ALWAYS_INLINE operator T*() const { return p_; }
  // C-style casts and static_cast to other pointer types, `(const float4*)x`: unchecked from
  // there (the cast result is a plain pointer).
  template <class U>
  LOOM_EMU_ALWAYS_INLINE explicit operator U*() const {
    return (U*)p_;  // NOLINT: whatever cast the user's C-style cast meant
  }
  T* get() const { return p_; }
  // A member template is an exact match, so `a[i]` picks it over the built-in subscript
  // reached through the conversion to T*.
  template <class I, IfIndex<I> = 0>
  LOOM_EMU_ALWAYS_INLINE T& operator[](I i) const { return *at(p_ + i); }
  LOOM_EMU_ALWAYS_INLINE T& operator*() const { return *at(p_); }
  LOOM_EMU_ALWAYS_INLINE T* operator->() const { return at(p_); }
  template <class I, IfIndex<I> = 0>
  LOOM_EMU_ALWAYS_INLINE Checked operator+(I i) const { return Checked(p_ + i, r_, 0); }
  template <class I, IfIndex<I> = 0>
  LOOM_EMU_ALWAYS_INLINE friend Checked operator+(I i, const Checked& c) { return c + i; }
  template <class I, IfIndex<I> = 0>
  LOOM_EMU_ALWAYS_INLINE Checked operator-(I i) const { return Checked(p_ - i, r_, 0); }
  LOOM_EMU_ALWAYS_INLINE ptrdiff_t operator-(const Checked& o) const { return p_ - o.p_; }
  template <class I, IfIndex<I> = 0>
  LOOM_EMU_ALWAYS_INLINE Checked& operator+=(I i) { p_ += i; return *this; }
  template <class I, IfIndex<I> = 0>
  LOOM_EMU_ALWAYS_INLINE Checked& operator-=(I i) { p_ -= i; return *this; }
  LOOM_EMU_ALWAYS_INLINE Checked& operator++() { ++p_; return *this; }
  LOOM_EMU_ALWAYS_INLINE Checked& operator--() { --p_; return *this; }
  LOOM_EMU_ALWAYS_INLINE Checked operator++(int) { Checked c = *this; ++p_; return c; }
  LOOM_EMU_ALWAYS_INLINE Checked operator--(int) { Checked c = *this; --p_; return c; }

 private:
  Checked(T* p, const ArgRange* r, int) : p_(p), r_(r) {}
  LOOM_EMU_ALWAYS_INLINE T* at(T* q) const {
    const char* b = reinterpret_cast<const char*>(q);
    if (r_ && (b < r_->lo || b + sizeof(T) > r_->hi || b + sizeof(T) < b)) out_of_bounds(b, sizeof(T), r_);
    return q;
  }
  T* p_ = nullptr;
  const ArgRange* r_ = nullptr;  // null: not a loom array (or unknown): unchecked
};
#undef LOOM_EMU_ALWAYS_INLINE

// reinterpret_cast and const_cast never call conversion functions: debug mode's source
// rewrite turns them into these, which cast a Checked pointer's plain pointer.
template <class T>
struct IsChecked : std::false_type {};
template <class T>
struct IsChecked<Checked<T>> : std::true_type {};
template <class To, class From>
__attribute__((always_inline)) inline To reinterpret_cast_(From&& f) {
  if constexpr (IsChecked<std::decay_t<From>>::value) return reinterpret_cast<To>(f.get());
  else return reinterpret_cast<To>(std::forward<From>(f));
}
template <class To, class From>
__attribute__((always_inline)) inline To const_cast_(From&& f) {
  if constexpr (IsChecked<std::decay_t<From>>::value) return const_cast<To>(f.get());
  else return const_cast<To>(std::forward<From>(f));
}

template <class T>
inline T __ldg(Checked<T> p) { return *p; }
template <class T>
inline T __ldg(Checked<const T> p) { return *p; }

}  // namespace loom_emu (found by argument-dependent lookup)

