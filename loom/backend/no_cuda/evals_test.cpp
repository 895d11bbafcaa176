// The GPU evals of a build without CUDA (backend/no_cuda/evals.cpp): every row of a family's
// list is defined, and each raises UnsupportedError naming its eval.
#ifndef LOOM_WITH_CUDA
#include <gtest/gtest.h>

#include <string>

#include "loom/array/array.h"
#include "loom/backend/conv.h"
#include "loom/backend/elementwise.h"
#include "loom/backend/shape_ops.h"
#include "loom/backend/sorting.h"
#include "loom/core/error.h"

namespace loom {
namespace {

template <class F>
std::string message_of(F call) {
  try {
    call();
  } catch (const UnsupportedError& e) {
    return e.what();
  }
  return "no UnsupportedError";
}

TEST(NoCudaEvals, EachRaisesNamingItself) {
  const Array a;
  EXPECT_EQ(message_of([&] { gpu_backend::sort_last_axis(a, a, false); }),
            "[sort_last_axis] loom was built without CUDA");
  EXPECT_EQ(message_of([&] { gpu_backend::unique(a, true, true, true, false); }),
            "[unique] loom was built without CUDA");
  EXPECT_EQ(message_of([&] { gpu_backend::take_rows(a, a, a, 1, 2, 3); }), "[take_rows] loom was built without CUDA");
  EXPECT_EQ(message_of([&] { gpu_backend::elementwise(ElementwiseCall{}); }),
            "[elementwise] loom was built without CUDA");
}

TEST(NoCudaEvals, QueriesAnswerNothing) {
  EXPECT_EQ(gpu_backend::conv_library(0), "");
  EXPECT_EQ(gpu_backend::fused_runs_unfused(), 0u);
}

}  // namespace
}  // namespace loom
#endif  // LOOM_WITH_CUDA
