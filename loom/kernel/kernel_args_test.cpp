#include "loom/kernel/kernel_args.h"

#include <gtest/gtest.h>

#include <cstring>

#include "loom/runtime/device.h"
#include "loom/core/error.h"

namespace loom::kernel_detail {
namespace {

template <typename T>
T read(PackedArgs& p, size_t i) {
  T v;
  std::memcpy(&v, p.pointers()[i], sizeof v);
  return v;
}

TEST(PackedArgs, ScalarsTakeTheParameterSize) {
  std::vector<KernelArg> args = {Scalar(-3), Scalar(40000), Scalar(0.25), Scalar(1.5), Scalar(0xFFFFFFFFull), Scalar(true)};
  PackedArgs p("k", args, {1, 4, 4, 8, 4, 1}, true);
  EXPECT_EQ(read<int8_t>(p, 0), -3);
  EXPECT_EQ(read<int32_t>(p, 1), 40000);
  EXPECT_EQ(read<float>(p, 2), 0.25f);
  EXPECT_EQ(read<double>(p, 3), 1.5);
  EXPECT_EQ(read<uint32_t>(p, 4), 0xFFFFFFFFu);
  EXPECT_EQ(read<uint8_t>(p, 5), 1);
}

TEST(PackedArgs, HalfParametersTakeFloat16Bits) {
  std::vector<KernelArg> args = {Scalar(1.0)};
  PackedArgs p("k", args, {2}, true);
  EXPECT_EQ(read<uint16_t>(p, 0), 0x3C00);
}

TEST(PackedArgs, MismatchesAreTypeErrorsNamingTheParameter) {
  std::vector<KernelArg> two = {Scalar(1), Scalar(2)};
  EXPECT_THROW(PackedArgs("k", two, {4}, true), DTypeError);
  std::vector<KernelArg> wide = {Scalar(1 << 20)};
  EXPECT_THROW(PackedArgs("k", wide, {2}, true), std::overflow_error);
  std::vector<KernelArg> negative = {Scalar(-129)};
  EXPECT_THROW(PackedArgs("k", negative, {1}, true), std::overflow_error);
  const int32_t v = 7;
  std::vector<KernelArg> bytes = {KernelArg::bytes(&v, 4, "int32")};
  try {
    PackedArgs("k", bytes, {8}, true);
    FAIL();
  } catch (const DTypeError& e) {
    EXPECT_NE(std::string(e.what()).find("parameter 0 (8 bytes)"), std::string::npos) << e.what();
  }
  std::vector<KernelArg> floats = {Scalar(1.5)};
  EXPECT_THROW(PackedArgs("k", floats, {16}, true), DTypeError);
}

TEST(PackedArgs, UnknownParameterListsUseNaturalSizes) {
  std::vector<KernelArg> args = {Scalar(int64_t{1} << 40), Scalar(2.5)};
  PackedArgs p("k", args, {}, false);
  EXPECT_EQ(read<int64_t>(p, 0), int64_t{1} << 40);
  EXPECT_EQ(read<double>(p, 1), 2.5);
}

TEST(PackedArgs, LongArgumentListsGoToTheHeap) {
  std::vector<KernelArg> args;
  std::vector<size_t> sizes;
  for (int i = 0; i < 20; ++i) {
    args.emplace_back(Scalar(i * 1000));
    sizes.push_back(i % 2 ? 4 : 8);
  }
  PackedArgs p("k", args, sizes, true);
  for (int i = 0; i < 20; ++i)
    EXPECT_EQ(i % 2 ? int64_t{read<int32_t>(p, i)} : read<int64_t>(p, i), i * 1000);
}

TEST(PackedArgs, LargeStructsAreReadInPlace) {
  char blob[40];
  for (int i = 0; i < 40; ++i) blob[i] = static_cast<char>(i);
  std::vector<KernelArg> args = {KernelArg::bytes(blob, 40, "struct")};
  PackedArgs p("k", args, {40}, true);
  EXPECT_EQ(std::memcmp(p.pointers()[0], blob, 40), 0);
}


KernelParamTypes types_of(std::initializer_list<const char*> decls) {
  KernelParamTypes t;
  t.count_certain = true;
  for (const char* d : decls) t.params.push_back(parse_param_type(d));
  return t;
}

std::string error_of(const std::vector<KernelArg>& args, const std::vector<size_t>& sizes, const KernelParamTypes& t) {
  try {
    PackedArgs("k", args, sizes, true, &t);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(PackedArgs, ScalarsConvertToTheParameterType) {
  const KernelParamTypes t = types_of({"float a", "double b", "int n", "unsigned char c", "bool f", "long long m"});
  std::vector<KernelArg> args = {Scalar(2), Scalar(true), Scalar(-7), Scalar(255), Scalar(true),
                                 KernelArg(Scalar(3.0), float64)};
  args[5] = KernelArg(Scalar(int64_t{1} << 40), int64);
  PackedArgs p("k", args, {4, 8, 4, 1, 1, 8}, true, &t);
  EXPECT_EQ(read<float>(p, 0), 2.0f);  // not the bits of the int 2
  EXPECT_EQ(read<double>(p, 1), 1.0);
  EXPECT_EQ(read<int32_t>(p, 2), -7);
  EXPECT_EQ(read<uint8_t>(p, 3), 255);
  EXPECT_EQ(read<bool>(p, 4), true);
  EXPECT_EQ(read<int64_t>(p, 5), int64_t{1} << 40);
  // A NumPy float64 for a float parameter rounds (same_kind); an int64 for a double converts.
  const KernelParamTypes f = types_of({"float a", "double b"});
  std::vector<KernelArg> typed = {KernelArg(Scalar(0.1), float64), KernelArg(Scalar(int64_t{3}), int64)};
  PackedArgs q("k", typed, {4, 8}, true, &f);
  EXPECT_EQ(read<float>(q, 0), 0.1f);
  EXPECT_EQ(read<double>(q, 1), 3.0);
}

TEST(PackedArgs, RefusedConversionsNameTheParameter) {
  const KernelParamTypes t = types_of({"int n"});
  EXPECT_NE(error_of({Scalar(2.5)}, {4}, t).find("parameter 0 (int n) is an int32"), std::string::npos);
  EXPECT_THROW(PackedArgs("k", {Scalar(2.5)}, {4}, true, &t), DTypeError);
  EXPECT_THROW(PackedArgs("k", {Scalar(int64_t{1} << 40)}, {4}, true, &t), std::overflow_error);
  EXPECT_THROW(PackedArgs("k", {KernelArg(Scalar(1.0), float32)}, {4}, true, &t), DTypeError);
  EXPECT_THROW(PackedArgs("k", {KernelArg(Scalar(int64_t{1} << 40), int64)}, {4}, true, &t), std::overflow_error);
  const KernelParamTypes u = types_of({"unsigned n"});
  EXPECT_THROW(PackedArgs("k", {Scalar(-1)}, {4}, true, &u), std::overflow_error);
  EXPECT_THROW(PackedArgs("k", {KernelArg(Scalar(int64_t{5}), int64)}, {4}, true, &u), DTypeError);  // i -> u
  const KernelParamTypes b = types_of({"bool f"});
  EXPECT_THROW(PackedArgs("k", {Scalar(2)}, {1}, true, &b), DTypeError);
  const int32_t v = 1;
  EXPECT_THROW(PackedArgs("k", {KernelArg::opaque(&v, 4, "complex32")}, {4}, true, &t), DTypeError);
  PackedArgs raw("k", {KernelArg::bytes(&v, 4, "int32")}, {4}, true, &t);  // raw bytes of the size: taken
  EXPECT_EQ(read<int32_t>(raw, 0), 1);
}

TEST(PackedArgs, ArraysAndPointersMeetPointerParameters) {
  Array f = Array::allocate({4}, float32, cpu());
  Array i = Array::allocate({4}, int32, cpu());
  const KernelParamTypes t = types_of({"const float* __restrict__ x"});
  PackedArgs ok("k", {KernelArg(f)}, {8}, true, &t);
  EXPECT_EQ(read<void*>(ok, 0), f.data());
  const std::string e = error_of({KernelArg(i)}, {8}, t);
  EXPECT_NE(e.find("[RawKernel k] argument 0 is an int32 array but parameter 0 (const float* __restrict__ x) is a pointer "
                   "to float32"),
            std::string::npos)
      << e;
  EXPECT_NE(error_of({Scalar(1234)}, {8}, t).find("is a pointer"), std::string::npos);
  int dummy = 0;
  PackedArgs addr("k", {KernelArg::address(&dummy)}, {8}, true, &t);
  EXPECT_EQ(read<void*>(addr, 0), &dummy);
  const KernelParamTypes any = types_of({"unsigned char* bytes"});
  PackedArgs bytes("k", {KernelArg(i)}, {8}, true, &any);
  EXPECT_EQ(read<void*>(bytes, 0), i.data());
  const KernelParamTypes d = types_of({"double x"});
  EXPECT_THROW(PackedArgs("k", {KernelArg(f)}, {8}, true, &d), DTypeError);  // an array for a number
}

// A packed LoomArray<T, N, C>: data pointer, shape, strides in elements.
struct View {
  void* data;
  std::vector<int64_t> shape, strides;
};
View read_view(PackedArgs& p, size_t i, size_t ndim) {
  const char* b = static_cast<const char*>(p.pointers()[i]);
  View v;
  std::memcpy(&v.data, b, 8);
  v.shape.resize(ndim);
  v.strides.resize(ndim);
  std::memcpy(v.shape.data(), b + 8, 8 * ndim);
  std::memcpy(v.strides.data(), b + 8 + 8 * ndim, 8 * ndim);
  return v;
}

TEST(PackedArgs, ArraysPackAsViews) {
  Array a = Array::allocate({3, 4}, float32, cpu());
  Array t = a.transpose();                                        // shape (4, 3), strides (4, 16) bytes
  Array s = a.view({3, 2}, {16, 8}, 4);                           // a[:, 1::2]
  Array b = Array::allocate({5}, float64, cpu()).view({2, 5}, {0, 8}, 0);  // broadcast: stride 0
  const KernelParamTypes ty = types_of({"LoomArray<float, 2, true> a", "LoomArray<const float, 2, false> t",
                                        "LoomArray<float, 2, 0> s", "LoomArray<double, 2, false> b", "int n"});
  PackedArgs p("k", {KernelArg(a), KernelArg(t), KernelArg(s), KernelArg(b), Scalar(7)}, {40, 40, 40, 40, 4}, true, &ty);
  const View va = read_view(p, 0, 2), vt = read_view(p, 1, 2), vs = read_view(p, 2, 2), vb = read_view(p, 3, 2);
  EXPECT_EQ(va.data, a.data());
  EXPECT_EQ(va.shape, (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(va.strides, (std::vector<int64_t>{4, 1}));
  EXPECT_EQ(vt.data, a.data());
  EXPECT_EQ(vt.shape, (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(vt.strides, (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(vs.data, static_cast<char*>(a.data()) + 4);
  EXPECT_EQ(vs.shape, (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(vs.strides, (std::vector<int64_t>{4, 2}));
  EXPECT_EQ(vb.shape, (std::vector<int64_t>{2, 5}));
  EXPECT_EQ(vb.strides, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(read<int32_t>(p, 4), 7);
  // A C-contiguous view gets C strides, whatever an axis of length 1 carries.
  Array one = a.view({1, 4}, {999, 4}, 0);
  const KernelParamTypes c = types_of({"LoomArray<float, 2, true> a"});
  PackedArgs q("k", {KernelArg(one)}, {40}, true, &c);
  EXPECT_EQ(read_view(q, 0, 2).strides, (std::vector<int64_t>{4, 1}));
  // set_pointer (autotuning's scratch copies) replaces the view's data pointer only.
  int scratch = 0;
  p.set_pointer(1, &scratch);
  EXPECT_EQ(read_view(p, 1, 2).data, &scratch);
  EXPECT_EQ(read_view(p, 1, 2).strides, (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(read_view(p, 0, 2).data, a.data());
}

TEST(PackedArgs, ManyAndLargeViewsGoToTheHeap) {
  Array a = Array::allocate({2, 3, 4, 5, 6}, int32, cpu());
  KernelParamTypes ty;
  ty.count_certain = true;
  std::vector<KernelArg> args;
  std::vector<size_t> sizes;
  for (int i = 0; i < 20; ++i) {
    ty.params.push_back(parse_param_type(i % 2 ? "LoomArray<int, 5, true> a" : "int n"));
    args.push_back(i % 2 ? KernelArg(a) : KernelArg(Scalar(i)));
    sizes.push_back(i % 2 ? 88 : 4);
  }
  PackedArgs p("k", args, sizes, true, &ty);
  for (int i = 0; i < 20; ++i) {
    if (i % 2 == 0) {
      EXPECT_EQ(read<int32_t>(p, i), i);
      continue;
    }
    const View v = read_view(p, i, 5);
    EXPECT_EQ(v.data, a.data());
    EXPECT_EQ(v.shape, (std::vector<int64_t>{2, 3, 4, 5, 6}));
    EXPECT_EQ(v.strides, (std::vector<int64_t>{360, 120, 30, 6, 1}));
  }
}

TEST(PackedArgs, ViewRefusalsNameTheParameter) {
  Array f = Array::allocate({3, 4}, float32, cpu());
  const KernelParamTypes c = types_of({"LoomArray<float, 2, true> a"});
  const KernelParamTypes any = types_of({"LoomArray<float, 2, false> a"});
  auto expect = [](const std::string& e, const std::string& part) {
    EXPECT_NE(e.find(part), std::string::npos) << e << "\n  lacks: " << part;
  };
  expect(error_of({Scalar(3)}, {40}, c),
         "[RawKernel k] argument 0 is a Python int but parameter 0 (LoomArray<float, 2, true> a) is a view of a "
         "C-contiguous 2-D float32 array; pass a loom array");
  int dummy = 0;
  expect(error_of({KernelArg::address(&dummy)}, {40}, c), "pass a loom array");
  expect(error_of({KernelArg::bytes(&dummy, 4, "int32")}, {40}, c), "pass a loom array");
  EXPECT_THROW(PackedArgs("k", {Scalar(3)}, {40}, true, &c), DTypeError);
  const std::string dt = error_of({KernelArg(Array::allocate({3, 4}, float64, cpu()))}, {40}, c);
  expect(dt, "argument 0 is a 2-D float64 array but parameter 0 (LoomArray<float, 2, true> a) is a view of a "
             "C-contiguous 2-D float32 array; pass a float32 array (astype)");
  EXPECT_THROW(PackedArgs("k", {KernelArg(Array::allocate({3, 4}, int32, cpu()))}, {40}, true, &c), DTypeError);
  expect(error_of({KernelArg(Array::allocate({12}, float32, cpu()))}, {40}, c),
         "argument 0 is a 1-D float32 array but parameter 0 (LoomArray<float, 2, true> a) is a view of a C-contiguous "
         "2-D float32 array (2 dimensions, not 1)");
  expect(error_of({KernelArg(f.transpose())}, {40}, c),
         "argument 0 is a non-C-contiguous 2-D float32 array (strides (4, 16) bytes) but parameter 0 "
         "(LoomArray<float, 2, true> a) is a view of a C-contiguous 2-D float32 array: the kernel needs a "
         "C-contiguous array; pass a.copy()");
  EXPECT_THROW(PackedArgs("k", {KernelArg(f.transpose())}, {40}, true, &c), DTypeError);
  PackedArgs ok("k", {KernelArg(f.transpose())}, {40}, true, &any);  // any strides: taken
  const Array odd = f.view({2, 3}, {6, 4}, 0);                          // a stride of 1.5 elements
  expect(error_of({KernelArg(odd)}, {40}, any),
         "argument 0 is a 2-D float32 array with strides (6, 4) bytes but parameter 0 (LoomArray<float, 2, false> a) "
         "is a view of a 2-D float32 array, whose strides count elements, and the stride 6 of axis 0 is not a "
         "multiple of the itemsize 4; pass a.copy()");
  EXPECT_THROW(PackedArgs("k", {KernelArg(odd)}, {40}, true, &any), DTypeError);
  // The driver says the parameter is 8 bytes (a macro made it a pointer): the size rules.
  PackedArgs by_size("k", {KernelArg(f)}, {8}, true, &c);
  EXPECT_EQ(read<void*>(by_size, 0), f.data());
  // An unknown parameter of a view's size refuses an array by size, as before.
  EXPECT_NE(error_of({KernelArg(f)}, {40}, KernelParamTypes{}).find("is that parameter declared as a pointer?"),
            std::string::npos);
}

TEST(PackedArgs, TypesThatDisagreeWithTheCompiledSizesAreIgnored) {
  // "#define float double" would make the source's float an 8-byte parameter.
  const KernelParamTypes t = types_of({"float a"});
  PackedArgs p("k", {Scalar(1.5)}, {8}, true, &t);
  EXPECT_EQ(read<double>(p, 0), 1.5);
  // A list that does not line up with the compiled one ("k(ARGS)") is ignored.
  KernelParamTypes macro = types_of({"int n"});
  macro.count_certain = false;
  PackedArgs m("k", {Scalar(1.5), Scalar(2)}, {8, 4}, true, &macro);
  EXPECT_EQ(read<double>(m, 0), 1.5);
  // Without the driver's sizes a certain signature still counts the arguments.
  EXPECT_THROW(PackedArgs("k", {Scalar(1.5), Scalar(2)}, {}, false, &t), DTypeError);
}

}  // namespace
}  // namespace loom::kernel_detail
