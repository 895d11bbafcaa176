// ReductionKernel: argument checking, the plan (kept and reduced dims collapsed apart,
// one-block-per-output or one-thread-per-output, chunks for a second pass), the generated
// source (three kernels sharing one signature) and its per-plan module cache.
#include "loom/kernel/reduction_kernel.h"

#include <algorithm>
#include <climits>
#include <mutex>
#include <sstream>
#include <unordered_map>

#include "loom/core/error.h"
#include "loom/ops/elementwise.h"

namespace loom {
namespace {

using namespace user_kernel;

struct RInput {
  const KernelParam* p = nullptr;
  bool array = false;
  DType param_dt = float32, arg_dt = float32;
  int slot = -1;  // row in the strides tables
};

struct RPlan {
  std::vector<RInput> ins;
  std::vector<DType> out_dts;
  DType rdt = float32;
  Shape kshape, rshape;  // collapsed kept and reduced dims
  std::vector<Strides> kst, rst;
  int64_t nout = 0, len = 0, chunks = 1, clen = 0;
  Shape out_shape;
  bool idx32 = true, use_block = false;
  unsigned block = 256;
  std::string key;
};

}  // namespace

struct ReductionKernel::State {
  std::vector<KernelParam> in, out;
  std::string map_expr, reduce_expr, post_expr, name, label;
  std::optional<std::string> identity;
  ReductionOptions opts;
  mutable std::mutex mu;
  mutable std::unordered_map<std::string, Kernel> kernels[3];
};

namespace {

const char* const kSuffix[3] = {"_blk", "_thr", "_fin"};

std::string gen_source(const ReductionKernel::State& st, const RPlan& pl, const TypeMap& types) {
  std::ostringstream s;
  bool half = needs_half_types(pl.rdt);
  for (const auto& [t, dt] : types) half |= needs_half_types(dt);
  for (const auto& o : pl.ins) half |= needs_half_types(o.param_dt) || needs_half_types(o.arg_dt);
  for (DType d : pl.out_dts) half |= needs_half_types(d);
  if (half) s << "#include \"loom_user_types.cuh\"\n";
  bool cplx = needs_complex_types(pl.rdt);
  for (const auto& [t, dt] : types) cplx |= needs_complex_types(dt);
  for (const auto& o : pl.ins) cplx |= needs_complex_types(o.param_dt) || needs_complex_types(o.arg_dt);
  for (DType d : pl.out_dts) cplx |= needs_complex_types(d);
  if (cplx) s << "#include \"loom_user_complex.cuh\"\n";
  for (const auto& [t, dt] : types) s << "typedef " << ctype(dt) << " " << t << ";\n";
  s << "typedef " << ctype(pl.rdt) << " _type_reduce;\n";
  if (!st.opts.preamble.empty()) s << st.opts.preamble << "\n";
  const std::string idx = pl.idx32 ? "int" : "long long", uidx = pl.idx32 ? "unsigned" : "unsigned long long";
  const int KD = static_cast<int>(pl.kshape.size()), RD = static_cast<int>(pl.rshape.size());
  int NA = 0;
  for (const auto& o : pl.ins) NA += o.array;
  const int KDm = std::max(KD, 1), RDm = std::max(RD, 1), NAm = std::max(NA, 1);
  s << "struct _loom_rd { " << uidx << " ksh[" << KDm << "]; " << uidx << " rsh[" << RDm << "]; " << idx << " kst["
    << NAm << "][" << KDm << "]; " << idx << " rst[" << NAm << "][" << RDm << "]; };\n";
  // The accumulator: the reduce type, or (without an identity) the reduce type and a flag.
  if (st.identity) {
    s << "typedef _type_reduce _loom_acc;\n"
         "__device__ __forceinline__ _loom_acc _loom_id() { return _type_reduce(" << *st.identity << "); }\n"
         "__device__ __forceinline__ _loom_acc _loom_mk(const _type_reduce& v) { return v; }\n"
         "__device__ __forceinline__ _type_reduce _loom_val(const _loom_acc& v) { return v; }\n"
         "__device__ __forceinline__ _loom_acc _loom_red(const _type_reduce& a, const _type_reduce& b) { return _type_reduce("
      << st.reduce_expr << "); }\n";
  } else {
    s << "struct _loom_acc { _type_reduce v; bool ok; };\n"
         "__device__ __forceinline__ _loom_acc _loom_id() { _loom_acc r; r.ok = false; return r; }\n"
         "__device__ __forceinline__ _loom_acc _loom_mk(const _type_reduce& v) { _loom_acc r; r.v = v; r.ok = true; return r; }\n"
         "__device__ __forceinline__ _type_reduce _loom_val(const _loom_acc& v) { return v.v; }\n"
         "__device__ __forceinline__ _type_reduce _loom_red1(const _type_reduce& a, const _type_reduce& b) { return _type_reduce("
      << st.reduce_expr << "); }\n"
         "__device__ __forceinline__ _loom_acc _loom_red(const _loom_acc& a, const _loom_acc& b) {\n"
         "  if (!a.ok) return b;\n  if (!b.ok) return a;\n  return _loom_mk(_loom_red1(a.v, b.v));\n}\n";
  }
  // Block-wide combine in shared memory (blockDim.x a power of two <= 256); valid in thread 0.
  s << "__device__ __forceinline__ _loom_acc _loom_block(_loom_acc v) {\n"
       "  __shared__ _loom_acc sh[256];\n  sh[threadIdx.x] = v;\n  __syncthreads();\n"
       "  for (unsigned w = blockDim.x / 2; w > 0; w >>= 1) {\n"
       "    if (threadIdx.x < w) sh[threadIdx.x] = _loom_red(sh[threadIdx.x], sh[threadIdx.x + w]);\n"
       "    __syncthreads();\n  }\n  v = sh[0];\n  __syncthreads();\n  return v;\n}\n";
  // Code pieces shared by the kernels.
  std::ostringstream kept, map, post;
  kept << "    " << idx << " _ko[" << NAm << "] = {};\n";
  if (KD > 0 && NA > 0) {
    kept << "    { " << uidx << " _r = _j;\n#pragma unroll\n      for (int _d = " << KD - 1 << "; _d >= 0; --_d) {\n"
         << "        const " << uidx << " _q = _d ? _r / _g.ksh[_d] : 0;\n"
         << "        const " << idx << " _c = (" << idx << ")(_r - _q * _g.ksh[_d]);\n"
         << "#pragma unroll\n        for (int _a = 0; _a < " << NA << "; ++_a) _ko[_a] += _c * _g.kst[_a][_d];\n"
         << "        _r = _q;\n      } }\n";
  }
  map << "        " << idx << " _o[" << NAm << "];\n#pragma unroll\n        for (int _a = 0; _a < " << NAm
      << "; ++_a) _o[_a] = _ko[_a];\n";
  if (RD > 0 && NA > 0) {
    map << "        { " << uidx << " _s = _r;\n#pragma unroll\n          for (int _d = " << RD - 1 << "; _d >= 0; --_d) {\n"
        << "            const " << uidx << " _q = _d ? _s / _g.rsh[_d] : 0;\n"
        << "            const " << idx << " _c = (" << idx << ")(_s - _q * _g.rsh[_d]);\n"
        << "#pragma unroll\n            for (int _a = 0; _a < " << NA << "; ++_a) _o[_a] += _c * _g.rst[_a][_d];\n"
        << "            _s = _q;\n          } }\n";
  }
  for (const auto& o : pl.ins) {
    if (!o.array) continue;
    const std::string e = std::string("*reinterpret_cast<const ") + ctype(o.arg_dt) + "*>(reinterpret_cast<const char*>(_loom_p_" +
                          o.p->name + ") + _o[" + std::to_string(o.slot) + "])";
    map << "        const " << ctype(o.param_dt) << " " << o.p->name << " = "
        << (o.arg_dt == o.param_dt ? e : std::string("static_cast<") + ctype(o.param_dt) + ">(" + e + ")") << ";\n";
  }
  map << "        const _loom_acc _m = _loom_mk(_type_reduce(" << st.map_expr << "));\n";
  post << "{\n      const _type_reduce a = _loom_val(_acc);\n";
  for (size_t k = 0; k < st.out.size(); ++k)
    post << "      " << ctype(pl.out_dts[k]) << "& " << st.out[k].name << " = _loom_p_" << st.out[k].name << "[_j];\n";
  post << "      " << st.post_expr << ";\n    }";
  // One signature for the three kernels.
  std::ostringstream sig;
  sig << "(";
  for (const auto& o : pl.ins) {
    if (o.array) sig << "const " << ctype(o.arg_dt) << "* _loom_p_" << o.p->name << ", ";
    else sig << "const " << ctype(o.param_dt) << " " << o.p->name << ", ";
  }
  for (size_t k = 0; k < st.out.size(); ++k) sig << ctype(pl.out_dts[k]) << "* _loom_p_" << st.out[k].name << ", ";
  sig << "_loom_acc* _loom_part, const _loom_rd _g, const long long _nout, const long long _len, "
         "const long long _chunks, const long long _clen, const int _final)";
  const std::string lb = "extern \"C\" __global__ void __launch_bounds__(256) " + st.name;
  // A block per (output, chunk).
  s << lb << "_blk" << sig.str() << " {\n"
    << "  for (" << uidx << " _seg = blockIdx.x; _seg < (" << uidx << ")(_nout * _chunks); _seg += gridDim.x) {\n"
    << "    const " << uidx << " _j = _seg / (" << uidx << ")_chunks, _c = _seg - _j * (" << uidx << ")_chunks;\n"
    << kept.str()
    << "    const " << uidx << " _r0 = _c * (" << uidx << ")_clen;\n"
    << "    const " << uidx << " _r1 = min((unsigned long long)_len, (unsigned long long)_r0 + _clen);\n"
    << "    _loom_acc _acc = _loom_id();\n"
    << "    for (" << uidx << " _r = _r0 + threadIdx.x; _r < _r1; _r += blockDim.x) {\n"
    << map.str() << "        _acc = _loom_red(_acc, _m);\n    }\n"
    << "    _acc = _loom_block(_acc);\n"
    << "    if (threadIdx.x == 0) {\n      if (_final) " << post.str() << "\n      else _loom_part[_seg] = _acc;\n    }\n"
    << "  }\n}\n";
  // A thread per (output, chunk), outputs fastest (coalesced when the kept dims are).
  s << lb << "_thr" << sig.str() << " {\n"
    << "  for (" << uidx << " _t = blockIdx.x * (" << uidx << ")blockDim.x + threadIdx.x; _t < (" << uidx
    << ")(_nout * _chunks); _t += (" << uidx << ")blockDim.x * gridDim.x) {\n"
    << "    const " << uidx << " _c = _t / (" << uidx << ")_nout, _j = _t - _c * (" << uidx << ")_nout;\n"
    << kept.str()
    << "    const " << uidx << " _r0 = _c * (" << uidx << ")_clen;\n"
    << "    const " << uidx << " _r1 = min((unsigned long long)_len, (unsigned long long)_r0 + _clen);\n"
    << "    _loom_acc _acc = _loom_id();\n"
    << "    for (" << uidx << " _r = _r0; _r < _r1; ++_r) {\n"
    << map.str() << "        _acc = _loom_red(_acc, _m);\n    }\n"
    << "    if (_final) " << post.str() << "\n    else _loom_part[_j * _chunks + _c] = _acc;\n"
    << "  }\n}\n";
  // The second pass: a block per output over its chunks' partials.
  s << lb << "_fin" << sig.str() << " {\n"
    << "  for (" << uidx << " _j = blockIdx.x; _j < (" << uidx << ")_nout; _j += gridDim.x) {\n"
    << "    _loom_acc _acc = _loom_id();\n"
    << "    for (long long _c = threadIdx.x; _c < _chunks; _c += blockDim.x) _acc = _loom_red(_acc, _loom_part[_j * _chunks + _c]);\n"
    << "    _acc = _loom_block(_acc);\n"
    << "    if (threadIdx.x == 0) " << post.str() << "\n  }\n}\n";
  return s.str();
}

// CuPy's reduce_type may be a C type name ('int', 'unsigned long long', ...): the NumPy name
// of the same width, as the kernel source would read it.
std::string numpy_name_of_c_type(const std::string& t) {
  static const std::pair<const char*, const char*> kNames[] = {
      {"char", "int8"},          {"signed char", "int8"},   {"unsigned char", "uint8"},
      {"short", "int16"},        {"unsigned short", "uint16"}, {"int", "int32"},
      {"unsigned int", "uint32"}, {"unsigned", "uint32"},   {"long", "int64"},
      {"unsigned long", "uint64"}, {"long long", "int64"},  {"unsigned long long", "uint64"},
      {"float", "float32"},      {"double", "float64"}};
  for (const auto& [c, np] : kNames)
    if (t == c) return np;
  return t;
}

}  // namespace

ReductionKernel::ReductionKernel(const std::string& in_params, const std::string& out_params, std::string map_expr,
                                 std::string reduce_expr, std::string post_map_expr,
                                 std::optional<std::string> identity, std::string name, ReductionOptions options)
    : state_(std::make_shared<State>()) {
  State& st = *state_;
  st.label = "[ReductionKernel " + name + "] ";
  KernelSignature sig = parse_signature(in_params, out_params, name, st.label);
  st.in = std::move(sig.in);
  st.out = std::move(sig.out);
  if (st.in.empty()) throw std::invalid_argument(st.label + "needs at least one input parameter");
  for (const auto* list : {&st.in, &st.out})
    for (const auto& p : *list)
      if (p.raw) throw std::invalid_argument(st.label + "raw parameters are not supported ('" + p.name + "')");
  if (options.reduce_type) *options.reduce_type = numpy_name_of_c_type(*options.reduce_type);
  if (options.reduce_type) {
    const auto rt = parse_param_list(*options.reduce_type + " _loom_rt", st.label);
    if (rt.size() != 1 || rt[0].raw) throw std::invalid_argument(st.label + "bad reduce_type '" + *options.reduce_type + "'");
  }
  st.map_expr = std::move(map_expr);
  st.reduce_expr = std::move(reduce_expr);
  st.post_expr = std::move(post_map_expr);
  st.identity = std::move(identity);
  if (st.identity && st.identity->find_first_not_of(" \t\n") == std::string::npos) st.identity.reset();
  st.name = std::move(name);
  st.opts = std::move(options);
}

const std::string& ReductionKernel::name() const { return state_->name; }
const std::vector<KernelParam>& ReductionKernel::in_params() const { return state_->in; }
const std::vector<KernelParam>& ReductionKernel::out_params() const { return state_->out; }
const std::string& ReductionKernel::map_expr() const { return state_->map_expr; }
const std::string& ReductionKernel::reduce_expr() const { return state_->reduce_expr; }
const std::string& ReductionKernel::post_map_expr() const { return state_->post_expr; }
const std::optional<std::string>& ReductionKernel::identity() const { return state_->identity; }
const ReductionOptions& ReductionKernel::options() const { return state_->opts; }
size_t ReductionKernel::cached_modules() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->kernels[0].size();
}

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
unsigned pow2_block(int64_t want) {
  unsigned b = 32;
  while (b < 256 && b < want) b *= 2;
  return b;
}

