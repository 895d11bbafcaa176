// tile and repeat: copies built from a broadcast view written into a contiguous output
// (one copyto), except repeat with unequal counts, which gathers whole rows.
#include <algorithm>
#include <string>

#include "loom/ops/shape_ops_primitives.h"
#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/shape_ops.h"

namespace loom {
namespace {

// `a` with one more axis of length `r` after `axis`, copied; then merged into `axis`.
Array repeat_uniform(const Array& a, int64_t r, int axis) {
  Shape sh = a.shape(), bsh = a.shape();
  Strides st = a.strides();
  sh.insert(sh.begin() + axis + 1, r);
  bsh.insert(bsh.begin() + axis + 1, 1);
  st.insert(st.begin() + axis + 1, 0);
  const Array out = Array::allocate(sh, a.dtype(), a.device());
  copyto(out, a.view(bsh, st, a.offset()));  // broadcast along the new axis
  Shape merged = a.shape();
  merged[axis] *= r;
  return out.view(merged, contiguous_strides(merged, a.itemsize()), 0);
}

}  // namespace

Array tile(const Array& a, const std::vector<int64_t>& reps) {
  const int d = std::max(static_cast<int>(reps.size()), a.ndim());
  if (a.size() == 0) {
    // As NumPy: nothing is repeated, the empty result takes shape s * r (a negative r then
    // goes through reshape's rules).
    Shape padded(d, 1), out(d);
    for (int i = 0; i < a.ndim(); ++i) padded[d - a.ndim() + i] = a.shape()[i];
    for (int i = 0; i < d; ++i) {
      const int ri = i - (d - static_cast<int>(reps.size()));
      out[i] = padded[i] * (ri >= 0 ? reps[ri] : 1);
    }
    return reshape(Array::allocate(padded, a.dtype(), a.device()), out);
  }
  for (int64_t r : reps)
    if (r < 0) throw_value_error("tile", "negative dimensions are not allowed");
  // Both right-aligned to d axes; the copy is written as (r0, s0, r1, s1, ...).
  Shape inter(2 * d), final_shape(d);
  Strides ist(2 * d, 0);
  for (int i = 0; i < d; ++i) {
    const int ai = i - (d - a.ndim()), ri = i - (d - static_cast<int>(reps.size()));
    const int64_t r = ri >= 0 ? reps[ri] : 1, s = ai >= 0 ? a.shape()[ai] : 1;
    inter[2 * i] = r;
    inter[2 * i + 1] = s;
    ist[2 * i + 1] = ai >= 0 ? a.strides()[ai] : 0;
    final_shape[i] = r * s;
  }
  shape_size(inter, "tile");
  Shape bsh = inter;
  for (int i = 0; i < d; ++i) bsh[2 * i] = 1;
  const Array out = Array::allocate(inter, a.dtype(), a.device());
  copyto(out, a.view(bsh, ist, a.offset()));
  return out.view(final_shape, contiguous_strides(final_shape, a.itemsize()), 0);
}

Array repeat(const Array& a, int64_t repeats, std::optional<int64_t> axis) {
  if (repeats < 0) throw_value_error("repeat", "negative dimensions are not allowed");
  // A 0-d array repeats as a 1-d one, as NumPy.
  const Array src = axis && a.ndim() > 0 ? a : ravel(a);
  const int ax = axis ? normalize_axis(*axis, src.ndim(), "repeat") : 0;
  return repeat_uniform(src, repeats, ax);
}

Array repeat(const Array& a, const std::vector<int64_t>& repeats, std::optional<int64_t> axis) {
  if (repeats.size() == 1) return repeat(a, repeats[0], axis);
  // A 0-d array repeats as a 1-d one, as NumPy.
  const Array src = axis && a.ndim() > 0 ? a : ravel(a);
  const int ax = axis ? normalize_axis(*axis, src.ndim(), "repeat") : 0;
  const int64_t n = src.shape()[ax];
  if (static_cast<int64_t>(repeats.size()) != n)
    throw_value_error("repeat", "operands could not be broadcast together with shape (" + std::to_string(n) +
                                    ",) (" + std::to_string(repeats.size()) + ",)");
  int64_t m = 0;
  for (int64_t r : repeats) {
    if (r < 0) throw_value_error("repeat", "repeats may not contain negative values.");
    m += r;
  }
  if (n == 0 || std::all_of(repeats.begin(), repeats.end(), [&](int64_t r) { return r == repeats[0]; }))
    return repeat_uniform(src, n == 0 ? 0 : repeats[0], ax);

  Shape sh = src.shape();
  sh[ax] = m;
  const Array out = Array::allocate(sh, src.dtype(), src.device());
  if (out.size() == 0) return out;
  std::vector<int64_t> idx;
  idx.reserve(m);
  for (int64_t j = 0; j < n; ++j) idx.insert(idx.end(), repeats[j], j);
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < ax; ++i) outer *= sh[i];
  for (int i = ax + 1; i < src.ndim(); ++i) inner *= sh[i];
  const Array c = src.contiguous();
  const Array rows = from_host(HostView{idx.data(), int64, {m}, {8}}, out.device());
  dispatch(primitives::repeat, {c, rows}, {out}, c, rows, out, outer, n, inner);
  return out;
}

}  // namespace loom
