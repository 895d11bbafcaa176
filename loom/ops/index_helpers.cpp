// numpy's index constructors as compositions (ops/index_helpers.h), and the helpers the
// in-place updates and insert/delete share with them (ops/index_helpers_internal.h).
#include "loom/ops/index_helpers.h"

#include <algorithm>
#include <optional>

#include "loom/core/error.h"
#include "loom/core/shape.h"
#include "loom/dispatch/trace.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/index_helpers_internal.h"
#include "loom/ops/indexing.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"

namespace loom {
namespace index_detail {

Array int64_indices(const char* op, const Array& indices, bool allow_bool) {
  const DType dt = indices.dtype();
  if (!is_integer(dt) && !(allow_bool && dt == DType::bool_))
    throw_dtype_error(op, std::string("only int indices permitted, not ") + dtype_name(dt));
  return dt == DType::int64 ? indices : indices.astype(DType::int64);
}

bool any_true(const Array& cond) {
  if (cond.size() == 0 || is_abstract(cond)) return false;
  bool v = false;
  any(cond).copy_to_host(&v);
  return v;
}

std::optional<int64_t> first_outside(const Array& idx, int64_t lo, int64_t hi) {
  const Array bad = ravel(logical_or(less(idx, lo), greater_equal(idx, hi)));
  if (!any_true(bad)) return std::nullopt;
  // Only on failure: a second read for the value the message names.
  int64_t pos = 0, value = 0;
  argmax(bad).copy_to_host(&pos);
  getitem(ravel(idx), {Index(pos)}).copy_to_host(&value);
  return value;
}

void check_index_bounds(const char* op, const Array& idx, int64_t lo, int64_t hi, int64_t axis, int64_t n) {
  if (const auto v = first_outside(idx, lo, hi))
    throw std::out_of_range("[" + std::string(op) + "] index " + std::to_string(*v) + " is out of bounds for axis " +
                            std::to_string(axis) + " with size " + std::to_string(n));
}

Array int64_array(const std::vector<int64_t>& values, const Device& device) {
  return from_host(HostView{values.data(), DType::int64, {static_cast<int64_t>(values.size())}, {8}}, device);
}

void check_index_mode(const char* op, const std::string& mode) {
  if (mode != "raise" && mode != "wrap" && mode != "clip")
    throw_value_error(op, "clipmode must be one of 'clip', 'raise', or 'wrap' (got '" + mode + "')");
}

Array apply_index_mode(const char* op, const Array& idx, int64_t n, const std::string& mode) {
  check_index_mode(op, mode);
  if (mode == "raise" || n == 0) return idx;  // the caller rejects indices into an empty axis
  if (mode == "wrap") return remainder(idx, n);
  return clip(idx, Operand(int64_t{0}), Operand(n - 1));
}

Array cycled(const Array& values, int64_t count) {
  const Array v = ravel(values);
  if (v.size() == count) return v;
  // tile, not v[arange(count) % size]: a gather would wait for its bounds check.
  const Array long_enough = v.size() > count ? v : tile(v, {(count + v.size() - 1) / v.size()});
  return getitem(long_enough, {Index(Slice{0, count, std::nullopt})});
}

// Coordinates of flat indices known to lie in [0, prod(shape)).
std::vector<Array> unravel_unchecked(const Array& idx, const Shape& shape, char order) {
  const int nd = static_cast<int>(shape.size());
  std::vector<Array> out(static_cast<size_t>(nd));
  Array rem = idx;
  for (int j = 0; j < nd; ++j) {
    const int d = order == 'C' ? nd - 1 - j : j;
    if (j == nd - 1 || shape[d] == 0) {  // the slowest axis takes what is left
      out[d] = rem.buffer() == idx.buffer() ? rem.copy() : rem;
      continue;
    }
    out[d] = remainder(rem, shape[d]);
    rem = floor_divide(rem, shape[d]);
  }
  return out;
}

void set_flat(const Array& a, const Array& positions, const Array& values) {
  if (a.is_contiguous()) {
    setitem(a.view({a.size()}, {static_cast<int64_t>(a.itemsize())}, a.offset()), {Index(positions)}, values);
    return;
  }
  std::vector<Index> ix;
  for (const Array& c : unravel_unchecked(positions, a.shape(), 'C')) ix.emplace_back(c);
  setitem(a, ix, values);
}

}  // namespace index_detail

namespace {

using namespace index_detail;

void check_order(const char* op, char order) {
  if (order != 'C' && order != 'F') throw_value_error(op, "only 'C' or 'F' order is permitted");
}

void check_dims(const char* op, const Shape& dims) {
  for (int64_t d : dims)
    if (d < 0) throw_value_error(op, "dimensions must be non-negative");
  shape_size(dims, op);  // ValueError when the product overflows
}

// Row i of the lower triangle holds columns [0, clamp(i + k + 1, 0, m)), of the upper one
// [clamp(i + k, 0, m), m). The counts are known on the host, so the indices are one repeat
// of arange(n) and arange(total) shifted per row: no read back from the device.
std::vector<Array> triangle_indices(int64_t n, int64_t k, std::optional<int64_t> m_opt, bool lower,
                                    std::optional<Device> device) {
  const Device dev = device ? *device : default_device();
  n = std::max<int64_t>(n, 0);
  const int64_t m = std::max<int64_t>(m_opt.value_or(n), 0);
  k = std::clamp<int64_t>(k, -n - 1, m + 1);  // the same triangle, without overflow below
  std::vector<int64_t> counts(static_cast<size_t>(n)), shift(static_cast<size_t>(n));
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t lo = lower ? 0 : std::clamp<int64_t>(i + k, 0, m);
    const int64_t hi = lower ? std::clamp<int64_t>(i + k + 1, 0, m) : m;
    counts[i] = hi - lo;
    shift[i] = lo - total;
    total += counts[i];
  }
  const Array rows = repeat(arange(0, n, 1, DType::int64, dev), counts, 0);
  const Array cols = add(arange(0, total, 1, DType::int64, dev), repeat(int64_array(shift, dev), counts, 0));
  return {rows, cols};
}

const Array& two_d(const char* op, const Array& arr) {
  if (arr.ndim() != 2) throw_value_error(op, "input array must be 2-d");
  return arr;
}

}  // namespace

