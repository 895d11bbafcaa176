#include "loom/kernel/param_types.h"

#include <gtest/gtest.h>

namespace loom {
namespace {

using K = ParamType::Kind;

void expect_scalar(const std::string& decl, DType dt, bool named = true) {
  const ParamType t = parse_param_type(decl, named);
  EXPECT_EQ(t.kind, K::scalar) << decl;
  EXPECT_EQ(t.dtype, dt) << decl << ": " << dtype_name(t.dtype);
}

void expect_pointer(const std::string& decl, std::optional<DType> element, bool named = true) {
  const ParamType t = parse_param_type(decl, named);
  EXPECT_EQ(t.kind, K::pointer) << decl;
  EXPECT_EQ(t.any_element, !element) << decl;
  if (element) EXPECT_EQ(t.dtype, *element) << decl;
}

TEST(ParamTypes, CNumbers) {
  expect_scalar("float a", float32);
  expect_scalar("const double b", float64);
  expect_scalar("__half h", float16);
  expect_scalar("__nv_bfloat16 h", bfloat16);
  expect_scalar("bool flag", bool_);
  expect_scalar("char c", int8);
  expect_scalar("signed char c", int8);
  expect_scalar("unsigned char c", uint8);
  expect_scalar("short s", int16);
  expect_scalar("unsigned short int s", uint16);
  expect_scalar("int n", int32);
  expect_scalar("unsigned n", uint32);
  expect_scalar("signed n", int32);
  expect_scalar("long n", int64);
  expect_scalar("unsigned long n", uint64);
  expect_scalar("long long n", int64);
  expect_scalar("unsigned long long int n", uint64);
  expect_scalar("size_t n", uint64);
  expect_scalar("std::size_t n", uint64);
  expect_scalar("ptrdiff_t d", int64);
  expect_scalar("const volatile int32_t n", int32);
  expect_scalar("uint16_t n", uint16);
  expect_scalar("__grid_constant__ const int n", int32);
  expect_scalar("int", int32);  // unnamed
  expect_scalar("unsigned int", uint32);
}

TEST(ParamTypes, Pointers) {
  expect_pointer("float* y", float32);
  expect_pointer("const float* __restrict__ x", float32);
  expect_pointer("float const * const x", float32);
  expect_pointer("double *x", float64);
  expect_pointer("const __half* h", float16);
  expect_pointer("int64_t* p", int64);
  expect_pointer("void* p", std::nullopt);
  expect_pointer("const char* s", std::nullopt);
  expect_pointer("unsigned char* bytes", std::nullopt);
  expect_pointer("float** rows", std::nullopt);
  expect_pointer("MyStruct* s", std::nullopt);
  expect_pointer("Vec<float>* v", std::nullopt);
}

TEST(ParamTypes, UnknownTypesStayUnknown) {
  for (const char* d : {"T x", "MyStruct s", "float2 v", "real x", "long double x", "float (&a)[4]", "float a[4]",
                        "void (*f)(int)", "int n = 3", "ns::Type t", "Vec<float> v", "ARGS", "void v"})
    EXPECT_EQ(parse_param_type(d).kind, K::unknown) << d;
}

TEST(ParamTypes, DemangledNames) {
  // template <typename T> __global__ void scale(T* x, T a, int n), scale<float>
  auto p = demangled_params("_Z5scaleIfEvPT_S0_i");
  ASSERT_TRUE(p);
  EXPECT_EQ(*p, (std::vector<std::string>{"float*", "float", "int"}));
  auto t = lowered_param_types("_Z5scaleIfEvPT_S0_i");
  ASSERT_TRUE(t);
  EXPECT_TRUE(t->count_certain);
  ASSERT_EQ(t->params.size(), 3u);
  EXPECT_EQ(t->params[0].kind, K::pointer);
  EXPECT_EQ(t->params[1].dtype, float32);
  EXPECT_EQ(t->params[2].dtype, int32);
  // ns::k(const double*, unsigned long, MyStruct): a struct stays unknown, the count is certain.
  auto u = lowered_param_types("_ZN2ns1kEPKdm8MyStruct");
  ASSERT_TRUE(u);
  ASSERT_EQ(u->params.size(), 3u);
  EXPECT_TRUE(u->count_certain);
  EXPECT_EQ(u->params[0].dtype, float64);
  EXPECT_EQ(u->params[1].dtype, uint64);
  EXPECT_EQ(u->params[2].kind, K::unknown);
  auto none = lowered_param_types("_Z4noopv");
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->params.empty());
  EXPECT_FALSE(lowered_param_types("not_mangled"));
}

const char* kSource = R"(
#define N 4
typedef float real;
extern "C" __global__ void axpy(float* y, const float* __restrict__ x, float a, int n) {}
extern "C" {
__global__ void fill(double* out, /* comment, with comma */ unsigned long long n) {}
__global__ void none() {}
}
extern "C" __global__ void typedefd(real* y, real a) {}
template <typename T, int K = 2> __global__ void scale(T* y, const T a, int n) {}
namespace ns { template <class A, class B> __global__ void pair(A* a, B b) {} }
__global__ void plain(int* x, short s) {}
#ifdef USE_DOUBLE
extern "C" __global__ void twin(double* x) {}
#else
extern "C" __global__ void twin(float* x) {}
#endif
)";

