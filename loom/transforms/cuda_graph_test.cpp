// CudaGraph (transforms/cuda_graph.h) and the allocator's capture streams: capture, replay
// with new inputs, errors during capture, retirement of the graph's pool. GPU only.
#include "loom/transforms/cuda_graph.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "loom/backend/cuda/test_gpu.h"
#include "loom/backend/cuda/test_util.h"
#include "loom/core/error.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/runtime/stream.h"

namespace loom::testing {
namespace {

std::vector<float> host_floats(const Array& a) {
  const Bytes b = array_bytes(a);
  std::vector<float> out(b.size() / sizeof(float));
  std::memcpy(out.data(), b.data(), b.size());
  return out;
}

Array floats_on_gpu(const std::vector<float>& v) {
  Bytes b(v.size() * sizeof(float));
  std::memcpy(b.data(), v.data(), b.size());
  return array_from_bytes(b, float32, {static_cast<int64_t>(v.size())}, gpu0());
}

TEST(CudaGraph, NeedsAGpuDevice) {
  EXPECT_THROW(CudaGraph g{cpu()}, std::invalid_argument);
}

TEST(CudaGraph, ReplaysWithNewInputs) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  CudaGraph g(gpu0());
  Array in = g.add_input(floats_on_gpu({1, 2, 3, 4}));
  {
    StreamScope on(g.stream());  // the warm-up, on the graph's stream
    add(multiply(in, in), in);
  }
  g.begin_capture();
  Array out = add(multiply(in, in), in);
  g.end_capture({out});
  ASSERT_TRUE(g.captured());
  for (float base : {0.5f, -3.0f, 10.0f}) {
    std::vector<float> x{base, base + 1, base + 2, base + 3};
    g.replay({floats_on_gpu(x)});
    const std::vector<float> got = host_floats(g.outputs()[0]);
    for (size_t i = 0; i < x.size(); ++i) EXPECT_FLOAT_EQ(got[i], x[i] * x[i] + x[i]);
  }
  EXPECT_THROW(g.replay({floats_on_gpu({1, 2, 3})}), std::invalid_argument);  // wrong shape
}

TEST(CudaGraph, HostReadDuringCaptureRaisesAndAbandonsIt) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  CudaGraph g(gpu0());
  Array in = g.add_input(floats_on_gpu({1, 2}));
  {
    StreamScope on(g.stream());
    add(in, in);
  }
  g.begin_capture();
  Array twice = add(in, in);
  EXPECT_TRUE(gpu_runtime::capturing());
  EXPECT_THROW(array_bytes(twice), GraphCaptureError);
  EXPECT_THROW(gpu_runtime::synchronize(0), GraphCaptureError);
  g.abort_capture();
  EXPECT_FALSE(gpu_runtime::capturing());
  EXPECT_FALSE(g.captured());
  const std::vector<float> got = host_floats(add(in, in));  // the device works on
  EXPECT_FLOAT_EQ(got[1], 4.0f);
}

TEST(CudaGraph, RetiredStreamBlocksJoinTheDefaultPool) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  void* ptr = nullptr;
  void* s = gpu_runtime::stream_create(0, true);
  {
    auto b = gpu_runtime::allocate(0, 3 << 20, s);  // a large block of its own segment
    ptr = b->data();
  }
  {
    auto other = gpu_runtime::allocate(0, 3 << 20, nullptr);  // another stream's block: never the same
    EXPECT_NE(other->data(), ptr);
  }
  gpu_runtime::stream_destroy(0, s);
  gpu_runtime::retire_stream(0, s);
  bool found = false;
  std::vector<std::shared_ptr<Buffer>> held;
  for (int i = 0; i < 8 && !found; ++i) {
    held.push_back(gpu_runtime::allocate(0, 3 << 20, nullptr));
    found = held.back()->data() == ptr;
  }
  EXPECT_TRUE(found);  // the retired block now serves the default stream
}

}  // namespace
}  // namespace loom::testing
