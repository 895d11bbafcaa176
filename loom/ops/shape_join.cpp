// Joining (concatenate, stack, hstack, vstack: copies) and splitting (split, array_split:
// views) along an axis.
#include <algorithm>
#include <string>

#include "loom/core/error.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/shape_ops.h"

namespace loom {
namespace detail {
// Not public: the GPU path of concatenate until copyto takes strided GPU destinations
// (declared here and in shape_ops_test.cpp, which runs it on the CPU).
void write_along_via_axis0(const Array& out, const std::vector<Array>& parts, int axis);
}  // namespace detail

namespace {

// NumPy's can_cast(from, to, casting).
bool can_cast(DType from, DType to, const std::string& casting, const char* op) {
  if (casting == "unsafe") return true;
  if (casting == "no" || casting == "equiv") return from == to;
  const bool safe = promote_types(from, to) == to;
  if (casting == "safe") return safe;
  if (casting == "same_kind") return safe || can_cast_same_kind(from, to);
  throw_value_error(op, "casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'");
}

// np.result_type of the arrays' dtypes. Pairwise promotion is not associative
// ((int8, uint16, float16) is float32, not float64): NumPy lets the float category lead,
// which folding the floats first reproduces (checked against NumPy on all 4-tuples).
DType result_type(const std::vector<Array>& arrays) {
  std::optional<DType> rt;
  for (int pass = 0; pass < 2; ++pass)
    for (const Array& a : arrays)
      if (is_floating(a.dtype()) == (pass == 0)) rt = rt ? promote_types(*rt, a.dtype()) : a.dtype();
  return *rt;
}

// Part [begin, begin + len) of `a` along `axis`: a view.
Array slice_axis(const Array& a, int axis, int64_t begin, int64_t len) {
  Shape sh = a.shape();
  sh[axis] = len;
  const int64_t offset = len > 0 ? a.offset() + begin * a.strides()[axis] : a.offset();
  return a.view(sh, a.strides(), offset);
}

void write_slices(const Array& out, const std::vector<Array>& parts, int axis) {
  int64_t at = 0;
  for (const Array& p : parts) {
    const int64_t n = p.shape()[axis];
    copyto(slice_axis(out, axis, at, n), p);
    at += n;
  }
}

// Fills `out` with the parts laid end to end along `axis`. Along axis 0 (or any axis with
// only length-1 axes before it) every part lands in one contiguous block.
void write_along(const Array& out, const std::vector<Array>& parts, int axis) {
  int64_t outer = 1;
  for (int i = 0; i < axis; ++i) outer *= out.shape()[i];
  if (outer <= 1 || out.size() == 0) {
    write_slices(out, parts, axis);
    return;
  }
  try {
    // The slices are strided destinations. Where the copy engine of out's backend cannot
    // write one (the CPU's always can), copyto raises UnsupportedError before enqueuing
    // anything and the path below, with contiguous destinations only, runs.
    write_slices(out, parts, axis);
    return;
  } catch (const UnsupportedError&) {
  }
  detail::write_along_via_axis0(out, parts, axis);
}

}  // namespace

namespace detail {

// Concatenates along axis 0 of a contiguous temporary with `axis` moved first (contiguous
// blocks), then makes one strided-source copy into `out`: only contiguous destinations.
void write_along_via_axis0(const Array& out, const std::vector<Array>& parts, int axis) {
  const std::vector<int64_t> from{axis}, to{0};
  const Array moved = moveaxis(out, from, to);
  const Array tmp = Array::allocate(moved.shape(), out.dtype(), out.device());
  std::vector<Array> moved_parts;
  for (const Array& p : parts) moved_parts.push_back(moveaxis(p, from, to));
  write_slices(tmp, moved_parts, 0);
  copyto(out, moveaxis(tmp, to, from));
}

}  // namespace detail

namespace {

std::string dim_count(const Array& a) { return std::to_string(a.ndim()) + " dimension(s)"; }

std::vector<Array> split_views(const Array& a, int axis, const std::vector<int64_t>& bounds) {
  std::vector<Array> out;
  for (size_t i = 0; i + 1 < bounds.size(); ++i) out.push_back(slice_axis(a, axis, bounds[i], bounds[i + 1] - bounds[i]));
  return out;
}

}  // namespace

Array concatenate(const std::vector<Array>& arrays, std::optional<int64_t> axis, std::optional<DType> dtype,
                  const std::string& casting) {
  if (arrays.empty()) throw_value_error("concatenate", "need at least one array to concatenate");
  for (const Array& x : arrays) check_same_device("concatenate", arrays[0].device(), x.device());
  std::vector<Array> parts;
  int ax = 0;
  if (!axis) {
    for (const Array& x : arrays) parts.push_back(ravel(x));
  } else {
    parts = arrays;
    const int nd = arrays[0].ndim();
    if (nd == 0) throw_value_error("concatenate", "zero-dimensional arrays cannot be concatenated");
    ax = normalize_axis(*axis, nd, "concatenate");
    for (size_t i = 1; i < arrays.size(); ++i) {
      const Array& x = arrays[i];
      if (x.ndim() != nd)
        throw_value_error("concatenate", "all the input arrays must have same number of dimensions, but the array "
                                         "at index 0 has " + dim_count(arrays[0]) + " and the array at index " +
                                         std::to_string(i) + " has " + dim_count(x));
      for (int d = 0; d < nd; ++d)
        if (d != ax && x.shape()[d] != arrays[0].shape()[d])
          throw_value_error("concatenate", "all the input array dimensions except for the concatenation axis "
                                           "must match exactly, but along dimension " + std::to_string(d) +
                                           ", the array at index 0 has size " + std::to_string(arrays[0].shape()[d]) +
                                           " and the array at index " + std::to_string(i) + " has size " +
                                           std::to_string(x.shape()[d]));
    }
  }
  const DType rt = dtype ? *dtype : result_type(parts);
  for (const Array& p : parts)
    if (!can_cast(p.dtype(), rt, casting, "concatenate"))
      throw_dtype_error("concatenate", std::string("Cannot cast array data from dtype('") + dtype_name(p.dtype()) +
                                           "') to dtype('" + dtype_name(rt) + "') according to the rule '" +
                                           casting + "'");
  Shape sh = parts[0].shape();
  sh[ax] = 0;
  for (const Array& p : parts) sh[ax] += p.shape()[ax];
  const Array out = Array::allocate(sh, rt, parts[0].device());
  write_along(out, parts, ax);
  return out;
}

Array stack(const std::vector<Array>& arrays, int64_t axis, std::optional<DType> dtype, const std::string& casting) {
  if (arrays.empty()) throw_value_error("stack", "need at least one array to stack");
  for (const Array& x : arrays)
    if (x.shape() != arrays[0].shape()) throw_value_error("stack", "all input arrays must have the same shape");
  const int ax = normalize_axis(axis, arrays[0].ndim() + 1, "stack");
  std::vector<Array> expanded;
  for (const Array& x : arrays) expanded.push_back(expand_dims(x, {ax}));
  return concatenate(expanded, ax, dtype, casting);
}

Array hstack(const std::vector<Array>& arrays, std::optional<DType> dtype, const std::string& casting) {
  if (arrays.empty()) throw_value_error("hstack", "need at least one array to concatenate");
  std::vector<Array> parts;
  for (const Array& x : arrays) parts.push_back(atleast_1d(x));
  // 1-d inputs join along their only axis, others along the columns.
  return concatenate(parts, parts[0].ndim() == 1 ? 0 : 1, dtype, casting);
}

Array vstack(const std::vector<Array>& arrays, std::optional<DType> dtype, const std::string& casting) {
  if (arrays.empty()) throw_value_error("vstack", "need at least one array to concatenate");
  std::vector<Array> parts;
  for (const Array& x : arrays) parts.push_back(atleast_2d(x));
  return concatenate(parts, 0, dtype, casting);
}

std::vector<Array> split_at(const Array& a, const std::vector<int64_t>& indices, int64_t axis) {
  const int ax = normalize_axis(axis, a.ndim(), "split");
  const int64_t n = a.shape()[ax];
  // Python slice rules: negative indices count from the end, all clamp to [0, n], and a
  // part whose start passes its end is empty.
  const auto clamp = [n](int64_t i) { return i < 0 ? std::max<int64_t>(i + n, 0) : std::min(i, n); };
  std::vector<Array> out;
  int64_t start = 0;
  for (size_t k = 0; k <= indices.size(); ++k) {
    const int64_t begin = clamp(start), end = k < indices.size() ? clamp(indices[k]) : n;
    out.push_back(slice_axis(a, ax, begin, std::max<int64_t>(end - begin, 0)));
    if (k < indices.size()) start = indices[k];
  }
  return out;
}

std::vector<Array> array_split(const Array& a, int64_t sections, int64_t axis) {
  if (sections <= 0) throw_value_error("array_split", "number sections must be larger than 0.");
  const int ax = normalize_axis(axis, a.ndim(), "array_split");
  const int64_t n = a.shape()[ax], each = n / sections, extras = n % sections;
  std::vector<int64_t> bounds{0};
  for (int64_t i = 0; i < sections; ++i) bounds.push_back(bounds.back() + each + (i < extras ? 1 : 0));
  return split_views(a, ax, bounds);
}

std::vector<Array> split(const Array& a, int64_t sections, int64_t axis) {
  if (sections <= 0) throw_value_error("split", "number sections must be larger than 0.");
  const int ax = normalize_axis(axis, a.ndim(), "split");
  if (a.shape()[ax] % sections != 0) throw_value_error("split", "array split does not result in an equal division");
  return array_split(a, sections, ax);
}

}  // namespace loom
