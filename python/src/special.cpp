// scipy.special's ufuncs (the op table's `special` rows, ops/special.h) in the private
// submodule loom._loom._special; loom.scipy.special re-exports them under SciPy's names and
// adds SciPy's Python-level functions (softmax, logsumexp, zeta(x) without q, ...). The
// keywords are a NumPy ufunc's: out=, where=, dtype=.
#include <nanobind/stl/string.h>

#include <string>

#include "bindings.h"
#include "elementwise_args.h"

namespace loom::py {
namespace {

std::string special_doc(OpId op) {
  const OpInfo& info = op_info(op);
  static const char* const kArgs[] = {"", "(x, /, out=None, *, where=True, dtype=None)",
                                      "(x1, x2, /, out=None, *, where=True, dtype=None)",
                                      "(x1, x2, x3, /, out=None, *, where=True, dtype=None)"};
  return std::string(info.name) + kArgs[info.arity] + "\n\nElementwise " + info.doc + ", as scipy.special." +
         info.name + ". float32 computes in float32; every other real dtype (bool, integers, float16) in "
         "float64, as SciPy's loops. Inputs broadcast; Python scalars are weak (NEP 50).";
}

}  // namespace

LOOM_BINDING_FAMILY(special, 11) {
  nb::module_ sp = m.def_submodule(
      "_special", "scipy.special's ufuncs (private: loom.scipy.special is their public home).");
  for (int i = 0; i < kNumOps; ++i)
    if (kOpTable[i].api == OpApi::special) def_ufunc(sp, static_cast<OpId>(i), kOpTable[i].name, special_doc(static_cast<OpId>(i)));
}

}  // namespace loom::py
