// Philox4x32-10 (Salmon, Moraes, Dror, Shaw: "Parallel random numbers: as easy as 1, 2, 3",
// SC'11) and the distributions loom.random builds on it. One header for both backends:
// NVRTC compiles it into the GPU kernels and the CPU backend #includes it, so the same key
// and counter give the same bits on the CPU and on every GPU. That includes normals: log,
// sin and cos are evaluated here with +, -, *, / and sqrt only (all correctly rounded on
// both sides; GPU programs are compiled with --fmad=false), never with a libm.
//
// Streams: block b of a draw is philox(counter = {lo32(b), hi32(b), domain, 0}, key), with
// domain 0 for samples, 1 for split() and 2 for fold_in(). An element takes W words
// (1, 2 or 4) of the block stream, so a block holds 4 / W elements and element i lives in
// block offset + i / (4 / W): results do not depend on how the work is split.
#pragma once
#include "loom_cast.cuh"

#define LOOM_PHILOX_M0 0xD2511F53u
#define LOOM_PHILOX_M1 0xCD9E8D57u
#define LOOM_PHILOX_W0 0x9E3779B9u
#define LOOM_PHILOX_W1 0xBB67AE85u

enum { loom_rng_samples = 0, loom_rng_split = 1, loom_rng_fold_in = 2 };
enum { loom_rng_uniform = 0, loom_rng_normal = 1, loom_rng_randint = 2, loom_rng_bernoulli = 3 };

struct loom_philox_out { unsigned v[4]; };

// The arguments of one draw; the same struct is the GPU kernel's parameter.
struct loom_random_params {
  unsigned key0, key1;
  unsigned long long offset;  // counter of the draw's first block
  long long n;                // elements
  double a, b;                // uniform: low, high - low; normal: loc, scale
  unsigned long long lo;      // randint: low (two's complement)
  unsigned long long range;   // randint: high - low (0 means 2^64); bernoulli: threshold
  int vec;                    // GPU: output aligned for whole-block vector stores
};

LOOM_DEV unsigned loom_mulhi32(unsigned a, unsigned b) {
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
  return __umulhi(a, b);
#else
  return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32);
#endif
}

LOOM_DEV unsigned long long loom_mulhi64(unsigned long long a, unsigned long long b) {
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
  return __umul64hi(a, b);
#else
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
#endif
}

// The published Philox4x32 round and Weyl key schedule, 10 rounds.
LOOM_DEV loom_philox_out loom_philox4x32_10(unsigned c0, unsigned c1, unsigned c2, unsigned c3,
                                            unsigned k0, unsigned k1) {
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#pragma unroll
#endif
  for (int r = 0; r < 10; ++r) {
    if (r > 0) {
      k0 += LOOM_PHILOX_W0;
      k1 += LOOM_PHILOX_W1;
    }
    const unsigned hi0 = loom_mulhi32(LOOM_PHILOX_M0, c0), lo0 = LOOM_PHILOX_M0 * c0;
    const unsigned hi1 = loom_mulhi32(LOOM_PHILOX_M1, c2), lo1 = LOOM_PHILOX_M1 * c2;
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ k1;
    c3 = lo0;
  }
  loom_philox_out o;
  o.v[0] = c0; o.v[1] = c1; o.v[2] = c2; o.v[3] = c3;
  return o;
}

LOOM_DEV loom_philox_out loom_philox_block(unsigned k0, unsigned k1, unsigned long long block,
                                           unsigned domain) {
  return loom_philox4x32_10(static_cast<unsigned>(block), static_cast<unsigned>(block >> 32), domain,
                            0u, k0, k1);
}

LOOM_DEV unsigned long long loom_words64(unsigned lo, unsigned hi) {
  return (static_cast<unsigned long long>(hi) << 32) | lo;
}

// ---- uniforms: k random bits * 2^-k, exact in the target type, so never 1.0 ------------
LOOM_DEV double loom_u01_bits24(unsigned x) { return static_cast<double>(x >> 8) * 5.9604644775390625e-8; }
LOOM_DEV double loom_u01_bits11(unsigned x) { return static_cast<double>(x >> 21) * 4.8828125e-4; }
LOOM_DEV double loom_u01_bits8(unsigned x) { return static_cast<double>(x >> 24) * 3.90625e-3; }
LOOM_DEV double loom_u01_bits53(unsigned long long x) {
  return static_cast<double>(x >> 11) * 1.1102230246251565404236316680908203125e-16;
}

// ---- portable log, sin, cos (double; inputs are in the narrow ranges Box-Muller needs) ----
LOOM_DEV double loom_bits_double(unsigned long long u) {
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
  return __longlong_as_double(static_cast<long long>(u));
#else
  double d; std::memcpy(&d, &u, 8); return d;
#endif
}

