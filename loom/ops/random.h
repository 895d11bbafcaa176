// loom.random: counter-based random numbers (Philox4x32-10) with two APIs.
//
// - Keyed, JAX style: a Key names a stream; the same key gives the same numbers on the CPU
//   and on every GPU, and split()/fold_in() derive new keys deterministically.
// - A global generator, NumPy style (rand, randn, uniform, normal, randint, permutation):
//   a 64-bit key and a 64-bit counter offset that advances by the number of 128-bit Philox
//   blocks each draw consumes (as PyTorch's philox offset). seed(s) makes it reproducible;
//   right after seed(s), a draw equals the keyed draw with key(s) of the same dtype.
//
// Bits per element: float16 11, bfloat16 8, float32 24, float64 53 random bits, scaled by
// 2^-bits, so uniforms lie in [0, 1) and are never 1.0. Normals: Box-Muller on double
// uniforms (both outputs used), evaluated identically on CPU and GPU. randint: 64 random bits
// per element (128 when high - low > 2^32) times the range, high half: each value's
// probability is within 2^-32 (relative) of exact.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loom/array/array.h"
#include "loom/core/scalar.h"

namespace loom::random {

/// A key of the keyed API: the 64-bit Philox key as two words (JAX's uint32[2] layout:
/// key(s) = {s >> 32, s & 0xffffffff}).
struct Key {
  uint32_t hi = 0, lo = 0;
  bool operator==(const Key& o) const { return hi == o.hi && lo == o.lo; }
  bool operator!=(const Key& o) const { return !(*this == o); }
  /// "Key(0x00000000, 0x0000002a)"
  std::string str() const;
};

/// The key of a 64-bit seed (negative seeds wrap, as JAX's).
Key key(uint64_t seed);
/// `num` new keys, each a Philox block of `key` in a stream no draw uses.
std::vector<Key> split(const Key& key, int64_t num = 2);
/// A new key from `key` and `data` (JAX's fold_in).
Key fold_in(const Key& key, uint64_t data);

/// Uniform in [minval, maxval) (rounding may reach maxval for ranges other than [0, 1)).
Array uniform(const Key& key, const Shape& shape, DType dtype = float32, double minval = 0.0,
              double maxval = 1.0, std::optional<Device> device = std::nullopt);
/// Standard normal; complex64/complex128 as JAX draws them (each part N(0, 1/2)).
Array normal(const Key& key, const Shape& shape, DType dtype = float32,
             std::optional<Device> device = std::nullopt);
/// Integers in [minval, maxval) of an integer dtype (or bool); [minval, maxval] with
/// `endpoint` (so that the whole uint64 range can be asked for).
Array randint(const Key& key, const Shape& shape, const Scalar& minval, const Scalar& maxval,
              DType dtype = int32, std::optional<Device> device = std::nullopt, bool endpoint = false);
/// True with probability p (bool array).
Array bernoulli(const Key& key, double p, const Shape& shape, std::optional<Device> device = std::nullopt);
/// A random permutation of arange(n) (int64).
Array permutation(const Key& key, int64_t n, std::optional<Device> device = std::nullopt);
/// A copy of x with its first axis shuffled.
Array permutation(const Key& key, const Array& x);

// ---- the global generator ----------------------------------------------------------------
/// Key and counter offset (in 128-bit blocks) of the global generator.
struct GeneratorState {
  Key key;
  uint64_t offset = 0;
};
/// Reseeds the global generator: key(s), offset 0. Until called, it is seeded from the OS.
void seed(uint64_t s);
GeneratorState get_state();
void set_state(const GeneratorState& state);

/// Uniform [0, 1) (NumPy's rand / random_sample); NumPy's default dtype float64.
Array rand(const Shape& shape, DType dtype = float64, std::optional<Device> device = std::nullopt);
/// Standard normal (NumPy's randn / standard_normal).
Array randn(const Shape& shape, DType dtype = float64, std::optional<Device> device = std::nullopt);
/// Uniform in [low, high).
Array uniform(double low, double high, const Shape& size, DType dtype = float64,
              std::optional<Device> device = std::nullopt);
/// Normal with mean `loc` and standard deviation `scale` (>= 0).
Array normal(double loc, double scale, const Shape& size, DType dtype = float64,
             std::optional<Device> device = std::nullopt);
/// NumPy's randint: integers in [low, high), or [0, low) when high is omitted; low < high,
/// both within the dtype's range (high up to its max + 1).
Array randint(const Scalar& low, const std::optional<Scalar>& high, const Shape& size,
              DType dtype = int64, std::optional<Device> device = std::nullopt, bool endpoint = false);
/// A random permutation of arange(n) (int64), by Fisher-Yates on the host.
Array permutation(int64_t n, std::optional<Device> device = std::nullopt);
/// A copy of x with its first axis shuffled (x must have at least one dimension).
Array permutation(const Array& x);

}  // namespace loom::random
