#include "loom/ops/batch_common.h"

#include <algorithm>

#include "loom/ops/elementwise.h"

namespace loom::batch {

void per_example(const TracedOp& op, const BatchMap& m) {
  for (int64_t b = 0; b < m.size; ++b) op.run(op, m.example(b));
}

void once_then_broadcast(const TracedOp& op, const BatchMap& m) {
  op.run(op, m.example(0));
  if (m.size < 2) return;
  for (const Array& out : op.outputs) {
    if (!out.valid() || !m.is_batched(out)) continue;
    const Array all = m.batched(out);
    const Array first = all.view(out.shape(), out.strides(), all.offset());
    Shape rest = all.shape();
    rest[0] = m.size - 1;
    copyto(all.view(rest, all.strides(), all.offset() + all.strides()[0]), first);
  }
}

std::vector<Array> batched_all(const std::vector<Array>& arrays, const BatchMap& m) {
  std::vector<Array> r;
  r.reserve(arrays.size());
  for (const Array& a : arrays) r.push_back(a.valid() ? m.batched(a) : a);
  return r;
}

int64_t batch_stride(const Array& v, const BatchMap& m) {
  auto it = m.buffers.find(v.buffer().get());
  return it == m.buffers.end() ? 0 : it->second.batch_stride;
}

Array dense_batch(const Array& v, int64_t n, const BatchMap& m) {
  const int64_t item = static_cast<int64_t>(v.itemsize());
  if (m.size > 1 && batch_stride(v, m) != n * item) return Array();
  const Array all = m.batched(v);
  return all.view({m.size * n}, {item}, all.offset());
}

Array dense_batch_copy(const Array& v, int64_t n, const BatchMap& m) {
  if (Array d = dense_batch(v, n, m); d.valid()) return d;
  const int64_t item = static_cast<int64_t>(v.itemsize());
  const Array flat = m.batched(v.view({n}, {item}, v.offset())).contiguous();
  return flat.view({m.size * n}, {item}, flat.offset());
}

Array merge_leading(const Array& v) {
  const Shape& s = v.shape();
  const int64_t per = v.size() / std::max<int64_t>(1, s[0]) * static_cast<int64_t>(v.itemsize());
  if (s[0] > 1 && v.strides()[0] != per) return Array();
  const Array rest = v.view(Shape(s.begin() + 1, s.end()), Strides(v.strides().begin() + 1, v.strides().end()),
                            v.offset());
  if (!rest.is_contiguous()) return Array();
  Shape ms(s.begin() + 1, s.end());
  ms[0] *= s[0];
  return v.view(ms, rest.strides(), v.offset());
}

Array merge_leading_copy(const Array& v) {
  if (Array merged = merge_leading(v); merged.valid()) return merged;
  return merge_leading(v.contiguous());
}

}  // namespace loom::batch
