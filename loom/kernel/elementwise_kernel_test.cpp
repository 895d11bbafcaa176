// Codegen and NVRTC compile (no GPU) of ElementwiseKernel and ReductionKernel sources.
#include "loom/kernel/elementwise_kernel.h"

#include <gtest/gtest.h>

#include "loom/core/error.h"
#include "loom/kernel/reduction_kernel.h"

namespace loom {
namespace {

Array A(Shape s, DType dt) { return Array::allocate(s, dt, cpu()); }

bool has(const std::string& src, const std::string& what) { return src.find(what) != std::string::npos; }

// NVRTC compiles the generated source; a build without the CUDA backend has none (the
// emulator's tests compile the same sources on the CPU).
#ifdef LOOM_WITH_CUDA
#define EXPECT_COMPILES(expr) EXPECT_NO_THROW(expr)
#else
#define EXPECT_COMPILES(expr) (void)0
#endif

TEST(ElementwiseKernel, FlatSourceIsSmallAndCompiles) {
  ElementwiseKernel k("T x, T y", "T z", "z = x * y + i", "axpy");
  const std::vector<UserArg> args{A({64}, float32), A({64}, float32)};
  const std::string src = k.source(args);
  EXPECT_TRUE(has(src, "typedef float T;")) << src;
  EXPECT_FALSE(has(src, "#include")) << src;  // nothing to parse but the kernel itself
  EXPECT_TRUE(has(src, "unsigned _k")) << src;  // 32-bit indexing
  EXPECT_LT(src.size(), 1500u);
  EXPECT_COMPILES(k.module(args).compile(90));
}

TEST(ElementwiseKernel, StridedBroadcastRawAndHalves) {
  ElementwiseKernel k("T x, raw T w, float32 s, U u", "T y", "y = x * s + w[i % w.size()] + u + _ind.size()", "mix");
  Array x = A({4, 6}, float16);
  Array xt = x.transpose();  // (6, 4), strided
  const std::vector<UserArg> args{xt, x.view({12}, {4}, 0), Scalar(2.0), A({1, 4}, int8)};
  const std::string src = k.source(args);
  EXPECT_TRUE(has(src, "loom_user_types.cuh")) << src;
  EXPECT_TRUE(has(src, "typedef loom_float16 T;")) << src;
  EXPECT_TRUE(has(src, "_loom_raw_s<loom_float16, 1>")) << src;
  EXPECT_TRUE(has(src, "struct _loom_st")) << src;
  EXPECT_COMPILES(k.module(args).compile(90));
  // bfloat16 output from float32 and bool inputs converted on read.
  ElementwiseKernel c("float32 a, int32 b", "bfloat16 y", "y = a + b", "conv");
  const std::vector<UserArg> cargs{A({3}, float16), A({2, 3}, bool_)};
  EXPECT_TRUE(has(c.source(cargs), "static_cast<float>")) << c.source(cargs);
  EXPECT_COMPILES(c.module(cargs).compile(90));
}

TEST(ElementwiseKernel, ArgumentErrors) {
  ElementwiseKernel k("T x, float32 s", "T y", "y = x * s", "scale");
  try {
    k.source({A({3}, float32)});
    FAIL();
  } catch (const DTypeError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("[ElementwiseKernel scale] ", 0), 0u) << e.what();
  }
  EXPECT_NO_THROW(k.source({A({3}, float32), A({3}, int32)}));  // int32 -> float32: same_kind
  ElementwiseKernel ki("T x, int32 s", "T y", "y = x * s", "iscale");
  EXPECT_THROW(ki.source({A({3}, float32), A({3}, float32)}), DTypeError);  // float -> int: not same_kind
  EXPECT_THROW(k.source({A({3}, float32), Scalar(1), A({4}, float32)}), std::invalid_argument);  // bad out shape
  EXPECT_THROW(k.source({A({3}, float32), Scalar(1), A({3}, float64)}), DTypeError);
  EXPECT_THROW(ElementwiseKernel("T x, T x", "T y", "y = x"), std::invalid_argument);
  EXPECT_THROW(ElementwiseKernel("T x", "floaty y", "y = x"), std::invalid_argument);
  ElementwiseKernel r("raw T x", "raw T y", "y[i] = x[i]", "copy_raw");
  EXPECT_THROW(r.source({A({3}, float32)}), std::invalid_argument);  // loop size undecided
  EXPECT_COMPILES(r.module({A({3}, float32)}, 3).compile(90));
  // A 0-d loop (scalars only, size from a 0-d output) compiles too.
  ElementwiseKernel z("T a", "T y", "y = a + 1", "zd");
  EXPECT_COMPILES(z.module({Scalar(2), A({}, int64)}).compile(90));
}

TEST(ReductionKernel, SourcesCompile) {
  ReductionKernel l2("T x", "T y", "x * x", "a + b", "y = sqrt(a)", std::string("0"), "l2");
  const std::vector<UserArg> args{A({8, 100}, float32)};
  ReductionCall rows;
  rows.axes = std::vector<int64_t>{1};
  const std::string src = l2.source(args, rows);
  EXPECT_TRUE(has(src, "typedef float _type_reduce;")) << src;
  EXPECT_COMPILES(l2.module(args, rows).compile(90));
  // Two inputs, float16 converted, no identity, keepdims over a strided axis.
  ReductionKernel dot("T x, T y", "float32 z", "x * y", "a + b", "z = a", std::nullopt, "dot");
  ReductionCall cols;
  cols.axes = std::vector<int64_t>{0};
  cols.keepdims = true;
  const std::vector<UserArg> dargs{A({5, 7}, float16), A({7}, float16)};
  const std::string dsrc = dot.source(dargs, cols);
  EXPECT_TRUE(has(dsrc, "bool ok;")) << dsrc;
  EXPECT_COMPILES(dot.module(dargs, cols).compile(90));
  ReductionOptions o;
  o.reduce_type = "int64";
  ReductionKernel isum("T x", "int64 y", "x", "a + b", "y = a", std::string("0"), "isum", o);
  EXPECT_COMPILES(isum.module({A({3, 4, 5}, int8)}).compile(90));
  EXPECT_THROW(dot.source({A({0}, float16), A({0}, float16)}), std::invalid_argument);  // empty, no identity
  ReductionCall bad;
  bad.axes = std::vector<int64_t>{2};
  EXPECT_THROW(l2.source(args, bad), AxisError);
  EXPECT_THROW(l2.source({}), DTypeError);
}

}  // namespace
}  // namespace loom
