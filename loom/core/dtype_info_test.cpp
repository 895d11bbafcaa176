// finfo, iinfo, can_cast and isdtype against the values NumPy and ml_dtypes give.
#include "loom/core/dtype_info.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cstdint>
#include <limits>

#include "loom/core/error.h"

namespace loom {

TEST(DTypeInfo, FinfoOfEachFloat) {
  const FloatInfo f32 = finfo(float32);
  EXPECT_EQ(f32.bits, 32);
  EXPECT_EQ(f32.eps, FLT_EPSILON);
  EXPECT_EQ(f32.max, FLT_MAX);
  EXPECT_EQ(f32.min, -FLT_MAX);
  EXPECT_EQ(f32.smallest_normal, FLT_MIN);
  const FloatInfo f64 = finfo(float64);
  EXPECT_EQ(f64.eps, DBL_EPSILON);
  EXPECT_EQ(f64.max, DBL_MAX);
  EXPECT_EQ(f64.smallest_normal, DBL_MIN);
  EXPECT_EQ(f64.precision, 15);
  // numpy.finfo(float16) and ml_dtypes.finfo(bfloat16).
  const FloatInfo h = finfo(float16);
  EXPECT_EQ(h.eps, 0.0009765625);
  EXPECT_EQ(h.max, 65504.0);
  EXPECT_EQ(h.smallest_normal, 6.103515625e-05);
  const FloatInfo b = finfo(bfloat16);
  EXPECT_EQ(b.eps, 0.0078125);
  EXPECT_EQ(b.max, 3.3895313892515355e+38);
  EXPECT_EQ(b.smallest_normal, static_cast<double>(FLT_MIN));
  // Complex dtypes: their parts' limits and dtype.
  EXPECT_EQ(finfo(complex64).dtype, float32);
  EXPECT_EQ(finfo(complex128).max, DBL_MAX);
  EXPECT_THROW(finfo(int32), DTypeError);
  EXPECT_THROW(finfo(bool_), DTypeError);
}

TEST(DTypeInfo, IinfoOfEachInteger) {
  EXPECT_EQ(iinfo(int8).min, -128);
  EXPECT_EQ(iinfo(int8).max, 127u);
  EXPECT_EQ(iinfo(uint16).max, 65535u);
  EXPECT_EQ(iinfo(int64).min, std::numeric_limits<int64_t>::min());
  EXPECT_EQ(iinfo(uint64).max, std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(iinfo(uint32).bits, 32);
  EXPECT_THROW(iinfo(float32), DTypeError);
  EXPECT_THROW(iinfo(bool_), DTypeError);
}

TEST(DTypeInfo, CanCastLevels) {
  // numpy.can_cast spot checks.
  EXPECT_TRUE(can_cast(int8, int16));
  EXPECT_TRUE(can_cast(int64, float64));
  EXPECT_FALSE(can_cast(int64, float32));
  EXPECT_FALSE(can_cast(uint64, int64));
  EXPECT_FALSE(can_cast(float64, float32));
  EXPECT_TRUE(can_cast(float64, float32, Casting::same_kind));
  EXPECT_TRUE(can_cast(uint8, int8, Casting::same_kind));
  EXPECT_FALSE(can_cast(int8, uint8, Casting::same_kind));
  EXPECT_FALSE(can_cast(complex64, float64, Casting::same_kind));
  EXPECT_TRUE(can_cast(complex64, bool_, Casting::unsafe));
  EXPECT_FALSE(can_cast(int8, int16, Casting::no));
  EXPECT_TRUE(can_cast(int8, int8, Casting::equiv));
  for (int a = 0; a < kNumDTypes; ++a) {
    EXPECT_TRUE(can_cast(bool_, DType(a)));
    EXPECT_TRUE(can_cast(DType(a), DType(a)));
  }
  EXPECT_EQ(casting_from_name("same_kind"), Casting::same_kind);
  EXPECT_THROW(casting_from_name("never"), std::invalid_argument);
}

TEST(DTypeInfo, IsdtypeKinds) {
  EXPECT_TRUE(isdtype(bool_, "bool"));
  EXPECT_FALSE(isdtype(bool_, "numeric"));
  EXPECT_TRUE(isdtype(uint8, "integral"));
  EXPECT_FALSE(isdtype(uint8, "signed integer"));
  EXPECT_TRUE(isdtype(bfloat16, "real floating"));
  EXPECT_FALSE(isdtype(complex64, "real floating"));
  EXPECT_TRUE(isdtype(complex128, "numeric"));
  EXPECT_THROW(isdtype(int8, "integer"), std::invalid_argument);
}

}  // namespace loom
