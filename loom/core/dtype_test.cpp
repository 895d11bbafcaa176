#include "loom/core/dtype.h"

#include <gtest/gtest.h>

#include "loom/core/error.h"

namespace loom {

TEST(DType, SizesAndNames) {
  EXPECT_EQ(itemsize(bool_), 1u);
  EXPECT_EQ(itemsize(bfloat16), 2u);
  EXPECT_EQ(itemsize(uint64), 8u);
  EXPECT_STREQ(dtype_name(float32), "float32");
  EXPECT_EQ(dtype_from_name("f8"), float64);
  EXPECT_EQ(dtype_from_name("bfloat16"), bfloat16);
  EXPECT_EQ(dtype_from_name("complex64"), complex64);
  EXPECT_EQ(dtype_from_name("c16"), complex128);
  EXPECT_EQ(itemsize(complex128), 16u);
  EXPECT_EQ(real_dtype(complex64), float32);
  EXPECT_THROW(dtype_from_name("complex256"), DTypeError);
}

TEST(DType, PromotionMatchesNumPy) {
  // Spot checks against np.result_type.
  EXPECT_EQ(promote_types(int8, uint8), int16);
  EXPECT_EQ(promote_types(int64, uint64), float64);
  EXPECT_EQ(promote_types(uint32, int32), int64);
  EXPECT_EQ(promote_types(int16, float16), float32);
  EXPECT_EQ(promote_types(uint8, float16), float16);
  EXPECT_EQ(promote_types(int32, float32), float64);
  EXPECT_EQ(promote_types(bool_, int8), int8);
  EXPECT_EQ(promote_types(float16, bfloat16), float32);
  EXPECT_EQ(promote_types(float16, float64), float64);
  EXPECT_EQ(promote_types(complex64, float64), complex128);
  EXPECT_EQ(promote_types(complex64, int16), complex64);
  EXPECT_EQ(promote_types(complex64, int32), complex128);
  EXPECT_EQ(promote_types(bfloat16, complex64), complex64);
  EXPECT_EQ(promote_types(bool_, complex128), complex128);
  for (int a = 0; a < kNumDTypes; ++a)
    for (int b = 0; b < kNumDTypes; ++b)
      EXPECT_EQ(promote_types(DType(a), DType(b)), promote_types(DType(b), DType(a)));
}

}  // namespace loom
