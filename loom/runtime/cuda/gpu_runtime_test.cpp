// Devices, versions, streams and events; the no-GPU path; sticky-error handling.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>

#include "loom/runtime/cuda/module_cache.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/runtime/cuda/context.h"
#include "loom/backend/cuda/test_gpu.h"
#include "loom/backend/cuda/test_util.h"
#include "loom/backend/creation.h"
#include "loom/core/scalar.h"
#include "loom/runtime/device.h"
#include "loom/core/error.h"
#include "loom/runtime/stream.h"

namespace loom::testing {
namespace {

namespace gb = loom::gpu_runtime;

TEST(CudaRuntime, CountAndVersionsNeverThrow) {
  EXPECT_TRUE(gb::compiled());
  int n = -1;
  EXPECT_NO_THROW(n = gb::device_count());
  EXPECT_GE(n, 0);
  EXPECT_EQ(n, gb::device_count());  // cached
  EXPECT_NO_THROW(gb::driver_version());
  EXPECT_FALSE(gb::runtime_version().empty());
  EXPECT_FALSE(gb::nvrtc_version().empty());
  EXPECT_EQ(gb::pointer_device(nullptr), -1);
  int host = 0;
  EXPECT_EQ(gb::pointer_device(&host), -1);
}

TEST(CudaRuntime, NoGpuPath) {
  if (gb::device_count() > 0) GTEST_SKIP() << "a GPU is present";
  EXPECT_EQ(num_gpus(), 0);
  EXPECT_THROW(gb::properties(0), std::invalid_argument);
  EXPECT_THROW(gb::allocate(0, 16, nullptr), std::invalid_argument);
  EXPECT_THROW(gb::stream_create(0), std::invalid_argument);
  EXPECT_THROW(gb::synchronize(0), std::invalid_argument);
  void* p = gb::pinned_alloc(1000);  // plain aligned memory here
  ASSERT_NE(p, nullptr);
  static_cast<char*>(p)[999] = 1;
  gb::pinned_free(p);
}

TEST(CudaRuntime, Properties) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  const DeviceProperties p = gb::properties(0);
  EXPECT_FALSE(p.name.empty());
  EXPECT_GT(p.total_memory, size_t{1} << 30);
  EXPECT_LE(p.free_memory, p.total_memory);
  EXPECT_GE(p.compute_capability_major, 7);
  EXPECT_GT(p.multiprocessor_count, 0);
  EXPECT_FALSE(gb::driver_version().empty());
  EXPECT_THROW(gb::properties(gb::device_count()), std::invalid_argument);
  std::printf("[ info ] %s, cc %d.%d, %d SMs, %.1f GiB; driver %s, runtime %s, nvrtc %s\n",
              p.name.c_str(), p.compute_capability_major, p.compute_capability_minor,
              p.multiprocessor_count, p.total_memory / 1073741824.0, gb::driver_version().c_str(),
              gb::runtime_version().c_str(), gb::nvrtc_version().c_str());
}

TEST(CudaRuntime, StreamsAndEvents) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  void* s = gb::stream_create(0);
  void* start = gb::event_create(0, true);
  void* end = gb::event_create(0, true);
  Array a = Array::allocate({64 << 20}, float32, gpu0());
  EXPECT_EQ(gb::pointer_device(a.data()), 0);
  {
    StreamScope scope(Stream::create(gpu0()));  // a second stream, made current
    gb::event_record(0, start, Stream::current(gpu0()).native());
    gpu_backend::fill(a, Scalar(1.5));
    gb::event_record(0, end, Stream::current(gpu0()).native());
    gb::event_synchronize(0, end);
    EXPECT_TRUE(gb::event_query(0, end));
    EXPECT_GT(gb::event_elapsed_ms(0, start, end), 0.0f);
  }
  gb::stream_wait_event(0, s, end);
  gb::stream_synchronize(0, s);
  EXPECT_TRUE(gb::stream_query(0, s));
  gb::event_destroy(0, start);
  gb::event_destroy(0, end);
  gb::stream_destroy(0, s);
  gb::synchronize(0);

  // The loom::Event wrapper over the same calls.
  Event e1(gpu0()), e2(gpu0());
  e1.record();
  gpu_backend::fill(a, Scalar(2));
  e2.record();
  e2.synchronize();
  EXPECT_GT(e1.elapsed_time(e2), 0.0f);
}

TEST(CudaRuntime, NonBlockingStreamsAreNotOrderedWithTheLegacyStream) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  const Stream plain = Stream::create(gpu0()), copy = Stream::create(gpu0(), true);
  unsigned flags = 99;
  ASSERT_EQ(cudaStreamGetFlags(static_cast<cudaStream_t>(plain.native()), &flags), cudaSuccess);
  EXPECT_EQ(flags, static_cast<unsigned>(cudaStreamDefault));
  ASSERT_EQ(cudaStreamGetFlags(static_cast<cudaStream_t>(copy.native()), &flags), cudaSuccess);
  EXPECT_EQ(flags, static_cast<unsigned>(cudaStreamNonBlocking));
}

TEST(CudaRuntime, PinnedMemoryIsPageLocked) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  void* p = gb::pinned_alloc(1 << 20);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(gb::pointer_device(p), -1);  // host memory
  gb::pinned_free(p);
  void* z = gb::pinned_alloc(0);
  gb::pinned_free(z);
}

// A kernel that writes to an unmapped address loses the context: the error says so,
// names the kernel, and every later call on the device raises it at once. Run in a
// fresh process (death-test style) so that the other tests keep a working GPU.
void lose_device_and_check() {
  const char* src = "extern \"C\" __global__ void loom_test_bad_write(int* p) { *p = 1; }";
  CUfunction fn = cuda::get_function(0, src, "loom_test_bad_write");
  int* bad = reinterpret_cast<int*>(0x10);
  void* args[] = {&bad};
  cuda::launch(0, fn, "loom_test_bad_write", 1, 1, 0, nullptr, args);
  bool ok = false;
  try {
    gb::synchronize(0);
  } catch (const CudaError& e) {
    const std::string msg = e.what();
    ok = e.context_lost() && msg.find("context") != std::string::npos &&
         msg.find("lost") != std::string::npos && msg.find("loom_test_bad_write") != std::string::npos;
    if (!ok) std::fprintf(stderr, "unexpected message: %s\n", msg.c_str());
  }
  bool again = false;
  try {
    gb::allocate(0, 1000, nullptr);
  } catch (const CudaError& e) {
    again = e.context_lost() && std::string(e.what()).find("loom_test_bad_write") != std::string::npos;
  }
  std::_Exit(ok && again ? 0 : 1);  // no teardown on a lost context
}

TEST(CudaRuntime, StickyErrorLosesTheDevice) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // re-executes the binary: a fresh CUDA
  EXPECT_EXIT(lose_device_and_check(), ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace loom::testing
