// The view and stride logic of the shape family on the CPU: which ops share the input's
// buffer, the strides and offsets they produce, and their errors.
#include "loom/ops/shape_ops.h"

#include <gtest/gtest.h>

#include <random>

#include "loom/core/error.h"
#include "loom/ops/creation.h"

namespace loom {
namespace detail {
void write_along_via_axis0(const Array& out, const std::vector<Array>& parts, int axis);
}  // namespace detail
namespace {

// A fresh random int32 array of `shape` on cpu() (values distinct from their index).
Array random_int(const Shape& shape) {
  static std::mt19937 g{std::random_device{}()};
  Array a = Array::allocate(shape, int32, cpu());
  auto* p = static_cast<int32_t*>(a.data());
  for (int64_t i = 0; i < a.size(); ++i) p[i] = static_cast<int32_t>(g() % 100000) + 1;
  return a;
}

int32_t at(const Array& a, const std::vector<int64_t>& idx) {
  int64_t off = 0;
  for (size_t i = 0; i < idx.size(); ++i) off += idx[i] * a.strides()[i];
  return *reinterpret_cast<const int32_t*>(static_cast<const char*>(a.data()) + off);
}

bool shares(const Array& a, const Array& b) { return a.buffer() == b.buffer(); }

TEST(ShapeViews, InferReshape) {
  EXPECT_EQ(infer_reshape({-1, 3}, 12), (Shape{4, 3}));
  EXPECT_EQ(infer_reshape({2, -1, 2}, 12), (Shape{2, 3, 2}));
  EXPECT_THROW(infer_reshape({0, -1}, 0), std::invalid_argument);  // the unknown is ambiguous
}

TEST(ShapeViews, InferReshapeErrors) {
  EXPECT_THROW(infer_reshape({-1, -1}, 4), std::invalid_argument);
  EXPECT_THROW(infer_reshape({5}, 4), std::invalid_argument);
  EXPECT_THROW(infer_reshape({-1, 3}, 4), std::invalid_argument);
  EXPECT_EQ(infer_reshape({-2, 2}, 4), (Shape{2, 2}));  // any negative is the unknown, as NumPy
  EXPECT_THROW(infer_reshape({-2, -1}, 4), std::invalid_argument);
  try {
    infer_reshape({4}, 6);
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "[reshape] cannot reshape array of size 6 into shape (4,)");
  }
}

TEST(ShapeViews, NoCopyReshapeStrides) {
  // (4, 8) int32 sliced to [:, :6:2]: strides (32, 8).
  const Shape sh{4, 3};
  const Strides st{32, 8};
  EXPECT_EQ(reshape_strides(sh, st, {2, 2, 3}, 4), (Strides{64, 32, 8}));
  EXPECT_EQ(reshape_strides(sh, st, {4, 3, 1}, 4), (Strides{32, 8, 8}));
  EXPECT_EQ(reshape_strides(sh, st, {12}, 4), std::nullopt);  // rows are not evenly spaced
  // [:, ::2] of (4, 6): every other element of the whole buffer, one stride of 8.
  EXPECT_EQ(reshape_strides(sh, {24, 8}, {12}, 4), (Strides{8}));
  // Length-1 axes carry no stride information.
  EXPECT_EQ(reshape_strides({1, 5}, {1000, 4}, {5, 1}, 4), (Strides{4, 4}));
  EXPECT_EQ(reshape_strides({3, 1, 4}, {-16, 7, 4}, {3, 2, 2}, 4), (Strides{-16, 8, 4}));
  EXPECT_EQ(reshape_strides({3, 0}, {8, 12}, {0, 5}, 4), (Strides{20, 4}));
}

TEST(ShapeViews, ReshapeViewOrCopy) {
  const Array a = random_int({4, 6});
  const Array v = reshape(a, {3, -1});
  EXPECT_TRUE(shares(v, a));
  EXPECT_EQ(v.shape(), (Shape{3, 8}));
  EXPECT_EQ(at(v, {2, 7}), at(a, {3, 5}));
  // a.T is not C-contiguous: flattening it needs a copy, splitting an axis does not.
  const Array t = a.transpose();
  EXPECT_FALSE(shares(reshape(t, {24}), a));
  const Array s = reshape(t, {2, 3, 4});
  EXPECT_TRUE(shares(s, a));
  EXPECT_EQ(at(s, {1, 2, 3}), at(a, {3, 5}));
  EXPECT_THROW(reshape(t, {24}, 'C', false), std::invalid_argument);
  EXPECT_FALSE(shares(reshape(a, {24}, 'C', true), a));
  // Fortran order on a.T (F-contiguous) is a view.
  const Array f = reshape(t, {24}, 'F');
  EXPECT_TRUE(shares(f, a));
  EXPECT_EQ(at(f, {7}), at(a, {1, 1}));
  EXPECT_THROW(reshape(a, {5, 5}), std::invalid_argument);
}

TEST(ShapeViews, RavelFlatten) {
  const Array a = random_int({3, 4});
  EXPECT_TRUE(shares(ravel(a), a));
  EXPECT_FALSE(shares(flatten(a), a));
  EXPECT_FALSE(shares(ravel(a.transpose()), a));
  EXPECT_TRUE(shares(ravel(a.transpose(), 'F'), a));
  const Array r = ravel(a.transpose());
  EXPECT_EQ(at(r, {1}), at(a, {1, 0}));
}

TEST(ShapeViews, TransposeMoveSwapSqueezeExpand) {
  const Array a = random_int({2, 3, 4});
  const Array t = transpose(a, std::vector<int64_t>{1, -1, 0});
  EXPECT_EQ(t.shape(), (Shape{3, 4, 2}));
  EXPECT_EQ(t.strides(), (Strides{16, 4, 48}));
  EXPECT_THROW(transpose(a, std::vector<int64_t>{0, 1}), std::invalid_argument);
  EXPECT_THROW(transpose(a, std::vector<int64_t>{0, 0, 1}), std::invalid_argument);
  EXPECT_THROW(transpose(a, std::vector<int64_t>{0, 1, 3}), AxisError);
  EXPECT_EQ(moveaxis(a, {0}, {-1}).shape(), (Shape{3, 4, 2}));
  EXPECT_EQ(moveaxis(a, {0, 1}, {-1, -2}).shape(), (Shape{4, 3, 2}));
  EXPECT_EQ(swapaxes(a, 0, 2).strides(), (Strides{4, 16, 48}));
  const Array e = expand_dims(a, {0, 4});
  EXPECT_EQ(e.shape(), (Shape{1, 2, 3, 4, 1}));
  EXPECT_TRUE(shares(e, a));
  EXPECT_EQ(squeeze(e).shape(), a.shape());
  EXPECT_EQ(squeeze(e, std::vector<int64_t>{-1}).shape(), (Shape{1, 2, 3, 4}));
  EXPECT_THROW(squeeze(e, std::vector<int64_t>{1}), std::invalid_argument);
  EXPECT_THROW(expand_dims(a, {5}), AxisError);
  EXPECT_THROW(expand_dims(a, {1, 1}), std::invalid_argument);
}

TEST(ShapeViews, FlipIsNegativeStrideView) {
  const Array a = random_int({3, 5});
  const Array f = flip(a);
  EXPECT_TRUE(shares(f, a));
  EXPECT_EQ(f.strides(), (Strides{-20, -4}));
  EXPECT_EQ(f.offset(), a.offset() + 2 * 20 + 4 * 4);
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 5; ++j) EXPECT_EQ(at(f, {i, j}), at(a, {2 - i, 4 - j}));
  EXPECT_EQ(at(flip(flip(a, std::vector<int64_t>{1})), {0, 0}), at(a, {2, 0}));
  // Copies of negative-stride views are contiguous and in order.
  const Array c = f.contiguous();
  EXPECT_EQ(static_cast<const int32_t*>(c.data())[0], at(a, {2, 4}));
  EXPECT_EQ(flip(Array::allocate({0, 3}, int32, cpu())).offset(), 0);
}

