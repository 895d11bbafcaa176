// fill, arange, linspace, eye and convert on the GPU against the CPU backend, on fresh
// random data, element for element (bit-exact; NaN equals NaN).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "loom/backend/cuda/test_gpu.h"
#include "loom/backend/cuda/test_util.h"
#include "loom/backend/creation.h"
#include "loom/runtime/gpu_runtime.h"

namespace loom::testing {
namespace {

namespace gb = loom::gpu_backend;
namespace gr = loom::gpu_runtime;
namespace cb = loom::cpu_backend;

DType dtype_at(int i) { return static_cast<DType>(i); }

// A random scalar of each kind: bool, signed, unsigned, float.
Scalar random_scalar(std::mt19937_64& g, int kind) {
  switch (kind % 4) {
    case 0: return Scalar(static_cast<bool>(g() & 1));
    case 1: return Scalar(static_cast<long long>(g() % 2000) - 1000);
    case 2: return Scalar(static_cast<unsigned long long>(g()));
    default: return Scalar(std::ldexp(static_cast<double>(g() % 100000) - 50000.0, -7));
  }
}

TEST(CudaCreation, FillMatchesCpu) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  auto& g = rng();
  for (int t = 0; t < kNumDTypes; ++t) {
    for (int kind = 0; kind < 6; ++kind) {
      const DType dt = dtype_at(t);
      const Shape shape{static_cast<int64_t>(1000 + g() % 5000)};
      const Scalar v = kind == 4 ? Scalar(0) : kind == 5 ? Scalar(-1) : random_scalar(g, kind);
      Array got = Array::allocate(shape, dt, gpu0()), want = Array::allocate(shape, dt, cpu());
      gr::upload(HostView{random_elements(dt, shape[0]).data(), dt, shape, contiguous_strides(shape, itemsize(dt))}, got);
      gb::fill(got, v);
      cb::fill(want, v);
      LOOM_EXPECT_SAME_ELEMENTS(array_bytes(got), array_bytes(want), dt,
                                std::string("fill ") + dtype_name(dt) + " kind " + std::to_string(kind));
    }
  }
}

TEST(CudaCreation, ArangeMatchesCpu) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  auto& g = rng();
  for (int t = 1; t < kNumRealDTypes; ++t) {  // bool has no arange fill beyond two elements; no complex
    const DType dt = dtype_at(t);
    const Shape shape{static_cast<int64_t>(3000 + g() % 3000)};
    Scalar first, second;
    if (is_floating(dt)) {
      const double a = std::ldexp(static_cast<double>(g() % 20000) - 10000.0, -5);
      first = Scalar(a);
      second = Scalar(a + std::ldexp(static_cast<double>(g() % 1000) + 1, -9));
    } else {
      const long long a = static_cast<long long>(g() % 200) - 100;
      first = Scalar(a);
      second = Scalar(a + static_cast<long long>(g() % 7) + 1);
    }
    Array got = Array::allocate(shape, dt, gpu0()), want = Array::allocate(shape, dt, cpu());
    gb::arange(got, first, second);
    cb::arange(want, first, second);
    LOOM_EXPECT_SAME_ELEMENTS(array_bytes(got), array_bytes(want), dt, std::string("arange ") + dtype_name(dt));
  }
}

TEST(CudaCreation, LinspaceMatchesCpu) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  auto& g = rng();
  std::uniform_real_distribution<double> u(-1000.0, 1000.0);
  for (int t = 0; t < kNumRealDTypes; ++t) {  // linspace takes no complex dtype
    for (bool endpoint : {true, false}) {
      const DType dt = dtype_at(t);
      const int64_t num = 1 + static_cast<int64_t>(g() % 5000);
      const double start = u(g), stop = u(g);
      const int64_t div = endpoint ? num - 1 : num;
      const double step = div > 0 ? (stop - start) / static_cast<double>(div) : 0.0;
      Array got = Array::allocate({num}, dt, gpu0());
      gb::linspace(got, start, step, stop, endpoint);
      const Bytes got_bytes = array_bytes(got);
      Bytes want_bytes;
      if (dt == bool_) {
        // NumPy: bool is not an integer dtype, so no floor: any nonzero value is True.
        for (int64_t i = 0; i < num; ++i) {
          double v = static_cast<double>(i) * step + start;
          if (endpoint && num > 1 && i == num - 1) v = stop;
          want_bytes.push_back(v != 0.0);
        }
      } else {
        Array want = Array::allocate({num}, dt, cpu());
        cb::linspace(want, start, step, stop, endpoint);
        want_bytes = array_bytes(want);
      }
      LOOM_EXPECT_SAME_ELEMENTS(got_bytes, want_bytes, dt,
                                std::string("linspace ") + dtype_name(dt) + (endpoint ? " endpoint" : ""));
    }
  }
}

TEST(CudaCreation, EyeMatchesCpu) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  auto& g = rng();
  for (int t = 0; t < kNumDTypes; ++t) {
    for (int64_t k : {-3, 0, 2}) {
      const DType dt = dtype_at(t);
      const Shape shape{static_cast<int64_t>(1 + g() % 70), static_cast<int64_t>(1 + g() % 70)};
      Array got = array_from_bytes(random_elements(dt, shape[0] * shape[1]), dt, shape, gpu0());
      Array want = Array::allocate(shape, dt, cpu());
      gb::eye(got, k);
      cb::eye(want, k);
      LOOM_EXPECT_SAME_ELEMENTS(array_bytes(got), array_bytes(want), dt, std::string("eye ") + dtype_name(dt));
    }
  }
}

