// einsum with NumPy's semantics (optimize=False): parse the subscripts, take diagonals of
// repeated indices as strided views, then contract operands left to right. Each pairwise
// contraction is one batched matmul of (batch, free_x, summed) and (batch, summed, free_y)
// views; indices found in one operand only and needed by nobody later are summed first.
#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "loom/core/error.h"
#include "loom/core/shape.h"
#include "loom/ops/linalg.h"
#include "loom/ops/linalg_internal.h"

namespace loom {
namespace {

using linalg_detail::permute;
using linalg_detail::reshape;
using Labels = std::vector<int>;  // letters by char code; ellipsis dims as kEllipsis + i

constexpr int kEllipsis = 256;

struct Term {
  Labels letters_before, letters_after;  // around "..." (all in `before` when none)
  bool ellipsis = false;
};

Term parse_term(const std::string& s, bool output) {
  Term t;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == ' ') continue;
    if (c == '.') {
      if (s.compare(i, 3, "...") != 0 || t.ellipsis)
        throw_value_error("einsum", std::string("invalid ellipsis in subscripts ") +
                                        (output ? "output" : "input") + " '" + s + "'");
      t.ellipsis = true;
      i += 2;
      continue;
    }
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
      throw_value_error("einsum", std::string("invalid subscript '") + c +
                                      "' in einstein sum subscripts string, subscripts must be letters");
    (t.ellipsis ? t.letters_after : t.letters_before).push_back(c);
  }
  return t;
}

std::string label_name(int l) { return l < kEllipsis ? std::string(1, static_cast<char>(l)) : "..."; }
int axis_of(const Labels& labels, int l) { return static_cast<int>(std::find(labels.begin(), labels.end(), l) - labels.begin()); }

// Sums x over its labels that are not in `keep`.
Array reduce_labels(const Array& x, Labels& lx, const std::set<int>& keep) {
  std::vector<int> kept, summed;
  Labels kl;
  Shape ks;
  for (int i = 0; i < x.ndim(); ++i) {
    if (keep.count(lx[i])) {
      kept.push_back(i);
      kl.push_back(lx[i]);
      ks.push_back(x.shape()[i]);
    } else {
      summed.push_back(i);
    }
  }
  if (summed.empty()) return x;
  int64_t s = 1;
  for (int i : summed) s *= x.shape()[i];
  std::vector<int> perm = kept;
  perm.insert(perm.end(), summed.begin(), summed.end());
  Shape flat = ks;
  flat.push_back(s);
  lx = kl;
  return linalg_detail::sum_last_axis(reshape(permute(x, perm), flat));
}

// Drops the dimension of label `l` (size 1) from x.
Array squeeze_label(const Array& x, Labels& lx, int l) {
  const size_t i = std::find(lx.begin(), lx.end(), l) - lx.begin();
  Shape s = x.shape();
  Strides st = x.strides();
  s.erase(s.begin() + i);
  st.erase(st.begin() + i);
  lx.erase(lx.begin() + i);
  return x.view(s, st, x.offset());
}

int64_t label_size(const Array& x, const Labels& lx, int l) {
  return x.shape()[std::find(lx.begin(), lx.end(), l) - lx.begin()];
}

