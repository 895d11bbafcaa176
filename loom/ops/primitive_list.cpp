// all_primitives(): every family's X-macro list (ops/primitive_list.h) in one vector.
#include "loom/ops/primitive_list.h"

#include <cstddef>

#include "loom/ops/conv_primitives.h"
#include "loom/ops/counting_primitives.h"
#include "loom/ops/creation_primitives.h"
#include "loom/ops/elementwise_primitives.h"
#include "loom/ops/fft_primitives.h"
#include "loom/ops/indexing_primitives.h"
#include "loom/ops/linalg_decomp_primitives.h"
#include "loom/ops/linalg_primitives.h"
#include "loom/ops/nn_loss_primitives.h"
#include "loom/ops/pool_primitives.h"
#include "loom/ops/random_primitives.h"
#include "loom/ops/reduce_primitives.h"
#include "loom/ops/shape_ops_primitives.h"
#include "loom/ops/sorting_primitives.h"
#include "loom/ops/sparse_primitives.h"

namespace loom {
namespace {

template <class P>
void append(std::vector<const PrimitiveInfo*>& out, const P& record) {
  out.push_back(&record.info);
}
template <class P, size_t N>
void append(std::vector<const PrimitiveInfo*>& out, const P (&table)[N]) {
  for (const P& record : table) out.push_back(&record.info);
}

}  // namespace

std::vector<const PrimitiveInfo*> all_primitives() {
  std::vector<const PrimitiveInfo*> out;
#define LOOM_LIST_PRIMITIVE(Fn, name, extent) append(out, primitives::name);
  LOOM_CONV_PRIMITIVES(LOOM_LIST_PRIMITIVE)
  LOOM_COUNTING_PRIMITIVES(LOOM_LIST_PRIMITIVE)
  LOOM_CREATION_PRIMITIVES(LOOM_LIST_PRIMITIVE)
  LOOM_ELEMENTWISE_PRIMITIVES(LOOM_LIST_PRIMITIVE)
  LOOM_FFT_PRIMITIVES(LOOM_LIST_PRIMITIVE)
  LOOM_INDEXING_PRIMITIVES(LOOM_LIST_PRIMITIVE)
  LOOM_LINALG_DECOMP_PRIMITIVES(LOOM_LIST_PRIMITIVE)
  LOOM_LINALG_PRIMITIVES(LOOM_LIST_PRIMITIVE)
  LOOM_NN_LOSS_PRIMITIVES(LOOM_LIST_PRIMITIVE)
  LOOM_POOL_PRIMITIVES(LOOM_LIST_PRIMITIVE)
  LOOM_RANDOM_PRIMITIVES(LOOM_LIST_PRIMITIVE)
  LOOM_REDUCE_PRIMITIVES(LOOM_LIST_PRIMITIVE)
  LOOM_SHAPE_OPS_PRIMITIVES(LOOM_LIST_PRIMITIVE)
  LOOM_SORTING_PRIMITIVES(LOOM_LIST_PRIMITIVE)
  LOOM_SPARSE_PRIMITIVES(LOOM_LIST_PRIMITIVE)
#undef LOOM_LIST_PRIMITIVE
  return out;
}

}  // namespace loom