std::vector<Array> diag_indices(int64_t n, int64_t ndim, std::optional<Device> device) {
  // NumPy repeats one array ndim times; so does loom (the entries share a buffer).
  const Array idx = arange(0, std::max<int64_t>(n, 0), 1, DType::int64, device);
  return std::vector<Array>(static_cast<size_t>(std::max<int64_t>(ndim, 0)), idx);
}

std::vector<Array> diag_indices_from(const Array& arr) {
  if (arr.ndim() < 2) throw_value_error("diag_indices_from", "input array must be at least 2-d");
  for (int64_t d : arr.shape())
    if (d != arr.shape()[0]) throw_value_error("diag_indices_from", "All dimensions of input must be of equal length");
  return diag_indices(arr.shape()[0], arr.ndim(), arr.device());
}

std::vector<Array> tril_indices(int64_t n, int64_t k, std::optional<int64_t> m, std::optional<Device> device) {
  return triangle_indices(n, k, m, true, device);
}

std::vector<Array> triu_indices(int64_t n, int64_t k, std::optional<int64_t> m, std::optional<Device> device) {
  return triangle_indices(n, k, m, false, device);
}

std::vector<Array> tril_indices_from(const Array& arr, int64_t k) {
  const Array& a = two_d("tril_indices_from", arr);
  return tril_indices(a.shape()[0], k, a.shape()[1], a.device());
}

std::vector<Array> triu_indices_from(const Array& arr, int64_t k) {
  const Array& a = two_d("triu_indices_from", arr);
  return triu_indices(a.shape()[0], k, a.shape()[1], a.device());
}

Array ravel_multi_index(const std::vector<Array>& multi_index, const Shape& dims, const std::vector<std::string>& mode,
                        char order, std::optional<Device> device) {
  const char* op = "ravel_multi_index";
  const size_t nd = dims.size();
  if (multi_index.size() != nd)
    throw_value_error(op, "parameter multi_index must be a sequence of length " + std::to_string(nd));
  if (mode.size() != 1 && mode.size() != nd) throw_value_error(op, "mode must be one string or one per dimension");
  check_order(op, order);
  check_dims(op, dims);
  if (nd == 0) return zeros({}, DType::int64, device);
  std::vector<Shape> shapes;
  for (const Array& c : multi_index) {
    check_same_device(op, multi_index[0].device(), c.device());
    shapes.push_back(c.shape());
  }
  const bool any_elements = shape_size(broadcast_shapes(shapes, op), op) > 0;
  std::vector<int64_t> stride(nd, 1);  // elements between neighbours along each dimension
  for (size_t j = 1; j < nd; ++j) {
    const size_t d = order == 'C' ? nd - 1 - j : j, prev = order == 'C' ? d + 1 : d - 1;
    stride[d] = stride[prev] * dims[prev];
  }
  Array flat, bad;
  for (size_t d = 0; d < nd; ++d) {
    Array idx = int64_indices(op, multi_index[d], true);
    const std::string& m = mode[mode.size() == 1 ? 0 : d];
    if (dims[d] == 0 && any_elements) throw_value_error(op, "invalid entry in coordinates array");
    if (m == "raise") {
      const Array b = logical_or(less(idx, 0), greater_equal(idx, dims[d]));
      bad = bad.valid() ? logical_or(bad, b) : b;
    }
    idx = apply_index_mode(op, idx, dims[d], m);
    const Array term = multiply(idx, stride[d]);
    flat = flat.valid() ? add(flat, term) : term;
  }
  if (bad.valid() && any_true(bad)) throw_value_error(op, "invalid entry in coordinates array");
  return flat;
}

std::vector<Array> unravel_index(const Array& indices, const Shape& shape, char order) {
  const char* op = "unravel_index";
  check_order(op, order);
  check_dims(op, shape);
  const Array idx = int64_indices(op, indices, true);
  if (shape.empty() && idx.ndim() > 0) throw_value_error(op, "multiple indices are not supported for 0d arrays");
  const int64_t size = shape_size(shape, op);
  if (const auto v = first_outside(idx, 0, size))
    throw_value_error(op, "index " + std::to_string(*v) + " is out of bounds for array with size " +
                              std::to_string(size));
  return unravel_unchecked(idx, shape, order);
}

std::vector<Array> ix_(const std::vector<Array>& args) {
  const size_t nd = args.size();
  std::vector<Array> out;
  for (size_t k = 0; k < nd; ++k) {
    Array a = args[k];
    if (a.ndim() != 1) throw_value_error("ix_", "Cross index must be 1 dimensional");
    if (a.dtype() == DType::bool_) a = nonzero(a)[0];
    Shape s(nd, 1);
    s[k] = a.size();
    out.push_back(reshape(a, s));
  }
  return out;
}

}  // namespace loom
