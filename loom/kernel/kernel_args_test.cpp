#include "loom/kernel/kernel_args.h"

#include <gtest/gtest.h>

#include <cstring>

#include "loom/error.h"

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

}  // namespace
}  // namespace loom::kernel_detail
