// One elementwise op application as the backends receive it: the ops layer has already
// resolved dtypes (NumPy 2 / NEP 50), broadcast the inputs to the output's shape and
// checked devices. Backends cast each input to its loop dtype and the result to out's
// dtype on the fly, so no temporary arrays are made for mixed dtypes.
#pragma once
#include "loom/array/array.h"
#include "loom/graph/op_table.h"
#include "loom/core/scalar.h"

namespace loom {

struct ElementwiseCall {
  OpId op = OpId::copy;
  DType loop = float32;  // computation dtype (op_table.h); input_loop_dtype() per input
  int nin = 1;
  Array in[3];             // broadcast to out's shape (stride 0 where broadcast)
  bool is_scalar[3] = {false, false, false};
  Scalar scalar[3];        // weak scalars, cast to the input's loop dtype by the backend
  Array out;               // any strided view; its dtype may differ from the result dtype
};

}  // namespace loom
