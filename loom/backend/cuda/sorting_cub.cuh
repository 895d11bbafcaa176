// CUB instantiations of the sorting family: the nvcc-compiled part of loom (DESIGN.md §3).
// Limited to DeviceRadixSort::SortPairs over 4 key widths and one DeviceScan::InclusiveSum
// per index width, so that a cold build on 2 cores stays short. sorting_cub32.cu and
// sorting_cub64.cu include this with LOOM_SORT_INDEX_BITS set: the halves build in parallel.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include "loom/backend/cuda/sorting_cub.h"

#if LOOM_SORT_INDEX_BITS == 32
#define LOOM_SORT_FN cub_sort_pairs_u32
#define LOOM_SCAN_FN cub_inclusive_sum_u32
#else
#define LOOM_SORT_FN cub_sort_pairs_u64
#define LOOM_SCAN_FN cub_inclusive_sum_u64
#endif

namespace loom::cuda {
namespace {

#if LOOM_SORT_INDEX_BITS == 32
using Index = unsigned int;
using Count = int;  // CUB picks 32-bit offsets
#else
using Index = unsigned long long;
using Count = long long;
#endif

template <typename K>
cudaError_t sort_pairs(void* temp, size_t& temp_bytes, void* keys[2], void* values[2], int64_t n,
                       int begin_bit, int end_bit, cudaStream_t stream, int* key_sel, int* value_sel) {
  cub::DoubleBuffer<K> k(static_cast<K*>(keys[0]), static_cast<K*>(keys[1]));
  cub::DoubleBuffer<Index> v(static_cast<Index*>(values[0]), static_cast<Index*>(values[1]));
  const cudaError_t err = cub::DeviceRadixSort::SortPairs(temp, temp_bytes, k, v, static_cast<Count>(n),
                                                          begin_bit, end_bit, stream);
  if (key_sel) *key_sel = k.selector;
  if (value_sel) *value_sel = v.selector;
  return err;
}

}  // namespace

int LOOM_SORT_FN(int key_bytes, void* temp, size_t& temp_bytes, void* keys[2], void* values[2], int64_t n,
                 int begin_bit, int end_bit, void* stream, int* key_sel, int* value_sel) {
  const auto s = static_cast<cudaStream_t>(stream);
  switch (key_bytes) {
    case 1:
      return sort_pairs<unsigned char>(temp, temp_bytes, keys, values, n, begin_bit, end_bit, s, key_sel, value_sel);
    case 2:
      return sort_pairs<unsigned short>(temp, temp_bytes, keys, values, n, begin_bit, end_bit, s, key_sel, value_sel);
    case 4:
      return sort_pairs<unsigned int>(temp, temp_bytes, keys, values, n, begin_bit, end_bit, s, key_sel, value_sel);
    case 8:
      return sort_pairs<unsigned long long>(temp, temp_bytes, keys, values, n, begin_bit, end_bit, s, key_sel,
                                            value_sel);
    default:
      return cudaErrorInvalidValue;
  }
}

int LOOM_SCAN_FN(void* temp, size_t& temp_bytes, const void* in, void* out, int64_t n, void* stream) {
  return cub::DeviceScan::InclusiveSum(temp, temp_bytes, static_cast<const Index*>(in), static_cast<Index*>(out),
                                       static_cast<Count>(n), static_cast<cudaStream_t>(stream));
}

}  // namespace loom::cuda
