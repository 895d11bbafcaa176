// Walking a range of a collapsed, C-ordered iteration space shared by several strided
// operands, one row piece at a time: the CPU elementwise loops and the graph evaluator
// split their work by flat index over the thread pool and both walk it this way.
#pragma once
#include <algorithm>
#include <cstdint>

namespace loom {

/// Calls row(ptr, count) for the elements [begin, end) of the iteration space `shape`
/// (nd >= 1 dims, C order), in order, one piece of a last-dim row at a time: ptr[o] is
/// operand o's address of the piece's first element (base[o] plus strides[o][d] bytes per
/// step in dim d; strides is anything indexable as strides[o][d]). MaxOps bounds nops and
/// MaxDims nd.
template <int MaxOps, int MaxDims, class Strides2D, class Row>
inline void for_each_row_piece(int nd, const int64_t* shape, int nops, char* const* base, const Strides2D& strides,
                               int64_t begin, int64_t end, Row&& row) {
  const int last = nd - 1;
  int64_t idx[MaxDims];
  char* ptr[MaxOps];
  int64_t rem = begin;
  for (int d = last; d >= 0; --d) {
    idx[d] = rem % shape[d];
    rem /= shape[d];
  }
  for (int o = 0; o < nops; ++o) {
    ptr[o] = base[o];
    for (int d = 0; d < nd; ++d) ptr[o] += idx[d] * strides[o][d];
  }
  int64_t pos = begin;
  while (pos < end) {
    const int64_t cnt = std::min(shape[last] - idx[last], end - pos);
    row(static_cast<char* const*>(ptr), cnt);
    pos += cnt;
    if (pos >= end) break;
    for (int o = 0; o < nops; ++o) ptr[o] += cnt * strides[o][last];
    idx[last] += cnt;
    for (int d = last; d > 0 && idx[d] == shape[d]; --d) {
      for (int o = 0; o < nops; ++o) ptr[o] += strides[o][d - 1] - shape[d] * strides[o][d];
      idx[d] = 0;
      ++idx[d - 1];
    }
  }
}

}  // namespace loom
