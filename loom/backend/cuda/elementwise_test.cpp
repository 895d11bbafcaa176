// Generated elementwise kernels on a GPU agree with the CPU backend (these skip without
// a GPU); that every op and loop dtype compiles is graph/cuda/cuda_codegen_test.cpp.
#include <gtest/gtest.h>

#include <cstring>

#include "loom/backend/cuda/test_gpu.h"
#include "loom/loom.h"

namespace loom::cuda {
namespace {

// ---- on a GPU: the same answers as the CPU backend ----------------------------------

Array on_cpu(const Array& a) { return a.copy_to(cpu()); }

void expect_same(const Array& gpu_result, const Array& cpu_result) {
  ASSERT_EQ(gpu_result.dtype(), cpu_result.dtype());
  ASSERT_EQ(gpu_result.shape(), cpu_result.shape());
  const Array g = on_cpu(gpu_result).contiguous(), c = cpu_result.contiguous();
  EXPECT_EQ(std::memcmp(g.data(), c.data(), c.nbytes()), 0);
}

// 1, 2, ..., n cast to dt (NumPy's arange has no bool fill beyond 2 elements).
Array iota(int64_t n, DType dt, const Device& d) {
  return arange(Scalar(1), Scalar(n + 1), Scalar(1), int64, d).astype(dt);
}

TEST(ElementwiseGpu, ContiguousStridedScalarAndUniformAgreeWithCpu) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  const Device g = gpu(0);
  for (DType dt : {float32, float16, int8, int64, float64, bool_}) {
    const Array a = iota(1003, dt, cpu()), b = iota(1003, dt, cpu());
    const Array ga = a.copy_to(g), gb = b.copy_to(g);
    expect_same(add(ga, gb), add(a, b));               // contiguous, vectorized body + tail
    expect_same(less(ga, 7), less(a, 7));              // scalar parameter, bool output
    expect_same(maximum(ga, ga), maximum(a, a));
  }
  const Array m = iota(12 * 33, float32, cpu()).view({12, 33}, {33 * 4, 4}, 0);
  const Array gm = m.copy_to(g);
  expect_same(multiply(gm.transpose(), 2.5), multiply(m.transpose(), 2.5));  // strided
  const Array row = iota(33, float32, cpu());
  expect_same(subtract(gm, row.copy_to(g)), subtract(m, row));                // broadcast
  const Array zero_d = full({}, Scalar(3.0), float32, cpu());
  expect_same(divide(gm, zero_d.copy_to(g)), divide(m, zero_d));              // uniform pointer
  // An unaligned start (offset of one element) takes the unvectorized path.
  const Array off = gm.view({100}, {4}, 4);
  // (an exact op: CUDA's sinf and glibc's may differ in the last bit)
  expect_same(negative(off), negative(m.view({100}, {4}, 4)));
}

TEST(ElementwiseGpu, CopytoIntoStridedGpuView) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  const Array a = zeros({8, 6}, float64, gpu(0));
  const Array t = a.transpose();  // (6, 8), not contiguous
  copyto(t, iota(8, int32, gpu(0)));
  const Array c = zeros({8, 6}, float64, cpu());
  copyto(c.transpose(), iota(8, int32, cpu()));
  expect_same(a, c);
}

}  // namespace
}  // namespace loom::cuda