TEST(ShapeViews, BroadcastToHasZeroStrides) {
  const Array a = random_int({3, 1});
  const Array b = broadcast_to(a, {2, 3, 4});
  EXPECT_TRUE(shares(b, a));
  EXPECT_EQ(b.strides(), (Strides{0, 4, 0}));
  EXPECT_THROW(broadcast_to(a, {3, 2, 2}), std::invalid_argument);
  EXPECT_THROW(broadcast_to(a, {4}), std::invalid_argument);
  const auto both = broadcast_arrays({a, random_int({5})});
  EXPECT_EQ(both[1].shape(), (Shape{3, 5}));
  EXPECT_EQ(both[1].strides(), (Strides{0, 4}));
}

TEST(ShapeViews, SplitViews) {
  const Array a = random_int({7, 4});
  const auto parts = array_split(a, 3);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0].shape()[0], 3);
  EXPECT_EQ(parts[2].shape()[0], 2);
  EXPECT_TRUE(shares(parts[1], a));
  EXPECT_EQ(at(parts[1], {0, 2}), at(a, {3, 2}));
  const auto cols = split_at(a, {1, -1, 2}, 1);
  ASSERT_EQ(cols.size(), 4u);
  EXPECT_EQ(cols[1].shape()[1], 2);
  EXPECT_EQ(cols[2].shape()[1], 0);  // 3:2 is empty
  EXPECT_EQ(cols[3].shape()[1], 2);
  EXPECT_EQ(at(cols[3], {6, 1}), at(a, {6, 3}));
  EXPECT_THROW(split(a, 3), std::invalid_argument);
  EXPECT_THROW(split(a, 0), std::invalid_argument);
}