TEST(ParamTypes, ExternCKernelsFromTheSource) {
  auto t = source_param_types(kSource, "axpy", false);
  ASSERT_TRUE(t);
  ASSERT_EQ(t->params.size(), 4u);
  EXPECT_TRUE(t->count_certain);
  EXPECT_EQ(t->params[1].kind, K::pointer);
  EXPECT_EQ(t->params[1].text, "const float* __restrict__ x");
  EXPECT_EQ(t->params[2].dtype, float32);
  auto f = source_param_types(kSource, "fill", false);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->params[1].dtype, uint64);
  auto n = source_param_types(kSource, "none", false);
  ASSERT_TRUE(n);
  EXPECT_TRUE(n->params.empty());
  auto d = source_param_types(kSource, "typedefd", false);  // a typedef is unknown: size rules
  ASSERT_TRUE(d);
  EXPECT_EQ(d->params[0].kind, K::pointer);
  EXPECT_TRUE(d->params[0].any_element);
  EXPECT_EQ(d->params[1].kind, K::unknown);
  EXPECT_FALSE(d->count_certain);
  EXPECT_FALSE(source_param_types(kSource, "twin", false));    // two definitions that differ
  EXPECT_FALSE(source_param_types(kSource, "plain", false));   // C++ linkage: not by its plain name
  EXPECT_FALSE(source_param_types(kSource, "missing", false));
}

TEST(ParamTypes, NameExpressionsFromTheSource) {
  auto s = source_param_types(kSource, "scale<double>", true);
  ASSERT_TRUE(s);
  ASSERT_EQ(s->params.size(), 3u);
  EXPECT_EQ(s->params[0].dtype, float64);
  EXPECT_EQ(s->params[0].text, "T* y");
  EXPECT_EQ(s->params[1].dtype, float64);
  EXPECT_EQ(s->params[2].dtype, int32);
  auto p = source_param_types(kSource, "ns::pair<int, unsigned char>", true);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->params[0].dtype, int32);
  EXPECT_EQ(p->params[1].dtype, uint8);
  auto c = source_param_types(kSource, "plain", true);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->params[1].dtype, int16);
  auto cast = source_param_types(kSource, "(void (*)(int*, short))plain", true);
  ASSERT_TRUE(cast);
  EXPECT_EQ(cast->params[0].dtype, int32);
  EXPECT_FALSE(source_param_types(kSource, "scale", true));  // arguments deduced: not handled
}

}  // namespace
}  // namespace loom
