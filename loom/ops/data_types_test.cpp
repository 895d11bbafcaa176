// result_type (weak Python scalars, NEP 50) and the astype function's copy/device rules.
#include "loom/ops/data_types.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "loom/ops/creation.h"

namespace loom {
namespace {

TEST(DataTypes, ResultTypeOfDtypesAndScalars) {
  // np.result_type spot checks.
  EXPECT_EQ(result_type({int8, uint8}), int16);
  EXPECT_EQ(result_type({int8}, {Scalar(1)}), int8);
  EXPECT_EQ(result_type({int8}, {Scalar(1.5)}), float64);
  EXPECT_EQ(result_type({float32}, {Scalar(1.5)}), float32);
  EXPECT_EQ(result_type({float32}, {Scalar::complex(0, 1)}), complex64);
  EXPECT_EQ(result_type({int32}, {Scalar::complex(0, 1)}), complex128);
  EXPECT_EQ(result_type({bool_}, {Scalar(3)}), int64);
  EXPECT_EQ(result_type({uint8}, {Scalar(true)}), uint8);
  EXPECT_EQ(result_type({}, {Scalar(1), Scalar(2.0)}), float64);
  EXPECT_EQ(result_type({int16, float16, bool_}), float32);
  EXPECT_EQ(result_type({int8, uint8, float16}), float16);  // NumPy: the float first
  EXPECT_THROW(result_type({}), std::invalid_argument);
}

TEST(DataTypes, AstypeCopiesOnlyWhenAsked) {
  std::mt19937 g{std::random_device{}()};
  const double v = static_cast<double>(g() % 1000) + 0.25;
  const Array a = full({3, 2}, v, float64, cpu());
  const Array same = astype(a, float64, /*copy=*/false);
  EXPECT_EQ(same.buffer(), a.buffer());
  const Array fresh = astype(a, float64);
  EXPECT_NE(fresh.buffer(), a.buffer());
  const Array cast = astype(a, int32, false, cpu());
  EXPECT_EQ(cast.dtype(), int32);
  int32_t host[6];
  cast.copy_to_host(host);
  for (int32_t x : host) EXPECT_EQ(x, static_cast<int32_t>(v));
}

}  // namespace
}  // namespace loom
