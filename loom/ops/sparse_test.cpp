// loom::sparse::csr_matmul on every device against a float64 product on the host: random
// CSR matrices (empty rows, unsorted columns, int32 and int64 indices), vectors and
// matrices, A @ x and A^T @ x, float32 and float64; and the argument checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "loom/ops/creation.h"
#include "loom/ops/sparse.h"
#include "loom/runtime/device.h"

namespace loom {
namespace {

struct HostCsr {
  int64_t rows, cols;
  std::vector<double> data;
  std::vector<int64_t> indices, indptr;
};

// About density * cols values per row at random columns (unsorted), some rows empty.
HostCsr random_csr(int64_t rows, int64_t cols, double density, std::mt19937& gen) {
  HostCsr a{rows, cols, {}, {}, {0}};
  std::uniform_real_distribution<double> u(-1, 1), p(0, 1);
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<int64_t> c(static_cast<size_t>(cols));
    std::iota(c.begin(), c.end(), 0);
    std::shuffle(c.begin(), c.end(), gen);
    const int64_t n = p(gen) < 0.2 ? 0 : static_cast<int64_t>(density * static_cast<double>(cols) * 2 * p(gen));
    for (int64_t k = 0; k < std::min(n, cols); ++k) {
      a.indices.push_back(c[static_cast<size_t>(k)]);
      a.data.push_back(u(gen));
    }
    a.indptr.push_back(static_cast<int64_t>(a.indices.size()));
  }
  return a;
}

Array device_array(const std::vector<double>& v, const Shape& shape, DType dt, const Device& d) {
  const Array h = from_host(HostView{v.data(), float64, shape, contiguous_strides(shape, 8)}, cpu());
  return h.astype(dt).copy_to(d);
}
Array index_array(const std::vector<int64_t>& v, DType dt, const Device& d) {
  const Shape s{static_cast<int64_t>(v.size())};
  return from_host(HostView{v.data(), int64, s, contiguous_strides(s, 8)}, cpu()).astype(dt).copy_to(d);
}
std::vector<double> host(const Array& a) {
  const Array c = a.astype(float64).copy_to(cpu()).contiguous();
  std::vector<double> v(static_cast<size_t>(c.size()));
  c.copy_to_host(v.data());
  return v;
}

TEST(SparseCsrMatmul, MatchesTheDenseProductOnEveryDevice) {
  std::mt19937 gen(std::random_device{}());
  std::uniform_real_distribution<double> u(-1, 1);
  for (const Device& dev : devices()) {
    for (DType index : {int32, int64}) {
      for (DType value : {float32, float64}) {
        for (int64_t k : {int64_t{0}, int64_t{1}, int64_t{5}}) {  // 0: a 1-d x
          for (bool transpose : {false, true}) {
            const HostCsr a = random_csr(37, 23, 0.15, gen);
            const int64_t inner = transpose ? a.rows : a.cols, outer = transpose ? a.cols : a.rows;
            const int64_t kk = std::max<int64_t>(k, 1);
            std::vector<double> x(static_cast<size_t>(inner * kk));
            for (double& v : x) v = u(gen);
            std::vector<double> want(static_cast<size_t>(outer * kk), 0.0);
            for (int64_t r = 0; r < a.rows; ++r)
              for (int64_t p = a.indptr[r]; p < a.indptr[r + 1]; ++p)
                for (int64_t c = 0; c < kk; ++c) {
                  const int64_t col = a.indices[static_cast<size_t>(p)];
                  const double v = a.data[static_cast<size_t>(p)];
                  if (transpose) want[static_cast<size_t>(col * kk + c)] += v * x[static_cast<size_t>(r * kk + c)];
                  else want[static_cast<size_t>(r * kk + c)] += v * x[static_cast<size_t>(col * kk + c)];
                }
            const Shape xs = k == 0 ? Shape{inner} : Shape{inner, k};
            const Array got = sparse::csr_matmul(device_array(a.data, {static_cast<int64_t>(a.data.size())}, value, dev),
                                                 index_array(a.indices, index, dev), index_array(a.indptr, index, dev),
                                                 a.rows, a.cols, device_array(x, xs, value, dev), transpose);
            SCOPED_TRACE(dev.str() + " " + dtype_name(index) + " " + dtype_name(value) + " k=" + std::to_string(k) +
                         (transpose ? " transposed" : ""));
            EXPECT_EQ(got.dtype(), value);
            EXPECT_EQ(got.shape(), (k == 0 ? Shape{outer} : Shape{outer, k}));
            EXPECT_EQ(got.device(), dev);
            const std::vector<double> g = host(got);
            const double tol = value == float32 ? 1e-5 : 1e-13;
            for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(g[i], want[i], tol * (1 + std::abs(want[i]))) << i;
          }
        }
      }
    }
  }
}

TEST(SparseCsrMatmul, BadArgumentsNameTheOpAndTheArgument) {
  const Array data = ones({3}, float64, cpu());
  const Array ind = index_array({0, 1, 1}, int64, cpu()), ptr = index_array({0, 2, 3}, int64, cpu());
  const Array x = ones({2}, float64, cpu());
  auto message = [&](auto&& call) {
    try {
      call();
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([&] { sparse::csr_matmul(data, ind, ptr, 3, 2, x); }).find("indptr has 3 values for 3 rows"),
            std::string::npos);
  EXPECT_NE(message([&] { sparse::csr_matmul(data, ind, ptr, 2, 3, x); }).find("x has 2 rows"), std::string::npos);
  EXPECT_NE(message([&] { sparse::csr_matmul(data, ind.astype(int32), ptr, 2, 2, x); }).find("must both be int32 or both int64"),
            std::string::npos);
  EXPECT_NE(message([&] { sparse::csr_matmul(ones({2}, float64, cpu()), ind, ptr, 2, 2, x); }).find("[csr_matmul]"),
            std::string::npos);
  EXPECT_THROW(sparse::csr_matmul(data, ind, ptr, 2, 2, ones({2, 2, 2}, float64, cpu())), std::invalid_argument);
  // Structure values that would address outside x: a clear error on cpu(), not a crash.
  EXPECT_NE(message([&] { sparse::csr_matmul(data, index_array({0, 7, 1}, int64, cpu()), ptr, 2, 2, x); })
                .find("column index 7 (stored value 1) is out of range for 2 columns"),
            std::string::npos);
  EXPECT_NE(message([&] { sparse::csr_matmul(data, ind, index_array({0, 3, 2}, int64, cpu()), 2, 2, x); })
                .find("indptr"),
            std::string::npos);
  // The structure is checked as the product reads it: every bad case still raises, with
  // several columns in x (SpMM) too, and rows that end short of the stored values.
  EXPECT_NE(message([&] { sparse::csr_matmul(data, ind, index_array({1, 2, 3}, int64, cpu()), 2, 2, x); })
                .find("must start at 0"),
            std::string::npos);
  EXPECT_NE(message([&] { sparse::csr_matmul(data, ind, index_array({0, 1, 2}, int64, cpu()), 2, 2, x); })
                .find("must start at 0 and end at the number of stored values (3)"),
            std::string::npos);
  EXPECT_NE(message([&] {
              sparse::csr_matmul(data, index_array({0, 1, -1}, int64, cpu()), ptr, 2, 2, ones({2, 3}, float64, cpu()));
            }).find("column index -1 (stored value 2)"),
            std::string::npos);
}

}  // namespace
}  // namespace loom
