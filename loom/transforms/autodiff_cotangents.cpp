#include "loom/transforms/autodiff_cotangents.h"

#include <algorithm>
#include <vector>

#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/reduce.h"

namespace loom::autodiff {
namespace {

// Whether `v` is a permutation of a C-contiguous array (a transpose of one), starting at
// byte 0 of its buffer and spanning all of it: then it addresses every byte of `b` once.
bool covers(const Array& v, const Buffer* b) {
  if (v.offset() != 0 || v.nbytes() != b->nbytes()) return false;
  std::vector<int> axes;
  for (int d = 0; d < v.ndim(); ++d)
    if (v.shape()[d] > 1) axes.push_back(d);
  std::sort(axes.begin(), axes.end(), [&](int x, int y) { return v.strides()[x] > v.strides()[y]; });
  int64_t expect = static_cast<int64_t>(v.itemsize());
  for (size_t k = axes.size(); k-- > 0;) {
    if (v.strides()[axes[k]] != expect) return false;
    expect *= v.shape()[axes[k]];
  }
  return true;
}

// `value` laid out exactly as `target` (same strides), so that the target's view of the
// value's buffer reads the value.
bool same_layout(const Array& value, const Array& target) {
  if (value.dtype() != target.dtype() || value.shape() != target.shape()) return false;
  for (int d = 0; d < value.ndim(); ++d)
    if (value.shape()[d] > 1 && value.strides()[d] != target.strides()[d]) return false;
  return true;
}

}  // namespace

Array Cotangents::read(const Array& v) const {
  auto it = slots_.find(v.buffer().get());
  if (it == slots_.end()) return Array();
  return view(it->second, v);
}

void Cotangents::accumulate(const Array& v, const Array& ct, bool exclusive) {
  // Broadcast axes of v: sum the cotangent over them and add into one element.
  Array target = v;
  Array value = ct;
  std::vector<int64_t> axes;
  for (int d = 0; d < v.ndim(); ++d)
    if (v.strides()[d] == 0 && v.shape()[d] > 1) axes.push_back(d);
  if (!axes.empty()) {
    value = sum(ct, axes, /*keepdims=*/true);
    exclusive = true;  // a fresh array
    Shape shape = v.shape();
    for (int64_t d : axes) shape[d] = 1;
    target = v.view(shape, v.strides(), v.offset());
  }
  const Buffer* b = v.buffer().get();
  auto it = slots_.find(b);
  if (it == slots_.end()) {
    if (covers(target, b)) {  // the first contribution fills the buffer: no zero fill
      // The contribution itself becomes the cotangent: owned when no one else refers to
      // it, else shared (never written; copied before a write, below).
      if (same_layout(value, target)) {
        slots_[b] = {{value.buffer(), value.offset()}, exclusive};
        held_.insert(value.buffer().get());
        return;
      }
      const Array whole = Array::allocate({target.size()}, target.dtype(), target.device());
      const Array fresh(whole.buffer(), target.dtype(), target.shape(), target.strides(), whole.offset());
      copyto(fresh, value);
      slots_[b] = {{whole.buffer(), whole.offset()}, true};
      held_.insert(whole.buffer().get());
      return;
    }
    // Zeros of the view's dtype when it divides the size (an enclosing grad then sees a
    // float fill), else bytes; either reads as 0 in every floating dtype.
    const bool fits = b->nbytes() % target.itemsize() == 0;
    const Array z = fits ? zeros({static_cast<int64_t>(b->nbytes() / target.itemsize())}, target.dtype(), target.device())
                         : zeros({static_cast<int64_t>(b->nbytes())}, uint8, target.device());
    it = slots_.emplace(b, Slot{{z.buffer(), z.offset()}, true}).first;
    held_.insert(z.buffer().get());
  } else if (target.is_contiguous() && covers(target, b) && value.dtype() == target.dtype()) {
    // A sum into a fresh buffer costs what an add in place would (same dtype: the slot's),
    // and needs no copy of a shared slot first. It also keeps this pass free of writes over
    // earlier values: a derivative of the pass (grad of grad, hessian) would have to undo
    // each such write (zero the overwritten value's cotangent, copy a shared one), and jit
    // fuses an add into a fresh buffer with its neighbours, never one in place.
    const Array sum_ = add(view(it->second, target), value);
    it->second = {{sum_.buffer(), sum_.offset()}, true};
    held_.insert(sum_.buffer().get());
    return;
  } else if (!it->second.owned) {
    own(it->second, b, target);
  }
  const Array dst = view(it->second, target);
  add(dst, value, UfuncArgs{dst});
}

void Cotangents::own(Slot& s, const Buffer* b, const Array& like) {
  // A copy as bytes would cut the cotangent off from an enclosing trace (uint8 carries no
  // tangent), and jvp transposes this pass: a cotangent passed through unchanged (f(x) = x,
  // x + c, a reshape) would then give a zero tangent.
  const size_t item = like.itemsize();
  const bool typed = b->nbytes() % item == 0 && s.binding.offset_delta % static_cast<int64_t>(item) == 0;
  const DType dt = typed ? like.dtype() : uint8;
  const int64_t step = typed ? static_cast<int64_t>(item) : 1;
  const Array whole(s.binding.buffer, dt, {static_cast<int64_t>(b->nbytes()) / step}, {step}, s.binding.offset_delta);
  const Array mine = whole.copy();
  s = {{mine.buffer(), mine.offset()}, true};
  held_.insert(mine.buffer().get());
}

Array Cotangents::take(const Array& v) {
  auto it = slots_.find(v.buffer().get());
  if (it == slots_.end()) return Array();
  if (!it->second.owned) own(it->second, v.buffer().get(), v);
  return view(it->second, v);
}

void Cotangents::zero(const Array& v) {
  auto it = slots_.find(v.buffer().get());
  if (it == slots_.end()) return;
  if (covers(v, it->first)) {  // all of it: no slot reads as zero, with no fill to undo later
    slots_.erase(it);
    return;
  }
  if (!it->second.owned) own(it->second, v.buffer().get(), v);
  const Array dst = view(it->second, v);
  copyto(dst, zeros({}, v.dtype(), v.device()));
}

}  // namespace loom::autodiff
