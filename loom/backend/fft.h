// The FFT family's contract (DESIGN.md §2): one-axis discrete Fourier transforms of a
// contiguous array viewed as (outer, n, inner), transforming the middle axis, so that any
// axis of any array is transformed without a transpose (a row of `inner` interleaved
// transforms, `outer` times: FFTW's guru interface and cufftPlanMany take that layout).
// ops/fft.cpp owns the rules: axes, n (padding/truncation), dtypes, the norm's scale, and
// the multi-axis transforms as compositions of these. The evals are unnormalised:
// forward sum x[j] e^{-2 pi i jk/n}, inverse with e^{+2 pi i jk/n}, no 1/n.
// CPU: FFTW 3 (backend/cpu/fft.cpp); GPU: cuFFT (backend/cuda/fft.cpp).
#pragma once
#include "loom/array/array.h"
#include "loom/backend/eval_list.h"

namespace loom {

/// in, out: complex64 or complex128 (the same), both contiguous (outer, n, inner).
using FftC2CFn = void(const Array& in, const Array& out, bool inverse);
/// in: float32/float64 (outer, n, inner) -> out: the matching complex (outer, n/2 + 1, inner),
/// the non-negative frequencies of the forward transform.
using FftR2CFn = void(const Array& in, const Array& out);
/// in: complex (outer, n/2 + 1, inner), a Hermitian half-spectrum -> out: the matching real
/// (outer, n, inner), the unnormalised inverse; n is out.shape()[1]. `in` is overwritten
/// (FFTW's and cuFFT's c2r both use it as scratch): ops/ hands it a private copy.
using FftC2RFn = void(const Array& in, const Array& out);

// Its evals, declared in cpu_backend and gpu_backend (backend/eval_list.h); without CUDA
// backend/no_cuda/evals.cpp defines the GPU ones as stubs from this list.
#define LOOM_FFT_EVALS(X) \
  X(FftC2CFn, fft_c2c, 3) \
  X(FftR2CFn, fft_r2c, 2) \
  X(FftC2RFn, fft_c2r, 2)
LOOM_DECLARE_EVALS(LOOM_FFT_EVALS)

}  // namespace loom