// Contracts x and y, keeping the labels in `keep`; the result's labels go to `lx`.
Array contract(Array x, Labels& lx, Array y, Labels ly, const std::set<int>& keep) {
  // A size-1 dim against a longer one broadcasts: it leaves that operand.
  for (int l : Labels(lx)) {
    if (std::find(ly.begin(), ly.end(), l) == ly.end()) continue;
    const int64_t sx = label_size(x, lx, l), sy = label_size(y, ly, l);
    if (sx == sy) continue;
    if (sx == 1) x = squeeze_label(x, lx, l);
    else y = squeeze_label(y, ly, l);
  }
  std::set<int> kx(keep), ky(keep);
  kx.insert(ly.begin(), ly.end());
  ky.insert(lx.begin(), lx.end());
  x = reduce_labels(x, lx, kx);
  y = reduce_labels(y, ly, ky);
  auto in = [](const Labels& v, int l) { return std::find(v.begin(), v.end(), l) != v.end(); };
  Labels batch, summed, xo, yo;
  for (int l : lx) (in(ly, l) ? (keep.count(l) ? batch : summed) : xo).push_back(l);
  for (int l : ly)
    if (!in(lx, l)) yo.push_back(l);
  auto axes_of = [](const Labels& from, std::initializer_list<const Labels*> groups) {
    std::vector<int> perm;
    for (const Labels* g : groups)
      for (int l : *g) perm.push_back(static_cast<int>(std::find(from.begin(), from.end(), l) - from.begin()));
    return perm;
  };
  auto prod = [](const Array& a, const Labels& la, const Labels& g, Shape* dims) {
    int64_t p = 1;
    for (int l : g) {
      const int64_t d = label_size(a, la, l);
      p *= d;
      if (dims) dims->push_back(d);
    }
    return p;
  };
  Shape out_shape;
  const int64_t nb = prod(x, lx, batch, &out_shape), nm = prod(x, lx, xo, &out_shape);
  const int64_t nn = prod(y, ly, yo, &out_shape), nk = prod(x, lx, summed, nullptr);
  const Array x3 = reshape(permute(x, axes_of(lx, {&batch, &xo, &summed})), {nb, nm, nk});
  const Array y3 = reshape(permute(y, axes_of(ly, {&batch, &summed, &yo})), {nb, nk, nn});
  lx = batch;
  lx.insert(lx.end(), xo.begin(), xo.end());
  lx.insert(lx.end(), yo.begin(), yo.end());
  return reshape(matmul(x3, y3), out_shape);
}

}  // namespace

