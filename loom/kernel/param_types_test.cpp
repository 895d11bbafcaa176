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

void expect_view(const std::string& decl, DType dt, int ndim, bool contiguous, bool named = true) {
  const ParamType t = parse_param_type(decl, named);
  EXPECT_EQ(t.kind, K::view) << decl;
  EXPECT_EQ(t.dtype, dt) << decl << ": " << dtype_name(t.dtype);
  EXPECT_EQ(t.ndim, ndim) << decl;
  EXPECT_EQ(t.contiguous, contiguous) << decl;
  EXPECT_EQ(t.size(), 8 + 16 * static_cast<size_t>(ndim)) << decl;
  EXPECT_EQ(t.text, decl);
}

TEST(ParamTypes, ArrayViews) {
  expect_view("LoomArray<float, 2, true> a", float32, 2, true);
  expect_view("LoomArray<const float,2,1> a", float32, 2, true);
  expect_view("const LoomArray<unsigned long long, 3, false> a", uint64, 3, false);
  expect_view("LoomArray<__half, 1, true>", float16, 1, true);  // unnamed
  expect_view("LoomArray<__half, 1, true>", float16, 1, true, false);
  expect_view("LoomArray<float const, 2, true>", float32, 2, true, false);  // a demangler's spelling
  expect_view("::LoomArray<double, 32, 0> x", float64, 32, false);
  expect_view("__grid_constant__ const LoomArray<int, 4, false> const x", int32, 4, false);
  expect_view("LoomArray<(const float), 2, true> a", float32, 2, true);  // a substituted template argument
  expect_view("LoomArray<__nv_bfloat16, 1, true> b", bfloat16, 1, true);
  expect_view("LoomArray<bool, 1, true> m", bool_, 1, true);
  expect_view("LoomArray<char, 1, true> c", int8, 1, true);
  expect_view("LoomArray<signed char, 1, true> c", int8, 1, true);
  expect_view("LoomArray<unsigned char, 1, true> c", uint8, 1, true);
  expect_view("LoomArray<short, 2, false> s", int16, 2, false);
  expect_view("LoomArray<unsigned short int, 2, false> s", uint16, 2, false);
  expect_view("LoomArray<unsigned, 2, false> s", uint32, 2, false);
  expect_view("LoomArray<long, 2, false> s", int64, 2, false);
  expect_view("LoomArray<long long, 2, false> s", int64, 2, false);
  expect_view("LoomArray<int8_t, 1, 1> s", int8, 1, true);
  expect_view("LoomArray<std::int64_t, 1, 1> s", int64, 1, true);
  expect_view("LoomArray<uint16_t, 1, 1> s", uint16, 1, true);
  expect_view("LoomArray<size_t, 1, 1> s", uint64, 1, true);
  expect_view("LoomArray<half, 1, 1> s", float16, 1, true);
  expect_view("LoomArray<float, 2u, true> a", float32, 2, true);
  EXPECT_EQ(parse_param_type("LoomArray<float, 2, true> a").describe(), "view of a C-contiguous 2-D float32 array");
  EXPECT_EQ(parse_param_type("LoomArray<int, 1, false> a").describe(), "view of a 1-D int32 array");
  // Pointers to views are pointers; what is not a plain view stays unknown.
  expect_pointer("LoomArray<float, 2, true>* a", std::nullopt);
  for (const char* d : {"LoomArray<float, 0, true> a", "LoomArray<float, 33, true> a", "LoomArray<float, N, true> a",
                        "LoomArray<T, 2, true> a", "LoomArray<float2, 1, true> a", "LoomArray<void, 1, true> a",
                        "LoomArray<float*, 1, true> a", "LoomArray<float, 2, maybe> a", "LoomArray<float, 2> a",
                        "const LoomArray<float, 2, true>& a", "LoomArray<float, 2, true> a b",
                        "LoomArray<float, 2, true> a[2]", "ns::LoomArray<float, 2, true> a", "LoomArray<float, -1, true> a",
                        "LoomArray<long double, 1, true> a"})
    EXPECT_EQ(parse_param_type(d).kind, K::unknown) << d;
}

TEST(ParamTypes, ArrayViewsFromSourcesAndNames) {
  const char* src = R"(
template <class T, int N, bool C> struct LoomArray { T* data; long long shape[N]; long long strides[N]; };
extern "C" __global__ void k(LoomArray<float, 2, true> a, LoomArray<const double, 1, false> b, int n) {}
template <class T> __global__ void t(LoomArray<const T, 3, false> a, T* out) {}
)";
  auto k = source_param_types(src, "k", false);
  ASSERT_TRUE(k);
  ASSERT_EQ(k->params.size(), 3u);
  EXPECT_TRUE(k->count_certain);
  EXPECT_EQ(k->params[0].kind, K::view);
  EXPECT_EQ(k->params[1].dtype, float64);
  EXPECT_EQ(k->params[1].ndim, 1);
  EXPECT_EQ(k->params[2].dtype, int32);
  auto t = source_param_types(src, "t<float>", true);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->params[0].kind, K::view);
  EXPECT_EQ(t->params[0].dtype, float32);
  EXPECT_EQ(t->params[0].ndim, 3);
  EXPECT_EQ(t->params[0].text, "LoomArray<const T, 3, false> a");
  // t<float>'s lowered name, as g++ and NVRTC mangle it.
  auto l = lowered_param_types("_Z1tIfEv9LoomArrayIKT_Li3ELb0EEPS1_");
  ASSERT_TRUE(l);
  ASSERT_EQ(l->params.size(), 2u);
  EXPECT_EQ(l->params[0].kind, K::view);
  EXPECT_EQ(l->params[0].dtype, float32);
  EXPECT_EQ(l->params[0].ndim, 3);
  EXPECT_FALSE(l->params[0].contiguous);
  EXPECT_EQ(l->params[1].kind, K::pointer);
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
