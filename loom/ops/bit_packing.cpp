// numpy's packbits and unpackbits as compositions (ops/bit_packing.h): the packed axis is
// moved last, split into bytes of eight bits, and moved back.
#include "loom/ops/bit_packing.h"

#include "loom/core/error.h"
#include "loom/core/shape.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/indexing.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"

namespace loom {
namespace {

// The bit positions of elements 0..7 of a byte: 7..0 for "big", 0..7 for "little".
Array bit_shifts(const char* op, const std::string& bitorder, const Device& device) {
  if (bitorder != "big" && bitorder != "little") throw_value_error(op, "'order' must be either 'little' or 'big'");
  const Array up = arange(0, 8, 1, DType::uint8, device);
  return bitorder == "big" ? subtract(7, up) : up;
}

// a with the packed axis last (a 0-d a counts as 1-d, as NumPy's), and that axis.
std::pair<Array, int> axis_last(const char* op, const Array& a, std::optional<int64_t> axis) {
  if (!axis) return {ravel(a), 0};
  const Array x = a.ndim() == 0 ? reshape(a, {1}) : a;
  const int ax = normalize_axis(*axis, x.ndim(), op);
  return {moveaxis(x, {ax}, {-1}), ax};
}

// The length of the last axis set to `len`: cut, or padded with zeros.
Array fit_last(const Array& x, int64_t len) {
  const int64_t have = x.shape().back();
  std::vector<Index> cut(static_cast<size_t>(x.ndim() - 1), Index(Slice{}));
  cut.emplace_back(Slice{0, std::min(len, have), std::nullopt});
  if (len <= have) return getitem(x, cut);
  Shape pad = x.shape();
  pad.back() = len - have;
  return concatenate({x, zeros(pad, x.dtype(), x.device())}, -1);
}

}  // namespace

Array packbits(const Array& a, std::optional<int64_t> axis, const std::string& bitorder) {
  const char* op = "packbits";
  if (!is_integer(a.dtype()) && a.dtype() != DType::bool_)
    throw_dtype_error(op, std::string("Expected an input array of integer or boolean data type, not ") + dtype_name(a.dtype()));
  const Array shifts = bit_shifts(op, bitorder, a.device());
  auto [x, ax] = axis_last(op, a, axis);
  const int64_t n = x.shape().back(), bytes = (n + 7) / 8;
  Shape grouped = x.shape();
  grouped.back() = bytes;
  grouped.push_back(8);
  const Array bits = reshape(fit_last(not_equal(x, 0).astype(DType::uint8), bytes * 8), grouped);
  // Distinct bits never carry, so their sum is their bitwise or; it fits a uint8.
  const Array packed = sum(left_shift(bits, shifts), std::vector<int64_t>{-1}, false, DType::uint8);
  return moveaxis(packed, {-1}, {ax}).contiguous();
}

Array unpackbits(const Array& a, std::optional<int64_t> axis, std::optional<int64_t> count, const std::string& bitorder) {
  const char* op = "unpackbits";
  if (a.dtype() != DType::uint8)
    throw_dtype_error(op, std::string("Expected an input array of unsigned byte data type, not ") + dtype_name(a.dtype()));
  const Array shifts = bit_shifts(op, bitorder, a.device());
  auto [x, ax] = axis_last(op, a, axis);
  const int64_t n = x.shape().back() * 8;
  Shape flat = x.shape();
  flat.back() = n;
  const Array bits = reshape(bitwise_and(right_shift(expand_dims(x, {-1}), shifts), 1), flat);
  int64_t len = n;
  if (count) {
    if (*count < -n) throw_value_error(op, "-count larger than number of elements");
    len = *count < 0 ? n + *count : *count;
  }
  return moveaxis(fit_last(bits, len), {-1}, {ax}).contiguous();
}

}  // namespace loom
