// GPU eval of the random draws: one grid-stride kernel per (dtype, distribution), each
// thread turning one Philox block into 4 / words outputs.
#include "loom/backend/cuda/random.h"

#include <array>
#include <cstdint>
#include <vector>

#include "loom/backend/cuda/programs.h"
#include "loom/runtime/cuda/context.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/backend/random.h"
#include "loom/core/error.h"

namespace loom::cuda {
namespace {

constexpr int kSlots = 5;  // uniform, normal, randint/2, randint/4, bernoulli

int slot(int kind, int words) {
  switch (kind) {
    case loom_rng_uniform: return 0;
    case loom_rng_normal: return 1;
    case loom_rng_randint: return words == 2 ? 2 : words == 4 ? 3 : -1;
    case loom_rng_bernoulli: return 4;
    default: return -1;
  }
}

// Every kernel name, "" where the program has none.
struct RandomNames {
  std::array<std::array<std::string, kSlots>, kNumRealDTypes> names;
  RandomNames() {
    for (int t = 0; t < kNumRealDTypes; ++t) {
      const DType dt = static_cast<DType>(t);
      const std::string ty = device_type_name(dt);
      auto name = [&](int kind, int words) {
        return "loom_random<" + ty + ", " + std::to_string(kind) + ", " + std::to_string(words) + ">";
      };
      if (is_floating(dt)) {
        const int w = dt == float64 ? 2 : 1;
        names[t][0] = name(loom_rng_uniform, w);
        names[t][1] = name(loom_rng_normal, w);
      } else {
        names[t][2] = name(loom_rng_randint, 2);
        names[t][3] = name(loom_rng_randint, 4);
        if (dt == bool_) names[t][4] = name(loom_rng_bernoulli, 1);
      }
    }
  }
};

const RandomNames& random_names() {
  static const RandomNames n;
  return n;
}

}  // namespace

const Program& random_program(DType dt) {
  static const std::array<Program, kNumRealDTypes> programs = [] {  // not complex primitives
    auto make = [](int t) {
      std::vector<std::string> exprs;
      for (const std::string& s : random_names().names[t])
        if (!s.empty()) exprs.push_back(s);
      // No FMA contraction: Box-Muller must give the CPU's bits.
      return Program(std::string("loom_random_") + dtype_name(static_cast<DType>(t)) + ".cu",
                     "#include \"loom_philox.cuh\"\n", exprs, {"--fmad=false"});
    };
    return std::array<Program, kNumRealDTypes>{make(0), make(1), make(2),  make(3),  make(4),
                                               make(5), make(6), make(7),  make(8),  make(9),
                                               make(10), make(11), make(12)};
  }();
  return programs[static_cast<int>(dt)];
}

const std::string& random_kernel_name(DType dt, int kind, int words) {
  const int s = slot(kind, words);
  if (s < 0 || is_complex(dt) || random_names().names[static_cast<int>(dt)][s].empty())
    throw_dtype_error("random", std::string("no GPU kernel for this draw into ") + dtype_name(dt));
  return random_names().names[static_cast<int>(dt)][s];
}

}  // namespace loom::cuda

namespace loom::gpu_backend {

void random_fill(const Array& out, int kind, int words, const loom_random_params& params) {
  if (!out.valid() || !out.device().is_gpu()) throw_value_error("random", "output must be a GPU array");
  if (!out.is_contiguous()) throw_value_error("random", "output must be contiguous");
  const std::string& name = cuda::random_kernel_name(out.dtype(), kind, words);
  const int dev = out.device().index;
  cuda::activate(dev);
  gpu_runtime::wait_for_writer(out);
  void* stream = cuda::current_stream(dev);
  if (params.n == 0) return;
  loom_random_params p = params;
  // Whole blocks go out as one vector store when the output is aligned to a block's bytes.
  const size_t block_bytes = out.itemsize() * static_cast<size_t>(4 / words);
  p.vec = reinterpret_cast<uintptr_t>(out.data()) % block_bytes == 0 ? 1 : 0;
  void* ptr = out.data();
  const int64_t blocks = (p.n + 4 / words - 1) / (4 / words);
  cuda::launch_elementwise(dev, cuda::random_program(out.dtype()), name, blocks, stream, {&ptr, &p});
  out.buffer()->set_last_stream(stream);
}

}  // namespace loom::gpu_backend