TEST(CudaConvert, AllPairsContiguousMatchCpu) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  const Shape shape{10007};
  for (int s = 0; s < kNumDTypes; ++s) {
    for (int d = 0; d < kNumDTypes; ++d) {
      const DType sdt = dtype_at(s), ddt = dtype_at(d);
      const Bytes src = random_elements(sdt, shape[0], is_integer(ddt));
      Array gsrc = array_from_bytes(src, sdt, shape, gpu0()), csrc = array_from_bytes(src, sdt, shape, cpu());
      Array got = Array::allocate(shape, ddt, gpu0()), want = Array::allocate(shape, ddt, cpu());
      gb::convert(gsrc, got);
      cb::convert(csrc, want);
      LOOM_EXPECT_SAME_ELEMENTS(array_bytes(got), array_bytes(want), ddt,
                                std::string(dtype_name(sdt)) + " -> " + dtype_name(ddt));
    }
  }
}

// The same strided view (negative and padded strides, an offset) of the same bytes on
// both devices.
Array strided_view(const Array& base, DType dt) {
  const int64_t isz = static_cast<int64_t>(itemsize(dt));
  // base is (40, 30, 20); view [::-2, 3:, ::3] transposed to (7, 27, 20) -> (z, y, x) order
  const Shape shape{7, 27, 20};
  const Strides strides{3 * isz, 20 * isz, -2 * 30 * 20 * isz};
  const int64_t offset = (39 * 30 * 20 + 3 * 20) * isz;
  return base.view(shape, strides, offset);
}

TEST(CudaConvert, AllPairsStridedMatchCpu) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  const Shape base_shape{40, 30, 20};
  for (int s = 0; s < kNumDTypes; ++s) {
    for (int d = 0; d < kNumDTypes; ++d) {
      const DType sdt = dtype_at(s), ddt = dtype_at(d);
      const Bytes src = random_elements(sdt, 40 * 30 * 20, is_integer(ddt));
      Array gview = strided_view(array_from_bytes(src, sdt, base_shape, gpu0()), sdt);
      Array cview = strided_view(array_from_bytes(src, sdt, base_shape, cpu()), sdt);
      ASSERT_FALSE(gview.is_contiguous());
      Array got = Array::allocate(gview.shape(), ddt, gpu0()), want = Array::allocate(gview.shape(), ddt, cpu());
      gb::convert(gview, got);
      cb::convert(cview, want);
      LOOM_EXPECT_SAME_ELEMENTS(array_bytes(got), array_bytes(want), ddt,
                                std::string("strided ") + dtype_name(sdt) + " -> " + dtype_name(ddt));
    }
  }
}

TEST(CudaConvert, BeyondThirtyTwoBitOffsetsUsesTheGather) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  // Two rows of 1000 bytes 2 GiB + 512 apart: offsets past INT_MAX.
  const int64_t row = (int64_t{1} << 31) + 512;
  Array base = Array::allocate({row + 1000}, uint8, gpu0());
  const Bytes r0 = random_elements(uint8, 1000), r1 = random_elements(uint8, 1000);
  gr::upload(HostView{r0.data(), uint8, {1000}, {1}}, base.view({1000}, {1}, 0));
  gr::upload(HostView{r1.data(), uint8, {1000}, {1}}, base.view({1000}, {1}, row));
  const Array v = base.view({2, 1000}, {row, 1}, 0);
  Bytes want = r0;
  want.insert(want.end(), r1.begin(), r1.end());
  Array same = Array::allocate({2, 1000}, uint8, gpu0());
  gb::convert(v, same);
  LOOM_EXPECT_SAME_ELEMENTS(array_bytes(same), want, uint8, "gather uint8");
  Array f = Array::allocate({2, 1000}, float32, gpu0());
  gb::convert(v, f);
  const Bytes fb = array_bytes(f);
  const float* fp = reinterpret_cast<const float*>(fb.data());
  for (int i = 0; i < 2000; ++i) ASSERT_EQ(fp[i], static_cast<float>(want[i])) << i;
}

TEST(CudaConvert, ZeroDimAndEmpty) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  const Bytes one = random_elements(float64, 1);
  Array s = array_from_bytes(one, float64, {}, gpu0());
  Array h = Array::allocate({}, float16, gpu0());
  gb::convert(s, h);
  double v;
  std::memcpy(&v, one.data(), 8);
  const Bytes hb = array_bytes(h);
  uint16_t bits;
  std::memcpy(&bits, hb.data(), 2);
  EXPECT_EQ(bits, double_to_half(v));
  Array e = Array::allocate({0, 4}, float32, gpu0()), e2 = Array::allocate({0, 4}, int8, gpu0());
  EXPECT_NO_THROW(gb::convert(e, e2));
  EXPECT_NO_THROW(gb::fill(e, Scalar(1)));
}

}  // namespace
}  // namespace loom::testing
