// The CPU elementwise engine: operands' dims are collapsed jointly, the flat index range
// is split over the thread pool, and each row is handed to the typed loop of the op table.
// Operands whose dtype is not the loop's go through small cast buffers (NumPy's buffered
// iteration), so no full-size temporaries are made.
#include "loom/backend/elementwise.h"

#include <algorithm>
#include <cstring>

#include "loom/backend/cpu/elementwise_loops.h"
#include "loom/runtime/cpu/thread_pool.h"
#include "loom/core/error.h"
#include "loom/core/strided_rows.h"

namespace loom::cpu_backend {
namespace {

constexpr int kMaxOps = 4;
constexpr int kMaxDims = 64;
constexpr int64_t kChunk = 512;        // elements per cast buffer
constexpr int64_t kGrain = 1 << 15;    // elements per parallel chunk

struct Loops {
  LoopTable t{};
  Loops() {
    register_loops_part0(t);
    register_loops_part1(t);
    register_loops_part2(t);
    register_loops_part3(t);
    register_loops_part4(t);
  }
};

const Loops& loops() {
  static const Loops l;
  return l;
}

using CastFn = void (*)(const char* src, int64_t sstep, char* dst, int64_t dstep, int64_t n);

template <class S, class D>
void cast_run(const char* src, int64_t sstep, char* dst, int64_t dstep, int64_t n) {
  for (int64_t i = 0; i < n; ++i, src += sstep, dst += dstep) {
    const D d = cast<D>(ew::load<S>(src));
    std::memcpy(dst, &d, sizeof(D));
  }
}

CastFn cast_fn(DType s, DType d) {
  return dispatch_any_dtype(s, [&](auto a) {
    return dispatch_any_dtype(d, [&](auto b) -> CastFn { return &cast_run<decltype(a), decltype(b)>; });
  });
}

struct Plan {
  int nops = 0, nd = 0;
  int64_t shape[kMaxDims];
  int64_t strides[kMaxOps][kMaxDims];
  char* base[kMaxOps];
  bool cast[kMaxOps] = {false, false, false, false};
  CastFn cast_fn[kMaxOps] = {nullptr, nullptr, nullptr, nullptr};
  int64_t need_size[kMaxOps];
  bool any_cast = false;
  LoopFn fn = nullptr;
};

// Drops size-1 dims and merges neighbours that every operand walks as one.
void collapse(Plan& p, const Shape& shape, const int64_t* const* st) {
  int64_t* out[kMaxOps];
  for (int o = 0; o < p.nops; ++o) out[o] = p.strides[o];
  p.nd = collapse_operands(shape, p.nops, st, kMaxDims, p.shape, out, "elementwise");
}

// One row of `n` elements at pointers `ptr`, inner strides of the plan.
void run_row(const Plan& p, char* const* ptr, int64_t n) {
  const int last = p.nd - 1;
  int64_t steps[kMaxOps];
  for (int o = 0; o < p.nops; ++o) steps[o] = p.strides[o][last];
  if (!p.any_cast) {
    p.fn(ptr, steps, n);
    return;
  }
  alignas(16) char buf[kMaxOps][kChunk * 16];  // up to complex128 per element
  const int nin = p.nops - 1;
  for (int64_t off = 0; off < n; off += kChunk) {
    const int64_t m = std::min(kChunk, n - off);
    char* args[kMaxOps];
    int64_t st[kMaxOps];
    for (int o = 0; o < p.nops; ++o) {
      char* at = ptr[o] + off * steps[o];
      if (!p.cast[o]) {
        args[o] = at;
        st[o] = steps[o];
      } else {
        args[o] = buf[o];
        st[o] = p.need_size[o];
        if (o < nin) p.cast_fn[o](at, steps[o], buf[o], st[o], m);
      }
    }
    p.fn(args, st, m);
    if (p.cast[nin]) p.cast_fn[nin](buf[nin], p.need_size[nin], ptr[nin] + off * steps[nin], steps[nin], m);
  }
}

// Elements [begin, end) of the collapsed iteration space, in C order.
void run_range(const Plan& p, int64_t begin, int64_t end) {
  for_each_row_piece<kMaxOps, kMaxDims>(p.nd, p.shape, p.nops, p.base, p.strides, begin, end,
                                        [&](char* const* ptr, int64_t n) { run_row(p, ptr, n); });
}

}  // namespace

void elementwise(const ElementwiseCall& c) {
  const OpInfo& info = op_info(c.op);
  const int64_t n = c.out.size();
  if (n == 0) return;
  Plan p;
  p.nops = c.nin + 1;
  p.fn = loops().t[static_cast<int>(c.op)][static_cast<int>(c.loop)];
  if (!p.fn)
    throw_dtype_error(info.name, std::string("no CPU loop for dtype ") + dtype_name(c.loop));
  alignas(16) unsigned char scalars[3][16];
  // Stride pointers, not copies (no allocation per call); scalars walk a zero row.
  static const int64_t kZeros[kMaxDims] = {};
  const Shape& shape = c.out.shape();
  Strides zeros_long;  // only for more than kMaxDims dims (collapse then rejects most)
  if (shape.size() > static_cast<size_t>(kMaxDims)) zeros_long.assign(shape.size(), 0);
  const int64_t* zeros = zeros_long.empty() ? kZeros : zeros_long.data();
  const int64_t* st[kMaxOps];
  for (int i = 0; i < c.nin; ++i) {
    const DType need = input_loop_dtype(c.op, i, c.loop);
    p.need_size[i] = static_cast<int64_t>(itemsize(need));
    if (c.is_scalar[i]) {
      scalar_to_bytes(c.scalar[i], need, scalars[i]);
      p.base[i] = reinterpret_cast<char*>(scalars[i]);
      st[i] = zeros;
      continue;
    }
    p.base[i] = static_cast<char*>(c.in[i].data());
    st[i] = c.in[i].strides().data();
    if (c.in[i].dtype() != need) {
      p.cast[i] = p.any_cast = true;
      p.cast_fn[i] = cast_fn(c.in[i].dtype(), need);
    }
  }
  const DType res = result_dtype(info.rule, c.loop);
  p.base[c.nin] = static_cast<char*>(c.out.data());
  st[c.nin] = c.out.strides().data();
  p.need_size[c.nin] = static_cast<int64_t>(itemsize(res));
  if (c.out.dtype() != res) {
    p.cast[c.nin] = p.any_cast = true;
    p.cast_fn[c.nin] = cast_fn(res, c.out.dtype());
  }
  collapse(p, shape, st);
  if (n < kGrain) {
    run_range(p, 0, n);
    return;
  }
  cpu_runtime::parallel_for(n, kGrain, [&](int64_t b, int64_t e) { run_range(p, b, e); });
}

}  // namespace loom::cpu_backend
