// The CPU kernel emulator's half and bfloat16 types, and the CUDA features it refuses (part of loom_cuda_emu.h, split out by purpose):
// inlined into that header where it says `#include "loom_cuda_emu_half.h"  // loom:inline` when the
// header is embedded (cmake/embed_file_run.cmake), so the host compile still sees one
// header. Not a header of its own: it relies on what loom_cuda_emu.h declares before it.
// ---------------------------------------------------------------- half and bfloat16
struct __half {
  unsigned short x;
  __half() = default;
  __half(float f);  // NOLINT: CUDA converts implicitly
  operator float() const;
};
struct __nv_bfloat16 {
  unsigned short x;
  __nv_bfloat16() = default;
  __nv_bfloat16(float f);  // NOLINT
  operator float() const;
};
using half = __half;
using nv_bfloat16 = __nv_bfloat16;

namespace loom_emu {
inline unsigned short float_to_half_bits(float f) {  // round to nearest even
  unsigned int u;
  memcpy(&u, &f, 4);
  const unsigned int sign = (u >> 16) & 0x8000u;
  u &= 0x7FFFFFFFu;
  if (u >= 0x7F800000u) return static_cast<unsigned short>(sign | (u > 0x7F800000u ? 0x7E00u : 0x7C00u));
  if (u >= 0x477FF000u) return static_cast<unsigned short>(sign | 0x7C00u);  // rounds to inf
  if (u < 0x38800000u) {                                                     // subnormal or zero
    if (u < 0x33000000u) return static_cast<unsigned short>(sign);
    const unsigned int e = u >> 23, m = (u & 0x7FFFFFu) | 0x800000u;
    const unsigned int shift = 126 - e;  // 14..24 (plus the 13 mantissa bits dropped)
    unsigned int r = m >> shift;
    const unsigned int rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (r & 1))) ++r;
    return static_cast<unsigned short>(sign | r);
  }
  unsigned int r = u - 0x38000000u;  // rebias exponent 127 -> 15
  const unsigned int rem = r & 0x1FFFu;
  r >>= 13;
  if (rem > 0x1000u || (rem == 0x1000u && (r & 1))) ++r;
  return static_cast<unsigned short>(sign | r);
}
inline float half_bits_to_float(unsigned short h) {
  const unsigned int sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
  unsigned int u;
  if (e == 0x1F) {
    u = sign | 0x7F800000u | (m << 13);
  } else if (e == 0) {
    if (m == 0) {
      u = sign;
    } else {  // subnormal: value m * 2^-24
      const float f = static_cast<float>(m) * 5.9604644775390625e-8f;
      return sign ? -f : f;
    }
  } else {
    u = sign | ((e + 112) << 23) | (m << 13);
  }
  float f;
  memcpy(&f, &u, 4);
  return f;
}
inline unsigned short float_to_bf16_bits(float f) {
  unsigned int u;
  memcpy(&u, &f, 4);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<unsigned short>((u >> 16) | 0x40u);  // NaN
  u += 0x7FFFu + ((u >> 16) & 1u);
  return static_cast<unsigned short>(u >> 16);
}
inline float bf16_bits_to_float(unsigned short b) {
  const unsigned int u = static_cast<unsigned int>(b) << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}
}  // namespace loom_emu