RPlan make_plan(const ReductionKernel::State& st, const std::vector<UserArg>& args, const ReductionCall& call,
                std::vector<Array>& outs, TypeMap& types) {
  const std::string& L = st.label;
  const size_t nin = st.in.size(), nout = st.out.size();
  if (args.size() != nin && args.size() != nin + nout)
    throw DTypeError(L + "takes " + std::to_string(nin) + " input" + (nin == 1 ? "" : "s") + " (then optionally " +
                     std::to_string(nout) + " output" + (nout == 1 ? "" : "s") + "), got " +
                     std::to_string(args.size()) + " arguments");
  if (call.out && (nout != 1 || args.size() != nin))
    throw std::invalid_argument(L + "out= is for kernels with one output, not given among the arguments");
  std::vector<UserArg> all(args.begin(), args.end());
  if (call.out) all.push_back(*call.out);
  std::vector<const KernelParam*> params;
  std::vector<const UserArg*> argp;
  for (const auto& p : st.in) params.push_back(&p);
  for (const auto& p : st.out) params.push_back(&p);
  for (size_t k = 0; k < nin + nout; ++k) argp.push_back(k < all.size() ? &all[k] : nullptr);
  for (size_t k = nin; k < all.size(); ++k)
    if (!std::holds_alternative<Array>(all[k]))
      throw DTypeError(L + "output '" + params[k]->name + "' must be an array, got a scalar");
  std::vector<std::string> extra;
  if (st.opts.reduce_type && st.opts.reduce_type->size() == 1) extra.push_back(*st.opts.reduce_type);
  types = resolve_placeholders(params, argp, L, extra);
  std::optional<Device> dev;
  for (const auto& a : all)
    if (const Array* arr = std::get_if<Array>(&a)) {
      if (!dev) dev = arr->device();
      else if (*dev != arr->device())
        throw DeviceMismatchError(L + "arrays on " + dev->str() + " and " + arr->device().str());
    }
  RPlan pl;
  std::vector<Shape> shapes;
  for (size_t k = 0; k < nin; ++k)
    if (const Array* a = std::get_if<Array>(&all[k])) shapes.push_back(a->shape());
  const Shape shape = shapes.empty() ? Shape{} : broadcast_shapes(shapes, ("ReductionKernel " + st.name).c_str());
  const int nd = static_cast<int>(shape.size());
  std::vector<bool> reduced(nd, !call.axes);
  if (call.axes)
    for (int a : normalize_axes(*call.axes, nd, ("ReductionKernel " + st.name).c_str())) reduced[a] = true;
  Shape kshape, rshape;
  for (int d = 0; d < nd; ++d) {
    (reduced[d] ? rshape : kshape).push_back(shape[d]);
    if (!reduced[d]) pl.out_shape.push_back(shape[d]);
    else if (call.keepdims) pl.out_shape.push_back(1);
  }
  pl.nout = shape_size(kshape);
  pl.len = shape_size(rshape);
  pl.rdt = st.opts.reduce_type ? (st.opts.reduce_type->size() == 1 ? types.at(*st.opts.reduce_type)
                                                                    : *parse_param_list(*st.opts.reduce_type + " r", L)[0].dtype)
                               : param_dtype(st.out[0], types);
  // Outputs: given ones checked, missing ones allocated (contiguous: the kernels write index j).
  outs.clear();
  for (size_t j = 0; j < nout; ++j) {
    const DType dt = param_dtype(st.out[j], types);
    pl.out_dts.push_back(dt);
    if (all.size() == nin) {
      outs.push_back(Array::allocate(pl.out_shape, dt, dev ? *dev : default_device()));
      continue;
    }
    const Array& a = std::get<Array>(all[nin + j]);
    if (a.dtype() != dt)
      throw DTypeError(L + "output '" + st.out[j].name + "' is " + dtype_name(a.dtype()) + " but the parameter is " + dtype_name(dt));
    if (a.shape() != pl.out_shape)
      throw std::invalid_argument(L + "output '" + st.out[j].name + "' has shape " + shape_str(a.shape()) +
                                  " but the result's shape is " + shape_str(pl.out_shape));
    outs.push_back(a);
  }
  if (pl.nout > 0 && pl.len == 0 && !st.identity)
    throw std::invalid_argument(L + "zero-size reduction with no identity");
  // Inputs: strides split into kept and reduced dims, each group collapsed across inputs.
  std::vector<Strides> ks, rs;
  for (size_t k = 0; k < nin; ++k) {
    RInput o;
    o.p = &st.in[k];
    o.param_dt = param_dtype(*o.p, types);
    o.arg_dt = o.param_dt;
    if (const Array* a = std::get_if<Array>(&all[k])) {
      o.array = true;
      o.arg_dt = a->dtype();
      check_input_cast(*o.p, o.arg_dt, o.param_dt, L);
      o.slot = static_cast<int>(ks.size());
      const Strides b = broadcast_strides(*a, shape, L);
      Strides kk, rr;
      for (int d = 0; d < nd; ++d) (reduced[d] ? rr : kk).push_back(b[d]);
      ks.push_back(kk);
      rs.push_back(rr);
    }
    pl.ins.push_back(o);
  }
  JointLayout kj = st.opts.reduce_dims ? collapse_joint(kshape, ks) : JointLayout{kshape, ks};
  JointLayout rj = st.opts.reduce_dims ? collapse_joint(rshape, rs) : JointLayout{rshape, rs};
  pl.kshape = kj.shape;
  pl.kst = kj.strides;
  pl.rshape = rj.shape;
  pl.rst = rj.strides;
  pl.idx32 = pl.nout <= (int64_t{1} << 30) && pl.len <= (int64_t{1} << 30) && pl.nout * pl.len <= (int64_t{1} << 30);
  for (size_t a = 0; a < pl.kst.size(); ++a)
    pl.idx32 = pl.idx32 && max_offset(pl.kshape, pl.kst[a]) + max_offset(pl.rshape, pl.rst[a]) <= INT_MAX;
  // Kernel shape: a block per output when the reduced dims are contiguous (or one output),
  // else a thread per output; few outputs over long reductions get chunks and a second pass.
  bool inner_contig = false;
  for (size_t k = 0; k < pl.ins.size(); ++k)
    if (pl.ins[k].array && !pl.rshape.empty()) {
      inner_contig = std::llabs(pl.rst[pl.ins[k].slot].back()) == static_cast<int64_t>(itemsize(pl.ins[k].arg_dt));
      break;
    }
  pl.use_block = pl.nout == 1 || (inner_contig && pl.len >= 32);
  if (pl.use_block) {
    if (pl.nout < 1024 && pl.len > 8192) pl.chunks = std::min(ceil_div(pl.len, 4096), ceil_div(1024, pl.nout));
  } else if (pl.nout < 65536 && pl.len > 64) {
    pl.chunks = std::min(ceil_div(pl.len, 32), ceil_div(131072, pl.nout));
  }
  pl.chunks = std::max<int64_t>(pl.chunks, 1);
  pl.clen = std::max<int64_t>(ceil_div(pl.len, pl.chunks), 1);
  pl.chunks = std::max<int64_t>(ceil_div(pl.len, pl.clen), 1);
  pl.block = pl.use_block ? pow2_block(pl.clen) : 256;
  std::ostringstream key;
  key << (pl.idx32 ? "i32" : "i64") << " K" << pl.kshape.size() << " R" << pl.rshape.size() << " r"
      << static_cast<int>(pl.rdt);
  for (const auto& o : pl.ins) key << " " << o.array << ":" << static_cast<int>(o.param_dt) << ":" << static_cast<int>(o.arg_dt);
  for (DType d : pl.out_dts) key << " o" << static_cast<int>(d);
  for (const auto& [t, dt] : types) key << " " << t << "=" << static_cast<int>(dt);
  pl.key = key.str();
  return pl;
}

