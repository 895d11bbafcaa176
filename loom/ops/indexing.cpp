// getitem / setitem / at_update: NumPy's index rules. Basic indices become a view; the
// advanced ones become an IndexArrays + IndexLayout plan (backend/indexing_plan.h) that the
// backends gather from or scatter into.
#include "loom/ops/indexing.h"

#include <string>

#include "loom/ops/indexing_primitives.h"
#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"

namespace loom {
namespace {

[[noreturn]] void index_error(const char* op, const std::string& msg) {
  throw std::out_of_range(std::string("[") + op + "] " + msg);
}

// The index after its basic part: `view` keeps one axis per advanced index.
struct Parsed {
  Array view;
  std::vector<int> adv_axes;    // axes of `view` indexed by arrays
  std::vector<Array> adv;       // integer arrays, one per advanced axis
  std::vector<int> orig_axes;   // the axis of x each one indexes (for messages)
  int insert_pos = 0;           // where the broadcast index dims go in the result
  bool advanced() const { return !adv.empty(); }
};

// CPython's PySlice_AdjustIndices: (start, step, length) of a slice over n elements.
void adjust_slice(const Slice& s, int64_t n, int64_t& start, int64_t& step, int64_t& len) {
  step = s.step.value_or(1);
  if (step == 0) throw std::invalid_argument("[getitem] slice step cannot be zero");
  if (step < -INT64_MAX) step = -INT64_MAX;
  auto clip = [&](std::optional<int64_t> v, int64_t dflt) {
    if (!v) return dflt;
    int64_t x = *v;
    if (x < 0) {
      x = x < -n ? (step < 0 ? -1 : 0) : x + n;
    } else if (x >= n) {
      x = step < 0 ? n - 1 : n;
    }
    return x;
  };
  start = clip(s.start, step < 0 ? n - 1 : 0);
  const int64_t stop = clip(s.stop, step < 0 ? -1 : n);
  if (step < 0) len = stop < start ? (start - stop - 1) / (-step) + 1 : 0;
  else len = start < stop ? (stop - start - 1) / step + 1 : 0;
}

Parsed parse(const Array& x, const std::vector<Index>& index, const char* op) {
  int consumed = 0, ellipses = 0;
  bool has_array = false;
  for (const Index& ix : index) {
    switch (ix.kind()) {
      case Index::Kind::integer:
      case Index::Kind::slice: ++consumed; break;
      case Index::Kind::ellipsis: ++ellipses; break;
      case Index::Kind::newaxis: break;
      case Index::Kind::array: {
        const Array& a = ix.array();
        if (!a.valid()) throw_value_error(op, "index array is empty (default-constructed)");
        check_same_device(op, x.device(), a.device());
        if (a.dtype() == bool_) consumed += a.ndim();
        else if (is_integer(a.dtype())) ++consumed;
        else index_error(op, "arrays used as indices must be of integer (or boolean) type");
        has_array = true;
        break;
      }
    }
  }
  if (ellipses > 1) index_error(op, "an index can only have a single ellipsis ('...')");
  if (consumed > x.ndim()) {
    index_error(op, "too many indices for array: array is " + std::to_string(x.ndim()) +
                        "-dimensional, but " + std::to_string(consumed) + " were indexed");
  }

  Parsed p;
  Shape shape;
  Strides strides;
  int64_t offset = x.offset();
  int d = 0;             // next axis of x
  int last_adv = -2;     // item position of the previous advanced index
  bool adjacent = true;  // all advanced items next to each other
  auto note_adv = [&](size_t item) {
    if (last_adv == -2) p.insert_pos = static_cast<int>(shape.size());
    else if (last_adv != static_cast<int>(item) - 1) adjacent = false;
    last_adv = static_cast<int>(item);
  };
  auto add_adv = [&](Array a, int64_t size, int64_t stride, int orig) {
    p.adv_axes.push_back(static_cast<int>(shape.size()));
    p.adv.push_back(std::move(a));
    p.orig_axes.push_back(orig);
    shape.push_back(size);
    strides.push_back(stride);
  };
  for (size_t item = 0; item < index.size(); ++item) {
    const Index& ix = index[item];
    switch (ix.kind()) {
      case Index::Kind::integer: {
        const int64_t n = x.shape()[d];
        const int64_t v = ix.integer() < 0 ? ix.integer() + n : ix.integer();
        if (v < 0 || v >= n) {
          index_error(op, "index " + std::to_string(ix.integer()) + " is out of bounds for axis " +
                              std::to_string(d) + " with size " + std::to_string(n));
        }
        offset += v * x.strides()[d];
        ++d;
        if (has_array) note_adv(item);  // integers are advanced indices next to arrays
        break;
      }
      case Index::Kind::slice: {
        int64_t start, step, len;
        adjust_slice(ix.slice(), x.shape()[d], start, step, len);
        if (len > 0) offset += start * x.strides()[d];
        shape.push_back(len);
        strides.push_back(step * x.strides()[d]);
        ++d;
        break;
      }
      case Index::Kind::newaxis:
        shape.push_back(1);
        strides.push_back(0);
        break;
      case Index::Kind::ellipsis:
        for (int e = 0; e < x.ndim() - consumed; ++e, ++d) {
          shape.push_back(x.shape()[d]);
          strides.push_back(x.strides()[d]);
        }
        break;
      case Index::Kind::array: {
        const Array& a = ix.array();
        note_adv(item);
        if (a.dtype() != bool_) {
          add_adv(a, x.shape()[d], x.strides()[d], d);
          ++d;
        } else if (a.ndim() == 0) {
          // x[True] / x[False]: a new axis of length 1, indexed by [0] or by [].
          bool truth = false;
          a.copy_to_host(&truth);
          Array i = zeros({truth ? 1 : 0}, int64, x.device());
          add_adv(i, 1, 0, d);
        } else {
          for (int k = 0; k < a.ndim(); ++k) {
            // An empty boolean axis selects nothing whatever the length it stands for:
            // NumPy accepts it against any length (x of shape (2, 1) takes a (0, 0) mask).
            if (a.shape()[k] != x.shape()[d + k] && a.shape()[k] != 0) {
              index_error(op, "boolean index did not match indexed array along axis " + std::to_string(d + k) +
                                  "; size of axis is " + std::to_string(x.shape()[d + k]) +
                                  " but size of corresponding boolean axis is " + std::to_string(a.shape()[k]));
            }
          }
          const std::vector<Array> nz = nonzero(a);
          for (int k = 0; k < a.ndim(); ++k) add_adv(nz[k], x.shape()[d + k], x.strides()[d + k], d + k);
          d += a.ndim();
        }
        break;
      }
    }
  }
  for (; d < x.ndim(); ++d) {
    shape.push_back(x.shape()[d]);
    strides.push_back(x.strides()[d]);
  }
  if (!adjacent) p.insert_pos = 0;
  p.view = x.view(std::move(shape), std::move(strides), offset);
  return p;
}

// The advanced part of a parsed index: materialized int64 index arrays and the walk.
struct Plan {
  IndexArrays ix;
  IndexLayout layout;
  Shape result_shape;
  int64_t nb = 1;  // |B|
};

Plan make_plan(const Parsed& p, const char* op) {
  Plan plan;
  std::vector<Shape> shapes;
  for (const Array& a : p.adv) shapes.push_back(a.shape());
  Shape B;
  try {
    B = broadcast_shapes(shapes, op);
  } catch (const std::invalid_argument&) {
    std::string s;
    for (const Shape& sh : shapes) s += shape_str(sh) + " ";
    index_error(op, "shape mismatch: indexing arrays could not be broadcast together with shapes " + s);
  }
  plan.nb = shape_size(B);
  for (size_t j = 0; j < p.adv.size(); ++j) {
    const Array& a = p.adv[j];
    if (a.dtype() == int64 && a.shape() == B && a.is_contiguous()) {
      plan.ix.indices.push_back(a);
    } else {
      Array m = Array::allocate(B, int64, a.device());
      copyto(m, a);
      plan.ix.indices.push_back(m);
    }
    plan.ix.dim_sizes.push_back(p.view.shape()[p.adv_axes[j]]);
    plan.ix.byte_strides.push_back(p.view.strides()[p.adv_axes[j]]);
  }
  // The remaining axes of the view, with B inserted (as one walk dimension) at insert_pos.
  Shape rest;
  Strides rest_strides;
  for (int a = 0, j = 0; a < p.view.ndim(); ++a) {
    if (j < static_cast<int>(p.adv_axes.size()) && p.adv_axes[j] == a) {
      ++j;
      continue;
    }
    rest.push_back(p.view.shape()[a]);
    rest_strides.push_back(p.view.strides()[a]);
  }
  plan.result_shape.assign(rest.begin(), rest.begin() + p.insert_pos);
  plan.result_shape.insert(plan.result_shape.end(), B.begin(), B.end());
  plan.result_shape.insert(plan.result_shape.end(), rest.begin() + p.insert_pos, rest.end());

  IndexLayout& l = plan.layout;
  auto push = [&](int64_t n, int64_t s, int64_t b) {
    if (n == 1) return;  // its coordinate is always 0
    if (!l.shape.empty() && b == 0 && l.b_strides.back() == 0 && l.src_strides.back() == n * s) {
      l.shape.back() *= n;  // merge with the previous rest dimension
      l.src_strides.back() = s;
      return;
    }
    l.shape.push_back(n);
    l.src_strides.push_back(s);
    l.b_strides.push_back(b);
  };
  for (int a = 0; a < p.insert_pos; ++a) push(rest[a], rest_strides[a], 0);
  push(plan.nb, 0, 1);
  for (size_t a = p.insert_pos; a < rest.size(); ++a) push(rest[a], rest_strides[a], 0);
  return plan;
}

// Raises NumPy's IndexError when `bad` (int64 (1,)) holds the key j * nb + b of an
// out-of-bounds index (index array j, position b); -1: every index in bounds.
void throw_if_out_of_bounds(const Parsed& p, const Plan& plan, const Array& bad, const char* op) {
  int64_t key = -1;
  bad.copy_to_host(&key);
  if (key < 0) return;
  const int64_t n = plan.nb;
  const int which = static_cast<int>(key / n);
  const Array& idx = plan.ix.indices[which];
  int64_t value = 0;
  idx.view({1}, {8}, idx.offset() + (key % n) * 8).copy_to_host(&value);
  index_error(op, "index " + std::to_string(value) + " is out of bounds for axis " + std::to_string(p.orig_axes[which]) +
                      " with size " + std::to_string(plan.ix.dim_sizes[which]));
}

// The byte offsets of each index position; raises IndexError for an out-of-bounds index.
// The device part (`offsets`, dispatched) leaves the first bad position in a word after
// the offsets; the host part reads it (and the bad index) back here.
Array offsets_or_throw(const Parsed& p, const Plan& plan, const Primitive<IndexOffsetsFn>& offsets,
                       const char* op) {
  if (plan.nb == 0) return Array();
  const int64_t n = plan.nb;
  const Array out = Array::allocate({n + 1}, int64, p.view.device());
  // Every index array is an input, so that the transforms see what the offsets depend on
  // (jit's liveness, vmap's batched buffers); one index, the usual case, needs no vector.
  if (plan.ix.indices.size() == 1) {
    dispatch(offsets, {plan.ix.indices[0]}, {out}, plan.ix, out);
  } else {
    const std::vector<ArrayRefs::Ref> in(plan.ix.indices.begin(), plan.ix.indices.end());
    dispatch(offsets, in, {out}, plan.ix, out);
  }
  // A traced function cannot raise on values: its out-of-bounds indices are clamped to the
  // axis, as in JAX (docs/TRANSFORMS.md).
  if (is_abstract(out)) return out.view({n}, {8}, out.offset());
  throw_if_out_of_bounds(p, plan, out.view({1}, {8}, out.offset() + n * 8), op);
  return out.view({n}, {8}, out.offset());
}

// A getitem whose result is the index shape alone (take, x[i, j], take_along_axis): outside
// tracing, the bounds check and the gather run as one pass (primitives::getitem_indexed),
// without the offsets array in between; the flag is read back after it.
bool index_shape_only(const Plan& plan) {
  const IndexLayout& l = plan.layout;
  return plan.nb > 0 && l.shape.size() == 1 && l.b_strides[0] == 1 && l.src_strides[0] == 0;
}

Array gather_in_one_pass(const Parsed& p, const Plan& plan, const char* op) {
  Array out = Array::allocate(plan.result_shape, p.view.dtype(), p.view.device());
  const Array bad = Array::allocate({1}, int64, p.view.device());
  std::vector<ArrayRefs::Ref> in{p.view};
  in.insert(in.end(), plan.ix.indices.begin(), plan.ix.indices.end());
  dispatch(primitives::getitem_indexed, in, {out, bad}, p.view, plan.ix, out, bad);
  throw_if_out_of_bounds(p, plan, bad, op);
  return out;
}

// The walk of a plain strided view (no advanced index): every element once.
IndexLayout view_layout(const Array& v) {
  IndexLayout l;
  const CollapsedLayout c = collapse_dims(v.shape(), v.strides());
  l.shape = c.shape;
  l.src_strides = c.strides;
  l.b_strides.assign(c.shape.size(), 0);
  return l;
}

// setitem and x.at[...] reach the same scatter eval through a record of their own.
void scatter(const Array& dst, const Array& offsets, const IndexLayout& l, const Array& values, ScatterMode m) {
  const Primitive<ScatterFn>& p = m == ScatterMode::set ? primitives::setitem : primitives::at;
  if (offsets.valid()) dispatch(p, {dst, offsets, values}, {dst}, dst, offsets, l, values, m);
  else dispatch(p, {dst, values}, {dst}, dst, offsets, l, values, m);
}

// NumPy's assignment drops leading length-1 dimensions of the value beyond the target's.
Array strip_leading_ones(const Array& value, size_t ndim) {
  Array v = value;
  while (v.ndim() > static_cast<int>(ndim) && v.shape()[0] == 1)
    v = v.view(Shape(v.shape().begin() + 1, v.shape().end()), Strides(v.strides().begin() + 1, v.strides().end()),
               v.offset());
  return v;
}

// `value` broadcast to `shape` and cast to `dt`, as a new contiguous array.
Array materialize(const Array& value, const Shape& shape, DType dt, const Device& dev) {
  Array out = Array::allocate(shape, dt, dev);
  copyto(out, strip_leading_ones(value, shape.size()));
  return out;
}

// Basic setitem of view `v` of x as one copyto (which writes any strided view); false when
// the copy engine of v's backend cannot write this view (UnsupportedError before anything
// is written): the caller then scatters a materialized value, the GPU's route before its
// copyto took strided destinations.
bool set_by_copy(const Array& x, const Array& v, const Array& value) {
  // A value that shares x's memory may overlap the view: copy it first, as NumPy does.
  const Array src = strip_leading_ones(value, v.shape().size());
  const Array s = value.buffer() == x.buffer() ? src.copy() : src;
  if (v.is_contiguous()) {
    copyto(v, s);
    return true;
  }
  try {
    copyto(v, s);
    return true;
  } catch (const UnsupportedError&) {
    return false;
  }
}

// Writes (or combines) `value` into x[index]; x is modified in place.
void update(const Array& x, const std::vector<Index>& index, const Array& value, ScatterMode mode, const char* op) {
  check_same_device(op, x.device(), value.device());
  const Parsed p = parse(x, index, op);
  if (!p.advanced()) {
    const Array& v = p.view;
    if (mode == ScatterMode::set && set_by_copy(x, v, value)) return;
    const Array vals = materialize(value, v.shape(), x.dtype(), x.device());
    if (v.size() > 0) scatter(v, Array(), view_layout(v), vals, mode);
    return;
  }
  const Plan plan = make_plan(p, op);
  const Array vals = materialize(value, plan.result_shape, x.dtype(), x.device());
  const Array off = offsets_or_throw(p, plan, mode == ScatterMode::set ? primitives::setitem_offsets
                                                                      : primitives::at_offsets, op);
  if (shape_size(plan.result_shape) > 0) scatter(p.view, off, plan.layout, vals, mode);
}

}  // namespace

Array getitem(const Array& x, const std::vector<Index>& index) {
  const char* op = "getitem";
  const Parsed p = parse(x, index, op);
  if (!p.advanced()) return p.view;
  const Plan plan = make_plan(p, op);
  if (!is_tracing() && index_shape_only(plan)) return gather_in_one_pass(p, plan, op);
  const Array off = offsets_or_throw(p, plan, primitives::getitem_offsets, op);
  Array out = Array::allocate(plan.result_shape, x.dtype(), x.device());
  if (out.size() == 0) return out;
  dispatch(primitives::getitem, {p.view, off}, {out}, p.view, off, plan.layout, out);
  return out;
}

void setitem(const Array& x, const std::vector<Index>& index, const Array& value) {
  update(x, index, value, ScatterMode::set, "setitem");
}

Array at_update(const Array& x, const std::vector<Index>& index, const Array& value, AtOp op) {
  Array out = x.copy();
  update(out, index, value, static_cast<ScatterMode>(op), "at");
  return out;
}

}  // namespace loom
