// NVRTC through the compile cache, without a GPU: what is cached, under which key, and that
// a fresh process (the cache's memory cleared) gets a disk hit without calling NVRTC.
#include <gtest/gtest.h>

#include <fstream>

#include "loom/runtime/cuda/module_cache.h"
#include "loom/backend/cuda/programs.h"
#include "loom/runtime/gpu_compile.h"
#include "loom/cache/compile_cache.h"
#include "loom/cache/test_util.h"
#include "loom/core/error.h"

namespace loom::cuda {
namespace {

using testing_util::list_dir;
using testing_util::ScopedEnv;
using testing_util::TempDir;

const char* kSource = "extern \"C\" __global__ void loom_twice(float* x) { x[threadIdx.x] *= 2.0f; }\n";

// Every test runs on its own folder and sees the global cache as a fresh process would.
class NvrtcCache : public ::testing::Test {
 protected:
  NvrtcCache() : env_("LOOM_CACHE_DIR", tmp_.path().c_str()), off_("LOOM_DISABLE_DISK_CACHE", nullptr) {
    CompileCache::global().clear_memory();
  }
  ~NvrtcCache() override { CompileCache::global().clear_memory(); }
  std::vector<std::string> entries() const { return list_dir(tmp_.path() + "/nvrtc"); }
  static CompileCacheStats stats() { return CompileCache::global().stats(); }

