// Parameter lists and placeholder resolution of user kernels (CuPy's rules).
#include "loom/kernel/param_list.h"

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>

#include "loom/core/error.h"
#include "loom/ops/elementwise.h"

namespace loom {
namespace {

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

// NumPy's canonical dtype names of the types user kernels' parameter lists take: every loom
// dtype (complex ones are complex<float>/complex<double> in the source: loom_user_complex.cuh).
std::optional<DType> numpy_dtype_named(const std::string& t, const std::string& label) {
  static const std::map<std::string, DType> names = {
      {"bool", bool_},       {"int8", int8},         {"int16", int16},     {"int32", int32},
      {"int64", int64},      {"uint8", uint8},       {"uint16", uint16},   {"uint32", uint32},
      {"uint64", uint64},    {"float16", float16},   {"bfloat16", bfloat16}, {"float32", float32},
      {"float64", float64},  {"complex64", complex64}, {"complex128", complex128},
  };
  auto it = names.find(t);
  if (it != names.end()) return it->second;
  if (t == "float128" || t == "longdouble")
    throw DTypeError(label + "unsupported dtype " + t + " (loom has no " + t + ")");
  return std::nullopt;
}

}  // namespace

std::vector<KernelParam> parse_param_list(const std::string& text, const std::string& label) {
  std::vector<KernelParam> out;
  if (trim(text).empty()) return out;
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(start, end - start);
    start = end + 1;
    std::vector<std::string> words;
    std::stringstream ws(item);
    for (std::string w; ws >> w;) words.push_back(w);
    KernelParam p;
    if (!words.empty() && words[0] == "raw") {
      p.raw = true;
      words.erase(words.begin());
    }
    if (words.size() != 2)
      throw std::invalid_argument(label + "bad parameter '" + trim(item) +
                                  "': expected '[raw] type name', e.g. 'T x' or 'raw float32 y'");
    p.type = words[0];
    p.name = words[1];
    if (!is_identifier(p.name))
      throw std::invalid_argument(label + "bad parameter name '" + p.name + "' in '" + trim(item) + "'");
    if (p.type.size() == 1) {
      if (!std::isalpha(static_cast<unsigned char>(p.type[0])))
        throw std::invalid_argument(label + "bad type placeholder '" + p.type + "'");
    } else {
      p.dtype = numpy_dtype_named(p.type, label);
      if (!p.dtype)
        throw std::invalid_argument(label + "unknown type '" + p.type + "' of parameter " + p.name +
                                    ": use a NumPy dtype name (float32, int64, bool, ...) or a one-letter placeholder");
    }
    out.push_back(std::move(p));
  }
  return out;
}

void check_unique_names(const std::vector<KernelParam>& in, const std::vector<KernelParam>& out,
                        const std::string& label) {
  std::set<std::string> seen;
  for (const auto* list : {&in, &out})
    for (const auto& p : *list) {
      if (!seen.insert(p.name).second)
        throw std::invalid_argument(label + "duplicate parameter name '" + p.name + "'");
      if (p.name == "i" || p.name == "_ind" || p.name.rfind("_loom", 0) == 0)
        throw std::invalid_argument(label + "parameter name '" + p.name + "' is reserved");
    }
}

TypeMap resolve_placeholders(const std::vector<const KernelParam*>& params, const std::vector<const UserArg*>& args,
                             const std::string& label, const std::vector<std::string>& extra) {
  TypeMap types;
  for (size_t k = 0; k < params.size(); ++k) {
    const KernelParam& p = *params[k];
    if (!p.is_placeholder() || !args[k] || !std::holds_alternative<Array>(*args[k])) continue;
    const DType dt = std::get<Array>(*args[k]).dtype();
    auto [it, added] = types.emplace(p.type, dt);
    if (!added && it->second != dt)
      throw DTypeError(label + "type placeholder " + p.type + " is " + dtype_name(it->second) +
                       " from an earlier argument but " + dtype_name(dt) + " from argument '" + p.name + "'");
  }
  TypeMap weak;  // placeholders given only by Python scalars
  for (size_t k = 0; k < params.size(); ++k) {
    const KernelParam& p = *params[k];
    if (!p.is_placeholder() || !args[k] || !std::holds_alternative<Scalar>(*args[k]) || types.count(p.type)) continue;
    const DType dt = std::get<Scalar>(*args[k]).natural_dtype();
    auto [it, added] = weak.emplace(p.type, dt);
    if (!added) it->second = promote_types(it->second, dt);
  }
  types.insert(weak.begin(), weak.end());
  auto require = [&](const std::string& t, const std::string& what) {
    if (!types.count(t))
      throw DTypeError(label + "cannot determine the type of placeholder " + t + " (" + what +
                       "): pass an argument that gives it");
  };
  for (const auto* p : params)
    if (p->is_placeholder()) require(p->type, "parameter " + p->name);
  for (const auto& t : extra) require(t, "reduce_type");
  return types;
}

