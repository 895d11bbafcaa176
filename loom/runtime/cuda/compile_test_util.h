// The NVRTC compile check shared by the kernel-family compile tests (no GPU needed): a
// CUBIN for `arch`, and every name expression lowered to a mangled symbol.
#pragma once
#include <gtest/gtest.h>

#include "loom/runtime/cuda/module_cache.h"

namespace loom::cuda {

inline void expect_compiles(const Program& p, int arch) {
  const CompiledProgram c = compile_program(p, arch);
  EXPECT_FALSE(c.is_ptx);
  EXPECT_GT(c.image.size(), 1000u);
  ASSERT_EQ(c.lowered_names.size(), p.name_expressions().size());
  for (const auto& [expr, lowered] : c.lowered_names) {
    EXPECT_FALSE(lowered.empty()) << expr;
    EXPECT_EQ(lowered.rfind("_Z", 0), 0u) << expr << " -> " << lowered;
  }
}

}  // namespace loom::cuda
