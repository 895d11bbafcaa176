#include <gtest/gtest.h>

#include <vector>

#include "loom/backend/cuda/test_gpu.h"
#include "loom/core/error.h"
#include "loom/kernel/param_types.h"
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


TEST(RawModule, LoweredNamesSpellTheParameterTypes) {
  RawModule m(kSaxpy, {}, {"saxpy<double>"});
  const auto names = m.compile(90);
  ASSERT_EQ(names.size(), 1u);
  const auto t = lowered_param_types(names[0]);
  ASSERT_TRUE(t);
  EXPECT_TRUE(t->count_certain);
  ASSERT_EQ(t->params.size(), 4u);
  EXPECT_EQ(t->params[0].kind, ParamType::Kind::pointer);
  EXPECT_EQ(t->params[1].dtype, float64);  // const double*
  EXPECT_EQ(t->params[2].dtype, float64);
  EXPECT_EQ(t->params[3].dtype, int32);
}

TEST(RawModule, GpuLaunchesConvertByParameterType) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  RawModule m(kSaxpy, {}, {"saxpy<float>"});
  const int n = 100;
  LaunchConfig cfg;
  cfg.grid = Dim3(1);
  cfg.block = Dim3(128);
  Array x = full({n}, Scalar(2.0), float32, gpu(0));
  Array y = full({n}, Scalar(1.0), float32, gpu(0));
  const Kernel k = m.get_function("saxpy<float>");
  k.launch(cfg, {y, x, Scalar(3), Scalar(n)});  // the int 3 arrives as 3.0f, not its bits
  std::vector<float> hy(n);
  y.copy_to_host(hy.data());
  EXPECT_EQ(hy[0], 7.0f);
  Array xi = full({n}, Scalar(2), int32, gpu(0));
  EXPECT_THROW(k.launch(cfg, {y, xi, Scalar(3.0), Scalar(n)}), DTypeError);
  EXPECT_THROW(k.launch(cfg, {y, x, Scalar(3.0), Scalar(2.5)}), DTypeError);
  EXPECT_THROW(k.launch(cfg, {y, Scalar(7), Scalar(3.0), Scalar(n)}), DTypeError);
  const Kernel f = m.get_function("fill_index");  // extern "C": types from the source
  EXPECT_THROW(f.launch(cfg, {y, Scalar(n)}), DTypeError);  // a float32 array for int*
}

}  // namespace
}  // namespace loom