inline __half::__half(float f) : x(loom_emu::float_to_half_bits(f)) {}
inline __half::operator float() const { return loom_emu::half_bits_to_float(x); }
inline __nv_bfloat16::__nv_bfloat16(float f) : x(loom_emu::float_to_bf16_bits(f)) {}
inline __nv_bfloat16::operator float() const { return loom_emu::bf16_bits_to_float(x); }
inline __half __float2half(float f) { return __half(f); }
inline __half __float2half_rn(float f) { return __half(f); }
inline float __half2float(__half h) { return static_cast<float>(h); }
inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
inline float __bfloat162float(__nv_bfloat16 b) { return static_cast<float>(b); }
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 b) { return b.x; }
inline short __bfloat16_as_short(__nv_bfloat16 b) { return static_cast<short>(b.x); }
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short u) {
  __nv_bfloat16 b;
  b.x = u;
  return b;
}
inline __nv_bfloat16 __short_as_bfloat16(short s) { return __ushort_as_bfloat16(static_cast<unsigned short>(s)); }
inline unsigned short __half_as_ushort(__half h) { return h.x; }
inline __half __ushort_as_half(unsigned short u) {
  __half h;
  h.x = u;
  return h;
}
#define LOOM_EMU_HALF_OPS(H)                                                            \
  inline H operator+(H a, H b) { return H(float(a) + float(b)); }                       \
  inline H operator-(H a, H b) { return H(float(a) - float(b)); }                       \
  inline H operator*(H a, H b) { return H(float(a) * float(b)); }                       \
  inline H operator/(H a, H b) { return H(float(a) / float(b)); }                       \
  inline H operator-(H a) { return H(-float(a)); }                                      \
  inline H& operator+=(H& a, H b) { return a = a + b; }                                 \
  inline H& operator-=(H& a, H b) { return a = a - b; }                                 \
  inline H& operator*=(H& a, H b) { return a = a * b; }                                 \
  inline H& operator/=(H& a, H b) { return a = a / b; }                                 \
  inline bool operator<(H a, H b) { return float(a) < float(b); }                       \
  inline bool operator>(H a, H b) { return float(a) > float(b); }                       \
  inline bool operator<=(H a, H b) { return float(a) <= float(b); }                     \
  inline bool operator>=(H a, H b) { return float(a) >= float(b); }                     \
  inline bool operator==(H a, H b) { return float(a) == float(b); }                     \
  inline bool operator!=(H a, H b) { return float(a) != float(b); }
LOOM_EMU_HALF_OPS(__half)
LOOM_EMU_HALF_OPS(__nv_bfloat16)
#undef LOOM_EMU_HALF_OPS
inline __half __hadd(__half a, __half b) { return a + b; }
inline __half __hmul(__half a, __half b) { return a * b; }
inline __half __hsub(__half a, __half b) { return a - b; }
inline __half __hdiv(__half a, __half b) { return a / b; }
inline __half __hfma(__half a, __half b, __half c) { return __half(fmaf(float(a), float(b), float(c))); }

// 16-bit atomics, as CUDA has them: atomicAdd on __half (sm_70+) and __nv_bfloat16 (sm_80+),
// atomicCAS on unsigned short (sm_70+). Each add rounds to the 16-bit type, as on a GPU.
inline unsigned short atomicCAS(unsigned short* p, unsigned short cmp, unsigned short v) {
  __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return cmp;
}
inline __half atomicAdd(__half* p, __half v) { return loom_emu::cas_loop(p, [v](__half o) { return o + v; }); }
inline __nv_bfloat16 atomicAdd(__nv_bfloat16* p, __nv_bfloat16 v) {
  return loom_emu::cas_loop(p, [v](__nv_bfloat16 o) { return o + v; });
}

// ---------------------------------------------------------------- not supported
// Each fails to compile when used, naming the feature; loom turns the compiler's log into
// UnsupportedError with the user's line.
#define LOOM_EMU_UNSUPPORTED(name)                                                                  \
  template <class... T>                                                                             \
  inline unsigned int name(T...) {                                                                 \
    static_assert(loom_emu::always_false<T...>, "loom CPU emulator: " #name " is not supported");    \
    return 0;                                                                                       \
  }
LOOM_EMU_UNSUPPORTED(__shfl)
LOOM_EMU_UNSUPPORTED(__shfl_up)
LOOM_EMU_UNSUPPORTED(__shfl_down)
LOOM_EMU_UNSUPPORTED(__shfl_xor)
LOOM_EMU_UNSUPPORTED(__ballot)
LOOM_EMU_UNSUPPORTED(__any)
LOOM_EMU_UNSUPPORTED(__all)
LOOM_EMU_UNSUPPORTED(__reduce_add_sync)
LOOM_EMU_UNSUPPORTED(__reduce_min_sync)
LOOM_EMU_UNSUPPORTED(__reduce_max_sync)
LOOM_EMU_UNSUPPORTED(tex1Dfetch)
LOOM_EMU_UNSUPPORTED(tex2D)
LOOM_EMU_UNSUPPORTED(clock64)
#undef LOOM_EMU_UNSUPPORTED

