// GPU test helper: skips a test on a machine with no GPU, or fails it when the
// environment says a GPU must be there (LOOM_REQUIRE_GPU=1, as on the GPU runner).
#pragma once
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "loom/runtime/gpu_runtime.h"

namespace loom::testing {
inline bool gpu_required() {
  const char* v = std::getenv("LOOM_REQUIRE_GPU");
  return v && std::strcmp(v, "1") == 0;
}
}  // namespace loom::testing

#define LOOM_REQUIRE_GPU_OR_SKIP()                                                      \
  do {                                                                                  \
    if (::loom::gpu_runtime::device_count() == 0) {                                     \
      if (::loom::testing::gpu_required()) FAIL() << "LOOM_REQUIRE_GPU=1 but no GPU is visible"; \
      GTEST_SKIP() << "no GPU";                                                         \
    }                                                                                   \
  } while (0)
