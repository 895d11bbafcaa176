#include "loom/kernel/param_list.h"

#include <gtest/gtest.h>

#include "loom/core/error.h"

namespace loom {
namespace {

const std::string L = "[ElementwiseKernel k] ";

template <typename E, typename F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "no exception";
  return {};
}

TEST(ParamList, Parses) {
  auto p = parse_param_list(" T x, raw T y ,float32 z,bool  flag", L);
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p[0].name, "x");
  EXPECT_TRUE(p[0].is_placeholder());
  EXPECT_FALSE(p[0].raw);
  EXPECT_EQ(p[1].name, "y");
  EXPECT_TRUE(p[1].raw);
  EXPECT_EQ(p[1].type, "T");
  EXPECT_EQ(p[2].dtype, float32);
  EXPECT_EQ(p[3].dtype, bool_);
  EXPECT_TRUE(parse_param_list("  ", L).empty());
  EXPECT_EQ(parse_param_list("bfloat16 a, uint64 b, float16 c", L)[2].dtype, float16);
}

TEST(ParamList, BadTypesAndNames) {
  std::string m = message_of<std::invalid_argument>([] { parse_param_list("float x", L); });
  EXPECT_EQ(m.rfind(L, 0), 0u) << m;
  EXPECT_NE(m.find("'float'"), std::string::npos) << m;
  EXPECT_THROW(parse_param_list("floaty32 x", L), std::invalid_argument);
  EXPECT_THROW(parse_param_list("T", L), std::invalid_argument);
  EXPECT_THROW(parse_param_list("T x y", L), std::invalid_argument);
  EXPECT_THROW(parse_param_list("T 1x", L), std::invalid_argument);
  EXPECT_THROW(parse_param_list("T x,", L), std::invalid_argument);
  // A NumPy dtype loom lacks is a TypeError (unsupported dtype), not a parse error.
  EXPECT_THROW(parse_param_list("float128 z", L), DTypeError);
  // Complex parameters are complex<float> / complex<double> in the source.
  const auto c = parse_param_list("complex64 z, complex128 w", L);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_STREQ(user_kernel::ctype(*c[0].dtype), "complex<float>");
  EXPECT_STREQ(user_kernel::ctype(*c[1].dtype), "complex<double>");
  auto in = parse_param_list("T x, T y", L), out = parse_param_list("T x", L);
  m = message_of<std::invalid_argument>([&] { check_unique_names(in, out, L); });
  EXPECT_NE(m.find("duplicate"), std::string::npos) << m;
  EXPECT_THROW(check_unique_names(parse_param_list("T i", L), {}, L), std::invalid_argument);
}

TEST(ParamList, ResolvesPlaceholders) {
  auto ps = parse_param_list("T x, T y, U s, float32 w", L);
  std::vector<const KernelParam*> params;
  for (auto& p : ps) params.push_back(&p);
  const Device c = cpu();
  UserArg x = Array::allocate({3}, float32, c), y = Array::allocate({3}, float32, c);
  UserArg s = Scalar(int64_t{2}), w = Scalar(1.5);
  TypeMap t = resolve_placeholders(params, {&x, &y, &s, &w}, L);
  EXPECT_EQ(t.at("T"), float32);
  EXPECT_EQ(t.at("U"), int64);  // a Python int alone is int64
  // A scalar for T takes the array's type (weak scalar).
  UserArg s2 = Scalar(2.5);
  t = resolve_placeholders(params, {&x, &s2, &s, &w}, L);
  EXPECT_EQ(t.at("T"), float32);
  // Scalars alone: promoted together (int and float -> float64).
  t = resolve_placeholders(params, {&s, &s2, &s, &w}, L);
  EXPECT_EQ(t.at("T"), float64);
  // Conflicting arrays.
  UserArg z = Array::allocate({3}, float64, c);
  std::string m = message_of<DTypeError>([&] { resolve_placeholders(params, {&x, &z, &s, &w}, L); });
  EXPECT_NE(m.find("float32"), std::string::npos) << m;
  EXPECT_NE(m.find("float64"), std::string::npos) << m;
  // A placeholder nothing gives.
  EXPECT_THROW(resolve_placeholders(params, {&x, &y, nullptr, &w}, L), DTypeError);
  EXPECT_THROW(resolve_placeholders(params, {&x, &y, &s, &w}, L, {"R"}), DTypeError);
}

TEST(ParamList, InputCasts) {
  KernelParam p{"x", "float32", float32, false};
  EXPECT_NO_THROW(check_input_cast(p, int16, float32, L));
  EXPECT_NO_THROW(check_input_cast(p, float64, float32, L));  // same_kind allows narrowing floats
  EXPECT_THROW(check_input_cast(p, float32, int32, L), DTypeError);
  p.raw = true;
  EXPECT_THROW(check_input_cast(p, float64, float32, L), DTypeError);
}

TEST(ParamList, Layouts) {
  using namespace user_kernel;
  // (2, 3, 4) contiguous float32 with a (4,) broadcast operand: the last dim stays apart.
  auto j = collapse_joint({2, 3, 4}, {{48, 16, 4}, {0, 0, 4}});
  EXPECT_EQ(j.shape, (Shape{6, 4}));
  EXPECT_EQ(j.strides[0], (Strides{16, 4}));
  EXPECT_EQ(j.strides[1], (Strides{0, 4}));
  j = collapse_joint({2, 1, 3}, {{12, 12, 4}});
  EXPECT_EQ(j.shape, (Shape{6}));
  Array a = Array::allocate({3, 1}, float32, cpu());
  EXPECT_EQ(broadcast_strides(a, {2, 3, 5}, L), (Strides{0, 4, 0}));
  EXPECT_THROW(broadcast_strides(a, {2, 5}, L), std::invalid_argument);
  EXPECT_EQ(max_offset({3, 4}, {-16, 4}), 2 * 16 + 3 * 4);
  EXPECT_EQ(scalar_bytes(Scalar(1.5), float32).size(), 4u);
  EXPECT_STREQ(ctype(int64), "long long");
  EXPECT_TRUE(needs_half_types(bfloat16));
}

}  // namespace
}  // namespace loom
