#include "loom/graph/cuda_codegen.h"

#include <functional>
#include <sstream>
#include <stdexcept>

namespace loom::cuda {
namespace {

constexpr const char* kDeviceQualifiers = "static __device__ __forceinline__";

constexpr const char* kStorage[kNumDTypes] = {
    "unsigned char", "signed char", "short", "int", "long long", "unsigned char", "unsigned short",
    "unsigned int", "unsigned long long", "loom_f16", "loom_bf16", "float", "double",
    "loom_complex64", "loom_complex128"};

const char* storage(DType d) { return storage_type(d); }

// The type arithmetic happens in: float16/bfloat16 compute in float, bool is bool.
const char* value_type(DType d) {
  if (d == DType::bool_) return "bool";
  if (d == DType::float16 || d == DType::bfloat16) return "float";
  return storage(d);
}

// A raw stored element -> its value.
std::string load(DType d, const std::string& raw) {
  if (d == DType::bool_) return "(" + raw + " != 0)";
  if (d == DType::float16) return "loom_f16_to_float(" + raw + ")";
  if (d == DType::bfloat16) return "loom_bf16_to_float(" + raw + ")";
  return raw;
}

// A value of dtype `from` as a value of dtype `to`, with NumPy's cast (rounded through
// 16-bit floats when `to` is one).
std::string convert(DType from, DType to, const std::string& v) {
  if (from == to) return v;
  if (to == DType::bool_) return "loom_cast<bool>(" + v + ")";
  if (to == DType::float16 || to == DType::bfloat16)
    return load(to, std::string("loom_cast<") + storage(to) + ">(" + v + ")");
  return std::string("loom_cast<") + storage(to) + ">(" + v + ")";
}

// The op's expression result (C++ arithmetic type, e.g. int for int8 + int8) as a value
// of `res`: wrapped to the integer width, rounded to a 16-bit float.
std::string result(DType res, const std::string& e) {
  if (res == DType::bool_) return "static_cast<bool>(" + e + ")";
  if (res == DType::float16 || res == DType::bfloat16)
    return load(res, std::string("loom_cast<") + storage(res) + ">(static_cast<float>(" + e + "))");
  return std::string("static_cast<") + storage(res) + ">(" + e + ")";
}

// A value of dtype `from` as raw storage of `to`.
std::string store(DType from, DType to, const std::string& v) {
  if (to == DType::bool_) return "static_cast<unsigned char>(" + convert(from, to, v) + ")";
  if (to == DType::float16 || to == DType::bfloat16) return std::string("loom_cast<") + storage(to) + ">(" + v + ")";
  return convert(from, to, v);
}

void check(const FusedGraph& g) {
  check_graph(g, "codegen");
  if (g.outputs.size() > 16) throw std::invalid_argument("[codegen] at most 16 outputs are supported");
}

// Output k's pointer parameter: `po` when there is one output (the eager kernels), else po0...
std::string out_ptr(const FusedGraph& g, size_t k) { return g.outputs.size() == 1 ? "po" : "po" + std::to_string(k); }

// Function computing the graph from raw input elements r0.. to the raw output (or, with
// several outputs, into references w0..), declared with `qualifiers`.
// Complex values need loom_complex.cuh (its arithmetic and math); other kernels skip its
// parse time. An include guard makes a second include of it harmless.
bool has_complex(const FusedGraph& g) {
  for (const auto& in : g.inputs)
    if (is_complex(in.dtype)) return true;
  for (const auto& n : g.nodes)
    if (is_complex(n.loop)) return true;
  for (const auto& o : g.outputs)
    if (is_complex(o.dtype)) return true;
  return false;
}

// Special functions (scipy.special's rows) need loom_special.cuh; other kernels skip its parse.
bool has_special(const FusedGraph& g) {
  for (const auto& n : g.nodes)
    if (op_info(n.op).traits & op_trait::special) return true;
  return false;
}

// The optional headers a graph's expressions need.
void emit_includes(std::ostringstream& s, const FusedGraph& g) {
  if (has_complex(g)) s << "#include \"loom_complex.cuh\"\n";
  if (has_special(g)) s << "#include \"loom_special.cuh\"\n";
}

void emit_compute(std::ostringstream& s, const FusedGraph& g, const char* fname = "loom_compute",
                  const char* qualifiers = kDeviceQualifiers) {
  const int nin = static_cast<int>(g.inputs.size());
  const DType out = g.outputs[0].dtype;
  const bool multi = g.outputs.size() > 1;
  s << qualifiers << " " << (multi ? "void" : storage(out)) << " " << fname << "(";
  for (int i = 0; i < nin; ++i) s << (i ? ", " : "") << storage(g.inputs[i].dtype) << " r" << i;
  if (multi)
    for (size_t k = 0; k < g.outputs.size(); ++k)
      s << (nin || k ? ", " : "") << storage(g.outputs[k].dtype) << "& w" << k;
  s << ") {\n";
  for (int i = 0; i < nin; ++i)
    s << "  const " << value_type(g.inputs[i].dtype) << " v" << i << " = " << load(g.inputs[i].dtype, "r" + std::to_string(i))
      << ";\n";
  for (size_t k = 0; k < g.nodes.size(); ++k) {
    const FusedGraph::Node& n = g.nodes[k];
    const OpInfo& info = op_info(n.op);
    const DType res = result_dtype(info.rule, n.loop);
    const int id = nin + static_cast<int>(k);
    s << "  " << value_type(res) << " v" << id << ";\n  {\n";
    for (int a = 0; a < info.arity; ++a) {
      const DType need = input_loop_dtype(n.op, a, n.loop);
      const int arg = n.args[a];
      s << "    const " << value_type(need) << " x" << a << " = "
        << convert(g.value_dtype(arg), need, "v" + std::to_string(arg)) << ";\n";
    }
    s << "    v" << id << " = " << result(res, info.expr) << ";\n  }\n";
  }
  if (g.outputs.size() == 1) {
    const int ov = g.outputs[0].value;
    s << "  return " << store(g.value_dtype(ov), out, "v" + std::to_string(ov)) << ";\n}\n";
    return;
  }
  for (size_t k = 0; k < g.outputs.size(); ++k) {
    const FusedGraph::Output& o = g.outputs[k];
    s << "  w" << k << " = " << store(g.value_dtype(o.value), o.dtype, "v" + std::to_string(o.value)) << ";\n";
  }
  s << "}\n";
}

}  // namespace

const char* storage_type(DType d) { return kStorage[static_cast<int>(d)]; }

std::string graph_function_source(const FusedGraph& g, const std::string& name, const char* qualifiers) {
  check(g);
  std::ostringstream s;
  emit_includes(s, g);
  emit_compute(s, g, name.c_str(), qualifiers);
  return s.str();
}

std::string elementwise_source(const FusedGraph& g, const KernelConfig& cfg, const std::string& name) {
  check(g);
  using IK = FusedGraph::InputKind;
  const int nin = static_cast<int>(g.inputs.size());
  const DType out = g.outputs[0].dtype;
  const int nout = static_cast<int>(g.outputs.size()), nops = nin + nout;
  const bool multi = nout > 1;
  const std::string I = cfg.index32 ? "unsigned" : "unsigned long long";
  std::ostringstream s;
  s << "#include \"loom_elementwise.cuh\"\n";
  emit_includes(s, g);
  emit_compute(s, g);
  if (cfg.strided) {
    const std::string off = cfg.index32 ? "int" : "long long";
    s << "struct loom_layout { " << off << " shape[" << cfg.ndim << "]; " << off << " strides[" << nops << "]["
      << cfg.ndim << "]; };\n";
  }
  s << "extern \"C\" __global__ void __launch_bounds__(" << kElementwiseBlock << ") " << name << "(";
  for (int i = 0; i < nin; ++i) {
    const char* st = storage(g.inputs[i].dtype);
    if (g.inputs[i].kind == IK::param) s << "const " << st << " p" << i << ", ";
    else s << "const " << st << "* __restrict__ p" << i << ", ";
  }
  for (size_t k = 0; k < g.outputs.size(); ++k)
    s << storage(g.outputs[k].dtype) << "* __restrict__ " << out_ptr(g, k) << ", ";
  s << "const " << I << " n";
  if (cfg.strided) s << ", const loom_layout L";
  s << ") {\n";
  // Uniform inputs are read once per thread.
  for (int i = 0; i < nin; ++i)
    if (g.inputs[i].kind == IK::uniform) s << "  const " << storage(g.inputs[i].dtype) << " u" << i << " = p" << i << "[0];\n";
  auto arg = [&](int i, const std::string& array_elem) {
    if (g.inputs[i].kind == IK::param) return "p" + std::to_string(i);
    if (g.inputs[i].kind == IK::uniform) return "u" + std::to_string(i);
    return array_elem;
  };
  // loom_compute over the inputs' elements, and with several outputs their element lvalues.
  auto call = [&](const std::function<std::string(int)>& elem,
                  const std::function<std::string(int)>& out_elem = nullptr) {
    std::string c = "loom_compute(";
    for (int i = 0; i < nin; ++i) c += (i ? ", " : "") + arg(i, elem(i));
    if (out_elem)
      for (int k = 0; k < nout; ++k) c += (nin || k ? ", " : "") + out_elem(k);
    return c + ")";
  };
  const std::string stride = "static_cast<" + I + ">(gridDim.x) * blockDim.x";
  const std::string first = "static_cast<" + I + ">(blockIdx.x) * blockDim.x + threadIdx.x";
  if (cfg.strided) {
    s << "  for (" << I << " i = " << first << "; i < n; i += " << stride << ") {\n";
    s << "    " << I << " rem = i;\n";
    const std::string off = cfg.index32 ? "int" : "long long";
    for (int o = 0; o < nops; ++o) s << "    " << off << " o" << o << " = 0;\n";
    s << "#pragma unroll\n    for (int d = " << cfg.ndim - 1 << "; d >= 0; --d) {\n"
      << "      const " << I << " ext = static_cast<" << I << ">(L.shape[d]);\n"
      << "      const " << I << " q = rem / ext;\n"
      << "      const " << off << " c = static_cast<" << off << ">(rem - q * ext);\n      rem = q;\n";
    for (int o = 0; o < nops; ++o)
      if (o >= nin || g.inputs[o].kind == IK::array) s << "      o" << o << " += c * L.strides[" << o << "][d];\n";
    s << "    }\n";
    auto in_elem = [&](int i) {
      return "*reinterpret_cast<const " + std::string(storage(g.inputs[i].dtype)) +
             "*>(reinterpret_cast<const char*>(p" + std::to_string(i) + ") + o" + std::to_string(i) + ")";
    };
    auto out_elem = [&](int k) {
      return "*reinterpret_cast<" + std::string(storage(g.outputs[k].dtype)) + "*>(reinterpret_cast<char*>(" +
             out_ptr(g, k) + ") + o" + std::to_string(nin + k) + ")";
    };
    if (multi) s << "    " << call(in_elem, out_elem) << ";\n  }\n}\n";
    else s << "    " << out_elem(0) << " = " << call(in_elem) << ";\n  }\n}\n";
    return s.str();
  }
  const int V = cfg.vec, U = kElementwiseUnroll;
  if (V > 1) {
    // Each thread moves U vectors of V elements per iteration, all loads issued first.
    s << "  const " << I << " nv = n / " << V << ";\n";
    s << "  for (" << I << " b = static_cast<" << I << ">(blockIdx.x) * (blockDim.x * " << U << ") + threadIdx.x; b < nv; b += "
      << stride << " * " << U << ") {\n";
    for (int i = 0; i < nin; ++i)
      if (g.inputs[i].kind == IK::array)
        s << "    loom_vec<" << storage(g.inputs[i].dtype) << ", " << V << "> a" << i << "[" << U << "];\n";
    s << "#pragma unroll\n    for (int u = 0; u < " << U << "; ++u) {\n      const " << I << " j = b + u * blockDim.x;\n"
      << "      if (j < nv) {\n";
    for (int i = 0; i < nin; ++i)
      if (g.inputs[i].kind == IK::array)
        s << "        a" << i << "[u] = reinterpret_cast<const loom_vec<" << storage(g.inputs[i].dtype) << ", " << V
          << ">*>(p" << i << ")[j];\n";
    s << "      }\n    }\n";
    s << "#pragma unroll\n    for (int u = 0; u < " << U << "; ++u) {\n      const " << I << " j = b + u * blockDim.x;\n"
      << "      if (j < nv) {\n";
    auto vec_in = [&](int i) { return "a" + std::to_string(i) + "[u].v[k]"; };
    if (!multi) {
      s << "        loom_vec<" << storage(out) << ", " << V << "> r;\n"
        << "#pragma unroll\n        for (int k = 0; k < " << V << "; ++k) r.v[k] = " << call(vec_in) << ";\n"
        << "        reinterpret_cast<loom_vec<" << storage(out) << ", " << V << ">*>(po)[j] = r;\n";
    } else {
      for (int k = 0; k < nout; ++k) s << "        loom_vec<" << storage(g.outputs[k].dtype) << ", " << V << "> r" << k << ";\n";
      s << "#pragma unroll\n        for (int k = 0; k < " << V << "; ++k) "
        << call(vec_in, [](int k) { return "r" + std::to_string(k) + ".v[k]"; }) << ";\n";
      for (int k = 0; k < nout; ++k)
        s << "        reinterpret_cast<loom_vec<" << storage(g.outputs[k].dtype) << ", " << V << ">*>(" << out_ptr(g, k)
          << ")[j] = r" << k << ";\n";
    }
    s << "      }\n    }\n  }\n";
    s << "  for (" << I << " i = nv * " << V << " + " << first << "; i < n; i += " << stride << ")\n";
  } else {
    s << "  for (" << I << " i = " << first << "; i < n; i += " << stride << ")\n";
  }
  auto flat_in = [&](int i) { return "p" + std::to_string(i) + "[i]"; };
  if (multi) s << "    " << call(flat_in, [&](int k) { return out_ptr(g, k) + "[i]"; }) << ";\n}\n";
  else s << "    po[i] = " << call(flat_in) << ";\n}\n";
  return s.str();
}

}  // namespace loom::cuda