template <typename I, typename U>
std::string layout_bytes(const RPlan& pl) {
  const size_t KDm = std::max<size_t>(pl.kshape.size(), 1), RDm = std::max<size_t>(pl.rshape.size(), 1);
  const size_t NAm = std::max<size_t>(pl.kst.size(), 1);
  std::vector<U> sh(KDm + RDm, 1);
  std::copy(pl.kshape.begin(), pl.kshape.end(), sh.begin());
  std::copy(pl.rshape.begin(), pl.rshape.end(), sh.begin() + KDm);
  std::vector<I> st(NAm * (KDm + RDm), 0);
  for (size_t a = 0; a < pl.kst.size(); ++a) {
    std::copy(pl.kst[a].begin(), pl.kst[a].end(), st.begin() + a * KDm);
    std::copy(pl.rst[a].begin(), pl.rst[a].end(), st.begin() + NAm * KDm + a * RDm);
  }
  std::string b(reinterpret_cast<const char*>(sh.data()), sh.size() * sizeof(U));
  b.append(reinterpret_cast<const char*>(st.data()), st.size() * sizeof(I));
  return b;
}

}  // namespace

std::string ReductionKernel::source(const std::vector<UserArg>& args, const ReductionCall& call) const {
  std::vector<Array> outs;
  TypeMap types;
  const RPlan pl = make_plan(*state_, args, call, outs, types);
  return gen_source(*state_, pl, types);
}

