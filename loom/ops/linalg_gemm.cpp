// The batched GEMM driver behind every product: collapses batch dimensions, folds a
// broadcast right operand into one large GEMM, copies an operand only when no BLAS layout
// fits it, and hands 3-d problems to the CPU or GPU backend. Also the precision switch.
#include <array>
#include <atomic>
#include <optional>

#include "loom/backend/linalg_gemm_layout.h"
#include "loom/ops/linalg_primitives.h"
#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/buffer_origin.h"
#include "loom/ops/creation.h"
#include "loom/ops/linalg.h"
#include "loom/ops/linalg_internal.h"

namespace loom {
namespace {

std::atomic<bool> g_allow_tf32{false};

// NumPy's _attempt_nocopy_reshape: strides for `shape` over x's memory, if any exist.
std::optional<Strides> nocopy_strides(const Array& x, const Shape& shape) {
  const int64_t item = static_cast<int64_t>(x.itemsize());
  if (x.size() == 0) return contiguous_strides(shape, item);
  Shape od;
  Strides os;
  for (int i = 0; i < x.ndim(); ++i)
    if (x.shape()[i] != 1) {
      od.push_back(x.shape()[i]);
      os.push_back(x.strides()[i]);
    }
  const size_t oldnd = od.size(), newnd = shape.size();
  Strides ns(newnd, 0);
  size_t oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < newnd && oi < oldnd) {
    int64_t np = shape[ni], op = od[oi];
    while (np != op) {
      if (np < op) np *= shape[nj++];
      else op *= od[oj++];
    }
    for (size_t ok = oi; ok + 1 < oj; ++ok)
      if (os[ok] != od[ok + 1] * os[ok + 1]) return std::nullopt;
    ns[nj - 1] = os[oj - 1];
    for (size_t nk = nj - 1; nk > ni; --nk) ns[nk - 1] = ns[nk] * shape[nk];
    ni = nj++;
    oi = oj++;
  }
  const int64_t last = ni >= 1 ? ns[ni - 1] : item;
  for (size_t nk = ni; nk < newnd; ++nk) ns[nk] = last;
  return ns;
}

// An operand whose layout no BLAS accepts becomes contiguous; a matrix broadcast over the
// batch (stride 0) is copied once, not once per batch entry.
Array fit_operand(const Array& x) {
  if (gemm_operand(x).ok) return x;
  const int64_t nb = x.shape()[0];
  if (nb > 1 && x.strides()[0] == 0) {
    const Array m = x.view({x.shape()[1], x.shape()[2]}, {x.strides()[1], x.strides()[2]}, x.offset())
                        .contiguous();
    return m.view(x.shape(), {0, m.strides()[0], m.strides()[1]}, m.offset());
  }
  return x.contiguous();
}

// x @ x.conj().T, x.conj().T @ x, and the same with the conjugate on the left (x.conj() @
// x.T): one operand is a conjugate that still holds the other's memory transposed and
// conjugated (ops/buffer_origin.h), so the product is Hermitian (a rank-k update of the plain
// operand) for complex x, symmetric for real x (whose conj is a copy: the product then reads
// x twice, and the backends see x @ x.T). Never inside a transformed function.
bool conjugate_pair_gemm(const Array& a, const Array& b, const Array& out, bool tf32) {
  if (is_tracing() || a.buffer() == b.buffer()) return false;
  const bool complex = is_complex(out.dtype());
  if (const auto bs = conjugate_source(b); bs && is_transpose_pair(a, *bs)) {
    if (complex) dispatch(primitives::matmul_hermitian, {a, b}, {out}, a, b, out, false);
    else dispatch(primitives::matmul, {a, *bs}, {out}, a, *bs, out, tf32);
    return true;
  }
  if (const auto as = conjugate_source(a); as && is_transpose_pair(*as, b)) {
    if (complex) dispatch(primitives::matmul_hermitian, {b, a}, {out}, b, a, out, true);
    else dispatch(primitives::matmul, {*as, b}, {out}, *as, b, out, tf32);
    return true;
  }
  return false;
}

// One 3-d problem: a (B, m, k), b (B, k, n), out contiguous (B, m, n).
void gemm3(Array a, Array b, Array out) {
  const int64_t nb = out.shape()[0], m = out.shape()[1], n = out.shape()[2], k = a.shape()[2];
  a = fit_operand(a);
  b = fit_operand(b);
  if (conjugate_pair_gemm(a, b, out, g_allow_tf32.load(std::memory_order_relaxed))) return;
  const GemmOperand ga = gemm_operand(a), gb = gemm_operand(b);
  // A right operand shared by the batch and row-major left matrices stacked at a fixed row
  // pitch make one tall GEMM (x @ W for x of shape (batch, seq, d)): fewer, larger calls.
  if (nb > 1 && gb.batch_stride == 0 && !ga.transposed && ga.batch_stride == m * ga.ld) {
    const int64_t item = static_cast<int64_t>(a.itemsize());
    a = a.view({1, nb * m, k}, {0, ga.ld * item, item}, a.offset());
    b = b.view({1, b.shape()[1], n}, {0, b.strides()[1], b.strides()[2]}, b.offset());
    out = out.view({1, nb * m, n}, {0, n * item, item}, out.offset());
  }
  dispatch(primitives::matmul, {a, b}, {out}, a, b, out, g_allow_tf32.load(std::memory_order_relaxed));
}

}  // namespace