DType param_dtype(const KernelParam& p, const TypeMap& types) {
  return p.dtype ? *p.dtype : types.at(p.type);
}

void check_input_cast(const KernelParam& p, DType from, DType to, const std::string& label) {
  if (from == to) return;
  if (p.raw || !can_cast_same_kind(from, to))
    throw DTypeError(label + "argument '" + p.name + "' is " + dtype_name(from) + " but the parameter is " +
                     dtype_name(to) + (p.raw ? " (raw parameters take their exact type)"
                                             : ", which NumPy's same_kind casting does not allow"));
}

KernelSignature parse_signature(const std::string& in_params, const std::string& out_params,
                                const std::string& name, const std::string& label) {
  user_kernel::check_identifier(name, label);
  KernelSignature sig{parse_param_list(in_params, label), parse_param_list(out_params, label)};
  if (sig.out.empty()) throw std::invalid_argument(label + "needs at least one output parameter");
  check_unique_names(sig.in, sig.out, label);
  return sig;
}

namespace user_kernel {

const char* ctype(DType dt) {
  switch (dt) {
    case DType::bool_: return "bool";
    case DType::int8: return "signed char";
    case DType::int16: return "short";
    case DType::int32: return "int";
    case DType::int64: return "long long";
    case DType::uint8: return "unsigned char";
    case DType::uint16: return "unsigned short";
    case DType::uint32: return "unsigned int";
    case DType::uint64: return "unsigned long long";
    case DType::float16: return "loom_float16";
    case DType::bfloat16: return "loom_bfloat16";
    case DType::float32: return "float";
    case DType::float64: return "double";
    case DType::complex64: return "complex<float>";  // loom_user_complex.cuh
    case DType::complex128: return "complex<double>";
  }
  return "?";
}

bool needs_half_types(DType dt) { return dt == DType::float16 || dt == DType::bfloat16; }
bool needs_complex_types(DType dt) { return is_complex(dt); }

Strides broadcast_strides(const Array& a, const Shape& shape, const std::string& label) {
  const int nd = static_cast<int>(shape.size()), ad = a.ndim();
  if (ad > nd) throw std::invalid_argument(label + "array of shape " + shape_str(a.shape()) +
                                           " cannot broadcast to " + shape_str(shape));
  Strides s(nd, 0);
  for (int d = 0; d < ad; ++d) {
    const int64_t dim = a.shape()[d], want = shape[nd - ad + d];
    if (dim == want) s[nd - ad + d] = dim == 1 ? 0 : a.strides()[d];
    else if (dim != 1)
      throw std::invalid_argument(label + "array of shape " + shape_str(a.shape()) + " cannot broadcast to " +
                                  shape_str(shape));
  }
  return s;
}

JointLayout collapse_joint(const Shape& shape, const std::vector<Strides>& strides) {
  JointLayout out;
  out.strides.resize(strides.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    bool merge = !out.shape.empty();
    for (size_t k = 0; k < strides.size() && merge; ++k)
      merge = out.strides[k].back() == shape[d] * strides[k][d];
    if (merge) {
      out.shape.back() *= shape[d];
      for (size_t k = 0; k < strides.size(); ++k) out.strides[k].back() = strides[k][d];
    } else {
      out.shape.push_back(shape[d]);
      for (size_t k = 0; k < strides.size(); ++k) out.strides[k].push_back(strides[k][d]);
    }
  }
  return out;
}

int64_t max_offset(const Shape& shape, const Strides& strides) {
  int64_t m = 0;
  for (size_t d = 0; d < shape.size(); ++d) m += (shape[d] - 1) * std::llabs(strides[d]);
  return m;
}

std::string scalar_bytes(const Scalar& s, DType dt) {
  std::string b(itemsize(dt), '\0');
  scalar_to_bytes(s, dt, b.data());
  return b;
}

void check_identifier(const std::string& name, const std::string& label) {
  if (!is_identifier(name))
    throw std::invalid_argument(label + "kernel name '" + name + "' is not a C identifier");
}

}  // namespace user_kernel
}  // namespace loom
