// Host <-> GPU copies: bit-identical round trips for contiguous, strided and pinned
// memory, cross-stream ordering, peer copies; prints the 256 MiB throughput.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "loom/backend/cuda/test_gpu.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/backend/cuda/test_util.h"
#include "loom/backend/creation.h"
#include "loom/core/scalar.h"
#include "loom/runtime/stream.h"

namespace loom::testing {
namespace {

namespace gb = loom::gpu_runtime;

TEST(CudaCopy, ContiguousRoundTrip) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  for (int64_t n : {int64_t{0}, int64_t{1}, int64_t{1000}, int64_t{3 << 20} + 13, int64_t{40 << 20} + 7}) {
    const Bytes src = random_elements(uint8, n);
    Array a = array_from_bytes(src, uint8, {n}, gpu0());
    EXPECT_EQ(array_bytes(a), src) << n;
  }
  const Bytes f = random_elements(float64, 1 << 20);
  EXPECT_EQ(array_bytes(array_from_bytes(f, float64, {1024, 1024}, gpu0())), f);
}

TEST(CudaCopy, StridedHostSourceAndStridedGpuSource) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  const int64_t rows = 1200, cols = 1500;  // 14 MiB of float64: several staging chunks
  const Bytes base = random_elements(float64, rows * cols);
  const double* b = reinterpret_cast<const double*>(base.data());
  // Host view base[::2, ::-3] as NumPy would describe it.
  const Shape shape{rows / 2, cols / 3};
  const Strides strides{2 * cols * 8, -3 * 8};
  const double* first = b + (cols - 1);
  Bytes want(shape[0] * shape[1] * 8);
  double* w = reinterpret_cast<double*>(want.data());
  for (int64_t i = 0; i < shape[0]; ++i)
    for (int64_t j = 0; j < shape[1]; ++j) w[i * shape[1] + j] = first[i * 2 * cols - 3 * j];
  Array a = Array::allocate(shape, float64, gpu0());
  gb::upload(HostView{first, float64, shape, strides}, a);
  EXPECT_EQ(array_bytes(a), want);

  // A transposed GPU view comes back in C order (Array packs it on the GPU first: the
  // runtime's download takes contiguous arrays only, as packing is compute).
  Array t = a.transpose();
  Bytes got(t.nbytes());
  EXPECT_THROW(gb::download(t, got.data()), std::invalid_argument);
  t.copy_to_host(got.data());
  Bytes want_t(got.size());  // compared as bytes: the data holds NaNs
  for (int64_t j = 0; j < shape[1]; ++j)
    for (int64_t i = 0; i < shape[0]; ++i)
      std::memcpy(want_t.data() + (j * shape[0] + i) * 8, w + i * shape[1] + j, 8);
  EXPECT_EQ(got, want_t);

  // A broadcast (stride 0) host source.
  const double x = 3.25;
  Array bcast = Array::allocate({5000}, float64, gpu0());
  gb::upload(HostView{&x, float64, {5000}, {0}}, bcast);
  const Bytes bb = array_bytes(bcast);
  EXPECT_EQ(reinterpret_cast<const double*>(bb.data())[4999], 3.25);
}

TEST(CudaCopy, PinnedRoundTrip) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  const size_t n = (24 << 20) + 5;
  const Bytes src = random_elements(uint8, n);
  auto* in = static_cast<unsigned char*>(gb::pinned_alloc(n));
  auto* out = static_cast<unsigned char*>(gb::pinned_alloc(n));
  std::memcpy(in, src.data(), n);
  Array a = Array::allocate({static_cast<int64_t>(n)}, uint8, gpu0());
  gb::upload(HostView{in, uint8, {static_cast<int64_t>(n)}, {1}}, a);
  gb::download(a, out);
  EXPECT_EQ(std::memcmp(out, src.data(), n), 0);
  gb::pinned_free(in);
  gb::pinned_free(out);
}