TEST(ShapeCopies, ConcatenateStackTileRepeat) {
  const Array a = random_int({2, 3}), b = random_int({2, 1});
  const Array c = concatenate({a, b}, 1);
  EXPECT_EQ(c.shape(), (Shape{2, 4}));
  EXPECT_EQ(at(c, {1, 3}), at(b, {1, 0}));
  EXPECT_EQ(at(c, {1, 2}), at(a, {1, 2}));
  EXPECT_THROW(concatenate({a, b}, 0), std::invalid_argument);
  EXPECT_THROW(concatenate({a, b}, 2), AxisError);
  EXPECT_THROW(concatenate({a, random_int({2})}, 0), std::invalid_argument);
  EXPECT_EQ(concatenate({a, b}, std::nullopt).shape(), (Shape{8}));
  EXPECT_EQ(concatenate({a, a.astype(float64)}, 0).dtype(), float64);
  EXPECT_THROW(concatenate({a.astype(float64)}, 0, int32), DTypeError);
  EXPECT_EQ(stack({a, a}, -1).shape(), (Shape{2, 3, 2}));
  const Array t = tile(a, {2, 1, 2});
  EXPECT_EQ(t.shape(), (Shape{2, 2, 6}));
  EXPECT_EQ(at(t, {1, 1, 4}), at(a, {1, 1}));
  const Array r = repeat(a, std::vector<int64_t>{1, 0, 2}, 1);
  EXPECT_EQ(r.shape(), (Shape{2, 3}));
  EXPECT_EQ(at(r, {1, 1}), at(a, {1, 2}));
  EXPECT_EQ(at(r, {1, 2}), at(a, {1, 2}));
  EXPECT_EQ(repeat(a, 2).shape(), (Shape{12}));
  EXPECT_THROW(repeat(a, std::vector<int64_t>{1, 2}, 1), std::invalid_argument);
  EXPECT_THROW(repeat(a, -1), std::invalid_argument);
}

TEST(ShapeCopies, ConcatenateFallbackThroughAxis0) {
  // The GPU's path while copyto lacks strided GPU destinations, run here on the CPU.
  const Array a = random_int({3, 2, 4}), b = random_int({3, 5, 4});
  for (int axis : {1, 2}) {
    const Array x = axis == 1 ? a : swapaxes(a, 1, 2), y = axis == 1 ? flip(b) : swapaxes(b, 1, 2);
    const Array want = concatenate({x, y}, axis);
    const Array got = Array::allocate(want.shape(), int32, cpu());
    detail::write_along_via_axis0(got, {x, y}, axis);
    for (int64_t i = 0; i < want.shape()[0]; ++i)
      for (int64_t j = 0; j < want.shape()[1]; ++j)
        for (int64_t k = 0; k < want.shape()[2]; ++k) ASSERT_EQ(at(got, {i, j, k}), at(want, {i, j, k}));
  }
}

}  // namespace
}  // namespace loom
