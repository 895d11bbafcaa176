#include "loom/ops/stop_gradient.h"

#include "loom/ops/creation_primitives.h"
#include "loom/dispatch/dispatch.h"

namespace loom {

Array stop_gradient(const Array& x) {
  if (!is_tracing()) return x;
  Array out = Array::allocate(x.shape(), x.dtype(), x.device());
  dispatch(primitives::stop_gradient, {x}, {out}, x, out);
  return out;
}

}  // namespace loom
