#include "loom/transforms/autodiff_cotangents.h"

#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/reduce.h"

namespace loom::autodiff {
namespace {

bool covers(const Array& v, const Buffer* b) {
  return v.is_contiguous() && v.offset() == 0 && v.nbytes() == b->nbytes();
}

}  // namespace

Array Cotangents::read(const Array& v) const {
  auto it = slots_.find(v.buffer().get());
  if (it == slots_.end()) return Array();
  return view(it->second, v);
}

void Cotangents::accumulate(const Array& v, const Array& ct) {
  // Broadcast axes of v: sum the cotangent over them and add into one element.
  Array target = v;
  Array value = ct;
  std::vector<int64_t> axes;
  for (int d = 0; d < v.ndim(); ++d)
    if (v.strides()[d] == 0 && v.shape()[d] > 1) axes.push_back(d);
  if (!axes.empty()) {
    value = sum(ct, axes, /*keepdims=*/true);
    Shape shape = v.shape();
    for (int64_t d : axes) shape[d] = 1;
    target = v.view(shape, v.strides(), v.offset());
  }
  const Buffer* b = v.buffer().get();
  auto it = slots_.find(b);
  if (it == slots_.end()) {
    if (covers(target, b)) {  // the first contribution fills the buffer: no zero fill
      Array fresh = Array::allocate(target.shape(), target.dtype(), target.device());
      copyto(fresh, value);
      slots_[b] = {{fresh.buffer(), fresh.offset()}};
      return;
    }
    // Zeros of the view's dtype when it divides the size (an enclosing grad then sees a
    // float fill), else bytes; either reads as 0 in every floating dtype.
    const bool fits = b->nbytes() % target.itemsize() == 0;
    const Array z = fits ? zeros({static_cast<int64_t>(b->nbytes() / target.itemsize())}, target.dtype(), target.device())
                         : zeros({static_cast<int64_t>(b->nbytes())}, uint8, target.device());
    it = slots_.emplace(b, Slot{{z.buffer(), z.offset()}}).first;
  }
  const Array dst = view(it->second, target);
  add(dst, value, UfuncArgs{dst});
}

void Cotangents::zero(const Array& v) {
  auto it = slots_.find(v.buffer().get());
  if (it == slots_.end()) return;
  const Array dst = view(it->second, v);
  copyto(dst, zeros({}, v.dtype(), v.device()));
}

}  // namespace loom::autodiff
