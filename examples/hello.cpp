// The README's C++ example, built with the tests so that it keeps compiling.
#include <cstdio>
#include <vector>

#include "loom/loom.h"

int main() {
  loom::Device d = loom::try_gpu();                       // gpu(0), or cpu() without a GPU
  loom::Array x = loom::arange(0, 12, 1, loom::float32, d);
  loom::Array h = x.astype(loom::float16);                // computed on d
  loom::Array t = x.view({3, 4}, {16, 4}, 0).transpose().copy();
  std::vector<float> host(t.size());
  t.copy_to_host(host.data());                            // waits for d, copies back
  std::printf("on %s: x.T[1] = %g %g %g, half bytes %zu\n", d.str().c_str(), host[3], host[4],
              host[5], h.nbytes());
  return host[3] == 1.0f && host[4] == 5.0f ? 0 : 1;
}
