// GPU evals of the sorting family. Elements become order-preserving unsigned keys (an
// NVRTC kernel), CUB radix-sorts (key, index) pairs, and values are gathered by index so
// that -0.0 and NaN payloads come out as they went in. Rows of a batch are sorted by two
// stable passes: all keys at once, then the row of each element (only as many bits as
// the row count needs), which keeps CUB to DeviceRadixSort::SortPairs instantiations.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <climits>
#include <cstdint>

#include "loom/runtime/cuda/check.h"
#include "loom/backend/cuda/programs.h"
#include "loom/runtime/cuda/context.h"
#include "loom/backend/cuda/sorting_cub.h"
#include "loom/backend/cuda/sorting_programs.h"
#include "loom/backend/creation.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/backend/sorting.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {
namespace {

using cuda::launch_elementwise;

void check(int err, const char* call) {
  if (err != cudaSuccess) cuda::raise_runtime_error(static_cast<cudaError_t>(err), call);
}

int sort_pairs(bool index64, int key_bytes, void* temp, size_t& temp_bytes, void* keys[2], void* values[2],
               int64_t n, int end_bit, void* stream, int* key_sel, int* value_sel) {
  return index64 ? cuda::cub_sort_pairs_u64(key_bytes, temp, temp_bytes, keys, values, n, 0, end_bit, stream,
                                            key_sel, value_sel)
                 : cuda::cub_sort_pairs_u32(key_bytes, temp, temp_bytes, keys, values, n, 0, end_bit, stream,
                                            key_sel, value_sel);
}

int bit_width(uint64_t v) {
  int b = 0;
  while (b < 64 && (v >> b) != 0) ++b;
  return b;
}

// The stable key sort shared by sort and unique: keys of contiguous `x` (total elements,
// rows of n), sorted within rows. Leaves the sorted element indices (global) in
// `values[value_sel]` and, for a single row, the sorted keys in keys[key_sel].
struct KeySort {
  int dev;
  void* stream;
  bool index64;
  size_t key_bytes, index_bytes;
  std::shared_ptr<Buffer> keys[2], values[2];
  int key_sel = 0, value_sel = 0;

  KeySort(const Array& x, int64_t n, void* s) : dev(x.device().index), stream(s) {
    const int64_t total = x.size(), rows = total / n;
    index64 = total > INT32_MAX;
    key_bytes = x.itemsize();
    index_bytes = index64 ? 8 : 4;
    // Key buffers also hold the row numbers of the second pass (index width).
    const size_t kb = static_cast<size_t>(total) * std::max(key_bytes, rows > 1 ? index_bytes : 0);
    const size_t vb = static_cast<size_t>(total) * index_bytes;
    for (int i = 0; i < 2; ++i) {
      keys[i] = gpu_runtime::allocate(dev, kb, stream);
      values[i] = gpu_runtime::allocate(dev, vb, stream);
    }
    const void* xp = x.data();
    void* kp = keys[0]->data();
    void* vp = values[0]->data();
    long long count = total;
    launch_elementwise(dev, cuda::sort_dtype_program(x.dtype()), cuda::sort_keys_name(x.dtype(), index64), total,
                       stream, {&xp, &kp, &vp, &count});

    void* kbuf[2] = {keys[0]->data(), keys[1]->data()};
    void* vbuf[2] = {values[0]->data(), values[1]->data()};
    const int key_bits = x.dtype() == bool_ ? 1 : static_cast<int>(8 * key_bytes);
    const int row_bits = bit_width(static_cast<uint64_t>(rows - 1));
    size_t temp1 = 0, temp2 = 0;
    check(sort_pairs(index64, static_cast<int>(key_bytes), nullptr, temp1, kbuf, vbuf, total, key_bits, stream,
                     nullptr, nullptr),
          "cub::DeviceRadixSort::SortPairs (size query)");
    if (rows > 1)
      check(sort_pairs(index64, static_cast<int>(index_bytes), nullptr, temp2, kbuf, vbuf, total, row_bits,
                       stream, nullptr, nullptr),
            "cub::DeviceRadixSort::SortPairs (size query)");
    size_t temp_bytes = std::max<size_t>({temp1, temp2, 1});
    std::shared_ptr<Buffer> temp = gpu_runtime::allocate(dev, temp_bytes, stream);
    check(sort_pairs(index64, static_cast<int>(key_bytes), temp->data(), temp_bytes, kbuf, vbuf, total, key_bits,
                     stream, &key_sel, &value_sel),
          "cub::DeviceRadixSort::SortPairs (keys)");
    if (rows == 1) return;

    // Second pass: stable sort by row number; key order within each row is kept.
    const void* sorted = vbuf[value_sel];
    void* rowp = kbuf[0];
    const cuda::Program& ip = cuda::sort_index_program(index64);
    if (index64) {
      unsigned long long nn = static_cast<unsigned long long>(n);
      launch_elementwise(dev, ip, cuda::sort_rows_name(true), total, stream, {&sorted, &rowp, &nn, &count});
    } else {
      unsigned nn = static_cast<unsigned>(n);
      launch_elementwise(dev, ip, cuda::sort_rows_name(false), total, stream, {&sorted, &rowp, &nn, &count});
    }
    void* vbuf2[2] = {vbuf[value_sel], vbuf[1 - value_sel]};
    int sel2 = 0;
    temp_bytes = std::max<size_t>({temp1, temp2, 1});
    check(sort_pairs(index64, static_cast<int>(index_bytes), temp->data(), temp_bytes, kbuf, vbuf2, total, row_bits,
                     stream, nullptr, &sel2),
          "cub::DeviceRadixSort::SortPairs (rows)");
    value_sel = (sel2 == 0) ? value_sel : 1 - value_sel;
  }
  void* sorted_indices() const { return values[value_sel]->data(); }
  void* sorted_keys() const { return keys[key_sel]->data(); }
};

}  // namespace

