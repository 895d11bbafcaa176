// The shape family on the GPU: its NVRTC program compiles without a GPU; with one, views
// with negative and zero strides, the concatenate/tile/repeat copies and the row gather
// give the CPU's bytes.
#include <gtest/gtest.h>

#include <functional>

#include "loom/backend/cuda/shape_ops_program.h"
#include "loom/backend/cuda/test_gpu.h"
#include "loom/backend/cuda/test_util.h"
#include "loom/ops/shape_ops.h"

namespace loom::testing {
namespace {

TEST(CudaShapeCompile, TakeRowsProgramCompiles) {
  for (int arch : {80, 90}) {
    const cuda::CompiledProgram c = cuda::compile_program(cuda::shape_program(), arch);
    EXPECT_FALSE(c.is_ptx);
    ASSERT_EQ(c.lowered_names.size(), 5u);
    for (const auto& [expr, lowered] : c.lowered_names) EXPECT_EQ(lowered.rfind("_Z", 0), 0u) << expr;
  }
  EXPECT_EQ(cuda::take_rows_name(16), "loom_take_rows<loom_b128>");
  EXPECT_EQ(cuda::take_rows_name(2), "loom_take_rows<unsigned short>");
}

// Runs `op` on the same random array on the CPU and on gpu(0) and compares the bytes.
void expect_same(DType dt, const Shape& shape, const std::function<Array(const Array&)>& op,
                 const std::string& what) {
  const Bytes bytes = random_elements(dt, shape_size(shape));
  const Array c = array_from_bytes(bytes, dt, shape, cpu());
  const Array g = array_from_bytes(bytes, dt, shape, gpu0());
  const Array want = op(c), got = op(g);
  ASSERT_EQ(got.shape(), want.shape()) << what;
  ASSERT_TRUE(got.device().is_gpu()) << what;
  LOOM_EXPECT_SAME_ELEMENTS(array_bytes(got), array_bytes(want.contiguous()), dt, what);
}

TEST(CudaShape, NegativeStrideViewsCopy) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  for (DType dt : {int8, float16, float32, float64}) {
    expect_same(dt, {37, 53}, [](const Array& a) { return flip(a).contiguous(); }, "flip all");
    expect_same(dt, {5, 7, 9}, [](const Array& a) { return flip(a, std::vector<int64_t>{1}).contiguous(); }, "flip 1");
    expect_same(dt, {6, 8}, [](const Array& a) { return flip(a.transpose()).astype(float32); }, "flip T cast");
    expect_same(dt, {4, 1, 6}, [](const Array& a) { return broadcast_to(flip(a), {3, 4, 5, 6}).contiguous(); },
                "broadcast flipped");
  }
}

TEST(CudaShape, ReshapeOfViewsCopies) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  expect_same(int32, {6, 10}, [](const Array& a) { return reshape(a.transpose(), {3, 20}); }, "reshape T");
  expect_same(int32, {6, 10}, [](const Array& a) { return ravel(flip(a)); }, "ravel flipped");
}

TEST(CudaShape, JoinTileRepeat) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  for (DType dt : {bool_, int16, float32, float64}) {
    for (int64_t axis : {0, 1, 2}) {
      expect_same(dt, {4, 5, 6},
                  [axis](const Array& a) { return concatenate({a, flip(a), a.astype(bool_)}, axis); },
                  "concatenate axis " + std::to_string(axis));
      expect_same(dt, {4, 5, 6}, [axis](const Array& a) { return stack({a, a}, axis); }, "stack");
      expect_same(dt, {4, 5, 6}, [axis](const Array& a) { return repeat(a, 3, axis); }, "repeat int");
      expect_same(dt, {4, 5, 6},
                  [axis](const Array& a) {
                    std::vector<int64_t> r(a.shape()[axis]);
                    for (size_t i = 0; i < r.size(); ++i) r[i] = static_cast<int64_t>(i % 3);
                    return repeat(flip(a), r, axis);
                  },
                  "repeat array");
    }
    expect_same(dt, {3, 5}, [](const Array& a) { return tile(a.transpose(), {2, 1, 3}); }, "tile");
  }
  // Rows of 80 bytes (a multiple of 16) take the 16-byte path of the gather.
  expect_same(float64, {7, 10}, [](const Array& a) { return repeat(a, std::vector<int64_t>{0, 1, 2, 3, 0, 5, 1}, 0); },
              "repeat wide rows");
}

}  // namespace
}  // namespace loom::testing
