// The C++ indexing API on the CPU: views, NumPy's placement rule, errors, scatters,
// functional updates and nonzero (the Python tests compare every device with NumPy).
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "loom/loom.h"

namespace loom {
namespace {

Array iota(const Shape& shape, DType dt = int64, Device dev = cpu()) {
  std::vector<int64_t> v(static_cast<size_t>(shape_size(shape)));
  std::iota(v.begin(), v.end(), 0);
  return from_host(HostView{v.data(), int64, shape, contiguous_strides(shape, 8)}, dev).astype(dt);
}

Array ints(const std::vector<int64_t>& v, Device dev = cpu()) {
  return from_host(HostView{v.data(), int64, {static_cast<int64_t>(v.size())}, {8}}, dev);
}

std::vector<int64_t> values(const Array& a) {
  const Array c = a.astype(int64);
  std::vector<int64_t> out(static_cast<size_t>(c.size()));
  c.copy_to_host(out.data());
  return out;
}

TEST(Index, BasicIndexingIsAView) {
  const Array x = iota({4, 5});
  const Array v = getitem(x, {Slice{1, std::nullopt, 2}, Slice{std::nullopt, std::nullopt, -1}});
  EXPECT_EQ(v.shape(), (Shape{2, 5}));
  EXPECT_EQ(v.buffer(), x.buffer());
  EXPECT_EQ(values(v), (std::vector<int64_t>{9, 8, 7, 6, 5, 19, 18, 17, 16, 15}));
  setitem(v, {0, 0}, full({}, Scalar(-1), int64, cpu()));
  EXPECT_EQ(values(getitem(x, {1, 4})), std::vector<int64_t>{-1});
  EXPECT_EQ(getitem(x, {newaxis, ellipsis, newaxis}).shape(), (Shape{1, 4, 5, 1}));
}

TEST(Index, AdvancedPlacementFollowsNumPy) {
  const Array x = iota({3, 4, 5});
  const Array i = ints({1, 2});
  EXPECT_EQ(getitem(x, {Slice{}, 0, i}).shape(), (Shape{3, 2}));  // adjacent: in place
  EXPECT_EQ(getitem(x, {0, Slice{}, i}).shape(), (Shape{2, 4}));  // separated: first
  EXPECT_EQ(getitem(x, {i, newaxis, i}).shape(), (Shape{2, 1, 5}));
  EXPECT_EQ(values(getitem(x, {i, Slice{}, ints({0, -1})})), (std::vector<int64_t>{20, 25, 30, 35, 44, 49, 54, 59}));
}

TEST(Index, ErrorsAreNumPys) {
  const Array x = iota({5});
  try {
    getitem(x, {ints({1, 10})});
    FAIL();
  } catch (const std::out_of_range& e) {
    EXPECT_STREQ(e.what(), "[getitem] index 10 is out of bounds for axis 0 with size 5");
  }
  EXPECT_THROW(getitem(x, {7}), std::out_of_range);
  EXPECT_THROW(getitem(x, {0, 0}), std::out_of_range);
  EXPECT_THROW(getitem(x, {ellipsis, ellipsis}), std::out_of_range);
  EXPECT_THROW(getitem(x, {iota({2}, float32)}), std::out_of_range);
  EXPECT_THROW(getitem(x, {iota({4}, bool_)}), std::out_of_range);
  EXPECT_THROW(getitem(x, {Slice{0, 5, 0}}), std::invalid_argument);
  EXPECT_THROW(nonzero(full({}, Scalar(1), int32, cpu())), std::invalid_argument);
}

TEST(Index, BooleanMasksAndScatter) {
  const Array x = iota({2, 3});
  const Array mask = iota({2, 3}, bool_);  // every element but the first
  EXPECT_EQ(values(getitem(x, {mask})), (std::vector<int64_t>{1, 2, 3, 4, 5}));
  setitem(x, {mask}, full({}, Scalar(7.9), float64, cpu()));
  EXPECT_EQ(values(x), (std::vector<int64_t>{0, 7, 7, 7, 7, 7}));
  setitem(x, {ints({1, 1, 1})}, iota({3, 1}));  // last write wins
  EXPECT_EQ(values(x), (std::vector<int64_t>{0, 7, 7, 2, 2, 2}));
}

TEST(Index, AtUpdatesAccumulateDuplicates) {
  const Array x = iota({4}, int8);
  const Array i = ints({0, 3, 0, 0});
  const Array v = full({4}, Scalar(100), int8, cpu());
  EXPECT_EQ(values(at_update(x, {i}, v, AtOp::add)), (std::vector<int64_t>{44, 1, 2, 103}));  // wraps
  EXPECT_EQ(values(at_update(x, {i}, iota({4}, int8), AtOp::max)), (std::vector<int64_t>{3, 1, 2, 3}));
  EXPECT_EQ(values(at_update(x, {i}, full({}, Scalar(-2), int8, cpu()), AtOp::multiply)),
            (std::vector<int64_t>{0, 1, 2, -6}));
  EXPECT_EQ(values(x), (std::vector<int64_t>{0, 1, 2, 3}));  // unchanged
}

TEST(Index, NonzeroFamily) {
  const Array x = iota({2, 3});
  const std::vector<Array> nz = nonzero(x);
  ASSERT_EQ(nz.size(), 2u);
  EXPECT_EQ(values(nz[0]), (std::vector<int64_t>{0, 0, 1, 1, 1}));
  EXPECT_EQ(values(nz[1]), (std::vector<int64_t>{1, 2, 0, 1, 2}));
  EXPECT_EQ(values(flatnonzero(x)), (std::vector<int64_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(argwhere(x).shape(), (Shape{5, 2}));
  EXPECT_EQ(values(argwhere(x)), (std::vector<int64_t>{0, 1, 0, 2, 1, 0, 1, 1, 1, 2}));
  EXPECT_EQ(count_nonzero(iota({300000}, float16)), 299999);
  EXPECT_EQ(count_nonzero(zeros({0, 3})), 0);
}

}  // namespace
}  // namespace loom
