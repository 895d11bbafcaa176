// Substituting buffers in recorded op arguments. A traced function's ops are recorded with
// their eval's arguments (dispatch/trace.h), whose arrays view abstract buffers; to run a
// record again, each array is rebound to the buffer that stands for its abstract one in
// this run (the call's arguments, fresh intermediates, a batched or differentiated copy).
// An eval argument type is either plain (no arrays inside: PlainTraceArg says so) or has a
// rebind_arg overload beside its definition, found by argument-dependent lookup; the
// dispatch point refuses to record an op whose arguments are neither.
#pragma once
#include <cstdint>
#include <memory>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "loom/array/array.h"
#include "loom/core/scalar.h"

namespace loom {

/// What stands for one abstract buffer in a run: a buffer and the byte offset that is
/// added to every view of it (an argument's own offset in its buffer).
struct BufferBinding {
  std::shared_ptr<Buffer> buffer;
  int64_t offset_delta = 0;
};
using BufferMap = std::unordered_map<const Buffer*, BufferBinding>;

/// `a`'s view (dtype, shape, strides, offset shifted by the binding's delta) over `b`'s buffer.
inline Array rebind(const Array& a, const BufferBinding& b) {
  return Array(b.buffer, a.dtype(), a.shape(), a.strides(), a.offset() + b.offset_delta);
}

/// `a` viewing the buffer that stands for its own in `map`; `a` itself when none does
/// (a concrete array the traced function captured, a constant of the trace).
inline Array rebind(const Array& a, const BufferMap& map) {
  if (!a.valid()) return a;
  auto it = map.find(a.buffer().get());
  return it == map.end() ? a : rebind(a, it->second);
}

/// Eval argument types with no arrays inside: copied into a record and reused as they are.
template <class T>
struct PlainTraceArg : std::bool_constant<std::is_arithmetic_v<T> || std::is_enum_v<T>> {};
template <>
struct PlainTraceArg<Scalar> : std::true_type {};
template <>
struct PlainTraceArg<Device> : std::true_type {};
template <>
struct PlainTraceArg<Shape> : std::true_type {};

template <class T, std::enable_if_t<PlainTraceArg<T>::value, int> = 0>
void rebind_arg(T&, const BufferMap&) {}
inline void rebind_arg(Array& a, const BufferMap& map) { a = rebind(a, map); }
template <class T>
void rebind_arg(std::vector<T>& v, const BufferMap& map) {
  for (T& x : v) rebind_arg(x, map);
}

namespace rebind_detail {
template <class T, class = void>
struct Rebindable : std::false_type {};
template <class T>
struct Rebindable<T, std::void_t<decltype(rebind_arg(std::declval<T&>(), std::declval<const BufferMap&>()))>>
    : std::true_type {};
}  // namespace rebind_detail

/// Whether a record can hold an argument of type T (plain, or with a rebind_arg overload).
template <class T>
inline constexpr bool kRebindable = rebind_detail::Rebindable<T>::value;

}  // namespace loom
