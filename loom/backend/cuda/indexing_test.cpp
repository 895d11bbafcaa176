// The indexing family on a GPU against the CPU backend: gathers, scatters, atomic
// combines with many duplicates, nonzero over several tiles, and the bounds check
// (an out-of-bounds gather raises IndexError and the device keeps working).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "loom/backend/cuda/test_gpu.h"
#include "loom/loom.h"

namespace loom {
namespace {

std::vector<int64_t> values(const Array& a) {
  const Array c = a.astype(int64);
  std::vector<int64_t> out(static_cast<size_t>(c.size()));
  c.copy_to_host(out.data());
  return out;
}

Array random_ints(const Shape& shape, int64_t lo, int64_t hi, DType dt) {
  static std::mt19937_64 g{12345};
  std::uniform_int_distribution<int64_t> d(lo, hi);
  std::vector<int64_t> v(static_cast<size_t>(shape_size(shape)));
  for (auto& x : v) x = d(g);
  return from_host(HostView{v.data(), int64, shape, contiguous_strides(shape, 8)}, cpu()).astype(dt);
}

TEST(GpuIndex, GatherScatterCombineMatchTheCpu) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  for (DType dt : {bool_, int8, uint16, int32, int64, float16, bfloat16, float32, float64}) {
    const Array x = random_ints({50, 7}, -20, 20, dt);
    const Array i = random_ints({300}, -50, 49, int32);
    const Array g = x.to(gpu(0)), gi = i.to(gpu(0));
    EXPECT_EQ(values(getitem(g, {gi, Slice{std::nullopt, std::nullopt, -2}})),
              values(getitem(x, {i, Slice{std::nullopt, std::nullopt, -2}})))
        << dtype_name(dt);
    const Array v = random_ints({300, 7}, 1, 2, dt);
    for (AtOp op : {AtOp::add, AtOp::min, AtOp::max}) {
      EXPECT_EQ(values(at_update(g, {gi}, v.to(gpu(0)), op)), values(at_update(x, {i}, v, op))) << dtype_name(dt);
    }
    setitem(g, {Slice{1, 40, 3}, 2}, full({}, Scalar(1), dt, gpu(0)));  // strided GPU destination
    setitem(x, {Slice{1, 40, 3}, 2}, full({}, Scalar(1), dt, cpu()));
    EXPECT_EQ(values(g), values(x)) << dtype_name(dt);
  }
}

TEST(GpuIndex, NonzeroOverManyTiles) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  for (DType dt : {bool_, uint8, int16, float16, float32, float64, uint64}) {
    const Array x = random_ints({3, 4099, 5}, -1, 1, dt);
    const std::vector<Array> c = nonzero(x), g = nonzero(x.to(gpu(0)));
    ASSERT_EQ(c.size(), g.size());
    for (size_t d = 0; d < c.size(); ++d) EXPECT_EQ(values(g[d]), values(c[d])) << dtype_name(dt);
    EXPECT_EQ(count_nonzero(x.to(gpu(0))), count_nonzero(x));
  }
  EXPECT_EQ(nonzero(zeros({0, 4}, float32, gpu(0)))[1].size(), 0);
}

TEST(GpuIndex, OutOfBoundsGatherRaisesAndTheDeviceKeepsWorking) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  const Array x = random_ints({1000}, 0, 9, float32).to(gpu(0));
  std::vector<int64_t> idx(100000, 3);
  idx[77777] = 1000;
  const Array i = from_host(HostView{idx.data(), int64, {100000}, {8}}, gpu(0));
  try {
    getitem(x, {i});
    FAIL() << "expected IndexError";
  } catch (const std::out_of_range& e) {
    EXPECT_STREQ(e.what(), "[getitem] index 1000 is out of bounds for axis 0 with size 1000");
  }
  EXPECT_THROW(setitem(x, {i}, zeros({}, float32, gpu(0))), std::out_of_range);
  idx[77777] = -1000;
  const Array ok = from_host(HostView{idx.data(), int64, {100000}, {8}}, gpu(0));
  const Array r = getitem(x, {ok});
  EXPECT_EQ(values(getitem(r, {Slice{77777, 77778}})), values(getitem(x, {Slice{0, 1}})));
}

}  // namespace
}  // namespace loom
