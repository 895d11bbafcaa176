// The nvcc-compiled CUB glue of the sorting family (sorting_cub32.cu, sorting_cub64.cu),
// behind a plain C++ interface so that no other file includes CUB. Keys are unsigned
// integers of 1, 2, 4 or 8 bytes (kernels/loom_sorting.cuh maps every dtype to one,
// order-preserving); values are uint32 indices (at most INT32_MAX items) or uint64
// (index64). Every call has CUB's two-phase form: with temp == nullptr it only stores the
// temp size in `temp_bytes`. Work is enqueued on `stream`; nothing synchronizes.
// The functions return a cudaError_t.
#pragma once
#include <cstddef>
#include <cstdint>

namespace loom::cuda {

/// Stable LSD radix sort of (key, value) pairs over bits [begin_bit, end_bit) of the keys.
/// keys[0]/values[0] hold the input; both buffers of each pair may be overwritten, and
/// keys[*key_sel] / values[*value_sel] hold the sorted output (cub::DoubleBuffer).
int cub_sort_pairs_u32(int key_bytes, void* temp, size_t& temp_bytes, void* keys[2], void* values[2],
                       int64_t n, int begin_bit, int end_bit, void* stream, int* key_sel, int* value_sel);
int cub_sort_pairs_u64(int key_bytes, void* temp, size_t& temp_bytes, void* keys[2], void* values[2],
                       int64_t n, int begin_bit, int end_bit, void* stream, int* key_sel, int* value_sel);
/// out[i] = in[0] + ... + in[i] over the index type.
int cub_inclusive_sum_u32(void* temp, size_t& temp_bytes, const void* in, void* out, int64_t n, void* stream);
int cub_inclusive_sum_u64(void* temp, size_t& temp_bytes, const void* in, void* out, int64_t n, void* stream);

}  // namespace loom::cuda
