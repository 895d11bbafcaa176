// Helpers the emulator's gtests share: CPU arrays from vectors and back.
#pragma once
#include <cstring>
#include <vector>

#include "loom/array/array.h"
#include "loom/runtime/device.h"

namespace loom::emulator_test {

template <class T>
Array from(const std::vector<T>& v, DType dt) {
  Array a = Array::allocate({static_cast<int64_t>(v.size())}, dt, cpu());
  std::memcpy(a.data(), v.data(), v.size() * sizeof(T));
  return a;
}

template <class T>
std::vector<T> values(const Array& a) {
  std::vector<T> v(static_cast<size_t>(a.size()));
  std::memcpy(v.data(), a.data(), v.size() * sizeof(T));
  return v;
}

}  // namespace loom::emulator_test
