#include <cstring>
#include <vector>

#include "loom/backend/cpu/cpu_ops.h"
#include "loom/backend/cpu/strided.h"
#include "loom/backend/gpu.h"
#include "loom/error.h"
#include "loom/ops/elementwise.h"

namespace loom {
namespace {

// `src` viewed with dst's shape: stride 0 along broadcast dimensions.
Array broadcast_view(const Array& src, const Shape& shape, const char* op) {
  if (broadcast_shapes(src.shape(), shape, op) != shape) {
    throw_value_error(op, "could not broadcast input array from shape " + shape_str(src.shape()) +
                              " into shape " + shape_str(shape));
  }
  Strides st(shape.size(), 0);
  const size_t lead = shape.size() - src.shape().size();
  for (size_t i = 0; i < src.shape().size(); ++i)
    st[lead + i] = src.shape()[i] == 1 ? 0 : src.strides()[i];
  return src.view(shape, st, src.offset());
}

}  // namespace

// A first version on the existing convert kernels; the elementwise engine replaces the
// strided GPU destination path.
void copyto(const Array& dst, const Array& src) {
  check_same_device("copyto", dst.device(), src.device());
  const Array s = broadcast_view(src, dst.shape(), "copyto");
  if (dst.size() == 0) return;
  if (dst.is_contiguous()) {
    if (dst.device().is_cpu()) cpu_backend::convert(s, dst);
    else gpu_backend::convert(s, dst);
    return;
  }
  if (dst.device().is_gpu()) throw UnsupportedError("[copyto] non-contiguous GPU destination");
  const Array tmp = Array::allocate(dst.shape(), dst.dtype(), dst.device());
  cpu_backend::convert(s, tmp);
  const char* from = static_cast<const char*>(tmp.data());
  const size_t item = dst.itemsize();
  cpu_backend::for_each_strided(static_cast<const char*>(dst.data()), dst.shape(), dst.strides(),
                                [&](const char* p, int64_t i) {
                                  std::memcpy(const_cast<char*>(p), from + i * item, item);
                                });
}

}  // namespace loom
