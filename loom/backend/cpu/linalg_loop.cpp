// loom's own matrix product loop: integers (wrapping, accumulated in unsigned 32/64-bit
// arithmetic so that overflow is defined), bool (or of ands), and float32/float64 and
// complex when the build has no BLAS. Rows are spread over cores; each row is computed in blocks of columns
// held in registers/L1 while the right operand's rows stream by (contiguous: vectorizes).
#include <algorithm>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "loom/common/loom_complex.cuh"  // complex products when the build has no BLAS
#include "loom/core/cast.h"
#include "loom/backend/cpu/linalg_loop.h"
#include "loom/runtime/cpu/thread_pool.h"
#include "loom/core/error.h"

namespace loom::cpu_backend {
namespace {

template <class T>
struct AccOf {
  using type = std::conditional_t<(sizeof(T) > 4), uint64_t, uint32_t>;
};
template <> struct AccOf<bool> { using type = uint8_t; };
template <> struct AccOf<float> { using type = float; };
template <> struct AccOf<double> { using type = double; };
template <> struct AccOf<complex64_t> { using type = complex64_t; };
template <> struct AccOf<complex128_t> { using type = complex128_t; };

constexpr int64_t kColBlock = 256;

// The right operand of every batch entry as contiguous (k, n) rows; a broadcast batch
// (stride 0) is one matrix.
template <class T>
std::unique_ptr<T[]> pack_rows(const Array& b, int64_t& batch_stride) {
  const int64_t nb = b.shape()[0], k = b.shape()[1], n = b.shape()[2];
  const int64_t item = sizeof(T);
  const bool shared = nb == 1 || b.strides()[0] == 0;
  const int64_t count = shared ? 1 : nb;
  batch_stride = shared ? 0 : k * n;
  std::unique_ptr<T[]> packed(new T[static_cast<size_t>(count * k * n)]);  // no vector<bool>
  const char* base = static_cast<const char*>(b.data());
  cpu_runtime::parallel_for(count * k, std::max<int64_t>(1, 65536 / std::max<int64_t>(n, 1)), [&](int64_t lo, int64_t hi) {
    for (int64_t r = lo; r < hi; ++r) {
      const int64_t i = r / k, p = r % k;
      const char* row = base + i * b.strides()[0] + p * b.strides()[1];
      T* dst = packed.get() + r * n;
      if (b.strides()[2] == item) {
        std::memcpy(dst, row, static_cast<size_t>(n * item));
      } else {
        for (int64_t j = 0; j < n; ++j) std::memcpy(dst + j, row + j * b.strides()[2], item);
      }
    }
  });
  return packed;
}

template <class T>
void loop_typed(const Array& a, const Array& b, const Array& out) {
  using Acc = typename AccOf<T>::type;
  const int64_t nb = out.shape()[0], m = out.shape()[1], n = out.shape()[2], k = a.shape()[2];
  int64_t pb_stride = 0;
  const std::unique_ptr<T[]> packed = pack_rows<T>(b, pb_stride);
  const char* abase = static_cast<const char*>(a.data());
  const int64_t sab = a.strides()[0], sar = a.strides()[1], sac = a.strides()[2];
  T* cbase = static_cast<T*>(out.data());
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(n * k, 1));
  cpu_runtime::parallel_for(nb * m, grain, [&](int64_t lo, int64_t hi) {
    Acc acc[kColBlock];
    for (int64_t r = lo; r < hi; ++r) {
      const int64_t i = r / m, row = r % m;
      const char* arow = abase + i * sab + row * sar;
      const T* bm = packed.get() + i * pb_stride;
      T* crow = cbase + r * n;
      for (int64_t j0 = 0; j0 < n; j0 += kColBlock) {
        const int64_t jn = std::min(kColBlock, n - j0);
        std::fill(acc, acc + jn, Acc(0));
        for (int64_t p = 0; p < k; ++p) {
          T av_t;
          std::memcpy(&av_t, arow + p * sac, sizeof(T));
          const T* brow = bm + p * n + j0;
          if constexpr (std::is_same_v<T, bool>) {
            if (!av_t) continue;
            for (int64_t j = 0; j < jn; ++j) acc[j] |= static_cast<Acc>(brow[j]);
          } else {
            const Acc av = static_cast<Acc>(av_t);
            if constexpr (std::is_integral_v<T>) {
              if (av == 0) continue;  // exact for integers; floats must see NaN/inf
            }
            for (int64_t j = 0; j < jn; ++j) acc[j] += av * static_cast<Acc>(brow[j]);
          }
        }
        for (int64_t j = 0; j < jn; ++j) crow[j0 + j] = static_cast<T>(acc[j]);
      }
    }
  });
}

}  // namespace

void gemm_loop(const Array& a, const Array& b, const Array& out) {
  if (out.size() == 0) return;
  switch (out.dtype()) {
    case DType::float16:
    case DType::bfloat16:
      throw_dtype_error("matmul", "gemm_loop takes no 16-bit floats (they go through float32)");
    default:
      break;
  }
  dispatch_any_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!is_f16<T>) loop_typed<T>(a, b, out);
  });
}

}  // namespace loom::cpu_backend
