// bfloat16 in Python kernels (bf16.py): conversions with each of CUDA's rounding modes,
// computed on the bits with float arithmetic only, so NVRTC and the CPU kernel emulator give
// the same answers (the emulator has no cuda_bf16.h). Modes: 0 nearest-even (rn), 1 toward
// zero (rz), 2 down (rd), 3 up (ru). Put into a program only when it uses bfloat16.

// A float's bfloat16 bits under `mode` (NaN stays a quiet NaN; overflow follows the mode).
__device__ __forceinline__ unsigned short loom_bf16_bits(float f, int mode) {
  const unsigned int u = __float_as_uint(f);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<unsigned short>((u >> 16) | 0x40u);
  const unsigned int low = u & 0xFFFFu;
  const bool neg = (u >> 31) != 0;
  unsigned int hi = u >> 16;
  if (mode == 0) {
    hi = (u + 0x7FFFu + (hi & 1u)) >> 16;
  } else if ((mode == 2 && neg) || (mode == 3 && !neg)) {
    hi += low != 0u;  // away from zero: toward -inf for negatives, +inf for positives
  }
  return static_cast<unsigned short>(hi);
}

__device__ __forceinline__ __nv_bfloat16 loom_f32_to_bf16(float f, int mode) {
  return __ushort_as_bfloat16(loom_bf16_bits(f, mode));
}

// A double to bfloat16, rounded once: first to float by rounding to odd (toward zero, the
// last bit set when inexact), which leaves the float→bfloat16 rounding exact.
__device__ __forceinline__ __nv_bfloat16 loom_f64_to_bf16(double d, int mode) {
  float f = static_cast<float>(d);
  if (d == d && static_cast<double>(f) != d) {
    if (fabs(static_cast<double>(f)) > fabs(d)) f = nextafterf(f, 0.0f);
    f = __uint_as_float(__float_as_uint(f) | 1u);
  }
  return loom_f32_to_bf16(f, mode);
}

// An integer's magnitude and sign to bfloat16 under `mode`, exact for every 64-bit value:
// the top 8 significant bits are kept and the rest rounded, then scaled (exact in float).
__device__ __forceinline__ __nv_bfloat16 loom_int_to_bf16(unsigned long long mag, bool neg, int mode) {
  if (mag < 256ull) {
    const float f = static_cast<float>(mag);
    return loom_f32_to_bf16(neg ? -f : f, 1);
  }
  const int top = 63 - __clzll(static_cast<long long>(mag));
  int shift = top - 7;
  unsigned long long q = mag >> shift;
  const unsigned long long rem = mag & ((1ull << shift) - 1ull), half = 1ull << (shift - 1);
  const bool up = mode == 0 ? (rem > half || (rem == half && (q & 1ull))) : (mode == 1 ? false : (rem != 0ull && ((mode == 2) == neg)));
  q += up;
  const float f = ldexpf(static_cast<float>(q), shift);
  return loom_f32_to_bf16(neg ? -f : f, 1);
}

__device__ __forceinline__ __nv_bfloat16 loom_i64_to_bf16(long long v, int mode) {
  const bool neg = v < 0;
  const unsigned long long mag = neg ? 0ull - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v);
  return loom_int_to_bf16(mag, neg, mode);
}

__device__ __forceinline__ __nv_bfloat16 loom_u64_to_bf16(unsigned long long v, int mode) {
  return loom_int_to_bf16(v, false, mode);
}

// A bfloat16 rounded to a `bits`-bit integer under `mode`, saturated to the type's range;
// NaN gives 0 (CUDA's __bfloat162int_rn and kin).
__device__ __forceinline__ float loom_bf16_round(__nv_bfloat16 b, int mode) {
  const float f = __bfloat162float(b);
  return mode == 0 ? rintf(f) : mode == 1 ? truncf(f) : mode == 2 ? floorf(f) : ceilf(f);
}

__device__ __forceinline__ long long loom_bf16_to_sint(__nv_bfloat16 b, int mode, int bits) {
  const float r = loom_bf16_round(b, mode), top = ldexpf(1.0f, bits - 1);
  if (r != r) return 0;
  if (r >= top) return static_cast<long long>((1ull << (bits - 1)) - 1ull);
  if (r < -top) return -static_cast<long long>((1ull << (bits - 1)) - 1ull) - 1;
  return static_cast<long long>(r);
}

__device__ __forceinline__ unsigned long long loom_bf16_to_uint(__nv_bfloat16 b, int mode, int bits) {
  const float r = loom_bf16_round(b, mode);
  if (r != r || r <= 0.0f) return 0ull;
  if (r >= ldexpf(1.0f, bits)) return bits == 64 ? ~0ull : (1ull << bits) - 1ull;
  return static_cast<unsigned long long>(r);
}
