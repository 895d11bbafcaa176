#include "loom/array/array.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "loom/loom.h"

namespace loom {

TEST(Array, CreationOnCpu) {
  Array a = zeros({2, 3}, float32, cpu());
  EXPECT_EQ(a.shape(), (Shape{2, 3}));
  EXPECT_EQ(a.strides(), (Strides{12, 4}));
  EXPECT_EQ(a.nbytes(), 24u);
  EXPECT_TRUE(a.is_contiguous());
  const float* p = static_cast<const float*>(a.data());
  for (int i = 0; i < 6; ++i) EXPECT_EQ(p[i], 0.0f);
  Array f = full({4}, Scalar(2.5), float64, cpu());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(static_cast<const double*>(f.data())[i], 2.5);
}

TEST(Array, BufferReturnsWhenLastViewDies) {
  const size_t before = memory::stats(cpu()).in_use;
  {
    Array a = empty({1000}, float32, cpu());
    Array t = a.view({10, 100}, {400, 4}, 0);
    a = Array();
    EXPECT_EQ(memory::stats(cpu()).in_use, before + 4000);
  }
  EXPECT_EQ(memory::stats(cpu()).in_use, before);
}

TEST(Array, TransposeCopyAndAstype) {
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> dist(-100, 100);
  std::vector<float> host(12);
  for (auto& v : host) v = dist(rng);
  Array a = from_host(HostView{host.data(), float32, {3, 4}, {16, 4}}, cpu());
  Array t = a.transpose().copy();
  ASSERT_TRUE(t.is_contiguous());
  const float* tp = static_cast<const float*>(t.data());
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(tp[i * 3 + j], host[j * 4 + i]);
  Array h = a.astype(float16).astype(float64);
  const double* hp = static_cast<const double*>(h.data());
  for (int i = 0; i < 12; ++i) EXPECT_NEAR(hp[i], host[i], std::fabs(host[i]) / 1024);
  Array i8 = a.astype(int32);
  for (int i = 0; i < 12; ++i) EXPECT_EQ(static_cast<const int32_t*>(i8.data())[i], static_cast<int32_t>(host[i]));
}

TEST(Array, NegativeStrideHostView) {
  std::vector<int64_t> host = {1, 2, 3, 4, 5, 6};
  Array a = from_host(HostView{host.data() + 5, int64, {6}, {-8}}, cpu());
  for (int i = 0; i < 6; ++i) EXPECT_EQ(static_cast<const int64_t*>(a.data())[i], 6 - i);
}

TEST(Array, ArangeLinspaceEye) {
  Array r = arange(Scalar(3), Scalar(20), Scalar(4), int64, cpu());
  ASSERT_EQ(r.size(), 5);  // 3 7 11 15 19
  for (int i = 0; i < 5; ++i) EXPECT_EQ(static_cast<const int64_t*>(r.data())[i], 3 + 4 * i);
  EXPECT_EQ(arange(Scalar(0.0), Scalar(1.0), Scalar(0.3), float64, cpu()).size(), 4);
  EXPECT_EQ(arange(Scalar(5), Scalar(0), Scalar(1), int64, cpu()).size(), 0);
  EXPECT_THROW(arange(Scalar(0), Scalar(5), Scalar(0), int64, cpu()), std::invalid_argument);
  Array l = linspace(0.0, 1.0, 5, true, float64, cpu());
  const double* lp = static_cast<const double*>(l.data());
  EXPECT_EQ(lp[1], 0.25);
  EXPECT_EQ(lp[4], 1.0);
  Array e = eye(3, 4, 1, int32, cpu());
  const int32_t* ep = static_cast<const int32_t*>(e.data());
  for (int r2 = 0; r2 < 3; ++r2)
    for (int c = 0; c < 4; ++c) EXPECT_EQ(ep[r2 * 4 + c], c == r2 + 1 ? 1 : 0);
}

TEST(Array, ToSameDeviceIsSameBuffer) {
  Array a = ones({5}, int8, cpu());
  EXPECT_EQ(a.to(cpu()).buffer(), a.buffer());
  EXPECT_NE(a.copy_to(cpu()).buffer(), a.buffer());
}

TEST(Array, MemoryLimit) {
  memory::set_limit(1 << 20, cpu());
  EXPECT_THROW(empty({1 << 20}, float32, cpu()), OutOfMemoryError);
  memory::set_limit(0, cpu());
  EXPECT_NO_THROW(empty({1 << 20}, float32, cpu()));
}

}  // namespace loom
