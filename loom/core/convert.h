// Element conversions with NumPy's cast results, shared by the CPU backend and the
// scalar helpers. float16 and bfloat16 are stored as raw 16-bit patterns.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace loom {

struct half_bits { uint16_t bits; };
struct bfloat16_bits { uint16_t bits; };

float half_to_float(uint16_t h);
/// Round to nearest even; NaN stays NaN, overflow goes to inf (as numpy.float16).
uint16_t float_to_half(float f);
uint16_t double_to_half(double d);
float bfloat16_to_float(uint16_t b);
uint16_t float_to_bfloat16(float f);
uint16_t double_to_bfloat16(double d);

}  // namespace loom
