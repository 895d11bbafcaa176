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