TEST(CudaCopy, ReadersWaitForTheWritingStream) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  Array a = Array::allocate({64 << 20}, int32, gpu0());
  Stream side = Stream::create(gpu0());
  for (int round = 0; round < 3; ++round) {
    {
      StreamScope scope(side);
      gpu_backend::fill(a, Scalar(round + 1));  // 256 MiB written on the side stream
    }
    Array b = Array::allocate({64 << 20}, int64, gpu0());
    gpu_backend::convert(a, b);  // on the default stream: must wait for the fill
    const Bytes got = array_bytes(b);
    const int64_t* p = reinterpret_cast<const int64_t*>(got.data());
    ASSERT_EQ(p[0], round + 1);
    ASSERT_EQ(p[(64 << 20) - 1], round + 1);
  }
}

TEST(CudaCopy, UploadAsyncEnqueuesOnTheCurrentStreamFromPinnedMemory) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  const size_t n = (size_t{3} << 20) + 5;
  const Bytes src = random_elements(uint8, static_cast<int64_t>(n));
  auto* pinned = static_cast<unsigned char*>(gb::pinned_alloc(n));
  std::memcpy(pinned, src.data(), n);
  Stream copy = Stream::create(gpu0());
  Array a;
  {
    StreamScope scope(copy);
    a = Array::allocate({static_cast<int64_t>(n)}, uint8, gpu0());
    gb::upload_async(pinned, a);
  }
  // The copy stream is the buffer's writer: a reader on the default stream waits for it.
  EXPECT_EQ(a.buffer()->last_stream(), copy.native());
  Event done(gpu0());
  done.record(copy);
  done.synchronize();  // only now may the pinned memory change
  std::memset(pinned, 0, n);
  EXPECT_EQ(array_bytes(a), src);
  gb::pinned_free(pinned);
  // From pageable memory a DMA would be synchronous: refused.
  std::vector<unsigned char> pageable(16);
  Array b = Array::allocate({16}, uint8, gpu0());
  EXPECT_THROW(gb::upload_async(pageable.data(), b), std::invalid_argument);
}

TEST(CudaCopy, PeerCopy) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  const int last = gb::device_count() - 1;  // a second GPU when there is one, else the same
  const Device other{DeviceType::cuda, last};
  const Bytes src = random_elements(float32, 1 << 20);
  Array a = array_from_bytes(src, float32, {1 << 20}, gpu0());
  Array b = Array::allocate({1 << 20}, float32, other);
  gb::copy_peer(a, b);
  EXPECT_EQ(array_bytes(b), src);
}

double gbps(size_t bytes, std::chrono::steady_clock::duration d) {
  return static_cast<double>(bytes) / std::chrono::duration<double>(d).count() / 1e9;
}

TEST(CudaCopy, Throughput256MiB) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  const int64_t n = int64_t{256} << 20;
  Bytes host = random_elements(uint8, 1 << 20);
  host.resize(n);
  for (int64_t i = 1 << 20; i < n; ++i) host[i] = host[i % (1 << 20)] ^ static_cast<unsigned char>(i >> 20);
  Bytes back(n);
  Array a = Array::allocate({n}, uint8, gpu0());
  double up = 0, down = 0;
  for (int rep = 0; rep < 4; ++rep) {  // the first round warms the staging buffers
    auto t0 = std::chrono::steady_clock::now();
    gb::upload(HostView{host.data(), uint8, {n}, {1}}, a);
    gb::synchronize(0);
    auto t1 = std::chrono::steady_clock::now();
    gb::download(a, back.data());
    auto t2 = std::chrono::steady_clock::now();
    if (rep > 0) {
      up = std::max(up, gbps(n, t1 - t0));
      down = std::max(down, gbps(n, t2 - t1));
    }
  }
  EXPECT_EQ(back, host);
  std::printf("[ info ] 256 MiB pageable: upload %.1f GB/s, download %.1f GB/s (best of 3)\n", up, down);
  RecordProperty("upload_GBps", std::to_string(up));
  RecordProperty("download_GBps", std::to_string(down));
}

}  // namespace
}  // namespace loom::testing
