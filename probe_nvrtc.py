# Temporary diagnostic (not committed): NVRTC compile time per fresh kernel in this process.
import os, resource, sys, tempfile, time
os.environ["LOOM_CACHE_DIR"] = tempfile.mkdtemp(prefix="probe-")
from loom import _loom
SRC = '#include "loom_elementwise.cuh"\nextern "C" __global__ void k%d(const float* x, float* y, unsigned n) { unsigned i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = 1.05f * (x[i] > 0 ? x[i] : 1.67f * loom_exp(x[i]) - 1.67f) * %d.0f; }\n'
tag = int(time.time() * 1000) % 100000
out = []
for k in range(4):
    r0 = resource.getrusage(resource.RUSAGE_SELF); t0 = time.perf_counter()
    _loom._compile_for_testing(SRC % (k, tag + k), "k%d" % k, 90, [], True)
    t = time.perf_counter() - t0; r1 = resource.getrusage(resource.RUSAGE_SELF)
    out.append("%.1f ms (user %.1f sys %.1f minflt %d)" % (t * 1e3, (r1.ru_utime - r0.ru_utime) * 1e3, (r1.ru_stime - r0.ru_stime) * 1e3, r1.ru_minflt - r0.ru_minflt))
print(sys.argv[1] if len(sys.argv) > 1 else "", " | ".join(out), "load %.1f" % os.getloadavg()[0])
