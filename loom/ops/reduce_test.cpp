// The ops layer of reductions on the CPU: layout planning (dense views vs copies), dtype
// rules, errors. Values against NumPy are in python/tests/test_reduce*.py.
#include "loom/ops/reduce.h"

#include <gtest/gtest.h>

#include <vector>

#include "loom/core/error.h"
#include "loom/ops/creation.h"
#include "loom/ops/reduce_common.h"

namespace loom {
namespace {

Array iota(const Shape& shape, DType dt = float64) {
  return arange(Scalar(0), Scalar(static_cast<long long>(shape_size(shape))), Scalar(1), dt, cpu())
      .view(shape, contiguous_strides(shape, itemsize(dt)), 0);
}

std::vector<double> vals(const Array& a) {
  const Array f = a.astype(float64);
  std::vector<double> v(static_cast<size_t>(f.size()));
  f.copy_to_host(v.data());
  return v;
}

TEST(ReducePlan, DenseViewsNeedNoCopy) {
  const Array x = iota({2, 3, 4});
  auto p = reduce_impl::plan_reduction(x, {false, true, false}, false);
  EXPECT_EQ(p.src.buffer(), x.buffer());
  EXPECT_EQ(p.geom.outer, 2);
  EXPECT_EQ(p.geom.len, 3);
  EXPECT_EQ(p.geom.inner, 4);
  // m.T reduced over its last axis is m reduced over its first: an outer reduction, no copy.
  const Array m = iota({3, 4});
  p = reduce_impl::plan_reduction(m.transpose(), {false, true}, false);
  EXPECT_EQ(p.src.buffer(), m.buffer());
  EXPECT_EQ(p.geom.outer, 1);
  EXPECT_EQ(p.geom.len, 3);
  EXPECT_EQ(p.geom.inner, 4);
  // In 3-d the kept axes would come out transposed: a copy.
  p = reduce_impl::plan_reduction(x.transpose(), {false, false, true}, false);
  EXPECT_NE(p.src.buffer(), x.buffer());
  // Axes 0 and 2 do not form one block: a copy with the reduced axes last.
  p = reduce_impl::plan_reduction(x, {true, false, true}, false);
  EXPECT_NE(p.src.buffer(), x.buffer());
  EXPECT_EQ(p.geom.outer, 3);
  EXPECT_EQ(p.geom.len, 8);
  EXPECT_EQ(p.geom.inner, 1);
  // argmax over everything of a transpose needs C order: a copy.
  p = reduce_impl::plan_reduction(x.transpose(), {true, true, true}, true);
  EXPECT_NE(p.src.buffer(), x.buffer());
}

TEST(Reduce, ValuesAndDtypes) {
  const Array x = iota({2, 3}, int8);
  const Array s = sum(x, std::vector<int64_t>{1});
  EXPECT_EQ(s.dtype(), int64);
  EXPECT_EQ(vals(s), (std::vector<double>{3, 12}));
  EXPECT_EQ(mean(x).dtype(), float64);
  EXPECT_EQ(vals(mean(x))[0], 2.5);
  EXPECT_EQ(vals(argmax(x.transpose(), std::nullopt))[0], 5);  // flat index into x.T: (2, 1) -> 5
  EXPECT_EQ(vals(sum(x, std::vector<int64_t>{0}, true)).size(), 3u);
  EXPECT_EQ(sum(x, std::vector<int64_t>{0}, true).shape(), (Shape{1, 3}));
  EXPECT_EQ(sum(iota({4}, float16)).dtype(), float16);
  EXPECT_EQ(vals(cumsum(x))[5], 15);
  EXPECT_EQ(vals(linalg::norm(iota({2}, int32)))[0], 1.0);
  EXPECT_EQ(vals(var(iota({4}), std::nullopt, false, std::nullopt, 1))[0], 5.0 / 3.0);
}

TEST(Reduce, Errors) {
  const Array x = iota({2, 3});
  EXPECT_THROW(sum(x, std::vector<int64_t>{2}), AxisError);
  EXPECT_THROW(sum(x, std::vector<int64_t>{0, -2}), std::invalid_argument);
  EXPECT_THROW(max(iota({0, 3}), std::vector<int64_t>{0}), std::invalid_argument);
  EXPECT_THROW(argmin(iota({0})), std::invalid_argument);
  // Matrix ord 2 is the largest singular value (LAPACK on the CPU; a build without it raises).
  try {
    const Array n2 = linalg::norm(x.astype(float64), linalg::NormOrd::number(2));
    double v = 0;
    n2.copy_to_host(&v);
    EXPECT_NEAR(v, 7.3484692283495345, 1e-12);  // numpy.linalg.norm(np.arange(6.).reshape(2, 3), 2)
  } catch (const UnsupportedError&) {
  }
  EXPECT_THROW(linalg::norm(x, linalg::NormOrd::number(3)), std::invalid_argument);
  EXPECT_THROW(sum(x, std::nullopt, false, std::nullopt, Array::allocate({2}, float64, cpu())), std::invalid_argument);
  try {
    min(iota({0}));
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("[min] ", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace loom