Array einsum(const std::string& subscripts, const std::vector<Array>& operands) {
  if (operands.empty()) throw_value_error("einsum", "no operands given");
  for (const Array& op : operands) {
    if (!op.valid()) throw_value_error("einsum", "operand is an empty (default-constructed) array");
    check_same_device("einsum", operands[0].device(), op.device());
  }
  const size_t arrow = subscripts.find("->");
  const std::string ins = subscripts.substr(0, arrow);
  std::vector<Term> terms;
  for (size_t start = 0;;) {
    const size_t comma = ins.find(',', start);
    terms.push_back(parse_term(ins.substr(start, comma == std::string::npos ? std::string::npos : comma - start), false));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != operands.size())
    throw_value_error("einsum", std::to_string(terms.size()) + " subscript terms for " +
                                    std::to_string(operands.size()) + " operands");

  // Labels of each operand, with its "..." dims right-aligned to the longest one.
  int n_ell = 0;
  for (size_t i = 0; i < terms.size(); ++i) {
    const int letters = static_cast<int>(terms[i].letters_before.size() + terms[i].letters_after.size());
    const int nd = operands[i].ndim();
    if (letters > nd)
      throw_value_error("einsum", "einstein sum subscripts string contains too many subscripts for operand " +
                                      std::to_string(i));
    if (!terms[i].ellipsis && letters < nd)
      throw_value_error("einsum", "operand has more dimensions than subscripts given in einstein sum, "
                                  "but no '...' ellipsis provided to broadcast the extra dimensions.");
    if (terms[i].ellipsis) n_ell = std::max(n_ell, nd - letters);
  }
  DType dt = operands[0].dtype();
  for (const Array& op : operands) dt = promote_types(dt, op.dtype());
  std::vector<Labels> labels(operands.size());
  std::map<int, int> counts;
  for (size_t i = 0; i < terms.size(); ++i) {
    const Term& t = terms[i];
    Labels& l = labels[i];
    l = t.letters_before;
    const int e = operands[i].ndim() - static_cast<int>(t.letters_before.size() + t.letters_after.size());
    for (int j = 0; j < e; ++j) l.push_back(kEllipsis + n_ell - e + j);
    l.insert(l.end(), t.letters_after.begin(), t.letters_after.end());
    for (int x : l) ++counts[x];
  }

  Labels out;
  if (arrow != std::string::npos) {
    const Term t = parse_term(subscripts.substr(arrow + 2), true);
    out = t.letters_before;
    if (t.ellipsis)
      for (int j = 0; j < n_ell; ++j) out.push_back(kEllipsis + j);
    else if (n_ell > 0)
      throw_value_error("einsum", "output has more dimensions than subscripts given in einstein sum, "
                                  "but no '...' ellipsis provided to broadcast the extra dimensions.");
    out.insert(out.end(), t.letters_after.begin(), t.letters_after.end());
    std::set<int> seen;
    for (int l : out) {
      if (!seen.insert(l).second)
        throw_value_error("einsum", "einstein sum subscripts string includes output subscript '" +
                                        label_name(l) + "' multiple times");
      if (!counts.count(l))
        throw_value_error("einsum", "einstein sum subscripts string included output subscript '" +
                                        label_name(l) + "' which never appeared in an input");
    }
  } else {
    for (int j = 0; j < n_ell; ++j) out.push_back(kEllipsis + j);
    for (const auto& [l, c] : counts)  // std::map: char-code (alphabetical) order
      if (l < kEllipsis && c == 1) out.push_back(l);
  }

  // Diagonals of repeated labels (as views), and a size check of every label.
  std::map<int, int64_t> sizes;
  std::map<int, size_t> first_seen;  // the operand a label's size comes from, for the message
  std::vector<Array> ops;
  for (size_t i = 0; i < operands.size(); ++i) {
    const Array& x = operands[i];
    Labels uniq;
    Shape s;
    Strides st;
    for (int d = 0; d < x.ndim(); ++d) {
      const int l = labels[i][d];
      const size_t j = std::find(uniq.begin(), uniq.end(), l) - uniq.begin();
      if (j == uniq.size()) {
        uniq.push_back(l);
        s.push_back(x.shape()[d]);
        st.push_back(x.strides()[d]);
      } else {
        if (s[j] != x.shape()[d])
          throw_value_error("einsum", "operand " + std::to_string(i) + " (shape " + shape_str(x.shape()) +
                                          ") repeats index '" + label_name(l) + "' on axes of sizes " +
                                          std::to_string(s[j]) + " and " + std::to_string(x.shape()[d]) +
                                          " (axis " + std::to_string(d) + "): a repeated index takes a diagonal");
        st[j] += x.strides()[d];
      }
    }
    for (size_t j = 0; j < uniq.size(); ++j) {
      auto [it, fresh] = sizes.emplace(uniq[j], s[j]);
      if (fresh || it->second == 1) first_seen[uniq[j]] = i;
      if (!fresh && it->second != s[j]) {
        if (it->second != 1 && s[j] != 1) {
          const size_t o = first_seen[uniq[j]];
          throw_value_error("einsum", "index '" + label_name(uniq[j]) + "' has size " + std::to_string(it->second) +
                                          " in operand " + std::to_string(o) + " (shape " +
                                          shape_str(operands[o].shape()) + ") and size " + std::to_string(s[j]) +
                                          " in operand " + std::to_string(i) + " (shape " + shape_str(x.shape()) +
                                          ", axis " + std::to_string(axis_of(labels[i], uniq[j])) + ")");
        }
        it->second = std::max(it->second, s[j]);
      }
    }
    labels[i] = uniq;
    Array v = x.view(s, st, x.offset());
    ops.push_back(v.dtype() == dt ? v : v.astype(dt));
  }

  // Left to right: keep what the output or a later operand needs.
  const std::set<int> out_set(out.begin(), out.end());
  Array acc = ops[0];
  Labels la = labels[0];
  for (size_t i = 1; i < ops.size(); ++i) {
    std::set<int> keep = out_set;
    for (size_t j = i + 1; j < ops.size(); ++j) keep.insert(labels[j].begin(), labels[j].end());
    acc = contract(acc, la, ops[i], labels[i], keep);
  }
  acc = reduce_labels(acc, la, out_set);
  std::vector<int> perm;
  for (int l : out) perm.push_back(static_cast<int>(std::find(la.begin(), la.end(), l) - la.begin()));
  return permute(acc, perm);
}

}  // namespace loom
