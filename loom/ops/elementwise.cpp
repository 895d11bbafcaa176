// The rules of elementwise ops: NumPy 2 / NEP 50 dtype resolution, broadcasting, out=,
// where=, devices, and the dispatch to a backend's elementwise eval.
#include "loom/ops/elementwise.h"

#include <limits>
#include <stdexcept>
#include <string>

#include "loom/ops/elementwise_primitives.h"
#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/buffer_origin.h"
#include "loom/ops/elementwise_rules.h"
#include "loom/ops/reduce.h"

namespace loom {
namespace {

// `a` viewed with `shape`: stride 0 along broadcast dimensions (shape already checked).
Array broadcast_to_shape(const Array& a, const Shape& shape) {
  if (a.shape() == shape) return a;
  Strides st(shape.size(), 0);
  const size_t lead = shape.size() - a.shape().size();
  for (size_t i = 0; i < a.shape().size(); ++i) st[lead + i] = a.shape()[i] == 1 ? 0 : a.strides()[i];
  return a.view(shape, st, a.offset());
}

// An input that shares memory with `out` but is not the very same view would be read
// after being written: it needs its own copy (NumPy does the same on overlap).
bool aliases(const Array& in, const Array& out) {
  if (in.buffer() != out.buffer()) return false;
  return !(in.offset() == out.offset() && in.strides() == out.strides());
}

// Broadcasts and unaliases the inputs in place (no copy of an input that needs neither:
// this is the per-call path of every small op).
void run(ElementwiseCall& call) {
  for (int i = 0; i < call.nin; ++i) {
    if (call.is_scalar[i]) continue;
    Array& a = call.in[i];
    if (a.shape() != call.out.shape()) a = broadcast_to_shape(a, call.out.shape());
    if (aliases(a, call.out)) a = a.copy();
  }
  if (call.out.size() == 0) return;
  // Hooks see the array inputs; weak scalars travel in the call.
  const Array* a[3];
  int n = 0;
  for (int i = 0; i < call.nin; ++i)
    if (!call.is_scalar[i]) a[n++] = &call.in[i];
  const Primitive<ElementwiseFn>& p = primitives::elementwise[static_cast<int>(call.op)];
  switch (n) {
    case 0: dispatch(p, {}, {call.out}, call); break;
    case 1: dispatch(p, {*a[0]}, {call.out}, call); break;
    case 2: dispatch(p, {*a[0], *a[1]}, {call.out}, call); break;
    default: dispatch(p, {*a[0], *a[1], *a[2]}, {call.out}, call); break;
  }
}

// NumPy raises ValueError for integer powers with a negative exponent. For an array of
// exponents the check is split (backend/elementwise.h, at the power record): a device part,
// the dispatched ops less and any, and a host part that reads their one bool back.
void check_int_power(const ElementwiseCall& call) {
  if (dtype_kind(call.loop) != DTypeKind::signed_int) return;
  if (call.is_scalar[1]) {
    if (call.scalar[1].as_double() < 0)
      throw std::invalid_argument("[power] Integers to negative integer powers are not allowed.");
    return;
  }
  const Array& e = call.in[1];
  if (e.size() == 0 || dtype_kind(e.dtype()) != DTypeKind::signed_int) return;
  const Array has_negative = any(less(e, 0));
  // A traced function cannot raise on values: there, negative exponents give what the
  // kernel computes (docs/TRANSFORMS.md).
  if (is_abstract(has_negative)) return;
  bool host = false;
  has_negative.copy_to_host(&host);
  if (host) throw std::invalid_argument("[power] Integers to negative integer powers are not allowed.");
}

}  // namespace

bool can_cast_same_kind(DType from, DType to) {
  auto rank = [](DType d) {
    switch (dtype_kind(d)) {
      case DTypeKind::boolean: return 0;
      case DTypeKind::unsigned_int: return 1;
      case DTypeKind::signed_int: return 2;
      case DTypeKind::complex: return 4;
      default: return 3;
    }
  };
  return rank(from) <= rank(to);
}

DType result_type(OpId op, const Operand* in, int nin, std::optional<DType> dtype) {
  Scalar scalars[3];
  for (int i = 0; i < nin && i < 3; ++i) scalars[i] = in[i].scalar;
  return result_dtype(op_info(op).rule, ew_rules::resolve(op, in, scalars, nin, dtype));
}

// x ** 2 as x * x, NumPy's fast scalar power: exact, and no pow() per element (CUDA's
// pow is not correctly rounded). An int 2 keeps power's dtype rule; a float 2.0 on an
// integer or bool array computes in float64, the dtype NumPy gives that power.
static bool is_square(OpId op, const Operand* in, int nin, const UfuncArgs& args, UfuncArgs& square_args) {
  if (op != OpId::power || nin != 2 || in[0].is_scalar || !in[1].is_scalar) return false;
  const Scalar& e = in[1].scalar;
  square_args = args;
  if (e.kind == Scalar::Kind::int_) return e.i == 2;
  if (e.kind != Scalar::Kind::float_ || e.f != 2.0) return false;
  if (!args.dtype && !is_floating(in[0].array.dtype())) square_args.dtype = float64;
  return true;
}

Array apply(OpId op, const Operand* in, int nin, const UfuncArgs& args) {
  UfuncArgs square_args;
  if (is_square(op, in, nin, args, square_args)) return apply(OpId::square, in, 1, square_args);
  const OpInfo& info = op_info(op);
  if (nin != info.arity)
    throw std::invalid_argument(std::string("[") + info.name + "] takes " + std::to_string(info.arity) +
                                " inputs, got " + std::to_string(nin));
  ElementwiseCall call;
  call.op = op;
  call.nin = nin;
  // Devices and the broadcast shape of the arrays (scalars take any shape). Operands are
  // read in place (no Array copies); equal shapes, the common case, need no broadcasting.
  const Device* dev = nullptr;
  auto see = [&](const Array& a) {
    if (dev) check_same_device(info.name, *dev, a.device());
    else dev = &a.device();
  };
  const Shape* shape_of = nullptr;
  bool same_shapes = true;
  for (int i = 0; i < nin; ++i)
    if (!in[i].is_scalar) {
      see(in[i].array);
      const Shape& s = in[i].array.shape();
      if (!shape_of) shape_of = &s;
      else if (s != *shape_of) same_shapes = false;
    }
  if (args.out) see(*args.out);
  if (args.where && !args.where->is_scalar) see(args.where->array);
  static const Shape kScalarShape;
  Shape broadcast;
  if (!same_shapes) {
    for (int i = 0; i < nin; ++i)
      if (!in[i].is_scalar) broadcast = broadcast_shapes(broadcast, in[i].array.shape(), info.name);
    shape_of = &broadcast;
  }
  const Shape& shape = shape_of ? *shape_of : kScalarShape;

  for (int i = 0; i < nin; ++i) call.scalar[i] = in[i].scalar;
  call.loop = ew_rules::resolve(op, in, call.scalar, nin, args.dtype, args.casting);
  const DType res = result_dtype(info.rule, call.loop);
  if (args.casting == Casting::no || args.casting == Casting::equiv) {
    // Promotion's casts are safe, so only these two rules refuse them (int16 + int32 under
    // 'no': input 0 would be cast to int32). Python scalars are weak: never checked.
    for (int i = op == OpId::where ? 1 : 0; i < nin; ++i) {
      const DType need = input_loop_dtype(op, i, call.loop);
      if (!in[i].is_scalar && !can_cast(in[i].array.dtype(), need, args.casting))
        throw DTypeError(std::string("[") + info.name + "] Cannot cast ufunc '" + info.name + "' input " +
                         std::to_string(i) + " from " + dtype_name(in[i].array.dtype()) + " to " + dtype_name(need) +
                         " with casting rule '" + casting_name(args.casting) + "'");
    }
  }
  for (int i = 0; i < nin; ++i) {
    call.is_scalar[i] = in[i].is_scalar;
    if (!in[i].is_scalar) call.in[i] = in[i].array;
  }
  if (op == OpId::power) check_int_power(call);

  if (args.out) {
    const Array& out = *args.out;
    if (out.shape() != shape && broadcast_shapes(shape, out.shape(), info.name) != out.shape())
      throw std::invalid_argument(std::string("[") + info.name + "] non-broadcastable output operand with shape " +
                                  shape_str(out.shape()) + " doesn't match the broadcast shape " +
                                  shape_str(broadcast_shapes(shape, out.shape(), info.name)));
    if (!can_cast(res, out.dtype(), args.casting))
      throw DTypeError(std::string("[") + info.name + "] Cannot cast ufunc '" + info.name + "' output from " +
                       dtype_name(res) + " to " + dtype_name(out.dtype()) + " with casting rule '" +
                       casting_name(args.casting) + "'");
  }
  if (args.where) {
    const Operand& w = *args.where;
    if (w.is_scalar) {
      if (w.scalar.kind != Scalar::Kind::boolean)
        throw DTypeError(std::string("[") + info.name + "] where= must be a bool or a bool array");
      if (!w.scalar.b) return args.out ? *args.out : Array::allocate(shape, res, dev ? *dev : default_device());
    } else {
      if (w.array.dtype() != bool_)
        throw DTypeError(std::string("[") + info.name + "] Cannot cast where= from " + dtype_name(w.array.dtype()) +
                         " to bool according to the rule 'safe'");
      // The full result, then out = where(mask, result, out).
      const Shape target = args.out ? args.out->shape() : shape;
      if (broadcast_shapes(target, w.array.shape(), info.name) != target)
        throw std::invalid_argument(std::string("[") + info.name + "] where= of shape " +
                                    shape_str(w.array.shape()) + " does not broadcast to " + shape_str(target));
      UfuncArgs plain;
      plain.dtype = args.dtype;
      const Array full = apply(op, in, nin, plain);
      if (!args.out) return full;  // NumPy leaves the masked-off values unspecified
      ElementwiseCall sel;
      sel.op = OpId::where;
      sel.loop = args.out->dtype();
      sel.nin = 3;
      sel.in[0] = w.array;
      sel.in[1] = full;
      sel.in[2] = *args.out;
      sel.out = *args.out;
      run(sel);
      return *args.out;
    }
  }
  call.out = args.out ? *args.out : Array::allocate(shape, res, dev ? *dev : default_device());
  run(call);
  // A fresh conjugate remembers its source: matmul can then read x for x @ x.conj().T.
  if (op == OpId::conjugate && !args.out && !in[0].is_scalar) remember_conjugate(in[0].array, call.out);
  return std::move(call.out);
}

// The ufuncs and aliases that elementwise.h declares, from the same table expansion.
#define LOOM_EW_DEFINE_1(fn, op) \
  Array fn(const Operand& x, const UfuncArgs& args) { return apply(OpId::op, &x, 1, args); }
#define LOOM_EW_DEFINE_2(fn, op)                                              \
  Array fn(const Operand& x1, const Operand& x2, const UfuncArgs& args) {     \
    const Operand in[2] = {x1, x2};                                           \
    return apply(OpId::op, in, 2, args);                                      \
  }
#define LOOM_EW_DEFINE_OP(name, arity, mask, rule, expr, api, traits, doc) LOOM_OP_IF_##api(LOOM_EW_DEFINE_##arity(name, name))
#define LOOM_EW_DEFINE_ALIAS(alias, op, arity) LOOM_EW_DEFINE_##arity(alias, op)
LOOM_ELEMENTWISE_OPS(LOOM_EW_DEFINE_OP)
LOOM_ELEMENTWISE_ALIASES(LOOM_EW_DEFINE_ALIAS)
#undef LOOM_EW_DEFINE_ALIAS
#undef LOOM_EW_DEFINE_OP
#undef LOOM_EW_DEFINE_2
#undef LOOM_EW_DEFINE_1

}  // namespace loom
