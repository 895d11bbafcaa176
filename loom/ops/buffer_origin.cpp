// BufferOrigin records for conjugates, and the mapping of a view of a conjugate onto its
// source. A view of the result maps onto the source when each of its axes walks one axis of
// the result (± its C stride) without leaving it: then its element j lies at the result's
// multi-index idx + j, whose value is the conjugate of the source's element at idx + j.
#include "loom/ops/buffer_origin.h"

#include <memory>
#include <vector>


namespace loom {

void remember_conjugate(const Array& src, const Array& result) {
  const std::shared_ptr<Buffer>& out = result.buffer();
  const std::shared_ptr<Buffer>& in = src.buffer();
  if (!out || !in || out->is_abstract() || in->is_abstract() || out == in) return;
  if (!out->tracked() || !in->tracked() || result.offset() != 0 || !result.is_contiguous()) return;
  if (src.dtype() != result.dtype() || src.shape() != result.shape() || result.size() == 0) return;
  auto o = std::make_shared<BufferOrigin>();
  o->kind = BufferOrigin::Kind::conjugate;
  o->source = in;
  o->source_writes = in->writes();
  o->own_writes = out->writes();
  o->offset = src.offset();
  o->shape = src.shape();
  o->strides = src.strides();
  out->set_origin(std::move(o));
}

std::optional<Array> conjugate_source(const Array& v) {
  const std::shared_ptr<Buffer>& buf = v.buffer();
  if (!buf || !buf->origin() || buf->is_abstract()) return std::nullopt;
  const BufferOrigin& o = *buf->origin();
  if (o.kind != BufferOrigin::Kind::conjugate) return std::nullopt;
  const std::shared_ptr<Buffer> src = o.source.lock();
  if (!src || !src->tracked() || !buf->tracked()) return std::nullopt;
  if (src->writes() != o.source_writes || buf->writes() != o.own_writes) return std::nullopt;
  const int64_t item = static_cast<int64_t>(v.itemsize());
  const int nd = static_cast<int>(o.shape.size());
  if (v.size() == 0 || v.offset() % item != 0) return std::nullopt;
  // The result's multi-index of v's first element.
  std::vector<int64_t> idx(nd), cstride(nd);
  int64_t rest = v.offset() / item, total = 1;
  for (int e = nd - 1; e >= 0; --e) {
    cstride[e] = total * item;
    idx[e] = o.shape[e] > 0 ? rest % o.shape[e] : 0;
    rest = o.shape[e] > 0 ? rest / o.shape[e] : 0;
    total *= o.shape[e];
  }
  if (rest != 0) return std::nullopt;  // past the end
  int64_t offset = o.offset;
  for (int e = 0; e < nd; ++e) offset += idx[e] * o.strides[e];
  Strides strides(v.ndim(), 0);
  std::vector<bool> used(nd, false);
  for (int d = 0; d < v.ndim(); ++d) {
    const int64_t n = v.shape()[d], s = v.strides()[d];
    if (n == 1) continue;  // any stride: never stepped
    int e = 0;
    while (e < nd && !(o.shape[e] > 1 && (s == cstride[e] || s == -cstride[e]))) ++e;
    if (e == nd || used[e]) return std::nullopt;
    used[e] = true;
    const int64_t step = s > 0 ? 1 : -1, last = idx[e] + step * (n - 1);
    if (last < 0 || last >= o.shape[e]) return std::nullopt;
    strides[d] = step * o.strides[e];
  }
  return Array(src, v.dtype(), v.shape(), strides, offset);
}

}  // namespace loom
