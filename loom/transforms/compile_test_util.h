// Helpers of the jit compiler's tests (compile_test.cpp, compile_reduce_test.cpp): an
// array's bytes, and a fresh array of normal values in any dtype.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "loom/array/array.h"
#include "loom/ops/creation.h"

namespace loom::compile_test {

inline std::vector<unsigned char> bytes(const Array& a) {
  const Array c = a.contiguous();
  std::vector<unsigned char> v(static_cast<size_t>(c.size()) * c.itemsize());
  if (!v.empty()) c.copy_to_host(v.data());
  return v;
}

inline Array random_array(const Shape& shape, DType dtype, uint32_t seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> d(0.0, 3.0);
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  std::vector<double> v(static_cast<size_t>(n));
  for (double& x : v) x = d(gen);
  Strides st;
  int64_t step = 8;
  for (size_t i = shape.size(); i-- > 0;) st.insert(st.begin(), step), step *= shape[i];
  return from_host(HostView{v.data(), float64, shape, st}, cpu()).astype(dtype);
}

}  // namespace loom::compile_test
