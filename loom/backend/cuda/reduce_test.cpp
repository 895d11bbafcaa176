// Reductions and scans on the GPU against the CPU backend: every public reduction over
// every dtype and the launch shapes that matter (short rows: warp kernel; long rows and
// full reductions: chunked block kernels; strided axes: column kernels, chunked or not;
// non-dense inputs), plus determinism and float32 accuracy of a long sum.
#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "loom/backend/cuda/test_gpu.h"
#include "loom/backend/cuda/test_util.h"
#include "loom/ops/creation.h"
#include "loom/ops/reduce.h"

namespace loom::testing {
namespace {

Array random_cpu(const Shape& shape, DType dt, double lo, double hi, uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<double> v(static_cast<size_t>(shape_size(shape)));
  for (double& x : v) x = is_floating(dt) ? u(g) : std::floor(u(g));
  const Array f = from_host(HostView{v.data(), float64, shape, contiguous_strides(shape, 8)}, cpu());
  return f.astype(dt);
}

std::vector<double> values(const Array& a) {
  const Array f = a.to(cpu()).astype(float64);
  std::vector<double> v(static_cast<size_t>(f.size()));
  f.copy_to_host(v.data());
  return v;
}

void expect_close(const Array& gpu_result, const Array& cpu_result, double rtol, const std::string& what) {
  ASSERT_EQ(gpu_result.device(), gpu0()) << what;
  ASSERT_EQ(gpu_result.dtype(), cpu_result.dtype()) << what;
  ASSERT_EQ(gpu_result.shape(), cpu_result.shape()) << what;
  const auto g = values(gpu_result), c = values(cpu_result);
  // Sums of mixed-sign terms cancel: a GPU result that associates differently is off
  // by a few ulps of the terms' magnitude, not of the (small) result. The largest
  // finite output stands for that magnitude.
  double scale = 0;
  for (double v : c)
    if (std::isfinite(v)) scale = std::max(scale, std::abs(v));
  for (size_t i = 0; i < g.size(); ++i) {
    if (std::isnan(c[i])) {
      ASSERT_TRUE(std::isnan(g[i])) << what << " at " << i;
      continue;
    }
    if (std::isinf(c[i])) {  // overflow to the same infinity on both devices
      ASSERT_EQ(g[i], c[i]) << what << " at " << i;
      continue;
    }
    ASSERT_NEAR(g[i], c[i], rtol * std::max(std::abs(c[i]), 1e-2 * scale) + (rtol > 0 ? 1e-30 : 0))
        << what << " at " << i;
  }
}

double tol(DType dt) {
  switch (dt) {
    case float16: return 2e-3;   // 2 ulps: the float32 accumulator rounds once at the end
    case bfloat16: return 1.6e-2;
    case float32: return 1e-4;   // products of ~1000 terms: n * eps
    case float64: return 1e-12;
    default: return 0;
  }
}

struct Case {
  Shape shape;
  AxisArg axis;
  bool transpose;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {{1 << 20}, std::nullopt, false},   {{300, 5}, std::vector<int64_t>{1}, false},
      {{7, 50000}, std::vector<int64_t>{1}, false},  {{1500, 2000}, std::vector<int64_t>{-1}, false},
      {{50000, 3}, std::vector<int64_t>{0}, false},  {{64, 300}, std::vector<int64_t>{0}, false},
      {{5, 40, 7}, std::vector<int64_t>{0, 2}, false}, {{30, 4000}, std::vector<int64_t>{0}, true},
      {{0, 4}, std::vector<int64_t>{0}, false},    {{9, 1, 3000}, std::nullopt, true},
  };
  return c;
}

using Op = std::function<Array(const Array&, const AxisArg&)>;

void check_all(const char* name, const Op& op, double lo, double hi, bool exact, bool floats_only = false) {
  for (int t = 0; t < kNumRealDTypes; ++t) {  // complex reductions: test_complex.py
    const DType dt = static_cast<DType>(t);
    if (floats_only && !is_floating(dt)) continue;
    for (size_t k = 0; k < cases().size(); ++k) {
      const Case& c = cases()[k];
      Array x = random_cpu(c.shape, dt, lo, hi, 1000 * t + k);
      Array xg = x.copy_to(gpu0());
      if (c.transpose) x = x.transpose(), xg = xg.transpose();
      const std::string what = std::string(name) + " " + dtype_name(dt) + " case " + std::to_string(k);
      Array want;
      try {
        want = op(x, c.axis);
      } catch (const std::invalid_argument&) {  // e.g. max of an empty axis: same error on the GPU
        EXPECT_THROW(op(xg, c.axis), std::invalid_argument) << what;
        continue;
      }
      expect_close(op(xg, c.axis), want, exact ? 0 : tol(want.dtype()), what);
    }
  }
}

TEST(CudaReduce, SumProdMeanMatchCpu) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  check_all("sum", [](const Array& a, const AxisArg& ax) { return sum(a, ax); }, 0, 3, false);
  check_all("prod", [](const Array& a, const AxisArg& ax) { return prod(a, ax, false, std::nullopt); }, 0.9999, 1.0001,
            false);
  check_all("mean", [](const Array& a, const AxisArg& ax) { return mean(a, ax); }, -5, 5, false);
}