RawModule ReductionKernel::module(const std::vector<UserArg>& args, const ReductionCall& call) const {
  return RawModule(source(args, call), state_->opts.options, {}, SourceDialect::kMinimal);
}

std::vector<Array> ReductionKernel::operator()(const std::vector<UserArg>& args, const ReductionCall& call) const {
  const State& st = *state_;
  std::vector<Array> outs;
  TypeMap types;
  const RPlan pl = make_plan(st, args, call, outs, types);
  if (pl.nout == 0) return outs;
  // Outputs the kernels cannot write by flat index get a contiguous stand-in, copied back.
  std::vector<Array> dst = outs;
  for (auto& a : dst)
    if (!a.is_contiguous()) a = Array::allocate(a.shape(), a.dtype(), a.device());
  std::vector<Kernel> ks;
  {
    std::unique_lock<std::mutex> lock(st.mu);
    auto it = st.kernels[0].find(pl.key);
    if (it != st.kernels[0].end()) {
      for (int v = 0; v < 3; ++v) ks.push_back(st.kernels[v].at(pl.key));
    } else {
      lock.unlock();
      RawModule mod(gen_source(st, pl, types), st.opts.options, {}, SourceDialect::kMinimal);
      for (int v = 0; v < 3; ++v) ks.push_back(mod.get_function(st.name + kSuffix[v], false));
      lock.lock();
      for (int v = 0; v < 3; ++v) st.kernels[v].emplace(pl.key, ks[v]);
    }
  }
  const Device dev = dst[0].device();
  // Partials: one accumulator per (output, chunk); with no identity it carries a flag too.
  const size_t acc_size = itemsize(pl.rdt) * (st.identity ? 1 : 2);
  Array part = Array::allocate({pl.chunks > 1 ? pl.nout * pl.chunks * static_cast<int64_t>(acc_size) : 1}, uint8, dev);
  std::vector<KernelArg> kargs;
  size_t k = 0;
  for (const auto& o : pl.ins) {
    const UserArg& a = args[k++];
    if (o.array) kargs.emplace_back(std::get<Array>(a));
    else
      kargs.push_back(KernelArg::bytes(scalar_bytes(std::get<Scalar>(a), o.param_dt).data(), itemsize(o.param_dt),
                                       dtype_name(o.param_dt)));
  }
  for (const auto& a : dst) kargs.emplace_back(a);
  kargs.emplace_back(part);
  const std::string lay = pl.idx32 ? layout_bytes<int32_t, uint32_t>(pl) : layout_bytes<int64_t, uint64_t>(pl);
  kargs.push_back(KernelArg::bytes(lay.data(), lay.size(), "layout"));
  for (int64_t v : {pl.nout, pl.len, pl.chunks, pl.clen}) kargs.push_back(KernelArg::bytes(&v, 8, "int64"));
  const int32_t final_pass = pl.chunks == 1;
  kargs.push_back(KernelArg::bytes(&final_pass, 4, "int32"));
  LaunchConfig cfg;
  cfg.stream = call.stream;
  const int64_t units = pl.nout * pl.chunks;
  if (pl.use_block) {
    cfg.block = Dim3(pl.block);
    cfg.grid = Dim3(static_cast<unsigned>(std::min<int64_t>(units, INT_MAX)));
    ks[0].launch(cfg, kargs);
  } else {
    cfg.block = Dim3(256);
    cfg.grid = Dim3(static_cast<unsigned>(std::min<int64_t>(ceil_div(units, 256), INT_MAX)));
    ks[1].launch(cfg, kargs);
  }
  if (pl.chunks > 1) {
    cfg.block = Dim3(pow2_block(pl.chunks));
    cfg.grid = Dim3(static_cast<unsigned>(std::min<int64_t>(pl.nout, INT_MAX)));
    ks[2].launch(cfg, kargs);
  }
  for (size_t j = 0; j < outs.size(); ++j)
    if (dst[j].buffer() != outs[j].buffer() || dst[j].offset() != outs[j].offset()) copyto(outs[j], dst[j]);
  return outs;
}

}  // namespace loom
