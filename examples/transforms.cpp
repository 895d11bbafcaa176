// loom::grad, loom::jit and loom::vjp on a small function, built and run with the tests.
// f(w, x) = sum(tanh(x @ w)): its gradient in w is x^T (1 - tanh(x @ w)^2).
#include <cmath>
#include <cstdio>
#include <vector>

#include "loom/loom.h"

using loom::Array;

static std::vector<double> host(const Array& a) {
  std::vector<double> v(static_cast<size_t>(a.size()));
  a.astype(loom::float64).copy_to_host(v.data());
  return v;
}

int main() {
  const loom::Device d = loom::try_gpu();
  auto f = [](const std::vector<Array>& in) {
    return std::vector<Array>{loom::sum(loom::tanh(loom::matmul(in[1], in[0])))};
  };
  const Array w = loom::linspace(-1, 1, 6, true, loom::float64, d).view({3, 2}, {16, 8}, 0);
  const Array x = loom::linspace(0, 2, 12, true, loom::float64, d).view({4, 3}, {24, 8}, 0);

  loom::ArrayFn df = loom::grad(f, {0});     // the gradient in w
  loom::Jitted jdf = loom::jit(df);          // traced once, replayed after
  const std::vector<double> g = host(df({w, x})[0]), gj = host(jdf({w, x})[0]);

  // The same by hand, and through vjp with a cotangent of 1.
  const Array t = loom::tanh(loom::matmul(x, w));
  const std::vector<double> want = host(loom::matmul(x.transpose(), loom::subtract(1.0, loom::multiply(t, t))));
  auto [outs, pullback] = loom::vjp(f, {w, x});
  const std::vector<double> gv = host(pullback({loom::ones({}, loom::float64, d)})[0]);

  bool ok = true;
  for (size_t i = 0; i < want.size(); ++i)
    ok = ok && std::abs(g[i] - want[i]) < 1e-12 && gj[i] == g[i] && std::abs(gv[i] - want[i]) < 1e-12;
  std::printf("on %s: f = %.6f, df/dw[0] = %.6f (by hand %.6f), jit %s\n", d.str().c_str(), host(outs[0])[0], g[0],
              want[0], ok ? "agrees" : "DIFFERS");
  return ok ? 0 : 1;
}
