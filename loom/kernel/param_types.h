// The C types of a user kernel's parameters, read from its source (extern "C" kernels,
// simple template instantiations) or from the demangled lowered name NVRTC gives a name
// expression, so a launch can convert Python scalars to each parameter's type and check
// array dtypes against pointer element types. What is not understood stays unknown, and
// an unknown parameter keeps the size-based rules. Internal to loom/kernel and the backends.
//
// An array view parameter takes a loom array with its shape and strides (Python kernels
// need them; their generated source defines the struct, and C++ users may too):
//   template <class T, int N, bool C>  // C: the kernel assumes a C-contiguous array
//   struct LoomArray { T* data; long long shape[N]; long long strides[N]; };  // strides in elements
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loom/core/dtype.h"

namespace loom {

/// What loom knows of one parameter's C type.
struct ParamType {
  enum class Kind : uint8_t { unknown, scalar, pointer, view };
  /// The most dimensions a view parameter may have (NumPy's limit before 2.0).
  static constexpr int kMaxViewDims = 32;
  Kind kind = Kind::unknown;
  DType dtype = DType::float32;  // scalar: its dtype; pointer, view: its element's (unless any_element)
  bool any_element = false;      // pointer: void*, char*, unsigned char*, T** or an unknown element type
  bool contiguous = false;       // view: the kernel assumes a C-contiguous array (LoomArray's C)
  uint8_t ndim = 0;              // view: its number of dimensions, 1 to kMaxViewDims
  std::string text;              // the declaration, for messages: "const float* x"

  bool known() const { return kind != Kind::unknown; }
  /// Its size in bytes, 0 when unknown. A view is its data pointer, then its shape and its
  /// strides as long long (8 + 16 * ndim bytes, aligned to 8).
  size_t size() const {
    switch (kind) {
      case Kind::pointer: return 8;
      case Kind::scalar: return itemsize(dtype);
      case Kind::view: return 8 + 16 * size_t{ndim};
      default: return 0;
    }
  }
  /// "float32", "pointer to float32", "pointer", "view of a 2-D float32 array": for messages.
  std::string describe() const;
};

/// One parameter declaration: "const float* __restrict__ x", "unsigned n", "float const*"
/// (a demangler's spelling), "const LoomArray<const float, 2, true> a" (an array view whose
/// element is any scalar type above). With `named` false the declaration has no parameter name.
ParamType parse_param_type(const std::string& decl, bool named = true);

/// The parameter list of a kernel, as far as it is known.
struct KernelParamTypes {
  std::vector<ParamType> params;
  /// The number of parameters is certain (every declaration understood, or a demangled
  /// name), so the driver need not be probed past the last one.
  bool count_certain = false;
};

/// The parameter declarations of the function a mangled (Itanium ABI) name names, from
/// abi::__cxa_demangle: "_Z5scaleIfEvPT_i" gives {"float*", "int"}. nullopt when the name
/// does not demangle to a function.
std::optional<std::vector<std::string>> demangled_params(const std::string& mangled);

/// Kernel `name` of a module's `code`: an extern "C" kernel (its definition read from the
/// source) or, when `is_name_expression`, a name expression (a cast's function type, or a
/// kernel of the source, a template instantiated by substituting its type arguments).
/// nullopt when it cannot be told (macros, several definitions, unusual templates).
std::optional<KernelParamTypes> source_param_types(const std::string& code, const std::string& name,
                                                   bool is_name_expression);

/// The parameter list from a name expression's lowered (mangled) name; nullopt if it does
/// not demangle.
std::optional<KernelParamTypes> lowered_param_types(const std::string& lowered);

}  // namespace loom
