#include "loom/core/convert.h"

namespace loom {
namespace {

// Rounds a double to the nearest-even value of a binary float with EXP exponent bits
// and MANT mantissa bits, directly (no detour through float, so no double rounding).
template <int EXP, int MANT>
uint16_t round_double(double d) {
  constexpr int bias = (1 << (EXP - 1)) - 1;
  constexpr uint32_t inf = ((1u << EXP) - 1) << MANT;
  uint64_t b;
  std::memcpy(&b, &d, 8);
  const uint16_t sign = static_cast<uint16_t>((b >> 63) << (EXP + MANT));
  const uint64_t abs = b & 0x7fffffffffffffffULL;
  if (abs >= 0x7ff0000000000000ULL) {
    if (abs == 0x7ff0000000000000ULL) return sign | inf;
    // NaN: keep the top payload bits and make it quiet.
    return sign | inf | (1u << (MANT - 1)) | static_cast<uint32_t>((abs >> (52 - MANT)) & ((1u << MANT) - 1));
  }
  const int exp = static_cast<int>(abs >> 52) - 1023;
  if (exp > bias) return sign | inf;
  const uint64_t frac = abs & ((1ULL << 52) - 1);
  if (exp >= 1 - bias) {  // normal in the target
    constexpr int shift = 52 - MANT;
    uint32_t h = (static_cast<uint32_t>(exp + bias) << MANT) | static_cast<uint32_t>(frac >> shift);
    const uint64_t rem = frac & ((1ULL << shift) - 1), halfway = 1ULL << (shift - 1);
    if (rem > halfway || (rem == halfway && (h & 1))) ++h;  // a carry into the exponent is right
    return sign | static_cast<uint16_t>(h);
  }
  if ((abs >> 52) == 0) return sign;  // double subnormals are far below any target subnormal
  // Subnormal in the target: count units of 2^(1 - bias - MANT).
  const uint64_t mant = frac | (1ULL << 52);
  const int shift = 52 - exp + 1 - bias - MANT;
  if (shift > 63) return sign;
  uint32_t h = static_cast<uint32_t>(mant >> shift);
  const uint64_t rem = mant & ((1ULL << shift) - 1), halfway = 1ULL << (shift - 1);
  if (rem > halfway || (rem == halfway && (h & 1))) ++h;
  return sign | static_cast<uint16_t>(h);
}

}  // namespace

float half_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  const uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else if (exp != 0) {
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign;
  } else {
    const float v = static_cast<float>(mant) * (1.0f / 16777216.0f);  // mant * 2^-24, exact
    return sign ? -v : v;
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t double_to_half(double d) { return round_double<5, 10>(d); }
uint16_t float_to_half(float f) { return round_double<5, 10>(static_cast<double>(f)); }

float bfloat16_to_float(uint16_t b) {
  const uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t double_to_bfloat16(double d) { return round_double<8, 7>(d); }

uint16_t float_to_bfloat16(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  if ((b & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((b >> 16) | 0x40);  // quiet NaN
  // Same bit format above the cut, so rounding the low half is exact round-to-nearest-even.
  b += 0x7fffu + ((b >> 16) & 1u);
  return static_cast<uint16_t>(b >> 16);
}

}  // namespace loom
