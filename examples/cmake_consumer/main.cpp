// A program built against an installed loom (find_package(loom), target loom::loom): random
// matrices on cpu(), a product, an elementwise op and a sum, each checked against the same
// computed here in double precision. Exit status 0 when every result matches.
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "loom/loom.h"

int main() {
  const int64_t m = 5, k = 7, n = 3;
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<double> a(m * k), b(k * n);
  for (double& v : a) v = uniform(rng);
  for (double& v : b) v = uniform(rng);

  const loom::Device cpu = loom::cpu();
  const loom::Array la = loom::from_host({a.data(), loom::float64, {m, k}, {k * 8, 8}}, cpu);
  const loom::Array lb = loom::from_host({b.data(), loom::float64, {k, n}, {n * 8, 8}}, cpu);
  const loom::Array c = loom::matmul(la, lb);             // BLAS on cpu()
  const loom::Array e = loom::exp(loom::multiply(c, 0.5));  // elementwise, with a scalar
  const loom::Array total = loom::sum(e);

  std::vector<double> got_c(m * n), got_e(m * n);
  double got_total = 0;
  c.copy_to_host(got_c.data());
  e.copy_to_host(got_e.data());
  total.copy_to_host(&got_total);

  double want_total = 0, worst = 0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double dot = 0;
      for (int64_t p = 0; p < k; ++p) dot += a[i * k + p] * b[p * n + j];
      const double ex = std::exp(0.5 * dot);
      want_total += ex;
      worst = std::fmax(worst, std::fabs(got_c[i * n + j] - dot) / (1 + std::fabs(dot)));
      worst = std::fmax(worst, std::fabs(got_e[i * n + j] - ex) / (1 + ex));
    }
  worst = std::fmax(worst, std::fabs(got_total - want_total) / (1 + want_total));
  std::printf("loom %s on %s: sum(exp(A@B/2)) = %.12g (expected %.12g), worst relative error %.3g\n",
              loom::version(), cpu.str().c_str(), got_total, want_total, worst);
  return worst < 1e-12 ? 0 : 1;
}
