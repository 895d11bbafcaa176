// CPU softmax cross-entropy: per row one pass for the maximum and one for the sum of
// exponentials (the GPU sums in another order: the two agree to rounding); rows are
// spread over the thread pool.
#include "loom/backend/nn_loss.h"

#include <cmath>
#include <limits>

#include "loom/core/error.h"
#include "loom/runtime/cpu/thread_pool.h"

namespace loom::cpu_backend {
namespace {

template <class T>
void forward(const Array& x, const Array& labels, const Array& loss, const Array& lse) {
  const int64_t rows = x.shape()[0], cols = x.shape()[1];
  const T* xp = static_cast<const T*>(x.data());
  const int64_t* yp = static_cast<const int64_t*>(labels.data());
  T* lp = static_cast<T*>(loss.data());
  T* sp = static_cast<T*>(lse.data());
  cpu_runtime::parallel_for(rows, 64, [&](int64_t lo, int64_t hi) {
    for (int64_t r = lo; r < hi; ++r) {
      const T* row = xp + r * cols;
      T m = -std::numeric_limits<T>::infinity();
      for (int64_t c = 0; c < cols; ++c)
        if (row[c] > m || std::isnan(row[c])) m = row[c];
      T s = 0;
      for (int64_t c = 0; c < cols; ++c) s += std::exp(row[c] - m);
      const T l = m + std::log(s);
      sp[r] = l;
      lp[r] = yp[r] >= 0 && yp[r] < cols ? l - row[yp[r]] : std::numeric_limits<T>::quiet_NaN();
    }
  });
}

template <class T>
void backward(const Array& x, const Array& labels, const Array& lse, const Array& ct, const Array& dx) {
  const int64_t rows = x.shape()[0], cols = x.shape()[1];
  const T* xp = static_cast<const T*>(x.data());
  const int64_t* yp = static_cast<const int64_t*>(labels.data());
  const T* sp = static_cast<const T*>(lse.data());
  const T* cp = static_cast<const T*>(ct.data());
  T* dp = static_cast<T*>(dx.data());
  cpu_runtime::parallel_for(rows, 64, [&](int64_t lo, int64_t hi) {
    for (int64_t r = lo; r < hi; ++r) {
      const int64_t y = yp[r];
      const bool valid = y >= 0 && y < cols;
      for (int64_t c = 0; c < cols; ++c)
        dp[r * cols + c] = valid ? cp[r] * (std::exp(xp[r * cols + c] - sp[r]) - (c == y ? T(1) : T(0))) : T(0);
    }
  });
}

}  // namespace

void cross_entropy(const Array& x, const Array& labels, const Array& loss, const Array& lse) {
  if (x.dtype() == DType::float32) forward<float>(x, labels, loss, lse);
  else if (x.dtype() == DType::float64) forward<double>(x, labels, loss, lse);
  else throw_dtype_error("cross_entropy", "needs float32 or float64 logits");
}

void cross_entropy_grad(const Array& x, const Array& labels, const Array& lse, const Array& ct, const Array& dx) {
  if (x.dtype() == DType::float32) backward<float>(x, labels, lse, ct, dx);
  else if (x.dtype() == DType::float64) backward<double>(x, labels, lse, ct, dx);
  else throw_dtype_error("cross_entropy_grad", "needs float32 or float64 logits");
}

}  // namespace loom::cpu_backend