void sort_last_axis(const Array& src, const Array& out, bool indices) {
  const int dev = out.device().index;
  cuda::activate(dev);
  gpu_runtime::wait_for_writer(src);
  gpu_runtime::wait_for_writer(out);
  void* stream = cuda::current_stream(dev);
  if (src.size() == 0) return;
  const Array x = src.contiguous();
  const int64_t n = x.shape().back(), total = x.size();
  KeySort ks(x, n, stream);
  const void* idx = ks.sorted_indices();
  void* op = out.data();
  long long count = total;
  const cuda::Program& ip = cuda::sort_index_program(ks.index64);
  if (indices) {
    if (ks.index64) {
      unsigned long long nn = static_cast<unsigned long long>(n);
      launch_elementwise(dev, ip, cuda::sort_local_name(true), total, stream, {&idx, &op, &nn, &count});
    } else {
      unsigned nn = static_cast<unsigned>(n);
      launch_elementwise(dev, ip, cuda::sort_local_name(false), total, stream, {&idx, &op, &nn, &count});
    }
  } else {
    const void* xp = x.data();
    launch_elementwise(dev, ip, cuda::sort_gather_name(x.itemsize(), ks.index64), total, stream,
                       {&xp, &idx, &op, &count});
  }
  out.buffer()->set_last_stream(stream);
}