  TempDir tmp_;
  ScopedEnv env_, off_;
};

TEST_F(NvrtcCache, FreshProcessGetsDiskHitWithoutNvrtc) {
  const Program p("twice.cu", kSource, {"loom_twice"});
  const CompileCacheStats s0 = stats();
  const auto first = compile_cached(p, 90);
  const CompileCacheStats s1 = stats();
  EXPECT_EQ(s1.misses, s0.misses + 1);
  EXPECT_EQ(s1.disk_writes, s0.disk_writes + 1);
  EXPECT_GT(s1.compile_seconds, s0.compile_seconds);
  ASSERT_EQ(entries().size(), 1u);

  CompileCache::global().clear_memory();  // as in a new process: only the disk knows
  const auto again = compile_cached(p, 90);
  const CompileCacheStats s2 = stats();
  EXPECT_EQ(s2.misses, s1.misses) << "NVRTC ran again";
  EXPECT_EQ(s2.disk_hits, s1.disk_hits + 1);
  EXPECT_EQ(s2.compile_seconds, s1.compile_seconds);
  EXPECT_EQ(again->image, first->image);
  EXPECT_EQ(again->is_ptx, first->is_ptx);
  EXPECT_EQ(again->lowered_names, first->lowered_names);
  EXPECT_EQ(again->lowered_names.at(0).second, "loom_twice");

  compile_cached(p, 90);  // and in memory from now on
  EXPECT_EQ(stats().memory_hits, s2.memory_hits + 1);
}

TEST_F(NvrtcCache, EachArchIsItsOwnEntry) {
  const Program p("twice.cu", kSource, {"loom_twice"});
  compile_cached(p, 80);
  compile_cached(p, 90);
  const auto ptx = compile_cached(p, 990);  // newer than this NVRTC: PTX
  EXPECT_TRUE(ptx->is_ptx);
  EXPECT_EQ(entries().size(), 3u);
}

TEST_F(NvrtcCache, KeyCoversEveryInputButTheLabel) {
  const Program a("a.cu", kSource, {"loom_twice"});
  EXPECT_EQ(a.key(), Program("label.cu", kSource, {"loom_twice"}).key());
  EXPECT_NE(a.key(), Program("a.cu", std::string(kSource) + " ", {"loom_twice"}).key());
  EXPECT_NE(a.key(), Program("a.cu", kSource, {"loom_twice"}, {"-G"}).key());
  EXPECT_NE(a.key(), Program("a.cu", kSource, {"loom_twice"}, {"-DX", "-DY"}).key());
  EXPECT_NE(Program("a.cu", kSource, {"loom_twice"}, {"-DX -DY"}).key(),
            Program("a.cu", kSource, {"loom_twice"}, {"-DX", "-DY"}).key());
  EXPECT_NE(a.key(), Program("a.cu", kSource, {"loom_twice", "loom_twice"}).key());
  EXPECT_NE(a.key(), Program("a.cu", kSource, {"loom_twice"}, {}, Dialect::kFull).key());
}

TEST_F(NvrtcCache, FailedCompilesAreNotCached) {
  const Program bad("bad.cu", "__global__ void loom_bad() { undeclared_thing(); }", {"loom_bad"});
  const CompileCacheStats s0 = stats();
  EXPECT_THROW(compile_cached(bad, 90), CompileError);
  EXPECT_THROW(compile_cached(bad, 90), CompileError);  // compiled again, not remembered
  EXPECT_EQ(stats().failed_compiles, s0.failed_compiles + 2);
  EXPECT_TRUE(entries().empty());
}

TEST_F(NvrtcCache, CorruptEntryIsRecompiled) {
  const Program p("twice.cu", kSource, {"loom_twice"});
  const auto first = compile_cached(p, 90);
  ASSERT_EQ(entries().size(), 1u);
  const std::string path = tmp_.path() + "/nvrtc/" + entries()[0];
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(100);
    f.put('\x5a');  // inside the CUBIN: the checksum no longer matches
  }
  CompileCache::global().clear_memory();
  const CompileCacheStats s0 = stats();
  EXPECT_EQ(compile_cached(p, 90)->image, first->image);
  EXPECT_EQ(stats().bad_entries, s0.bad_entries + 1);
  EXPECT_EQ(stats().misses, s0.misses + 1);
  CompileCache::global().clear_memory();
  compile_cached(p, 90);
  EXPECT_EQ(stats().disk_hits, s0.disk_hits + 1);  // the replacement is good
}

TEST_F(NvrtcCache, DisabledDiskCacheWritesNothing) {
  ScopedEnv off("LOOM_DISABLE_DISK_CACHE", "1");
  const Program p("twice.cu", kSource, {"loom_twice"});
  const CompileCacheStats s0 = stats();
  compile_cached(p, 90);
  EXPECT_TRUE(list_dir(tmp_.path()).empty());
  EXPECT_EQ(stats().disk_writes, s0.disk_writes);
}

TEST_F(NvrtcCache, BuiltinFamiliesAreCached) {
  const auto c = compile_cached(creation_program(), 90);
  EXPECT_EQ(c->lowered_names.size(), creation_program().name_expressions().size());
  CompileCache::global().clear_memory();
  const CompileCacheStats s0 = stats();
  compile_cached(creation_program(), 90);
  EXPECT_EQ(stats().disk_hits, s0.disk_hits + 1);
}

TEST_F(NvrtcCache, CompileForTestingGoesThroughTheCache) {
  const CompileCacheStats s0 = stats();
  EXPECT_GT(gpu_runtime::compile_for_testing(kSource, "loom_twice", 90, {}, false), 1000u);
  CompileCache::global().clear_memory();
  gpu_runtime::compile_for_testing(kSource, "loom_twice", 90, {}, false);
  EXPECT_EQ(stats().misses, s0.misses + 1);
  EXPECT_EQ(stats().disk_hits, s0.disk_hits + 1);
  gpu_runtime::compile_for_testing(kSource, "loom_twice", 90, {}, true);  // another dialect
  EXPECT_EQ(stats().misses, s0.misses + 2);
}

// Built-in programs compile with NVRTC's --minimal (faster); user source keeps the whole
// language, e.g. texture objects.
TEST(NvrtcDialect, MinimalOmitsTexturesFullKeepsThem) {
  const char* tex =
      "extern \"C\" __global__ void loom_tex(cudaTextureObject_t t, float* o) {"
      " o[threadIdx.x] = tex1Dfetch<float>(t, threadIdx.x); }\n";
  EXPECT_THROW(compile_program(Program("tex.cu", tex, {"loom_tex"}), 90), CompileError);
  EXPECT_NO_THROW(compile_program(Program("tex.cu", tex, {"loom_tex"}, {}, Dialect::kFull), 90));
}

// PTX on request (inspect_asm, compile_ptx): text for the virtual arch asked, never cached.
TEST_F(NvrtcCache, PtxOnlyGivesPtxForTheArchAsked) {
  const Program p("twice.cu", kSource, {"loom_twice"});
  const CompiledProgram c = compile_program(p, 90, true);
  EXPECT_TRUE(c.is_ptx);
  EXPECT_NE(c.image.find(".target sm_90"), std::string::npos);
  EXPECT_NE(c.image.find(".entry loom_twice"), std::string::npos);
  EXPECT_NE(compile_program(p, oldest_supported_arch(), true).image.find(".target sm_" +
                                                                     std::to_string(oldest_supported_arch())),
            std::string::npos);
  EXPECT_TRUE(entries().empty());
}

}  // namespace
}  // namespace loom::cuda
