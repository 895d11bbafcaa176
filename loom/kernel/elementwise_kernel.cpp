// ElementwiseKernel: argument checking, output allocation, the launch plan (operand kinds,
// collapsed layout, 32/64-bit indexing), the generated source and its per-plan cache.
#include "loom/kernel/elementwise_kernel.h"

#include <algorithm>
#include <climits>
#include <mutex>
#include <sstream>
#include <unordered_map>

#include "loom/core/error.h"

namespace loom {
namespace {

using namespace user_kernel;

enum class OpKind : uint8_t { scalar, flat, strided, raw };

// How one parameter is bound in a call.
struct Operand {
  const KernelParam* p = nullptr;
  bool output = false;
  OpKind kind = OpKind::scalar;
  DType param_dt = float32, arg_dt = float32;  // arg_dt: the array's dtype (inputs may convert)
  int raw_nd = 0;                              // raw: collapsed ndim, 0 when contiguous
  int slot = -1;                               // strided: row of the strides table
};

// Everything the generated source depends on, and the values of this call.
struct Plan {
  std::vector<Operand> ops;
  Shape shape;         // the loop's (uncollapsed) shape
  int64_t n = 0;
  Shape cshape;        // collapsed loop shape (strided operands only)
  std::vector<Strides> cstrides;
  bool idx32 = true;
  std::string key;
};

}  // namespace

struct ElementwiseKernel::State {
  std::vector<KernelParam> in, out;
  std::string operation, name, label;
  ElementwiseOptions opts;
  mutable std::mutex mu;
  mutable std::unordered_map<std::string, Kernel> kernels;
};

namespace {

std::string gen_source(const ElementwiseKernel::State& st, const Plan& plan, const TypeMap& types) {
  std::ostringstream s;
  bool half = false;
  for (const auto& [t, dt] : types) half |= needs_half_types(dt);
  for (const auto& o : plan.ops) half |= needs_half_types(o.param_dt) || needs_half_types(o.arg_dt);
  if (half) s << "#include \"loom_user_types.cuh\"\n";
  bool cplx = false;
  for (const auto& [t, dt] : types) cplx |= needs_complex_types(dt);
  for (const auto& o : plan.ops) cplx |= needs_complex_types(o.param_dt) || needs_complex_types(o.arg_dt);
  if (cplx) s << "#include \"loom_user_complex.cuh\"\n";
  for (const auto& [t, dt] : types) s << "typedef " << ctype(dt) << " " << t << ";\n";
  if (!st.opts.preamble.empty()) s << st.opts.preamble << "\n";
  const char* idx = plan.idx32 ? "int" : "long long";
  const char* uidx = plan.idx32 ? "unsigned" : "unsigned long long";
  s << "struct _loom_ind_t { long long n; __device__ long long size() const { return n; } };\n";
  bool raw_c = false, raw_s = false;
  int nstrided = 0;
  for (const auto& o : plan.ops) {
    raw_c |= o.kind == OpKind::raw && o.raw_nd == 0;
    raw_s |= o.kind == OpKind::raw && o.raw_nd > 0;
    nstrided += o.kind == OpKind::strided;
  }
  if (raw_c)
    s << "template <typename E> struct _loom_raw_c { E* p; long long n;\n"
         "  __device__ E& operator[](long long k) const { return p[k]; }\n"
         "  __device__ long long size() const { return n; } };\n";
  if (raw_s)
    s << "template <int N> struct _loom_rawm { long long n; long long sh[N]; long long st[N]; };\n"
         "template <typename E, int N> struct _loom_raw_s { E* p; _loom_rawm<N> m;\n"
         "  __device__ E& operator[](long long k) const {\n"
         "    long long off = 0;\n"
         "#pragma unroll\n"
         "    for (int d = N - 1; d > 0; --d) { const long long q = k / m.sh[d]; off += (k - q * m.sh[d]) * m.st[d]; k = q; }\n"
         "    return *reinterpret_cast<E*>(reinterpret_cast<char*>(p) + off + k * m.st[0]); }\n"
         "  __device__ long long size() const { return m.n; } };\n";
  const int D = static_cast<int>(plan.cshape.size());
  if (nstrided)
    s << "struct _loom_st { " << uidx << " sh[" << D << "]; " << idx << " st[" << nstrided << "][" << D << "]; };\n";
  // Signature.
  s << "extern \"C\" __global__ void " << st.name << "(";
  bool first = true;
  auto sep = [&] { s << (first ? "" : ", "); first = false; };
  for (const auto& o : plan.ops) {
    const std::string& nm = o.p->name;
    sep();
    switch (o.kind) {
      case OpKind::scalar: s << "const " << ctype(o.param_dt) << " " << nm; break;
      case OpKind::flat:
      case OpKind::strided: s << (o.output ? "" : "const ") << ctype(o.arg_dt) << "* _loom_p_" << nm; break;
      case OpKind::raw:
        s << ctype(o.param_dt) << "* _loom_p_" << nm << ", ";
        if (o.raw_nd == 0) s << "long long _loom_m_" << nm;
        else s << "_loom_rawm<" << o.raw_nd << "> _loom_m_" << nm;
        break;
    }
  }
  sep();
  s << "long long _loom_n";
  if (nstrided) s << ", _loom_st _loom_s";
  s << ") {\n  const _loom_ind_t _ind{_loom_n};\n";
  for (const auto& o : plan.ops)
    if (o.kind == OpKind::raw)
      s << "  const " << (o.raw_nd ? "_loom_raw_s<" : "_loom_raw_c<") << ctype(o.param_dt)
        << (o.raw_nd ? ", " + std::to_string(o.raw_nd) : std::string()) << "> " << o.p->name << "{_loom_p_"
        << o.p->name << ", _loom_m_" << o.p->name << "};\n";
  s << "  for (" << uidx << " _k = blockIdx.x * (" << uidx << ")blockDim.x + threadIdx.x; _k < (" << uidx
    << ")_loom_n; _k += (" << uidx << ")blockDim.x * gridDim.x) {\n"
    << "    const long long i = _k;\n";
  if (nstrided) {
    s << "    " << idx << " _o[" << nstrided << "] = {};\n    " << uidx << " _r = _k;\n";
    if (D > 1)
      s << "#pragma unroll\n    for (int _d = " << D - 1 << "; _d > 0; --_d) {\n"
        << "      const " << uidx << " _q = _r / _loom_s.sh[_d];\n"
        << "      const " << idx << " _c = (" << idx << ")(_r - _q * _loom_s.sh[_d]);\n"
        << "#pragma unroll\n      for (int _a = 0; _a < " << nstrided << "; ++_a) _o[_a] += _c * _loom_s.st[_a][_d];\n"
        << "      _r = _q;\n    }\n";
    s << "#pragma unroll\n    for (int _a = 0; _a < " << nstrided << "; ++_a) _o[_a] += (" << idx
      << ")_r * _loom_s.st[_a][0];\n";
  }
  for (const auto& o : plan.ops) {
    if (o.kind != OpKind::flat && o.kind != OpKind::strided) continue;
    const std::string& nm = o.p->name;
    const char* at = ctype(o.arg_dt);
    const std::string elem = o.kind == OpKind::flat
        ? "_loom_p_" + nm + "[_k]"
        : std::string("*reinterpret_cast<") + (o.output ? "" : "const ") + at + "*>(reinterpret_cast<" +
              (o.output ? "" : "const ") + "char*>(_loom_p_" + nm + ") + _o[" + std::to_string(o.slot) + "])";
    if (o.output) s << "    " << ctype(o.param_dt) << "& " << nm << " = " << elem << ";\n";
    else if (o.arg_dt == o.param_dt) s << "    const " << ctype(o.param_dt) << " " << nm << " = " << elem << ";\n";
    else s << "    const " << ctype(o.param_dt) << " " << nm << " = static_cast<" << ctype(o.param_dt) << ">(" << elem << ");\n";
  }
  s << "    " << st.operation << ";\n  }\n}\n";
  return s.str();
}

}  // namespace

ElementwiseKernel::ElementwiseKernel(const std::string& in_params, const std::string& out_params,
                                     std::string operation, std::string name, ElementwiseOptions options)
    : state_(std::make_shared<State>()) {
  State& st = *state_;
  st.label = "[ElementwiseKernel " + name + "] ";
  KernelSignature sig = parse_signature(in_params, out_params, name, st.label);
  st.in = std::move(sig.in);
  st.out = std::move(sig.out);
  st.operation = std::move(operation);
  st.name = std::move(name);
  st.opts = std::move(options);
}

const std::string& ElementwiseKernel::name() const { return state_->name; }
const std::vector<KernelParam>& ElementwiseKernel::in_params() const { return state_->in; }
const std::vector<KernelParam>& ElementwiseKernel::out_params() const { return state_->out; }
const std::string& ElementwiseKernel::operation() const { return state_->operation; }
const ElementwiseOptions& ElementwiseKernel::options() const { return state_->opts; }
size_t ElementwiseKernel::cached_modules() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->kernels.size();
}