UniqueArrays unique(const Array& src, bool want_index, bool want_inverse, bool want_counts, bool equal_nan) {
  const int dev = src.device().index;
  cuda::activate(dev);
  gpu_runtime::wait_for_writer(src);
  void* stream = cuda::current_stream(dev);
  const Array x = src.contiguous();
  const int64_t n = x.size();
  KeySort ks(x, n, stream);
  const bool i64 = ks.index64;
  const cuda::Program& ip = cuda::unique_program(i64);
  long long count = n;

  // Group numbers: inclusive scan of "starts a new group" flags.
  std::shared_ptr<Buffer> flags = gpu_runtime::allocate(dev, static_cast<size_t>(n) * ks.index_bytes, stream);
  std::shared_ptr<Buffer> group = gpu_runtime::allocate(dev, static_cast<size_t>(n) * ks.index_bytes, stream);
  const void* keys = ks.sorted_keys();
  void* fp = flags->data();
  int nan_distinct = !equal_nan && is_floating(x.dtype());
  launch_elementwise(dev, ip, cuda::unique_flags_name(x.itemsize(), i64), n, stream, {&keys, &fp, &count, &nan_distinct});
  size_t temp_bytes = 0;
  auto scan = [&](void* temp) {
    return i64 ? cuda::cub_inclusive_sum_u64(temp, temp_bytes, flags->data(), group->data(), n, stream)
               : cuda::cub_inclusive_sum_u32(temp, temp_bytes, flags->data(), group->data(), n, stream);
  };
  check(scan(nullptr), "cub::DeviceScan::InclusiveSum (size query)");
  std::shared_ptr<Buffer> temp = gpu_runtime::allocate(dev, std::max<size_t>(temp_bytes, 1), stream);
  check(scan(temp->data()), "cub::DeviceScan::InclusiveSum");

  // The number of unique values decides the output sizes: one wait, as CuPy does.
  uint64_t groups = 0;
  const char* last = static_cast<const char*>(group->data()) + static_cast<size_t>(n - 1) * ks.index_bytes;
  LOOM_CUDA_CHECK(cudaMemcpyAsync(&groups, last, ks.index_bytes, cudaMemcpyDeviceToHost,
                                  static_cast<cudaStream_t>(stream)));
  LOOM_CUDA_CHECK(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)));
  const int64_t ng = static_cast<int64_t>(groups);  // little-endian: a uint32 reads right too

  UniqueArrays r;
  r.values = Array::allocate({ng}, x.dtype(), src.device());
  if (want_index) r.index = Array::allocate({ng}, int64, src.device());
  if (want_inverse) r.inverse = Array::allocate({n}, int64, src.device());
  std::shared_ptr<Buffer> starts = gpu_runtime::allocate(dev, static_cast<size_t>(ng) * 8, stream);
  const void* xp = x.data();
  const void* perm = ks.sorted_indices();
  const void* gp = group->data();
  void* vp = r.values.data();
  void* index = want_index ? r.index.data() : nullptr;
  void* inverse = want_inverse ? r.inverse.data() : nullptr;
  void* sp = starts->data();
  launch_elementwise(dev, ip, cuda::unique_scatter_name(x.itemsize(), i64), n, stream,
                     {&xp, &perm, &gp, &vp, &index, &inverse, &sp, &count});
  if (want_counts) {
    r.counts = Array::allocate({ng}, int64, src.device());
    void* cp = r.counts.data();
    long long ngl = ng;
    launch_elementwise(dev, ip, cuda::unique_counts_name(), ng, stream, {&sp, &cp, &ngl, &count});
  }
  for (const Array* a : {&r.values, &r.index, &r.inverse, &r.counts})
    if (a->valid()) a->buffer()->set_last_stream(stream);
  return r;
}

void check_sorter(const Array& sorter, const Array& bad) {
  const int dev = bad.device().index;
  cuda::activate(dev);
  gpu_runtime::wait_for_writer(sorter);
  gpu_runtime::wait_for_writer(bad);
  void* stream = cuda::current_stream(dev);
  // NumPy raises for an out-of-range sorter index: ops/ reads the flag back (one wait).
  LOOM_CUDA_CHECK(cudaMemsetAsync(bad.data(), 0, sizeof(int), static_cast<cudaStream_t>(stream)));
  const void* sp = sorter.data();
  void* bp = bad.data();
  long long n = sorter.size();
  launch_elementwise(dev, cuda::sort_index_program(false), cuda::check_sorter_name(), n, stream, {&sp, &n, &bp});
  bad.buffer()->set_last_stream(stream);
}

void searchsorted(const Array& a, const Array& v, const Array& sorter, bool right, const Array& out) {
  const int dev = out.device().index;
  cuda::activate(dev);
  gpu_runtime::wait_for_writer(a);
  gpu_runtime::wait_for_writer(v);
  if (sorter.valid()) gpu_runtime::wait_for_writer(sorter);
  gpu_runtime::wait_for_writer(out);
  void* stream = cuda::current_stream(dev);
  const void* sp = sorter.valid() ? sorter.data() : nullptr;
  long long n = a.size(), m = v.size();
  const void* ap = a.data();
  const void* vp = v.data();
  void* op = out.data();
  int r = right ? 1 : 0;
  launch_elementwise(dev, cuda::sort_dtype_program(a.dtype()), cuda::searchsorted_name(a.dtype()), m, stream,
                     {&ap, &n, &sp, &vp, &op, &m, &r});
  out.buffer()->set_last_stream(stream);
}

}  // namespace loom::gpu_backend
