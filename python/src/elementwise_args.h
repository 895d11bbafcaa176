// Argument handling shared by the elementwise bindings (ufuncs and ndarray operators).
#pragma once
#include <initializer_list>
#include <optional>

#include "bindings.h"

namespace loom::py {

/// The device of the first loom array among `hs` (None and non-arrays are skipped).
std::optional<Device> device_of(std::initializer_list<nb::handle> hs);
/// A loom array as it is; a Python bool/int/float as a weak scalar; anything array-like
/// (NumPy arrays and scalars, lists) as an array on `dev` (default: the default device).
/// `comparison`: the operand of ==, <, ...: a Python int beyond 64 bits is then the float
/// nearest to it (inf beyond float64), which orders exactly against every integer array
/// (NumPy 2 defines these comparisons; arithmetic with such ints still raises OverflowError).
Operand to_operand(nb::handle h, const std::optional<Device>& dev, bool comparison = false);
/// Like to_operand, but false (instead of raising) for objects that are not numbers or
/// array-likes, so that operators can return NotImplemented.
bool try_operand(nb::handle h, const std::optional<Device>& dev, Operand* out, bool comparison = false);
/// True for ==, !=, <, <=, >, >=.
bool is_comparison_op(OpId op);
/// Releases the GIL only when an op has enough elements for other threads to gain from
/// it: for small arrays the release/reacquire costs more than the op's host work.
class ReleaseGilIfLarge {
 public:
  static constexpr int64_t kThreshold = int64_t{1} << 14;
  explicit ReleaseGilIfLarge(int64_t elements) {
    if (elements >= kThreshold) release_.emplace();
  }

 private:
  std::optional<nb::gil_scoped_release> release_;
};

/// The largest element count among the array operands (what a call's work scales with).
inline int64_t work_of(const Operand* ops, int n) {
  int64_t w = 0;
  for (int i = 0; i < n; ++i)
    if (!ops[i].is_scalar && ops[i].array.size() > w) w = ops[i].array.size();
  return w;
}

/// casting='same_kind', the default of every ufunc binding (one object: see call_ufunc).
nb::str same_kind_name();

/// A ufunc call from Python: inputs, out= (None or a loom array), where= (True or a mask),
/// dtype= (None or a dtype), casting= (NumPy's rule names). Returns `out` itself when given,
/// as NumPy.
nb::object call_ufunc(OpId op, std::initializer_list<nb::handle> ins, nb::handle out, nb::handle where,
                      nb::handle dtype, nb::handle casting = same_kind_name());

/// Binds op-table row `op` as the ufunc `name` of `m`: its operands positional (x, or x1, x2
/// and x3), then out=, where=, dtype= and casting= as NumPy's ufuncs take them.
void def_ufunc(nb::module_& m, OpId op, const char* name, const std::string& doc);

}  // namespace loom::py