namespace {

// Checks the arguments, allocates missing outputs into `outs`, and builds the plan.
Plan make_plan(const ElementwiseKernel::State& st, const std::vector<UserArg>& args, std::optional<int64_t> size,
               std::vector<Array>& outs, std::vector<UserArg>& all, TypeMap& types) {
  const std::string& L = st.label;
  const size_t nin = st.in.size(), nout = st.out.size();
  if (args.size() != nin && args.size() != nin + nout)
    throw DTypeError(L + "takes " + std::to_string(nin) + " input" + (nin == 1 ? "" : "s") + " (then optionally " +
                     std::to_string(nout) + " output" + (nout == 1 ? "" : "s") + "), got " +
                     std::to_string(args.size()) + " arguments");
  std::vector<const KernelParam*> params;
  std::vector<const UserArg*> argp;
  for (const auto& p : st.in) params.push_back(&p);
  for (const auto& p : st.out) params.push_back(&p);
  for (size_t k = 0; k < nin + nout; ++k) argp.push_back(k < args.size() ? &args[k] : nullptr);
  for (size_t k = 0; k < args.size(); ++k)
    if (std::holds_alternative<Scalar>(args[k]) && (k >= nin || params[k]->raw))
      throw DTypeError(L + "argument '" + params[k]->name + "' must be an array" +
                       (k >= nin ? " (an output)" : " (a raw parameter)") + ", got a scalar");
  types = resolve_placeholders(params, argp, L);
  // One device for every array.
  std::optional<Device> dev;
  for (const auto& a : args)
    if (const Array* arr = std::get_if<Array>(&a)) {
      if (!dev) dev = arr->device();
      else if (*dev != arr->device())
        throw DeviceMismatchError(L + "arrays on " + dev->str() + " and " + arr->device().str());
    }
  // The loop shape: broadcast of the non-raw arrays, else size=.
  std::vector<Shape> shapes;
  for (size_t k = 0; k < args.size(); ++k)
    if (!params[k]->raw && std::holds_alternative<Array>(args[k])) shapes.push_back(std::get<Array>(args[k]).shape());
  Shape shape;
  if (!shapes.empty()) {
    if (size) throw std::invalid_argument(L + "size= is only for calls whose array arguments are all raw");
    shape = broadcast_shapes(shapes, ("ElementwiseKernel " + st.name).c_str());
  } else {
    if (!size) throw std::invalid_argument(L + "loop size is undecided: pass size= or a non-raw array argument");
    if (*size < 0) throw std::invalid_argument(L + "size must be non-negative");
    shape = {*size};
  }
  all.assign(args.begin(), args.end());
  outs.clear();
  for (size_t j = 0; j < nout; ++j) {
    const KernelParam& p = st.out[j];
    const DType dt = param_dtype(p, types);
    if (args.size() == nin) {
      outs.push_back(Array::allocate(shape, dt, dev ? *dev : default_device()));
      all.push_back(outs.back());
      continue;
    }
    const Array& a = std::get<Array>(args[nin + j]);
    if (a.dtype() != dt)
      throw DTypeError(L + "output '" + p.name + "' is " + dtype_name(a.dtype()) + " but the parameter is " + dtype_name(dt));
    if (!p.raw && a.shape() != shape)
      throw std::invalid_argument(L + "output '" + p.name + "' has shape " + shape_str(a.shape()) +
                                  " but the broadcast shape is " + shape_str(shape));
    outs.push_back(a);
  }
  Plan plan;
  plan.shape = shape;
  plan.n = shape_size(shape);
  // Operand kinds: contiguous operands of the full shape index by i, others by strides.
  std::vector<Strides> bstrides;
  std::vector<size_t> strided_ops;
  for (size_t k = 0; k < nin + nout; ++k) {
    Operand o;
    o.p = params[k];
    o.output = k >= nin;
    o.param_dt = param_dtype(*o.p, types);
    if (const Array* a = std::get_if<Array>(&all[k])) {
      o.arg_dt = a->dtype();
      if (!o.output) check_input_cast(*o.p, o.arg_dt, o.param_dt, L);
      if (o.p->raw) {
        o.kind = OpKind::raw;
        if (!a->is_contiguous()) {
          const CollapsedLayout c = collapse_dims(a->shape(), a->strides());
          o.raw_nd = std::max<int>(1, static_cast<int>(c.shape.size()));
        }
      } else if (a->shape() == shape && a->is_contiguous()) {
        o.kind = OpKind::flat;
      } else {
        o.kind = OpKind::strided;
        bstrides.push_back(broadcast_strides(*a, shape, L));
        strided_ops.push_back(k);
      }
    } else {
      o.arg_dt = o.param_dt;
    }
    plan.ops.push_back(o);
  }
  if (!bstrides.empty()) {
    if (st.opts.reduce_dims) {
      JointLayout j = collapse_joint(shape, bstrides);
      plan.cshape = std::move(j.shape);
      plan.cstrides = std::move(j.strides);
    } else {
      plan.cshape = shape;
      plan.cstrides = bstrides;
    }
    if (plan.cshape.empty()) {  // every dim has size 1: one element at offset 0
      plan.cshape = {1};
      for (auto& s : plan.cstrides) s = {0};
    }
    for (size_t a = 0; a < strided_ops.size(); ++a) plan.ops[strided_ops[a]].slot = static_cast<int>(a);
  }
  plan.idx32 = plan.n <= (int64_t{1} << 30);
  for (const auto& s : plan.cstrides) plan.idx32 = plan.idx32 && max_offset(plan.cshape, s) <= INT_MAX;
  std::ostringstream key;
  key << (plan.idx32 ? "i32" : "i64") << " D" << plan.cshape.size();
  for (const auto& o : plan.ops)
    key << " " << static_cast<int>(o.kind) << ":" << static_cast<int>(o.param_dt) << ":" << static_cast<int>(o.arg_dt)
        << ":" << o.raw_nd << ":" << o.slot;
  for (const auto& [t, dt] : types) key << " " << t << "=" << static_cast<int>(dt);
  plan.key = key.str();
  return plan;
}

template <typename I, typename U>
std::string strides_table(const Plan& plan) {
  std::vector<U> sh(plan.cshape.begin(), plan.cshape.end());
  std::vector<I> st;
  for (const auto& s : plan.cstrides) st.insert(st.end(), s.begin(), s.end());
  std::string b(reinterpret_cast<const char*>(sh.data()), sh.size() * sizeof(U));
  b.append(reinterpret_cast<const char*>(st.data()), st.size() * sizeof(I));
  return b;
}

std::string raw_meta(const Array& a, int nd) {
  std::vector<int64_t> m{a.size()};
  if (nd == 0) return std::string(reinterpret_cast<const char*>(m.data()), 8);
  CollapsedLayout c = collapse_dims(a.shape(), a.strides());
  if (c.shape.empty()) c = {{1}, {0}};
  m.insert(m.end(), c.shape.begin(), c.shape.end());
  m.insert(m.end(), c.strides.begin(), c.strides.end());
  return std::string(reinterpret_cast<const char*>(m.data()), m.size() * 8);
}

Kernel kernel_for(const ElementwiseKernel::State& st, const Plan& plan, const TypeMap& types) {
  {
    std::lock_guard<std::mutex> lock(st.mu);
    auto it = st.kernels.find(plan.key);
    if (it != st.kernels.end()) return it->second;
  }
  RawModule mod(gen_source(st, plan, types), st.opts.options, {}, SourceDialect::kMinimal);
  Kernel k = mod.get_function(st.name, false);  // compiled at the launch, on the arrays' device
  std::lock_guard<std::mutex> lock(st.mu);
  return st.kernels.emplace(plan.key, k).first->second;
}

}  // namespace