namespace linalg_detail {

Array reshape(const Array& x, const Shape& shape) {
  if (shape_size(shape) != x.size()) throw_value_error("reshape", "size mismatch");
  if (auto st = nocopy_strides(x, shape)) return x.view(shape, *st, x.offset());
  const Array c = x.contiguous();
  return c.view(shape, contiguous_strides(shape, c.itemsize()), c.offset());
}

Array permute(const Array& x, const std::vector<int>& axes) {
  Shape s(axes.size());
  Strides st(axes.size());
  for (size_t i = 0; i < axes.size(); ++i) {
    s[i] = x.shape()[axes[i]];
    st[i] = x.strides()[axes[i]];
  }
  return x.view(s, st, x.offset());
}

Array broadcast_view(const Array& x, const Shape& shape, const char* op) {
  Strides st(shape.size(), 0);
  const size_t lead = shape.size() - x.shape().size();
  for (size_t i = 0; i < x.shape().size(); ++i) {
    if (x.shape()[i] != shape[lead + i] && x.shape()[i] != 1)
      throw_value_error(op, "cannot broadcast shape " + shape_str(x.shape()) + " to " + shape_str(shape));
    st[lead + i] = x.shape()[i] == 1 ? 0 : x.strides()[i];
  }
  return x.view(shape, st, x.offset());
}

void gemm_into(const Array& a, const Array& b, const Array& out) {
  const int nb = out.ndim() - 2;
  const int64_t m = out.shape()[nb], n = out.shape()[nb + 1], k = a.shape()[nb + 1];
  // Batch dims merged where all three operands step through them uniformly.
  Shape bs;
  std::vector<std::array<int64_t, 3>> st;
  for (int d = 0; d < nb; ++d) {
    const int64_t len = out.shape()[d];
    if (len == 1) continue;
    const std::array<int64_t, 3> s{a.strides()[d], b.strides()[d], out.strides()[d]};
    if (!bs.empty() && st.back()[0] == s[0] * len && st.back()[1] == s[1] * len &&
        st.back()[2] == s[2] * len) {
      bs.back() *= len;
      st.back() = s;
    } else {
      bs.push_back(len);
      st.push_back(s);
    }
  }
  if (bs.empty()) {
    bs.push_back(1);
    st.push_back({0, 0, 0});
  }
  const int outer = static_cast<int>(bs.size()) - 1;
  const int64_t inner = bs.back();
  int64_t count = 1;
  for (int d = 0; d < outer; ++d) count *= bs[d];
  const Array* ops[3] = {&a, &b, &out};
  const Shape shapes[3] = {{inner, m, k}, {inner, k, n}, {inner, m, n}};
  // Batch dims that do not merge are walked here, one backend call per inner batch.
  std::vector<int64_t> idx(outer, 0);
  for (int64_t c = 0; c < count; ++c) {
    Array v[3];
    for (int t = 0; t < 3; ++t) {
      int64_t off = ops[t]->offset();
      for (int d = 0; d < outer; ++d) off += idx[d] * st[d][t];
      const Strides& s = ops[t]->strides();
      v[t] = ops[t]->view(shapes[t], {st.back()[t], s[nb], s[nb + 1]}, off);
    }
    gemm3(v[0], v[1], v[2]);
    for (int d = outer - 1; d >= 0; --d) {
      if (++idx[d] < bs[d]) break;
      idx[d] = 0;
    }
  }
}

Array sum_last_axis(const Array& x) {
  const Array ones_v = ones({x.shape().back()}, x.dtype(), x.device());
  return matmul(x, ones_v);
}

}  // namespace linalg_detail

void set_matmul_precision(const std::string& precision) {
  if (precision == "tf32" || precision == "high") g_allow_tf32 = true;
  else if (precision == "float32" || precision == "highest") g_allow_tf32 = false;
  else
    throw_value_error("set_matmul_precision", "precision must be 'float32' ('highest') or 'tf32' "
                                              "('high'), got '" + precision + "'");
}

std::string get_matmul_precision() { return g_allow_tf32 ? "tf32" : "float32"; }

std::string blas_library() { return cpu_blas_name(); }

}  // namespace loom
