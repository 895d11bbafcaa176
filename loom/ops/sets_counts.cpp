// numpy's set routines, digitize, cov and corrcoef as compositions (ops/sets_counts.h);
// bincount and histogram are the counting family's (ops/counting.cpp).
#include "loom/ops/sets_counts.h"

#include <string>

#include "loom/core/error.h"
#include "loom/ops/complex.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/indexing.h"
#include "loom/ops/linalg.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/sorting.h"
#include "loom/ops/triangles.h"

namespace loom {
namespace {

bool host_bool(const Array& flag) {
  bool v = false;
  flag.astype(DType::bool_).copy_to_host(&v);
  return v;
}

Array sorted_unique(const Array& a) { return unique(a).values; }

Array select(const Array& a, const Array& mask) { return getitem(a, {Index(mask)}); }

}  // namespace

Array isin(const Array& element, const Array& test_elements, bool invert) {
  check_same_device("isin", element.device(), test_elements.device());
  if (test_elements.size() == 0) return full(element.shape(), invert, DType::bool_, element.device());
  const DType t = promote_types(element.dtype(), test_elements.dtype());
  const Array table = sorted_unique(test_elements.astype(t)), e = element.astype(t);
  const int64_t n = table.size();
  const Array pos = clip(searchsorted(table, e, "left"), Operand(int64_t{0}), Operand(n - 1));
  const Array found = equal(getitem(table, {Index(pos)}), e);
  return invert ? logical_not(found) : found;
}

Array intersect1d(const Array& a, const Array& b) {
  const Array u = sorted_unique(a);
  return select(u, isin(u, b));
}

Intersection intersect1d_indices(const Array& a, const Array& b, bool assume_unique) {
  // NumPy's: the (unique) values of both, stably sorted together; a value that equals the next
  // one is in both, the first of the pair from a, the second from b.
  Array ua = ravel(a), ub = ravel(b), first_a, first_b;
  if (!assume_unique) {
    UniqueArrays ra = unique(ua, true), rb = unique(ub, true);
    ua = ra.values, first_a = ra.index, ub = rb.values, first_b = rb.index;
  }
  const Array aux = concatenate({ua, ub}, 0);
  const Array order = argsort(aux, 0);
  const Array sorted = getitem(aux, {Index(order)});
  const auto head = [](const Array& x) { return getitem(x, {Index(Slice{std::nullopt, -1, std::nullopt})}); };
  const auto tail = [](const Array& x) { return getitem(x, {Index(Slice{1, std::nullopt, std::nullopt})}); };
  const Array both = equal(tail(sorted), head(sorted));
  Intersection r;
  r.values = select(head(sorted), both);
  r.index_a = select(head(order), both);
  r.index_b = subtract(select(tail(order), both), Scalar(static_cast<long long>(ua.size())));
  if (!assume_unique) {
    r.index_a = getitem(first_a, {Index(r.index_a)});
    r.index_b = getitem(first_b, {Index(r.index_b)});
  }
  return r;
}

Array union1d(const Array& a, const Array& b) { return sorted_unique(concatenate({ravel(a), ravel(b)}, 0)); }

Array setdiff1d(const Array& a, const Array& b, bool assume_unique) {
  const Array u = assume_unique ? ravel(a) : sorted_unique(a);
  return select(u, isin(u, b, true));
}

Array setxor1d(const Array& a, const Array& b) {
  const Array aux = sort(concatenate({sorted_unique(a), sorted_unique(b)}, 0));
  const int64_t n = aux.size();
  if (n == 0) return aux;
  // An element appears once (kept) when it differs from both neighbours.
  const Array differs = not_equal(getitem(aux, {Index(Slice{1, std::nullopt, std::nullopt})}),
                                  getitem(aux, {Index(Slice{std::nullopt, -1, std::nullopt})}));
  const Array edge = full({1}, true, DType::bool_, aux.device());
  const Array flag = concatenate({edge, differs, edge}, 0);
  return select(aux, logical_and(getitem(flag, {Index(Slice{1, std::nullopt, std::nullopt})}),
                                 getitem(flag, {Index(Slice{std::nullopt, -1, std::nullopt})})));
}

Array digitize(const Array& x, const Array& bins, bool right) {
  check_same_device("digitize", x.device(), bins.device());
  if (bins.ndim() != 1) throw_value_error("digitize", "bins must be 1-dimensional");
  if (is_complex(x.dtype())) throw_dtype_error("digitize", "x may not be complex");
  const std::string side = right ? "left" : "right";
  if (bins.size() < 2) return searchsorted(bins, x, side);
  // NumPy's check_array_monotonic: the first edge that differs from bins[0] sets the
  // direction (rising when bins[0] is below it, or when all edges are equal); a later strict
  // step the other way breaks it. NaN compares false, so NaN edges never break it.
  const Array head = getitem(bins, {Index(Slice{std::nullopt, -1, std::nullopt})});
  const Array tail = getitem(bins, {Index(Slice{1, std::nullopt, std::nullopt})});
  const Array first = getitem(bins, {Index(int64_t{0})});
  const Array differs = not_equal(tail, first);
  const bool rising = host_bool(logical_or(logical_not(any(differs)), less(first, getitem(tail, {Index(argmax(differs))}))));
  if (host_bool(any(rising ? greater(head, tail) : less(head, tail))))
    throw_value_error("digitize", "bins must be monotonically increasing or decreasing");
  if (rising) return searchsorted(bins, x, side);
  // Decreasing bins: count from the end of the reversed (increasing) ones.
  return subtract(int64_t{bins.size()}, searchsorted(flip(bins), x, side));
}

Array cov(const Array& m, const std::optional<Array>& y, bool rowvar, bool bias, std::optional<int64_t> ddof) {
  if (m.ndim() > 2) throw_value_error("cov", "m has more than 2 dimensions");
  const DType t = is_complex(m.dtype()) || (y && is_complex(y->dtype())) ? DType::complex128 : DType::float64;
  auto vars = [rowvar, t](const Array& v) {
    Array x = atleast_2d(v).astype(t);
    return !rowvar && x.shape()[0] != 1 ? swapaxes(x, 0, 1) : x;
  };
  Array x = vars(m);
  if (y) x = concatenate({x, vars(*y)}, 0);
  const int64_t n = x.shape()[1];
  const double fact = static_cast<double>(n - ddof.value_or(bias ? 0 : 1));
  const Array centred = subtract(x, mean(x, std::vector<int64_t>{1}, true));
  const Array xh = is_complex(t) ? conjugate(swapaxes(centred, 0, 1)) : swapaxes(centred, 0, 1);
  Array c = true_divide(matmul(centred, xh), fact <= 0 ? 0.0 : fact);  // numpy: inf/nan (and a warning)
  return squeeze(c);
}

Array corrcoef(const Array& x, const std::optional<Array>& y, bool rowvar) {
  const Array c = cov(x, y, rowvar);
  if (c.ndim() == 0) return true_divide(c, c);  // numpy: c / c (1, or nan)
  const Array sd = sqrt(real(diag(c)));
  Array r = true_divide(true_divide(c, expand_dims(sd, {1})), expand_dims(sd, {0}));
  if (is_complex(r.dtype())) return r;  // numpy clips each part; left as computed here
  return clip(r, Operand(-1.0), Operand(1.0));
}

}  // namespace loom
