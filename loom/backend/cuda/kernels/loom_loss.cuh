// Softmax cross-entropy of integer labels over rows of logits (backend/nn_loss.h): a warp
// per row for the forward pass (max, then the sum of exponentials, then the label's
// logit), a thread per element for the gradient. Grid-stride loops; the forward's thread
// count is a multiple of 32, so every warp works on one row.
#pragma once

#define LOOM_LOSS_STRIDE(i, n)                                                                 \
  _Pragma("unroll 1") for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < (n); \
       i += static_cast<long long>(gridDim.x) * blockDim.x)

template <typename T>
__device__ T loom_loss_exp(T v) {
  if constexpr (sizeof(T) == 4) return expf(v); else return exp(v);
}
template <typename T>
__device__ T loom_loss_log(T v) {
  if constexpr (sizeof(T) == 4) return logf(v); else return log(v);
}
__device__ inline double loom_loss_inf() { return __longlong_as_double(0x7ff0000000000000LL); }
__device__ inline double loom_loss_nan() { return __longlong_as_double(0x7ff8000000000000LL); }

// max that keeps a NaN (NaN is every row's maximum, as in the CPU eval).
template <typename T>
__device__ T loom_loss_max(T a, T b) { return (b > a || b != b) ? b : a; }

template <typename T>
__global__ void loom_xent_forward(const T* x, const long long* labels, T* loss, T* lse, long long rows,
                                  long long cols) {
  LOOM_LOSS_STRIDE(t, rows * 32) {
    const long long r = t >> 5;
    const int lane = static_cast<int>(t & 31);
    const T* row = x + r * cols;
    T m = -static_cast<T>(loom_loss_inf());
    for (long long c = lane; c < cols; c += 32) m = loom_loss_max(m, row[c]);
    for (int o = 16; o > 0; o >>= 1) m = loom_loss_max(m, __shfl_xor_sync(0xffffffffu, m, o));
    T s = 0;
    for (long long c = lane; c < cols; c += 32) s += loom_loss_exp(row[c] - m);
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if (lane == 0) {
      const T l = m + loom_loss_log(s);
      const long long y = labels[r];
      lse[r] = l;
      loss[r] = y >= 0 && y < cols ? l - row[y] : static_cast<T>(loom_loss_nan());
    }
  }
}

// dx = ct * (softmax(x) - onehot(label)) per row; zero for a row whose label is out of range.
template <typename T>
__global__ void loom_xent_grad(const T* x, const long long* labels, const T* lse, const T* ct, T* dx,
                               long long rows, long long cols) {
  LOOM_LOSS_STRIDE(i, rows * cols) {
    const long long r = i / cols, c = i - r * cols;
    const long long y = labels[r];
    dx[i] = y >= 0 && y < cols ? ct[r] * (loom_loss_exp(x[i] - lse[r]) - (c == y ? T(1) : T(0))) : T(0);
  }
}
