// CPU FFTs through FFTW 3 (fftw3f for float, fftw3 for double). An eval's (outer, n, inner)
// array is one guru64 plan: the transform dimension {n, stride inner} and the loop
// dimensions {outer, stride n*inner} and {inner, stride 1}, so no transposes and no loops
// here. Plans are made once per layout (FFTW_ESTIMATE: it never touches the arrays) and
// reused through FFTW's new-array execute, which serves any buffers of the same alignment;
// the alignment is part of the key. FFTW's planner is not thread-safe: planning, the
// cache and plan destruction share one (recursive) mutex; executing needs none.
#include "loom/backend/fft.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "loom/backend/cpu/fft_plan.h"
#include "loom/backend/fft_plan_cache.h"
#include "loom/core/error.h"

#ifdef LOOM_HAVE_FFTW
#include <fftw3.h>
#endif

namespace loom::cpu_backend {

#ifdef LOOM_HAVE_FFTW
namespace {

enum Kind : int64_t { kForward, kInverse, kR2C, kC2R };

struct PlanKey {
  int64_t single, kind, n, outer, inner, align_in, align_out;
  bool operator==(const PlanKey& o) const {
    return single == o.single && kind == o.kind && n == o.n && outer == o.outer && inner == o.inner &&
           align_in == o.align_in && align_out == o.align_out;
  }
};
struct PlanKeyHash {
  size_t operator()(const PlanKey& k) const {
    size_t h = 0;
    for (int64_t v : {k.single, k.kind, k.n, k.outer, k.inner, k.align_in, k.align_out})
      h = fft_detail::hash_combine(h, static_cast<size_t>(v));
    return h;
  }
};

// Never destroyed: plans may outlive static destruction order in a process's last moments.
std::recursive_mutex& planner_mutex() {
  static auto* m = new std::recursive_mutex;
  return *m;
}

// One FFTW plan of either precision; destroyed under the planner lock, as FFTW requires.
struct Plan {
  fftwf_plan f = nullptr;
  fftw_plan d = nullptr;
  Plan() = default;
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
  ~Plan() {
    std::lock_guard<std::recursive_mutex> lock(planner_mutex());
    if (f) fftwf_destroy_plan(f);
    if (d) fftw_destroy_plan(d);
  }
};

// 64 layouts: a program's FFTs use a handful; the bound keeps a shape sweep from growing forever.
fft_detail::PlanCache<PlanKey, Plan, PlanKeyHash>& cache() {
  static auto* c = new fft_detail::PlanCache<PlanKey, Plan, PlanKeyHash>(64);
  return *c;
}

// The precision's FFTW API, chosen by the element type.
template <class T>
struct Fftw;
template <>
struct Fftw<float> {
  using C = fftwf_complex;
  static fftwf_plan& slot(Plan& p) { return p.f; }
  static int align(const void* p) { return fftwf_alignment_of(static_cast<float*>(const_cast<void*>(p))); }
  static fftwf_plan c2c(int r, const fftwf_iodim64* d, int hr, const fftwf_iodim64* h, C* i, C* o, int sign) {
    return fftwf_plan_guru64_dft(r, d, hr, h, i, o, sign, FFTW_ESTIMATE);
  }
  static fftwf_plan r2c(int r, const fftwf_iodim64* d, int hr, const fftwf_iodim64* h, float* i, C* o) {
    return fftwf_plan_guru64_dft_r2c(r, d, hr, h, i, o, FFTW_ESTIMATE);
  }
  static fftwf_plan c2r(int r, const fftwf_iodim64* d, int hr, const fftwf_iodim64* h, C* i, float* o) {
    return fftwf_plan_guru64_dft_c2r(r, d, hr, h, i, o, FFTW_ESTIMATE | FFTW_DESTROY_INPUT);
  }
  static void run(fftwf_plan p, C* i, C* o) { fftwf_execute_dft(p, i, o); }
  static void run(fftwf_plan p, float* i, C* o) { fftwf_execute_dft_r2c(p, i, o); }
  static void run(fftwf_plan p, C* i, float* o) { fftwf_execute_dft_c2r(p, i, o); }
};
template <>
struct Fftw<double> {
  using C = fftw_complex;
  static fftw_plan& slot(Plan& p) { return p.d; }
  static int align(const void* p) { return fftw_alignment_of(static_cast<double*>(const_cast<void*>(p))); }
  static fftw_plan c2c(int r, const fftw_iodim64* d, int hr, const fftw_iodim64* h, C* i, C* o, int sign) {
    return fftw_plan_guru64_dft(r, d, hr, h, i, o, sign, FFTW_ESTIMATE);
  }
  static fftw_plan r2c(int r, const fftw_iodim64* d, int hr, const fftw_iodim64* h, double* i, C* o) {
    return fftw_plan_guru64_dft_r2c(r, d, hr, h, i, o, FFTW_ESTIMATE);
  }
  static fftw_plan c2r(int r, const fftw_iodim64* d, int hr, const fftw_iodim64* h, C* i, double* o) {
    return fftw_plan_guru64_dft_c2r(r, d, hr, h, i, o, FFTW_ESTIMATE | FFTW_DESTROY_INPUT);
  }
  static void run(fftw_plan p, C* i, C* o) { fftw_execute_dft(p, i, o); }
  static void run(fftw_plan p, double* i, C* o) { fftw_execute_dft_r2c(p, i, o); }
  static void run(fftw_plan p, C* i, double* o) { fftw_execute_dft_c2r(p, i, o); }
};

// Runs one transform of `kind` over (outer, n, inner) layouts: `in` has n_in and `out` n_out
// elements along the middle axis (n, n/2 + 1 or the reverse); n is the logical length.
template <class T, class I, class O>
void transform(Kind kind, int64_t n, const Array& in, const Array& out) {
  using F = Fftw<T>;
  const int64_t outer = in.shape()[0], inner = in.shape()[2];
  const int64_t n_in = in.shape()[1], n_out = out.shape()[1];
  if (outer * inner == 0 || n == 0) return;
  I* ip = static_cast<I*>(in.data());
  O* op = static_cast<O*>(out.data());
  const PlanKey key{sizeof(T) == 4, kind, n, outer, inner, F::align(ip), F::align(op)};
  std::shared_ptr<Plan> plan;
  {
    std::lock_guard<std::recursive_mutex> lock(planner_mutex());
    plan = cache().get(key, [&] {
      const fftw_iodim64 dim{n, inner, inner};
      fftw_iodim64 loops[2];
      int nloops = 0;  // loops of length 1 are left out: FFTW plans fewer dimensions faster
      if (outer > 1) loops[nloops++] = {outer, n_in * inner, n_out * inner};
      if (inner > 1) loops[nloops++] = {inner, 1, 1};
      auto p = std::make_shared<Plan>();
      if constexpr (std::is_same_v<I, O>)
        F::slot(*p) = F::c2c(1, &dim, nloops, loops, ip, op, kind == kInverse ? FFTW_BACKWARD : FFTW_FORWARD);
      else if constexpr (std::is_same_v<I, T>)
        F::slot(*p) = F::r2c(1, &dim, nloops, loops, ip, op);
      else
        F::slot(*p) = F::c2r(1, &dim, nloops, loops, ip, op);
      if (!F::slot(*p))
        throw std::runtime_error("[fft] FFTW could not plan a transform of length " + std::to_string(n));
      return p;
    });
  }
  F::run(F::slot(*plan), ip, op);
}

}  // namespace

void fft_c2c(const Array& in, const Array& out, bool inverse) {
  const Kind k = inverse ? kInverse : kForward;
  if (in.dtype() == DType::complex64)
    transform<float, fftwf_complex, fftwf_complex>(k, in.shape()[1], in, out);
  else
    transform<double, fftw_complex, fftw_complex>(k, in.shape()[1], in, out);
}

void fft_r2c(const Array& in, const Array& out) {
  if (in.dtype() == DType::float32)
    transform<float, float, fftwf_complex>(kR2C, in.shape()[1], in, out);
  else
    transform<double, double, fftw_complex>(kR2C, in.shape()[1], in, out);
}

void fft_c2r(const Array& in, const Array& out) {
  if (out.dtype() == DType::float32)
    transform<float, fftwf_complex, float>(kC2R, out.shape()[1], in, out);
  else
    transform<double, fftw_complex, double>(kC2R, out.shape()[1], in, out);
}

FftPlanStats fft_plan_stats() {
  std::lock_guard<std::recursive_mutex> lock(planner_mutex());
  return {cache().size(), cache().capacity(), cache().hits(), cache().misses()};
}

void fft_plan_clear() {
  std::lock_guard<std::recursive_mutex> lock(planner_mutex());
  cache().clear();
}

bool have_fftw() { return true; }

#else  // no FFTW: ops/fft.cpp names the op the caller called in place of "[fft]"

namespace {
[[noreturn]] void no_fftw() { throw UnsupportedError("[fft] loom was built without FFTW (install libfftw3-dev)"); }
}  // namespace

void fft_c2c(const Array&, const Array&, bool) { no_fftw(); }
void fft_r2c(const Array&, const Array&) { no_fftw(); }
void fft_c2r(const Array&, const Array&) { no_fftw(); }
FftPlanStats fft_plan_stats() { return {}; }
void fft_plan_clear() {}
bool have_fftw() { return false; }

#endif

}  // namespace loom::cpu_backend