TEST(CudaReduce, VarStdMatchCpu) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  check_all("var", [](const Array& a, const AxisArg& ax) { return var(a, ax, false, std::nullopt, 1); }, -5, 5, false);
  check_all("std", [](const Array& a, const AxisArg& ax) { return loom::std(a, ax); }, -5, 5, false);
}

TEST(CudaReduce, ExtremaMatchCpuExactly) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  check_all("min", [](const Array& a, const AxisArg& ax) { return min(a, ax); }, -100, 100, true);
  check_all("max", [](const Array& a, const AxisArg& ax) { return max(a, ax); }, -100, 100, true);
  check_all("any", [](const Array& a, const AxisArg& ax) { return any(a, ax); }, 0, 1.01, true);
  check_all("all", [](const Array& a, const AxisArg& ax) { return all(a, ax); }, 0.99, 3, true);
  auto arg = [](bool mx) {
    return [mx](const Array& a, const AxisArg& ax) {
      std::optional<int64_t> axis;
      if (ax && ax->size() == 1) axis = (*ax)[0];
      return mx ? argmax(a, axis) : argmin(a, axis);
    };
  };
  // Few distinct values: ties everywhere, so the first occurrence decides.
  check_all("argmax", arg(true), 0, 4, true);
  check_all("argmin", arg(false), 0, 4, true);
}

TEST(CudaReduce, NormsMatchCpu) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  for (double p : {2.0, 1.0, double(INFINITY), -double(INFINITY), 0.0, 3.0}) {
    check_all("norm", [p](const Array& a, const AxisArg& ax) {
      return linalg::norm(a, linalg::NormOrd::number(p), ax && ax->size() == 1 ? ax : AxisArg(std::vector<int64_t>{-1}));
    }, -2, 2, false, true);
  }
}

TEST(CudaReduce, ScansMatchCpu) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  for (int t = 0; t < kNumRealDTypes; ++t) {
    const DType dt = static_cast<DType>(t);
    for (const Shape& shape : {Shape{100000}, Shape{3, 200000}, Shape{50, 70}, Shape{4000, 3}, Shape{2, 3, 1500}}) {
      Array x = random_cpu(shape, dt, 0, 2, t);
      Array xg = x.copy_to(gpu0());
      for (int axis = -1; axis < static_cast<int>(shape.size()); ++axis) {
        std::optional<int64_t> ax;
        if (axis >= 0) ax = axis;
        const std::string what = std::string("cumsum ") + dtype_name(dt) + " " + shape_str(shape);
        // Float sums of 2e5 terms: a different (chunked) association on the GPU.
        expect_close(cumsum(xg, ax), cumsum(x, ax), is_floating(dt) ? std::max(1e-3, tol(dt)) : 0, what);
      }
      Array y = random_cpu(shape, dt, 0.9999, 1.0001, t + 50);
      expect_close(cumprod(y.copy_to(gpu0()), 0), cumprod(y, 0), is_floating(dt) ? std::max(1e-3, tol(dt)) : 0,
                   "cumprod");
    }
  }
}

TEST(CudaReduce, SumIsDeterministicAndAccurate) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  const Shape shape{(1 << 26) + 12345};
  const Array x = random_cpu(shape, float32, 0, 1, 7);
  const Array xg = x.copy_to(gpu0());
  const double ref = values(sum(x.astype(float64)))[0];
  const double a = values(sum(xg))[0], b = values(sum(xg))[0];
  EXPECT_EQ(a, b);  // no float atomics: bit-identical runs
  // NumPy's pairwise error on such an array is ~1e-7 relative; ask for as good.
  EXPECT_LT(std::abs(a - ref) / ref, 2e-7) << a << " vs " << ref;
  // A misaligned start (offset view) takes the scalar head path.
  const Array off = xg.view({shape[0] - 3}, {4}, xg.offset() + 12);
  const Array off_cpu = x.view({shape[0] - 3}, {4}, x.offset() + 12);
  EXPECT_NEAR(values(sum(off))[0], values(sum(off_cpu.astype(float64)))[0], 2e-7 * ref);
}

}  // namespace
}  // namespace loom::testing
