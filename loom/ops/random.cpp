// loom.random's rules: argument checks, the global generator's state, and the mapping of
// each distribution to (kind, words per element, parameters) for the backends.
#include "loom/ops/random.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <numeric>
#include <random>
#include <stdexcept>
#include <utility>

#include "loom/ops/random_primitives.h"
#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/creation.h"

namespace loom::random {
namespace {

// ---- the global generator -----------------------------------------------------------------
struct Global {
  std::mutex mutex;
  bool seeded = false;
  GeneratorState state;
};

Global& global() {
  static Global g;
  return g;
}

void ensure_seeded(Global& g) {
  if (g.seeded) return;
  std::random_device rd;  // the OS's entropy, once per process
  const uint64_t s = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  g.state = {key(s), 0};
  g.seeded = true;
}

// Takes `blocks` blocks of the global stream: returns the key and the first counter.
GeneratorState reserve(uint64_t blocks) {
  // Traced, a draw of the global generator would be made once and replayed: every call of
  // the compiled function would get the same numbers. Keys make randomness an argument.
  if (is_tracing())
    throw ConcretizationError(
        "[random] the global generator (loom.random.rand, randn, uniform, normal, randint, permutation "
        "without a key) cannot be used inside loom.jit, vmap or grad: each call would draw the same numbers. "
        "Pass a key and use the keyed draws: loom.random.normal(key, shape), with loom.random.split(key)");
  Global& g = global();
  std::lock_guard<std::mutex> lock(g.mutex);
  ensure_seeded(g);
  GeneratorState s = g.state;
  g.state.offset += blocks;
  return s;
}

// ---- draws ---------------------------------------------------------------------------------
struct Draw {
  int kind = loom_rng_uniform;
  int words = 1;
  loom_random_params p{};
};

uint64_t blocks_for(int64_t n, int words) {
  const int64_t per = 4 / words;
  return static_cast<uint64_t>((n + per - 1) / per);
}

Device resolve(const std::optional<Device>& device) { return device ? *device : default_device(); }

// Allocates the output and fills it from `state` (the key and the first block's counter).
Array run(Draw d, const Shape& shape, DType dt, const Device& dev, const std::optional<Key>& key) {
  Array out = Array::allocate(shape, dt, dev);
  d.p.n = out.size();
  const GeneratorState s = key ? GeneratorState{*key, 0} : reserve(blocks_for(d.p.n, d.words));
  d.p.key0 = s.key.hi;
  d.p.key1 = s.key.lo;
  d.p.offset = s.offset;
  dispatch(primitives::random[d.kind], {}, {out}, out, d.kind, d.words, d.p);
  return out;
}

void check_float(const char* op, DType dt) {
  if (!is_floating(dt))
    throw_dtype_error(op, std::string("dtype must be float16, bfloat16, float32 or float64, got ") + dtype_name(dt));
}

Draw uniform_draw(const char* op, double low, double high, DType dt) {
  check_float(op, dt);
  if (!std::isfinite(high - low)) throw std::overflow_error(std::string("[") + op + "] Range exceeds valid bounds");
  Draw d;
  d.kind = loom_rng_uniform;
  d.words = dt == float64 ? 2 : 1;
  d.p.a = low;
  d.p.b = high - low;
  return d;
}

Draw normal_draw(const char* op, double loc, double scale, DType dt) {
  check_float(op, dt);
  if (!(scale >= 0)) throw_value_error(op, "scale < 0");
  Draw d;
  d.kind = loom_rng_normal;
  d.words = dt == float64 ? 2 : 1;
  d.p.a = loc;
  d.p.b = scale;
  return d;
}

__int128 to_int128(const char* op, const char* what, const Scalar& s) {
  switch (s.kind) {
    case Scalar::Kind::boolean: return s.b ? 1 : 0;
    case Scalar::Kind::int_: return s.i;
    case Scalar::Kind::uint_: return static_cast<__int128>(s.u);
    default: throw_dtype_error(op, std::string(what) + " must be an integer");
  }
}

// [low, high) of an integer dtype: 64 random bits per element when the range is at most
// 2^32 (or exactly 2^64: the bits themselves), else 128 bits.
Draw randint_draw(const char* op, __int128 low, __int128 high, DType dt) {
  if (!is_integer(dt) && dt != bool_)
    throw_dtype_error(op, std::string("Unsupported dtype ") + dtype_name(dt) + " for randint");
  if (low >= high) throw_value_error(op, "low >= high");
  __int128 lo_lim = 0, hi_lim = 1;
  if (dt != bool_) {
    const int bits = static_cast<int>(itemsize(dt)) * 8;
    if (dtype_kind(dt) == DTypeKind::signed_int) {
      lo_lim = -(static_cast<__int128>(1) << (bits - 1));
      hi_lim = (static_cast<__int128>(1) << (bits - 1)) - 1;
    } else {
      hi_lim = (static_cast<__int128>(1) << bits) - 1;
    }
  }
  if (low < lo_lim) throw_value_error(op, std::string("low is out of bounds for ") + dtype_name(dt));
  if (high > hi_lim + 1) throw_value_error(op, std::string("high is out of bounds for ") + dtype_name(dt));
  const __int128 range = high - low;
  Draw d;
  d.kind = loom_rng_randint;
  d.words = range <= (static_cast<__int128>(1) << 32) || range == (static_cast<__int128>(1) << 64) ? 2 : 4;
  d.p.lo = static_cast<uint64_t>(low);
  d.p.range = static_cast<uint64_t>(range);  // 2^64 wraps to 0, as the kernel expects
  return d;
}

// Fisher-Yates over [0, n): step i (n-1 down to 1) swaps with j = floor(x_i (i + 1) / 2^64),
// x_i the 64-bit element i of the stream (block offset + i / 2). Consumes ceil(n / 2) blocks.
std::vector<int64_t> shuffle_indices(int64_t n, const GeneratorState& s) {
  std::vector<int64_t> perm(static_cast<size_t>(n));
  std::iota(perm.begin(), perm.end(), int64_t{0});
  loom_philox_out block{};
  int64_t cached = -1;
  for (int64_t i = n - 1; i >= 1; --i) {
    if (i / 2 != cached) {
      cached = i / 2;
      block = loom_philox_block(s.key.hi, s.key.lo, s.offset + static_cast<uint64_t>(cached), loom_rng_samples);
    }
    const int h = static_cast<int>(i % 2) * 2;
    const uint64_t x = loom_words64(block.v[h], block.v[h + 1]);
    const int64_t j = static_cast<int64_t>(loom_mulhi64(x, static_cast<uint64_t>(i) + 1));
    std::swap(perm[i], perm[j]);
  }
  return perm;
}

uint64_t perm_blocks(int64_t n) { return n > 0 ? static_cast<uint64_t>((n + 1) / 2) : 0; }

Array permutation_of_n(int64_t n, const GeneratorState& s, const Device& dev) {
  const int64_t m = n < 0 ? 0 : n;  // NumPy: permutation(-1) is arange(-1), empty
  const std::vector<int64_t> perm = shuffle_indices(m, s);
  // The shuffle runs on the host from the key alone; its result enters as from_host.
  return from_host(HostView{perm.data(), int64, {m}, {static_cast<int64_t>(sizeof(int64_t))}}, dev);
}

Array permutation_of_array(const Array& x, const std::optional<GeneratorState>& state) {
  if (x.ndim() < 1) throw std::out_of_range("[permutation] x must be an integer or at least 1-dimensional");
  const int64_t n = x.shape()[0];
  const GeneratorState s = state ? *state : reserve(perm_blocks(n));
  const std::vector<int64_t> perm = shuffle_indices(n, s);
  // Rows are gathered on the host: a GPU array makes a round trip through host memory (two
  // runtime transfers, no primitive), so this form reads device data mid-op and cannot be
  // traced; permutation(n) can.
  const Array src = x.to(cpu()).contiguous();
  Array host = Array::allocate(x.shape(), x.dtype(), cpu());
  if (host.nbytes() > 0) {
    const size_t row = host.nbytes() / static_cast<size_t>(n);
    const char* in = static_cast<const char*>(src.data());
    char* out = static_cast<char*>(host.data());
    for (int64_t i = 0; i < n; ++i) std::memcpy(out + i * row, in + perm[i] * row, row);
  }
  return host.to(x.device());  // `host` itself on the CPU
}

}  // namespace

std::string Key::str() const {
  char buf[40];
  std::snprintf(buf, sizeof(buf), "Key(0x%08x, 0x%08x)", hi, lo);
  return buf;
}

Key key(uint64_t seed) { return Key{static_cast<uint32_t>(seed >> 32), static_cast<uint32_t>(seed)}; }

std::vector<Key> split(const Key& k, int64_t num) {
  if (num < 0) throw_value_error("split", "num must be non-negative");
  std::vector<Key> keys(static_cast<size_t>(num));
  for (int64_t i = 0; i < num; ++i) {
    const loom_philox_out o = loom_philox_block(k.hi, k.lo, static_cast<uint64_t>(i), loom_rng_split);
    keys[i] = Key{o.v[0], o.v[1]};
  }
  return keys;
}

Key fold_in(const Key& k, uint64_t data) {
  const loom_philox_out o = loom_philox_block(k.hi, k.lo, data, loom_rng_fold_in);
  return Key{o.v[0], o.v[1]};
}

Array uniform(const Key& k, const Shape& shape, DType dtype, double minval, double maxval,
              std::optional<Device> device) {
  return run(uniform_draw("uniform", minval, maxval, dtype), shape, dtype, resolve(device), k);
}

Array normal(const Key& k, const Shape& shape, DType dtype, std::optional<Device> device) {
  if (is_complex(dtype)) {
    // JAX's complex normal: real and imaginary parts independent N(0, 1/2), so E|z|^2 = 1;
    // drawn as pairs of parts and viewed as complex elements (the same memory layout).
    const DType part = real_dtype(dtype);
    Shape pairs = shape;
    pairs.push_back(2);
    const Array p = run(normal_draw("normal", 0.0, std::sqrt(0.5), part), pairs, part, resolve(device), k);
    return Array(p.buffer(), dtype, shape, contiguous_strides(shape, itemsize(dtype)), p.offset());
  }
  return run(normal_draw("normal", 0.0, 1.0, dtype), shape, dtype, resolve(device), k);
}

Array randint(const Key& k, const Shape& shape, const Scalar& minval, const Scalar& maxval, DType dtype,
              std::optional<Device> device, bool endpoint) {
  const Draw d = randint_draw("randint", to_int128("randint", "minval", minval),
                              to_int128("randint", "maxval", maxval) + (endpoint ? 1 : 0), dtype);
  return run(d, shape, dtype, resolve(device), k);
}

Array bernoulli(const Key& k, double p, const Shape& shape, std::optional<Device> device) {
  if (!(p >= 0.0 && p <= 1.0)) throw_value_error("bernoulli", "p must be in [0, 1]");
  Draw d;
  d.kind = loom_rng_bernoulli;
  d.words = 1;
  d.p.range = static_cast<uint64_t>(std::llround(std::ldexp(p, 32)));  // P(x < t) = t / 2^32
  return run(d, shape, bool_, resolve(device), k);
}

Array permutation(const Key& k, int64_t n, std::optional<Device> device) {
  return permutation_of_n(n, GeneratorState{k, 0}, resolve(device));
}

Array permutation(const Key& k, const Array& x) { return permutation_of_array(x, GeneratorState{k, 0}); }

void seed(uint64_t s) { set_state({key(s), 0}); }

GeneratorState get_state() {
  Global& g = global();
  std::lock_guard<std::mutex> lock(g.mutex);
  ensure_seeded(g);
  return g.state;
}

void set_state(const GeneratorState& state) {
  Global& g = global();
  std::lock_guard<std::mutex> lock(g.mutex);
  g.state = state;
  g.seeded = true;
}

Array rand(const Shape& shape, DType dtype, std::optional<Device> device) {
  return run(uniform_draw("rand", 0.0, 1.0, dtype), shape, dtype, resolve(device), std::nullopt);
}

Array randn(const Shape& shape, DType dtype, std::optional<Device> device) {
  return run(normal_draw("randn", 0.0, 1.0, dtype), shape, dtype, resolve(device), std::nullopt);
}

Array uniform(double low, double high, const Shape& size, DType dtype, std::optional<Device> device) {
  return run(uniform_draw("uniform", low, high, dtype), size, dtype, resolve(device), std::nullopt);
}

Array normal(double loc, double scale, const Shape& size, DType dtype, std::optional<Device> device) {
  return run(normal_draw("normal", loc, scale, dtype), size, dtype, resolve(device), std::nullopt);
}

Array randint(const Scalar& low, const std::optional<Scalar>& high, const Shape& size, DType dtype,
              std::optional<Device> device, bool endpoint) {
  __int128 lo = to_int128("randint", "low", low), hi = 0;
  if (high) hi = to_int128("randint", "high", *high);
  else std::swap(lo, hi);  // randint(n): [0, n)
  if (endpoint) hi += 1;
  return run(randint_draw("randint", lo, hi, dtype), size, dtype, resolve(device), std::nullopt);
}

Array permutation(int64_t n, std::optional<Device> device) {
  const Device dev = resolve(device);
  return permutation_of_n(n, reserve(perm_blocks(n)), dev);
}

Array permutation(const Array& x) { return permutation_of_array(x, std::nullopt); }

}  // namespace loom::random
