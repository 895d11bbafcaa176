// Every GPU eval in a build without CUDA: one stub per row of every family's list
// (backend/eval_list.h), from one template, raising UnsupportedError with the eval's name.
// dispatch() never picks a GPU eval without a GPU; the stubs keep the records linkable and
// answer anyone who calls one directly. Plus the two GPU queries that are not evals.
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>

#include "loom/backend/conv.h"
#include "loom/backend/counting.h"
#include "loom/backend/creation.h"
#include "loom/backend/elementwise.h"
#include "loom/backend/fft.h"
#include "loom/backend/indexing.h"
#include "loom/backend/linalg.h"
#include "loom/backend/linalg_decomp.h"
#include "loom/backend/nn_loss.h"
#include "loom/backend/pool.h"
#include "loom/backend/random.h"
#include "loom/backend/reduce.h"
#include "loom/backend/shape_ops.h"
#include "loom/backend/sorting.h"
#include "loom/backend/sparse.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {
namespace {

// The parts of a signature type, so that a definition can spell Fn's parameters out.
template <class Fn>
struct Signature;
template <class R, class... A>
struct Signature<R(A...)> {
  using Result = R;
  static constexpr size_t arity = sizeof...(A);
  template <size_t i>
  using Arg = std::tuple_element_t<i, std::tuple<A...>>;
};

[[noreturn]] void no_cuda(const char* eval) {
  throw UnsupportedError(std::string("[") + eval + "] loom was built without CUDA");
}

}  // namespace

// A definition of `name` whose parameter types are Fn's: it defines the declared eval
// (the row's arity must be Fn's, or the definition would declare another function).
#define LOOM_ARG(Fn, i) Signature<Fn>::Arg<i>
#define LOOM_PARAMS_1(Fn) LOOM_ARG(Fn, 0)
#define LOOM_PARAMS_2(Fn) LOOM_PARAMS_1(Fn), LOOM_ARG(Fn, 1)
#define LOOM_PARAMS_3(Fn) LOOM_PARAMS_2(Fn), LOOM_ARG(Fn, 2)
#define LOOM_PARAMS_4(Fn) LOOM_PARAMS_3(Fn), LOOM_ARG(Fn, 3)
#define LOOM_PARAMS_5(Fn) LOOM_PARAMS_4(Fn), LOOM_ARG(Fn, 4)
#define LOOM_PARAMS_6(Fn) LOOM_PARAMS_5(Fn), LOOM_ARG(Fn, 5)
#define LOOM_NO_CUDA_STUB(Fn, name, n)                                              \
  static_assert(Signature<Fn>::arity == n, #name ": the row's arity is not Fn's"); \
  Signature<Fn>::Result name(LOOM_PARAMS_##n(Fn)) { no_cuda(#name); }

LOOM_CONV_EVALS(LOOM_NO_CUDA_STUB)
LOOM_COUNTING_EVALS(LOOM_NO_CUDA_STUB)
LOOM_CREATION_EVALS(LOOM_NO_CUDA_STUB)
LOOM_ELEMENTWISE_EVALS(LOOM_NO_CUDA_STUB)
LOOM_FFT_EVALS(LOOM_NO_CUDA_STUB)
LOOM_INDEXING_EVALS(LOOM_NO_CUDA_STUB)
LOOM_LINALG_EVALS(LOOM_NO_CUDA_STUB)
LOOM_LINALG_DECOMP_EVALS(LOOM_NO_CUDA_STUB)
LOOM_NN_LOSS_EVALS(LOOM_NO_CUDA_STUB)
LOOM_POOL_EVALS(LOOM_NO_CUDA_STUB)
LOOM_RANDOM_EVALS(LOOM_NO_CUDA_STUB)
LOOM_REDUCE_EVALS(LOOM_NO_CUDA_STUB)
LOOM_SHAPE_OPS_EVALS(LOOM_NO_CUDA_STUB)
LOOM_SORTING_EVALS(LOOM_NO_CUDA_STUB)
LOOM_SPARSE_EVALS(LOOM_NO_CUDA_STUB)

// The GPU queries: no library, and nothing ran.
std::string conv_library(int) { return ""; }
uint64_t fused_runs_unfused() { return 0; }

}  // namespace loom::gpu_backend
