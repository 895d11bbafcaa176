// NVRTC compiles every built-in kernel family for Ampere and Hopper; no GPU needed.
#include <gtest/gtest.h>

#include "loom/runtime/cuda/compile_test_util.h"
#include "loom/runtime/cuda/jit_link.h"
#include "loom/runtime/cuda/module_cache.h"
#include "loom/backend/cuda/programs.h"
#include "loom/core/error.h"

namespace loom::cuda {
namespace {

class CudaCompile : public ::testing::TestWithParam<int> {};

TEST_P(CudaCompile, CreationFamily) { expect_compiles(creation_program(), GetParam()); }
TEST_P(CudaCompile, ConvertFamilies) {
  for (int t = 0; t < kNumDTypes; ++t) {
    const Program& p = convert_program(static_cast<DType>(t));
    EXPECT_EQ(p.name_expressions().size(), 2u * kNumDTypes + 1);
    expect_compiles(p, GetParam());
  }
}

INSTANTIATE_TEST_SUITE_P(Archs, CudaCompile, ::testing::Values(80, 90),
                         [](const auto& info) { return "sm_" + std::to_string(info.param); });

TEST(CudaCompileErrors, FailureRaisesCompileErrorWithLog) {
  const Program p("bad.cu", "__global__ void loom_bad() { undeclared_thing(); }", {"loom_bad"});
  try {
    compile_program(p, 90);
    FAIL() << "expected CompileError";
  } catch (const CompileError& e) {
    EXPECT_NE(e.log().find("undeclared_thing"), std::string::npos) << e.log();
    EXPECT_NE(std::string(e.what()).find("bad.cu"), std::string::npos);
  }
}

TEST(CudaCompileErrors, NewerArchThanNvrtcGivesPtx) {
  const Program p("plain.cu", "extern \"C\" __global__ void loom_plain(int* x) { *x = 1; }",
                  {"loom_plain"});
  const CompiledProgram c = compile_program(p, 990);
  EXPECT_TRUE(c.is_ptx);
  EXPECT_NE(c.image.find(".entry loom_plain"), std::string::npos);
  ASSERT_EQ(c.lowered_names.size(), 1u);
  EXPECT_EQ(c.lowered_names[0].second, "loom_plain");
}

// A kernel that launches a kernel (dynamic parallelism): relocatable device code, linked with
// the device runtime into a loadable CUBIN (an ELF image); without -rdc NVRTC refuses it.
TEST(CudaCompileRelocatable, AKernelLaunchingAKernelLinksWithTheDeviceRuntime) {
  const std::string source =
      "extern \"C\" __global__ void child(int* x) { x[threadIdx.x] += 1; }\n"
      "extern \"C\" __global__ void parent(int* x) { if (threadIdx.x == 0) child<<<1, 4>>>(x); }\n";
  const Program rdc("dynamic.cu", source, {"parent", "child"}, {"-rdc=true"}, Dialect::kFull);
  const CompiledProgram c = compile_program(rdc, 90);
  EXPECT_FALSE(c.is_ptx);
  EXPECT_EQ(c.image.compare(0, 4, "\x7f" "ELF"), 0);
  EXPECT_EQ(c.lowered_names.size(), 2u);
  EXPECT_THROW(compile_program(Program("dynamic.cu", source, {"parent"}, {}, Dialect::kFull), 90), CompileError);
  // A GPU newer than NVRTC would get PTX, which cannot be linked for it: a clear error.
  EXPECT_THROW(compile_program(rdc, 990), CompileError);
  EXPECT_TRUE(wants_relocatable_code({"-G", "-rdc=true"}));
  EXPECT_FALSE(wants_relocatable_code({"-rdc=false"}));
}

// nvcc's programs include stdio for printf; NVRTC has printf built in and finds an empty header.
TEST(CudaCompileUserPrograms, StdioIncludesCompile) {
  for (const char* header : {"<stdio.h>", "<cstdio>"}) {
    const Program p("printing.cu", std::string("#include ") + header +
                                       "\nextern \"C\" __global__ void say(int x) { printf(\"%d\\n\", x); }\n",
                    {"say"}, {}, Dialect::kFull);
    EXPECT_FALSE(compile_program(p, 90).image.empty()) << header;
  }
}

TEST(CudaCompileErrors, KeyCoversSourceOptionsAndNames) {
  const Program a("a.cu", "x", {"k"}), b("a.cu", "x", {"k"}, {"-G"}), c("a.cu", "y", {"k"}),
      d("a.cu", "x", {"k2"});
  EXPECT_EQ(a.key(), Program("other-name.cu", "x", {"k"}).key());
  EXPECT_NE(a.key(), b.key());
  EXPECT_NE(a.key(), c.key());
  EXPECT_NE(a.key(), d.key());
}

}  // namespace
}  // namespace loom::cuda
