// The stubs of a build without CUDA: zero GPUs, empty versions, UnsupportedError for work.
#ifndef LOOM_WITH_CUDA
#include <gtest/gtest.h>

#include "loom/array/array.h"
#include "loom/backend/creation.h"  // the op compute stubs beside the runtime's
#include "loom/core/error.h"
#include "loom/runtime/gpu_runtime.h"

namespace loom {
namespace {

namespace gb = gpu_runtime;

TEST(NoCudaStubs, ReportNoGpu) {
  EXPECT_FALSE(gb::compiled());
  EXPECT_EQ(gb::device_count(), 0);
  EXPECT_EQ(gb::driver_version(), "");
  EXPECT_EQ(gb::runtime_version(), "");
  EXPECT_EQ(gb::nvrtc_version(), "");
  int x = 0;
  EXPECT_EQ(gb::pointer_device(&x), -1);
}

TEST(NoCudaStubs, WorkRaisesUnsupported) {
  try {
    gb::synchronize(0);
    FAIL() << "expected UnsupportedError";
  } catch (const UnsupportedError& e) {
    EXPECT_STREQ(e.what(), "[synchronize] loom was built without CUDA");
  }
  EXPECT_THROW(gb::allocate(0, 16, nullptr), UnsupportedError);
  EXPECT_THROW(gb::stream_create(0), UnsupportedError);
  EXPECT_THROW(gb::properties(0), UnsupportedError);
  EXPECT_THROW(gpu_backend::fill(Array(), Scalar(1)), UnsupportedError);
}

TEST(NoCudaStubs, PinnedMemoryIsPlainMemory) {
  void* p = gb::pinned_alloc(10000);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 4096, 0u);
  static_cast<char*>(p)[9999] = 1;
  gb::pinned_free(p);
  gb::pinned_free(gb::pinned_alloc(0));
}

}  // namespace
}  // namespace loom
#endif  // LOOM_WITH_CUDA
