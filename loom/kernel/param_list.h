// Typed parameter lists of ElementwiseKernel and ReductionKernel (CuPy's syntax), the
// resolution of their type placeholders from the call's arguments, and the pieces of
// generated CUDA source the two kernel kinds share (type names, layouts of operands).
#pragma once
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "loom/array/array.h"
#include "loom/core/dtype.h"
#include "loom/core/scalar.h"

namespace loom {

/// One "[raw] type name" of a parameter list.
struct KernelParam {
  std::string name;
  std::string type;            // as written: "T" (a placeholder) or "float32"
  std::optional<DType> dtype;  // the fixed type; nullopt for a placeholder
  bool raw = false;
  bool is_placeholder() const { return !dtype; }
};

/// Parses "T x, raw T y, float32 z" (an empty string is no parameter). A one-character
/// type is a placeholder; any other must be a NumPy dtype name exactly, else ValueError
/// naming it (TypeError for NumPy dtypes loom does not have, e.g. float128). `label`
/// prefixes messages: "[ElementwiseKernel k]".
std::vector<KernelParam> parse_param_list(const std::string& text, const std::string& label);
/// ValueError when two parameters (inputs and outputs together) share a name.
void check_unique_names(const std::vector<KernelParam>& in, const std::vector<KernelParam>& out,
                        const std::string& label);

/// The checked signature of a generated kernel: `name` is a C identifier, both lists parse,
/// there is at least one output and no name repeats. ValueError otherwise.
struct KernelSignature {
  std::vector<KernelParam> in, out;
};
KernelSignature parse_signature(const std::string& in_params, const std::string& out_params,
                                const std::string& name, const std::string& label);

/// A call argument of a user kernel: a loom array or a Python-like scalar.
using UserArg = std::variant<Array, Scalar>;

/// Placeholder -> dtype, deduced from the arguments: arrays first (two arrays giving a
/// placeholder different dtypes: TypeError), then Python scalars for the placeholders no
/// array fixed (weak: int -> int64, float -> float64, bool -> bool, promoted together).
/// `args[k]` may be null (an output not given). `extra` names placeholders that must be
/// resolved too (reduce_type); an unresolved one raises TypeError.
using TypeMap = std::map<std::string, DType>;
TypeMap resolve_placeholders(const std::vector<const KernelParam*>& params,
                             const std::vector<const UserArg*>& args, const std::string& label,
                             const std::vector<std::string>& extra = {});
/// The dtype of `p` under `types`.
DType param_dtype(const KernelParam& p, const TypeMap& types);
/// TypeError unless an input array of `from` may feed a parameter of `to` (NumPy's
/// same_kind casting; the kernel converts each element as it reads it).
void check_input_cast(const KernelParam& p, DType from, DType to, const std::string& label);

namespace user_kernel {

/// The device spelling of a dtype in generated source: "float", "long long",
/// "loom_float16" (kernels/loom_user_types.cuh), ...
const char* ctype(DType dt);
/// True for float16/bfloat16, whose device types need kernels/loom_user_types.cuh.
bool needs_half_types(DType dt);
/// complex64/complex128 operands: the source includes loom_user_complex.cuh (complex<T>).
bool needs_complex_types(DType dt);

/// Operands (non-raw arrays) broadcast to one shape, with their dimensions collapsed
/// together: dims of size 1 dropped, neighbours merged where every operand allows it.
struct JointLayout {
  Shape shape;                 // collapsed shape
  std::vector<Strides> strides;  // per operand, bytes, same length as shape
};
/// `strides[k]` are operand k's byte strides broadcast to `shape` (0 on broadcast dims).
JointLayout collapse_joint(const Shape& shape, const std::vector<Strides>& strides);
/// Operand strides broadcast to `shape` (right-aligned; size-1 and missing dims get 0).
/// ValueError when it cannot broadcast.
Strides broadcast_strides(const Array& a, const Shape& shape, const std::string& label);
/// Largest byte offset magnitude an operand reaches: sum of (shape - 1) * |stride|.
int64_t max_offset(const Shape& shape, const Strides& strides);

/// A scalar converted to `dt`, as bytes for KernelArg::bytes.
std::string scalar_bytes(const Scalar& s, DType dt);
/// "[ElementwiseKernel name] " style prefix check: name must be a C identifier.
void check_identifier(const std::string& name, const std::string& label);

}  // namespace user_kernel
}  // namespace loom