LOOM_DEV double loom_sqrt(double x) {
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
  return __dsqrt_rn(x);
#else
  return std::sqrt(x);  // IEEE: correctly rounded, as __dsqrt_rn
#endif
}

// log(x) for a positive normal x: x = 2^k (1 + f) with 1 + f in [sqrt(2)/2, sqrt(2)), then
// log(1 + f) = f - f^2/2 + s (f^2/2 + R(s^2)), s = f / (2 + f), with the minimax R and the
// split ln 2 of fdlibm's e_log.c (Sun Microsystems, freely redistributable). Error < 1 ulp.
LOOM_DEV double loom_log_positive(double x) {
  const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  const double lg1 = 6.666666666666735130e-01, lg2 = 3.999999999940941908e-01,
               lg3 = 2.857142874366239149e-01, lg4 = 2.222219843214978396e-01,
               lg5 = 1.818357216161805012e-01, lg6 = 1.531383769920937332e-01,
               lg7 = 1.479819860511658591e-01;
  const unsigned long long bits = loom_double_bits(x);
  int k = static_cast<int>(bits >> 52) - 1023;
  unsigned long long mant = bits & 0xfffffffffffffull;
  unsigned long long expo = 0x3ff0000000000000ull;  // 1 + f in [1, 2)
  if (mant >= 0x6a09e667f3bcdull) {                  // 1 + f >= sqrt(2): halve it
    expo = 0x3fe0000000000000ull;
    ++k;
  }
  const double f = loom_bits_double(expo | mant) - 1.0;
  const double s = f / (2.0 + f), z = s * s, w = z * z;
  const double t1 = w * (lg2 + w * (lg4 + w * lg6));
  const double t2 = z * (lg1 + w * (lg3 + w * (lg5 + w * lg7)));
  const double hfsq = 0.5 * f * f, R = t2 + t1, dk = static_cast<double>(k);
  return dk * ln2_hi - ((hfsq - (s * (hfsq + R) + dk * ln2_lo)) - f);
}

// sin and cos of x in [-pi/4, pi/4]: fdlibm's __kernel_sin / __kernel_cos polynomials.
LOOM_DEV double loom_kernel_sin(double x) {
  const double s1 = -1.66666666666666324348e-01, s2 = 8.33333333332248946124e-03,
               s3 = -1.98412698298579493134e-04, s4 = 2.75573137070700676789e-06,
               s5 = -2.50507602534068634195e-08, s6 = 1.58969099521155010221e-10;
  const double z = x * x, v = z * x;
  const double r = s2 + z * (s3 + z * (s4 + z * (s5 + z * s6)));
  return x + v * (s1 + z * r);
}
LOOM_DEV double loom_kernel_cos(double x) {
  const double c1 = 4.16666666666666019037e-02, c2 = -1.38888888888741095749e-03,
               c3 = 2.48015872894767294178e-05, c4 = -2.75573143513906633035e-07,
               c5 = 2.08757232129817482790e-09, c6 = -1.13596475577881948265e-11;
  const double z = x * x;
  const double r = z * (c1 + z * (c2 + z * (c3 + z * (c4 + z * (c5 + z * c6)))));
  const double hz = 0.5 * z, w = 1.0 - hz;
  return w + (((1.0 - w) - hz) + z * r);
}

// sin and cos of 2 pi u for u in [0, 1): 2 pi u = q pi/2 + x with |x| <= pi/4. The
// reduction is exact (u * 8 and its fraction are exact), only x = y * pi/4 rounds.
LOOM_DEV void loom_sincos_2pi(double u, double* s, double* c) {
  const double t = u * 8.0;
  const int octant = static_cast<int>(t);  // 0..7
  const int q = (octant + 1) >> 1;         // 0..4
  const double y = (t - static_cast<double>(octant)) + static_cast<double>(octant - 2 * q);
  const double x = y * 7.85398163397448278999e-01;  // pi/4
  const double sx = loom_kernel_sin(x), cx = loom_kernel_cos(x);
  switch (q & 3) {
    case 0: *s = sx; *c = cx; break;
    case 1: *s = cx; *c = -sx; break;
    case 2: *s = -sx; *c = -cx; break;
    default: *s = -cx; *c = sx; break;
  }
}

// Box-Muller: u1 in (0, 1], u2 in [0, 1) -> two independent standard normals.
LOOM_DEV void loom_box_muller(double u1, double u2, double* z0, double* z1) {
  const double r = loom_sqrt(-2.0 * loom_log_positive(u1));
  double s, c;
  loom_sincos_2pi(u2, &s, &c);
  *z0 = r * c;
  *z1 = r * s;
}

