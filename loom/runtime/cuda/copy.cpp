// Host<->device and device<->device copies (DESIGN.md §6). Pageable host memory goes
// through a ring of pinned staging buffers: host threads fill (or strided-pack) one
// chunk while the DMA of the previous ones runs; pinned host memory is copied directly.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <vector>

#include "loom/runtime/cuda/check.h"
#include "loom/runtime/cuda/host_pool.h"
#include "loom/runtime/cuda/context.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/core/error.h"

namespace loom::gpu_runtime {
namespace {

constexpr size_t kChunk = size_t{8} << 20;  // bytes per staging buffer
constexpr int kSlots = 4;

// One pinned staging buffer and the event that marks the end of its last DMA.
struct Slot {
  char* ptr = nullptr;
  cudaEvent_t last = nullptr;  // owned by events[device]
  cudaEvent_t events[cuda::kMaxDevices] = {};

  void wait() {
    cudaEvent_t e = last;
    last = nullptr;  // a lost device must not block the slot for other devices
    if (e) LOOM_CUDA_CHECK(cudaEventSynchronize(e));
  }
  void record(int device, cudaStream_t stream) {
    if (!events[device]) LOOM_CUDA_CHECK(cudaEventCreateWithFlags(&events[device], cudaEventDisableTiming));
    LOOM_CUDA_CHECK(cudaEventRecord(events[device], stream));
    last = events[device];
  }
};

struct Staging {
  std::mutex mu;  // one staged copy at a time
  Slot slots[kSlots];
  int next = 0;
  Slot& take() {
    Slot& s = slots[next];
    next = (next + 1) % kSlots;
    s.wait();
    if (!s.ptr) s.ptr = static_cast<char*>(pinned_alloc(kChunk));
    return s;
  }
};

Staging& staging() {
  static Staging* s = new Staging();  // used until process exit
  return *s;
}

bool is_pinned(const void* p) {
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return attr.type == cudaMemoryTypeHost;
}

// Elements [first, first + count) of a strided host layout, in C order, packed into out.
void pack(const char* base, const CollapsedLayout& l, size_t isz, int64_t first, int64_t count,
          char* out) {
  const int nd = static_cast<int>(l.shape.size());
  if (nd == 0) {
    std::memcpy(out, base, isz);
    return;
  }
  std::vector<int64_t> idx(nd);
  int64_t offset = 0, rest = first;
  for (int d = nd - 1; d >= 0; --d) {
    idx[d] = rest % l.shape[d];
    rest /= l.shape[d];
    offset += idx[d] * l.strides[d];
  }
  const int64_t inner = l.shape[nd - 1], step = l.strides[nd - 1];
  while (count > 0) {
    const int64_t run = std::min(inner - idx[nd - 1], count);
    const char* p = base + offset;
    switch (isz) {
#define LOOM_PACK_CASE(N)                                            \
  case N:                                                            \
    for (int64_t i = 0; i < run; ++i, p += step, out += N) std::memcpy(out, p, N); \
    break;
      LOOM_PACK_CASE(1)
      LOOM_PACK_CASE(2)
      LOOM_PACK_CASE(4)
      LOOM_PACK_CASE(8)
#undef LOOM_PACK_CASE
      default:
        for (int64_t i = 0; i < run; ++i, p += step, out += isz) std::memcpy(out, p, isz);
    }
    count -= run;
    offset += run * step;
    idx[nd - 1] += run;
    if (idx[nd - 1] < inner) continue;
    offset -= inner * step;
    idx[nd - 1] = 0;
    for (int d = nd - 2; d >= 0; --d) {
      offset += l.strides[d];
      if (++idx[d] < l.shape[d]) break;
      offset -= l.shape[d] * l.strides[d];
      idx[d] = 0;
    }
  }
}

void parallel_pack(const char* base, const CollapsedLayout& l, size_t isz, int64_t first,
                   int64_t count, char* out) {
  constexpr int64_t kMinPiece = int64_t{1} << 18;  // elements
  const int pieces = static_cast<int>(std::min<int64_t>(cuda::host_parallelism(), count / kMinPiece));
  if (pieces <= 1) return pack(base, l, isz, first, count, out);
  const int64_t per = (count + pieces - 1) / pieces;
  cuda::parallel_for(pieces, [&](int i) {
    const int64_t b = std::min(count, per * i), e = std::min(count, b + per);
    pack(base, l, isz, first + b, e - b, out + b * static_cast<int64_t>(isz));
  });
}

void check_gpu(const char* op, const GpuSpan& a) {
  if (a.device < 0) throw_value_error(op, "expected a GPU array");
}

}  // namespace

void wait_for_writer(BufferOf a) {
  if (!a.buffer || !a.buffer->device().is_gpu()) return;
  const int dev = a.buffer->device().index;
  void* last = a.buffer->last_stream();
  void* cur = cuda::current_stream(dev);
  if (last == cur || cuda::stream_destroyed(last)) return;
  if (cur == cuda::capture_stream()) {
    // Capturing (runtime/cuda/graph.cpp): the device was synchronized when the capture
    // began, so no earlier writer is pending, and an event recorded outside the capture
    // cannot be waited for inside it.
    a.buffer->set_last_stream(cur);
    return;
  }
  cuda::activate(dev);
  cudaEvent_t ev;
  LOOM_CUDA_CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
  const cudaError_t rec = cudaEventRecord(ev, static_cast<cudaStream_t>(last));
  const cudaError_t wait = rec == cudaSuccess ? cudaStreamWaitEvent(static_cast<cudaStream_t>(cur), ev, 0) : rec;
  cudaEventDestroy(ev);  // released once the wait is done
  if (rec != cudaSuccess) cuda::raise_runtime_error(rec, "cudaEventRecord(ev, last_stream)");
  if (wait != cudaSuccess) cuda::raise_runtime_error(wait, "cudaStreamWaitEvent(stream, ev, 0)");
  // The current stream now follows every earlier user, so it becomes the one the
  // allocator waits for before reusing the block: reads on other streams are covered.
  a.buffer->set_last_stream(cur);
}

void upload(const HostView& src, const GpuSpan& dst) {
  check_gpu("upload", dst);
  if (!dst.contiguous) throw_value_error("upload", "dst must be contiguous");
  cuda::check_not_capturing("upload", "a copy from host memory to the GPU (loom.asarray of a NumPy array, an upload)");
  const int dev = dst.device;
  cuda::activate(dev);
  wait_for_writer(BufferOf{dst.buffer});
  const size_t nbytes = dst.nbytes;
  if (nbytes == 0) return;
  auto stream = static_cast<cudaStream_t>(cuda::current_stream(dev));
  const size_t isz = dst.itemsize;
  const bool contiguous = is_c_contiguous(src.shape, src.strides, isz);
  char* out = static_cast<char*>(dst.data);
  dst.buffer->set_last_stream(stream);

  if (contiguous && is_pinned(src.data)) {
    LOOM_CUDA_CHECK(cudaMemcpyAsync(out, src.data, nbytes, cudaMemcpyHostToDevice, stream));
    LOOM_CUDA_CHECK(cudaStreamSynchronize(stream));  // the caller may reuse its memory at once
    return;
  }
  const CollapsedLayout layout =
      contiguous ? CollapsedLayout{} : collapse_dims(src.shape, src.strides);
  const int64_t per = static_cast<int64_t>(kChunk / isz), total = static_cast<int64_t>(nbytes / isz);
  Staging& st = staging();
  std::lock_guard<std::mutex> lock(st.mu);
  for (int64_t e = 0; e < total; e += per) {
    const int64_t count = std::min(per, total - e);
    const size_t bytes = static_cast<size_t>(count) * isz, at = static_cast<size_t>(e) * isz;
    Slot& slot = st.take();  // waits for that buffer's previous DMA
    if (contiguous) cuda::parallel_memcpy(slot.ptr, static_cast<const char*>(src.data) + at, bytes);
    else parallel_pack(static_cast<const char*>(src.data), layout, isz, e, count, slot.ptr);
    LOOM_CUDA_CHECK(cudaMemcpyAsync(out + at, slot.ptr, bytes, cudaMemcpyHostToDevice, stream));
    slot.record(dev, stream);
  }
}

void upload_async(const void* src, const GpuSpan& dst) {
  check_gpu("upload_async", dst);
  if (!dst.contiguous) throw_value_error("upload_async", "dst must be contiguous");
  const int dev = dst.device;
  cuda::activate(dev);
  wait_for_writer(BufferOf{dst.buffer});
  if (dst.nbytes == 0) return;
  if (!is_pinned(src)) throw_value_error("upload_async", "src must be page-locked host memory (pinned_alloc)");
  auto stream = static_cast<cudaStream_t>(cuda::current_stream(dev));
  LOOM_CUDA_CHECK(cudaMemcpyAsync(dst.data, src, dst.nbytes, cudaMemcpyHostToDevice, stream));
  dst.buffer->set_last_stream(stream);
}

void download(const GpuSpan& src, void* dst) {
  check_gpu("download", src);
  cuda::check_not_capturing("download", "reading a GPU array on the host (numpy(), item(), bool(), a bounds-check "
                            "flag, a data-dependent size)");
  const int dev = src.device;
  cuda::activate(dev);
  if (src.nbytes == 0) return;
  // A strided array is packed on the GPU first by its caller (Array::contiguous): packing
  // is compute, which the runtime does not do.
  if (!src.contiguous) throw_value_error("download", "the GPU array must be contiguous");
  wait_for_writer(BufferOf{src.buffer});
  stream_synchronize(dev, cuda::current_stream(dev));  // the writers first: a wait Ctrl-C can end
  auto stream = static_cast<cudaStream_t>(cuda::current_stream(dev));
  const size_t nbytes = src.nbytes;
  const char* in = static_cast<const char*>(src.data);
  if (is_pinned(dst)) {
    LOOM_CUDA_CHECK(cudaMemcpyAsync(dst, in, nbytes, cudaMemcpyDeviceToHost, stream));
    LOOM_CUDA_CHECK(cudaStreamSynchronize(stream));
    return;
  }
  Staging& st = staging();
  std::lock_guard<std::mutex> lock(st.mu);
  const size_t chunks = (nbytes + kChunk - 1) / kChunk;
  std::vector<Slot*> used(chunks);
  auto enqueue = [&](size_t j) {
    const size_t at = j * kChunk, bytes = std::min(kChunk, nbytes - at);
    used[j] = &st.take();
    LOOM_CUDA_CHECK(cudaMemcpyAsync(used[j]->ptr, in + at, bytes, cudaMemcpyDeviceToHost, stream));
    used[j]->record(dev, stream);
  };
  // Keep kSlots - 1 DMAs in flight while host threads copy finished chunks out.
  const size_t ahead = std::min<size_t>(chunks, kSlots - 1);
  for (size_t j = 0; j < ahead; ++j) enqueue(j);
  for (size_t j = 0; j < chunks; ++j) {
    if (j + ahead < chunks) enqueue(j + ahead);
    Slot& slot = *used[j];
    slot.wait();
    const size_t at = j * kChunk, bytes = std::min(kChunk, nbytes - at);
    cuda::parallel_memcpy(static_cast<char*>(dst) + at, slot.ptr, bytes);
  }
}

void copy_peer(const GpuSpan& src, const GpuSpan& dst) {
  check_gpu("copy_peer", src);
  check_gpu("copy_peer", dst);
  if (!src.contiguous || !dst.contiguous || src.nbytes != dst.nbytes)
    throw_value_error("copy_peer", "src and dst must be contiguous and of the same size");
  const int sdev = src.device, ddev = dst.device;
  wait_for_writer(BufferOf{src.buffer});
  wait_for_writer(BufferOf{dst.buffer});
  const size_t nbytes = src.nbytes;
  if (nbytes == 0) return;
  auto s_src = static_cast<cudaStream_t>(cuda::current_stream(sdev));
  auto s_dst = static_cast<cudaStream_t>(cuda::current_stream(ddev));
  if (sdev != ddev) {
    static std::mutex mu;
    static bool tried[cuda::kMaxDevices][cuda::kMaxDevices] = {};
    std::lock_guard<std::mutex> lock(mu);
    if (!tried[ddev][sdev]) {
      tried[ddev][sdev] = true;
      int can = 0;
      LOOM_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, ddev, sdev));
      if (can) {
        cuda::activate(ddev);
        const cudaError_t err = cudaDeviceEnablePeerAccess(sdev, 0);
        if (err == cudaErrorPeerAccessAlreadyEnabled) cudaGetLastError();
        else if (err != cudaSuccess) cuda::raise_runtime_error(err, "cudaDeviceEnablePeerAccess(src, 0)");
      }
    }
  }
  // The copy runs on dst's stream after src's stream; src's stream then waits for the
  // copy so that src's memory is not reused before it has been read.
  cudaEvent_t src_ready, copied;
  cuda::activate(sdev);
  LOOM_CUDA_CHECK(cudaEventCreateWithFlags(&src_ready, cudaEventDisableTiming));
  LOOM_CUDA_CHECK(cudaEventRecord(src_ready, s_src));
  cuda::activate(ddev);
  LOOM_CUDA_CHECK(cudaStreamWaitEvent(s_dst, src_ready, 0));
  cudaEventDestroy(src_ready);
  LOOM_CUDA_CHECK(cudaMemcpyPeerAsync(dst.data, ddev, src.data, sdev, nbytes, s_dst));
  dst.buffer->set_last_stream(s_dst);
  LOOM_CUDA_CHECK(cudaEventCreateWithFlags(&copied, cudaEventDisableTiming));
  LOOM_CUDA_CHECK(cudaEventRecord(copied, s_dst));
  cuda::activate(sdev);
  LOOM_CUDA_CHECK(cudaStreamWaitEvent(s_src, copied, 0));
  cudaEventDestroy(copied);
}

}  // namespace loom::gpu_runtime
