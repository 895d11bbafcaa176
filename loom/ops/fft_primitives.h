// The FFT family's primitives, one record each, defined with their rules in
// ops/fft_primitives.cpp (dispatch/primitive.h, ops/primitive_list.h).
#pragma once
#include "loom/backend/fft.h"
#include "loom/ops/primitive_list.h"

namespace loom {

#define LOOM_FFT_PRIMITIVES(X)\
  X(FftC2CFn, fft_c2c, ) \
  X(FftR2CFn, fft_r2c, ) \
  X(FftC2RFn, fft_c2r, )

namespace primitives {
LOOM_FFT_PRIMITIVES(LOOM_DECLARE_PRIMITIVE)
}  // namespace primitives

}  // namespace loom