// ---- one block: up to 4 / W elements ---------------------------------------------------
// Element t of block `r` for each distribution; `v` receives 4 / W values.
template <typename T, int KIND, int W>
LOOM_DEV void loom_random_values(const loom_philox_out& r, const loom_random_params& p, T* v) {
  if constexpr (KIND == loom_rng_uniform) {
    if constexpr (W == 2) {
      for (int t = 0; t < 2; ++t)
        v[t] = loom_cast<T>(p.a + p.b * loom_u01_bits53(loom_words64(r.v[2 * t], r.v[2 * t + 1])));
    } else {
      for (int t = 0; t < 4; ++t) {
        double u;
        if constexpr (loom_same<T, loom_f16>::value) u = loom_u01_bits11(r.v[t]);
        else if constexpr (loom_same<T, loom_bf16>::value) u = loom_u01_bits8(r.v[t]);
        else u = loom_u01_bits24(r.v[t]);
        v[t] = loom_cast<T>(p.a + p.b * u);
      }
    }
  } else if constexpr (KIND == loom_rng_normal) {
    double z[4];
    if constexpr (W == 2) {
      const unsigned long long x1 = loom_words64(r.v[0], r.v[1]), x2 = loom_words64(r.v[2], r.v[3]);
      const double u1 = static_cast<double>((x1 >> 11) + 1) * 1.1102230246251565404236316680908203125e-16;
      loom_box_muller(u1, loom_u01_bits53(x2), &z[0], &z[1]);
    } else {
      for (int pair = 0; pair < 2; ++pair) {
        const double u1 = (static_cast<double>(r.v[2 * pair]) + 1.0) * 2.3283064365386962890625e-10;
        const double u2 = static_cast<double>(r.v[2 * pair + 1]) * 2.3283064365386962890625e-10;
        loom_box_muller(u1, u2, &z[2 * pair], &z[2 * pair + 1]);
      }
    }
    for (int t = 0; t < 4 / W; ++t) v[t] = loom_cast<T>(p.a + p.b * z[t]);
  } else if constexpr (KIND == loom_rng_randint) {
    // floor(x * range / 2^bits) with 64 (W=2) or 128 (W=4) random bits: each value has
    // probability within range / 2^bits of 1 / range (bias < 2^-32 for the ranges W=2 serves).
    unsigned long long off[2];
    if constexpr (W == 2) {
      for (int t = 0; t < 2; ++t) {
        const unsigned long long x = loom_words64(r.v[2 * t], r.v[2 * t + 1]);
        off[t] = p.range == 0 ? x : loom_mulhi64(x, p.range);
      }
    } else {
      const unsigned long long xlo = loom_words64(r.v[0], r.v[1]), xhi = loom_words64(r.v[2], r.v[3]);
      const unsigned long long a_hi = loom_mulhi64(xhi, p.range), a_lo = xhi * p.range;
      const unsigned long long b_hi = loom_mulhi64(xlo, p.range);
      const unsigned long long mid = a_lo + b_hi;
      off[0] = a_hi + (mid < a_lo ? 1ull : 0ull);
    }
    for (int t = 0; t < 4 / W; ++t) v[t] = loom_cast<T>(p.lo + off[t]);
  } else {  // bernoulli: P(x < threshold) = threshold / 2^32
    for (int t = 0; t < 4; ++t) v[t] = loom_cast<T>(static_cast<unsigned long long>(r.v[t]) < p.range);
  }
}

template <typename T, int PER>
struct alignas(sizeof(T) * PER) loom_random_pack { T v[PER]; };

// Writes the elements of block j (block p.offset + j of the stream) into out[j * 4 / W ...].
template <typename T, int KIND, int W>
LOOM_DEV void loom_random_block(T* out, long long j, const loom_random_params& p) {
  constexpr int PER = 4 / W;
  const loom_philox_out r =
      loom_philox_block(p.key0, p.key1, p.offset + static_cast<unsigned long long>(j), loom_rng_samples);
  loom_random_pack<T, PER> pack;
  loom_random_values<T, KIND, W>(r, p, pack.v);
  const long long base = j * PER;
  if (p.vec && base + PER <= p.n) {
    *reinterpret_cast<loom_random_pack<T, PER>*>(out + base) = pack;  // one vector store
  } else {
    for (int t = 0; t < PER; ++t)
      if (base + t < p.n) out[base + t] = pack.v[t];
  }
}

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
// Grid-stride over the draw's blocks: one Philox call gives a thread 4 / W outputs.
template <typename T, int KIND, int W>
__global__ void loom_random(T* out, loom_random_params p) {
  const long long blocks = (p.n + (4 / W) - 1) / (4 / W);
#pragma unroll 1
  for (long long j = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; j < blocks;
       j += static_cast<long long>(gridDim.x) * blockDim.x)
    loom_random_block<T, KIND, W>(out, j, p);
}
#endif
