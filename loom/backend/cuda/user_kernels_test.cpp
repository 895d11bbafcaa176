#include <gtest/gtest.h>

#include <vector>

#include "loom/backend/cuda/test_gpu.h"
#include "loom/error.h"
#include "loom/kernel/raw_module.h"
#include "loom/ops/creation.h"

namespace loom {
namespace {

const char* kSaxpy = R"(
template <typename T> __global__ void saxpy(T* y, const T* x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void fill_index(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i;
})";

TEST(RawModule, CompilesWithoutAGpu) {
  RawModule m(kSaxpy, {}, {"saxpy<float>"});
  const auto names = m.compile(90);
  ASSERT_EQ(names.size(), 1u);
  EXPECT_EQ(names[0].rfind("_Z", 0), 0u);
  EXPECT_THROW(RawModule("__global__ void f() { nope; }").compile(90), CompileError);
}

TEST(RawModule, LaunchesOnTheGpu) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  RawModule m(kSaxpy, {}, {"saxpy<float>"});
  const int n = 1000;
  Array out = Array::allocate({n}, int32, gpu(0));
  LaunchConfig cfg;
  cfg.grid = Dim3(4);
  cfg.block = Dim3(256);
  m.get_function("fill_index").launch(cfg, {out, Scalar(n)});
  std::vector<int32_t> host(n);
  out.copy_to_host(host.data());
  for (int i = 0; i < n; ++i) ASSERT_EQ(host[i], i);

  Array x = full({n}, Scalar(2.0), float32, gpu(0));
  Array y = full({n}, Scalar(1.0), float32, gpu(0));
  m.get_function("saxpy<float>").launch(cfg, {y, x, Scalar(3.0), Scalar(n)});
  std::vector<float> hy(n);
  y.copy_to_host(hy.data());
  for (int i = 0; i < n; ++i) ASSERT_EQ(hy[i], 7.0f);

  const KernelAttributes a = m.get_function("saxpy<float>").attributes(gpu(0));
  EXPECT_EQ(a.param_sizes, (std::vector<size_t>{8, 8, 4, 4}));
  cfg.block = Dim3(4096);
  EXPECT_THROW(m.get_function("fill_index").launch(cfg, {out, Scalar(n)}), std::invalid_argument);
}

}  // namespace
}  // namespace loom
