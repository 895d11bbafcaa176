// CPU eval of the random draws: parallel_for over ranges of Philox blocks, each block
// computed by the same header code the GPU kernels run.
#include "loom/backend/random.h"

#include "loom/runtime/cpu/thread_pool.h"
#include "loom/core/error.h"

namespace loom::cpu_backend {
namespace {

template <typename T, int KIND, int W>
void fill_typed(const Array& out, const loom_random_params& p) {
  constexpr int per = 4 / W;
  T* ptr = static_cast<T*>(out.data());
  const int64_t blocks = (p.n + per - 1) / per;
  // A block costs ~10-40 ns (more for normals): chunks of 8K blocks amortize the pool.
  cpu_runtime::parallel_for(blocks, 8192, [&](int64_t b, int64_t e) {
    for (int64_t j = b; j < e; ++j) loom_random_block<T, KIND, W>(ptr, j, p);
  });
}

// (dtype, kind, words) -> the one instantiation that serves it.
template <typename T>
void fill_float(const Array& out, int kind, const loom_random_params& p) {
  constexpr int W = sizeof(T) == 8 ? 2 : 1;
  if (kind == loom_rng_uniform) fill_typed<T, loom_rng_uniform, W>(out, p);
  else if (kind == loom_rng_normal) fill_typed<T, loom_rng_normal, W>(out, p);
  else throw_dtype_error("random", "integer draw into a floating array");
}

template <typename T>
void fill_integer(const Array& out, int kind, int words, const loom_random_params& p) {
  if (kind == loom_rng_randint && words == 2) fill_typed<T, loom_rng_randint, 2>(out, p);
  else if (kind == loom_rng_randint && words == 4) fill_typed<T, loom_rng_randint, 4>(out, p);
  else if constexpr (loom_same<T, bool>::value) {
    if (kind == loom_rng_bernoulli) return fill_typed<bool, loom_rng_bernoulli, 1>(out, p);
    throw_dtype_error("random", "unsupported draw for bool");
  } else {
    throw_dtype_error("random", "floating draw into an integer array");
  }
}

}  // namespace

void random_fill(const Array& out, int kind, int words, const loom_random_params& p) {
  if (!out.is_contiguous()) throw_value_error("random", "output must be contiguous");
  if (p.n == 0) return;
  switch (out.dtype()) {
    case DType::bool_: return fill_integer<bool>(out, kind, words, p);
    case DType::int8: return fill_integer<signed char>(out, kind, words, p);
    case DType::int16: return fill_integer<short>(out, kind, words, p);
    case DType::int32: return fill_integer<int>(out, kind, words, p);
    case DType::int64: return fill_integer<long long>(out, kind, words, p);
    case DType::uint8: return fill_integer<unsigned char>(out, kind, words, p);
    case DType::uint16: return fill_integer<unsigned short>(out, kind, words, p);
    case DType::uint32: return fill_integer<unsigned>(out, kind, words, p);
    case DType::uint64: return fill_integer<unsigned long long>(out, kind, words, p);
    case DType::float16: return fill_float<loom_f16>(out, kind, p);
    case DType::bfloat16: return fill_float<loom_bf16>(out, kind, p);
    case DType::float32: return fill_float<float>(out, kind, p);
    case DType::float64: return fill_float<double>(out, kind, p);
    case DType::complex64:  // random is not a complex primitive: dispatch() refuses these
    case DType::complex128:
      break;
  }
  throw_dtype_error("random", std::string(dtype_name(out.dtype())) + " is not supported");
}

}  // namespace loom::cpu_backend
