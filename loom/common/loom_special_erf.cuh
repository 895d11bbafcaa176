// The error functions, their inverses and the normal distribution of loom_special.cuh,
// which includes this file after its helpers (constants, erfcx, sinpi); not included alone.
#pragma once

// ---- error functions and the normal distribution ----------------------------------------
LOOM_DEV double loom_erfc(double x) { return erfc(x); }

// The inverse error functions on the host (CUDA has its own on the device). The start is
// Giles's single-precision approximation ("Approximating the erfinv function", GPU Computing
// Gems, 2010), within about 1e-7, in w = -log((1 - a)(1 + a)) for a = |y| and t = 1 - a; one
// Halley step on erf (erfc in the tail, where t is exact) takes it to double precision.
// Below t = 1e-7, beyond the approximation's range, the start is the asymptotic root of
// e^-x^2 / (x sqrt(pi)) = t and Halley runs to convergence on erfc's residual scaled by
// e^(x^2) (erfcx(x) - t e^(x^2)), which never underflows (t down to 5e-324).
LOOM_DEV double loom_sp_erfinv_start(double a, double t) {
  const double w0 = -log(t * (2.0 - t));
  double p;
  if (w0 < 5.0) {
    const double w = w0 - 2.5;
    p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w;
    p = -3.5233877e-06 + p * w;
    p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w;
    p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w;
    p = 1.50140941 + p * w;
  } else {
    const double w = sqrt(w0) - 3.0;
    p = -0.000200214257;
    p = 0.000100950558 + p * w;
    p = 0.00134934322 + p * w;
    p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w;
    p = -0.0076224613 + p * w;
    p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w;
    p = 2.83297682 + p * w;
  }
  return p * a;
}

// x > 0 with erfc(x) = t for t in (0, 1e-7): the tail beyond float's range, where Giles's
// approximation (made for float) no longer holds.
LOOM_DEV double loom_sp_erfcinv_far(double t) {
  const double lt = log(t);
  double x = sqrt(-lt);
  for (int i = 0; i < 2; ++i) x = sqrt(-lt - log(x * LOOM_SP_SQRT_PI));
  for (int i = 0; i < 8; ++i) {
    const double delta = -(loom_sp_erfcx_pos(x) - exp(x * x + lt)) * (0.5 * LOOM_SP_SQRT_PI);  // f / f'
    const double step = delta / (1.0 + x * delta);                                             // Halley
    x -= step;
    if (fabs(step) <= 1e-16 * x) break;
  }
  return x;
}

// x >= 0 with erf(x) = a, for a in (0, 1) and t = 1 - a, exact where a > 0.5 (the tail).
LOOM_DEV double loom_sp_erfinv_pos(double a, double t) {
  if (t < 1e-7) return loom_sp_erfcinv_far(t);
  const double x = loom_sp_erfinv_start(a, t);
  // Halley (f'' / f' = -2x), the residual from erf near 0 and from erfc in the tail, where a
  // holds none of t's low bits.
  const double f = a <= 0.5 ? erf(x) - a : t - erfc(x);
  const double delta = f * (0.5 * LOOM_SP_SQRT_PI) * exp(x * x);
  return x - delta / (1.0 + x * delta);
}

LOOM_DEV double loom_sp_erfinv_host(double y) {
  if (!(y > -1.0 && y < 1.0)) return y == 1.0 ? LOOM_SP_INF : y == -1.0 ? -LOOM_SP_INF : LOOM_SP_NAN;
  if (y == 0.0) return y;
  const double a = fabs(y);
  return copysign(loom_sp_erfinv_pos(a, 1.0 - a), y);  // 1 - a is exact for a >= 0.5
}

LOOM_DEV double loom_sp_erfcinv_host(double t) {
  if (!(t > 0.0 && t < 2.0)) return t == 0.0 ? LOOM_SP_INF : t == 2.0 ? -LOOM_SP_INF : LOOM_SP_NAN;
  if (t > 1.0) return -loom_sp_erfinv_pos(t - 1.0, 2.0 - t);  // both exact for t >= 1
  return loom_sp_erfinv_pos(1.0 - t, t);                        // 1 - t exact for t >= 0.5
}

#if LOOM_SP_DEVICE
LOOM_DEV double loom_erfinv(double y) { return erfinv(y); }
LOOM_DEV float loom_erfinv(float y) { return erfinvf(y); }
LOOM_DEV double loom_erfcinv(double t) { return erfcinv(t); }
LOOM_DEV float loom_erfcinv(float t) { return erfcinvf(t); }
LOOM_DEV double loom_ndtri(double p) { return normcdfinv(p); }
LOOM_DEV float loom_ndtri(float p) { return normcdfinvf(p); }
#else
LOOM_DEV double loom_erfinv(double y) { return loom_sp_erfinv_host(y); }
LOOM_DEV double loom_erfcinv(double t) { return loom_sp_erfcinv_host(t); }
LOOM_DEV double loom_ndtri(double p) {
  if (!(p >= 0.0 && p <= 1.0)) return LOOM_SP_NAN;
  return -LOOM_SP_SQRT2 * loom_sp_erfcinv_host(2.0 * p);
}
// float results: Giles's approximation alone is within 2 ulps of float (as CUDA's erfinvf),
// so the Halley step is skipped; the far tail takes the double path.
LOOM_DEV float loom_sp_erfinv_float(double a, double t) {
  return static_cast<float>(t < 1e-7 ? loom_sp_erfcinv_far(t) : loom_sp_erfinv_start(a, t));
}
LOOM_DEV float loom_erfinv(float y) {
  if (!(y > -1.0f && y < 1.0f) || y == 0.0f) return static_cast<float>(loom_sp_erfinv_host(y));
  const double a = fabs(static_cast<double>(y));
  return copysignf(loom_sp_erfinv_float(a, 1.0 - a), y);
}
LOOM_DEV float loom_sp_erfcinv_float(double t) {
  if (!(t > 0.0 && t < 2.0)) return static_cast<float>(loom_sp_erfcinv_host(t));
  return t > 1.0 ? -loom_sp_erfinv_float(t - 1.0, 2.0 - t) : loom_sp_erfinv_float(1.0 - t, t);
}
LOOM_DEV float loom_erfcinv(float t) { return loom_sp_erfcinv_float(t); }
LOOM_DEV float loom_ndtri(float p) {
  if (!(p >= 0.0f && p <= 1.0f)) return static_cast<float>(LOOM_SP_NAN);
  return static_cast<float>(-LOOM_SP_SQRT2 * loom_sp_erfcinv_float(2.0 * static_cast<double>(p)));
}
#endif

// The standard normal CDF 0.5 erfc(-x / sqrt 2), relative-accurate in the lower tail.
LOOM_DEV double loom_ndtr(double x) { return 0.5 * erfc(-x / LOOM_SP_SQRT2); }

// log(ndtr(x)): log1p of the small upper tail above 6, and below -1 the scaled erfcx form
// log(erfcx(z) / 2) - z^2 with z = -x / sqrt 2, which stays finite however far x goes.
LOOM_DEV double loom_log_ndtr(double x) {
  if (x != x) return x;
  if (x > 0.0) return log1p(-loom_ndtr(-x));
  if (x > -1.0) return log(loom_ndtr(x));
  const double z = -x / LOOM_SP_SQRT2;
  return log(0.5 * loom_sp_erfcx_pos(z)) - z * z;
}