std::string ElementwiseKernel::source(const std::vector<UserArg>& args, std::optional<int64_t> size) const {
  std::vector<Array> outs;
  std::vector<UserArg> all;
  TypeMap types;
  const Plan plan = make_plan(*state_, args, size, outs, all, types);
  return gen_source(*state_, plan, types);
}

RawModule ElementwiseKernel::module(const std::vector<UserArg>& args, std::optional<int64_t> size) const {
  return RawModule(source(args, size), state_->opts.options, {}, SourceDialect::kMinimal);
}

std::vector<Array> ElementwiseKernel::operator()(const std::vector<UserArg>& args, const ElementwiseKernelCall& call) const {
  const State& st = *state_;
  std::vector<Array> outs;
  std::vector<UserArg> all;
  TypeMap types;
  const Plan plan = make_plan(st, args, call.size, outs, all, types);
  if (plan.n == 0) return outs;
  const Kernel k = kernel_for(st, plan, types);
  std::vector<KernelArg> kargs;
  kargs.reserve(plan.ops.size() + 4);
  for (size_t j = 0; j < plan.ops.size(); ++j) {
    const Operand& o = plan.ops[j];
    if (o.kind == OpKind::scalar) {
      kargs.push_back(KernelArg::bytes(scalar_bytes(std::get<Scalar>(all[j]), o.param_dt).data(), itemsize(o.param_dt),
                                       dtype_name(o.param_dt)));
      continue;
    }
    const Array& a = std::get<Array>(all[j]);
    kargs.emplace_back(a);
    if (o.kind == OpKind::raw) {
      const std::string m = raw_meta(a, o.raw_nd);
      kargs.push_back(KernelArg::bytes(m.data(), m.size(), "raw array layout"));
    }
  }
  const int64_t n = plan.n;
  kargs.push_back(KernelArg::bytes(&n, 8, "int64"));
  if (!plan.cstrides.empty()) {
    const std::string t = plan.idx32 ? strides_table<int32_t, uint32_t>(plan) : strides_table<int64_t, uint64_t>(plan);
    kargs.push_back(KernelArg::bytes(t.data(), t.size(), "strides"));
  }
  if (n == 0) return outs;  // nothing to run: a launch of zero blocks is an error (kernel_launch.cpp)
  LaunchConfig cfg;
  cfg.stream = call.stream;
  const int64_t capped = std::min<int64_t>(n, INT_MAX);
  if (call.auto_block) {
    cfg.auto_block = true;
    cfg.grid = Dim3(static_cast<unsigned>(capped));
  } else {
    const unsigned block = call.block ? call.block : 256;
    cfg.block = Dim3(block);
    cfg.grid = Dim3(static_cast<unsigned>(std::min<int64_t>((n + block - 1) / block, INT_MAX)));
  }
  k.launch(cfg, kargs);
  return outs;
}

}  // namespace loom
