// uint64-index half of the CUB glue (see sorting_cub.cuh).
#define LOOM_SORT_INDEX_BITS 64
#include "loom/backend/cuda/sorting_cub.cuh"
