#include "loom/backend/cuda/reduce_codegen.h"

#include <array>

#include "loom/backend/cuda/programs.h"
#include "loom/core/error.h"

namespace loom::cuda {
namespace {

const std::array<std::string, 10>& kernel_names() {
  static const std::array<std::string, 10> names = {
      "loom_reduce_block<loom_op, true, true>",  "loom_reduce_block<loom_op, true, false>",
      "loom_reduce_block<loom_op, false, true>", "loom_reduce_warp<loom_op>",
      "loom_reduce_cols<loom_op, true, true>",   "loom_reduce_cols<loom_op, true, false>",
      "loom_reduce_cols<loom_op, false, true>",  "loom_scan_rows<loom_op, true, true>",
      "loom_scan_rows<loom_op, false, false>",   "loom_scan_cols<loom_op>",
  };
  return names;
}

// Device spellings of the value a dtype reads into, and of its lowest/highest values.
std::string value_type(DType dt) {
  if (dt == float16 || dt == bfloat16) return "float";
  return device_type_name(dt);
}

std::string lowest_of(DType dt) {
  switch (dt) {
    case bool_: return "false";
    case int8: return "(signed char)-128";
    case int16: return "(short)-32768";
    case int32: return "(-2147483647 - 1)";
    case int64: return "(-9223372036854775807ll - 1)";
    case uint8: case uint16: case uint32: case uint64: return "0";
    case float64: return "-__longlong_as_double(0x7ff0000000000000ll)";
    default: return "-__int_as_float(0x7f800000)";
  }
}

std::string highest_of(DType dt) {
  switch (dt) {
    case bool_: return "true";
    case int8: return "(signed char)127";
    case int16: return "(short)32767";
    case int32: return "2147483647";
    case int64: return "9223372036854775807ll";
    case uint8: return "(unsigned char)255";
    case uint16: return "(unsigned short)65535";
    case uint32: return "4294967295u";
    case uint64: return "18446744073709551615ull";
    case float64: return "__longlong_as_double(0x7ff0000000000000ll)";
    default: return "__int_as_float(0x7f800000)";
  }
}

}  // namespace

std::string reduction_source(const ReductionSpec& s) {
  std::string src = "#include \"loom_reduce.cuh\"\n";
  if (s.in_type.rfind("loom_complex", 0) == 0) src += "#include \"loom_complex.cuh\"\n";  // its + and *
  src += s.preamble + "\nstruct loom_op {\n";
  src += "  typedef " + s.in_type + " in_t;\n  typedef " + s.acc_type + " acc_t;\n  typedef " + s.out_type + " out_t;\n";
  src += "  typedef " + s.params_type + " params_t;\n";
  src += std::string("  static constexpr bool fused = ") + (s.element_expr.empty() ? "false" : "true") + ";\n";
  if (!s.element_expr.empty())
    src += "  static __device__ __forceinline__ in_t element(long long k, const params_t& p) { return " +
           s.element_expr + "; }\n";
  src += "  static __device__ __forceinline__ acc_t identity() { return " + s.identity + "; }\n";
  src += "  static __device__ __forceinline__ acc_t map(typename loom_value<in_t>::type x, long long i, long long j,"
         " const params_t& p) { return " + s.map_expr + "; }\n";
  src += "  static __device__ __forceinline__ acc_t reduce(const acc_t& a, const acc_t& b) { return " +
         s.reduce_expr + "; }\n";
  src += "  static __device__ __forceinline__ out_t post(const acc_t& a, long long j, const params_t& p) {"
         " return loom_cast<out_t>(" + s.post_expr + "); }\n};\n";
  return src;
}

const std::string& reduction_kernel_name(ReductionKernelId id) { return kernel_names()[static_cast<int>(id)]; }

std::vector<std::string> reduction_kernel_names(bool scans) {
  const auto& n = kernel_names();
  return std::vector<std::string>(n.begin(), scans ? n.end() : n.begin() + 7);
}

Program reduction_program(const ReductionSpec& spec) {
  // --fmad=false: results match the CPU backend's operation by operation where they can.
  return Program(spec.name + ".cu", reduction_source(spec), reduction_kernel_names(spec.scans), {"--fmad=false"});
}

ReductionSpec builtin_reduction_spec(ReduceKind kind, DType in, bool var_mean) {
  ReductionSpec s;
  s.name = std::string("loom_reduce_") + (var_mean ? "var_mean" : reduce_kind_name(kind)) + "_" + dtype_name(in);
  s.in_type = device_type_name(in);
  const DType acc = reduce_acc_dtype(kind, in);
  const std::string A = device_type_name(acc);
  s.acc_type = A;
  s.out_type = var_mean ? A : device_type_name(reduce_out_dtype(kind, in));
  const std::string wide = "loom_cast<" + A + ">(x)";  // the element in the accumulator type
  s.reduce_expr = "a + b";
  s.identity = "acc_t(0)";
  s.post_expr = "a";
  switch (kind) {
    case ReduceKind::sum:
    case ReduceKind::prod:
      s.map_expr = wide;
      s.scans = true;
      if (kind == ReduceKind::prod) s.reduce_expr = "a * b", s.identity = "acc_t(1)";
      break;
    case ReduceKind::min:
    case ReduceKind::max: {
      const bool mx = kind == ReduceKind::max;
      s.acc_type = value_type(in);
      s.map_expr = "x";
      s.reduce_expr = mx ? "loom_nanmax(a, b)" : "loom_nanmin(a, b)";
      s.identity = mx ? lowest_of(in) : highest_of(in);
      break;
    }
    case ReduceKind::any:
    case ReduceKind::all:
      s.map_expr = "x != 0";
      s.reduce_expr = kind == ReduceKind::any ? "a || b" : "a && b";
      s.identity = kind == ReduceKind::any ? "false" : "true";
      break;
    case ReduceKind::argmin:
    case ReduceKind::argmax: {
      const bool mx = kind == ReduceKind::argmax;
      const std::string V = value_type(in);
      s.acc_type = "loom_argpair<" + V + ">";
      s.map_expr = "acc_t{x, i}";
      s.reduce_expr = std::string("loom_argbest<") + V + (mx ? ", true>(a, b)" : ", false>(a, b)");
      s.identity = "acc_t{" + (mx ? lowest_of(in) : highest_of(in)) + ", 9223372036854775807ll}";
      s.post_expr = "a.i";
      break;
    }
    case ReduceKind::mean:
      s.map_expr = wide;
      s.post_expr = "a / (" + A + ")p.d0";
      break;
    case ReduceKind::var:
      if (var_mean) {
        s.map_expr = wide;
        s.post_expr = "a / (" + A + ")p.d1";
      } else {
        s.map_expr = "(" + wide + " - static_cast<const " + A + "*>(p.aux)[j]) * (" + wide + " - static_cast<const " +
                     A + "*>(p.aux)[j])";
        // p.d2 != 0: std
        s.post_expr = "p.d2 != 0 ? sqrt(a / (" + A + ")p.d0) : a / (" + A + ")p.d0";
      }
      break;
    case ReduceKind::norm_l2:
      s.map_expr = wide + " * " + wide;
      s.post_expr = "sqrt(a)";
      break;
    case ReduceKind::norm_l1:
      s.map_expr = "fabs(" + wide + ")";
      break;
    case ReduceKind::norm_max_abs:
    case ReduceKind::norm_min_abs: {
      const bool mx = kind == ReduceKind::norm_max_abs;
      s.map_expr = "fabs(" + wide + ")";
      s.reduce_expr = mx ? "loom_nanmax(a, b)" : "loom_nanmin(a, b)";
      s.identity = mx ? std::string("acc_t(0)") : highest_of(acc);  // max starts at 0: NumPy's initial=0
      break;
    }
    case ReduceKind::norm_l0:
      s.map_expr = "x != 0 ? acc_t(1) : acc_t(0)";
      break;
    case ReduceKind::norm_p:
      s.map_expr = "pow(fabs(" + wide + "), (" + A + ")p.d2)";
      s.post_expr = "pow(a, (" + A + ")(1.0 / p.d2))";
      break;
  }
  return s;
}

}  // namespace loom::cuda
