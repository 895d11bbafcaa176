// LoadedLibrary: a library loaded from memory resolves to itself, never to another library
// loaded before (same path or reused inode), and unloading returns its memory mappings,
// also across thousands of loads; a library glibc keeps loaded after dlclose keeps its file.
#include "loom/runtime/cpu/loaded_library.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "loom/runtime/cpu/host_compiler.h"

namespace loom::cpu_runtime {
namespace {

size_t count_maps() {
  std::ifstream f("/proc/self/maps");
  size_t n = 0;
  for (std::string line; std::getline(f, line);) ++n;
  return n;
}

// A shared library whose `value()` returns `v`, built by the host compiler.
std::string build_library(int v, const std::string& extra_flags = "") {
  TempDir dir;
  write_file(dir.path + "/lib.c", "int value(void) { return " + std::to_string(v) + "; }\n");
  std::string log;
  const std::string so = dir.path + "/lib.so";
  if (run_command("cc -shared -fPIC -O1 " + extra_flags + " -o " + so + " " + dir.path + "/lib.c", &log) != 0)
    return "";
  std::ifstream f(so, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

int value_of(const LoadedLibrary& lib) {
  auto fn = reinterpret_cast<int (*)()>(dlsym(lib.handle(), "value"));
  return fn ? fn() : -1;
}

class LoadedLibraryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int v = 0; v < 4; ++v) libs_.push_back(build_library(100 + v));
    for (const auto& l : libs_)
      if (l.empty()) GTEST_SKIP() << "no C compiler";
  }
  std::vector<std::string> libs_;
};

// Loaded, unloaded and reloaded in a random order, some alive at once: each load is its
// own library (the one the old temp-file loader could confuse once inodes were reused).
TEST_F(LoadedLibraryTest, EachLoadResolvesToItsOwnLibrary) {
  const size_t maps0 = count_maps(), live0 = LoadedLibrary::live_count();
  std::mt19937 g(7);
  std::vector<std::pair<int, std::unique_ptr<LoadedLibrary>>> alive;
  for (int i = 0; i < 3000; ++i) {
    const int v = static_cast<int>(g() % libs_.size());
    auto lib = std::make_unique<LoadedLibrary>(libs_[v], "[test]");
    ASSERT_EQ(value_of(*lib), 100 + v) << "load " << i;
    if (g() % 3 == 0) alive.emplace_back(v, std::move(lib));
    if (alive.size() > 8) alive.erase(alive.begin() + static_cast<long>(g() % alive.size()));
    for (const auto& [w, l] : alive) ASSERT_EQ(value_of(*l), 100 + w) << "load " << i;
  }
  alive.clear();
  EXPECT_EQ(LoadedLibrary::live_count(), live0);
#if !defined(__SANITIZE_ADDRESS__)  // ASan maps memory of its own as it goes
  EXPECT_LE(count_maps(), maps0 + 4);  // everything unloaded
#endif
}

// -z nodelete: glibc keeps the library after dlclose; its path and inode must then never be
// given to another library.
TEST_F(LoadedLibraryTest, ALibraryThatStaysLoadedKeepsItsFile) {
  const std::string sticky = build_library(7, "-Wl,-z,nodelete");
  ASSERT_FALSE(sticky.empty());
  std::string sticky_path;
  {
    LoadedLibrary lib(sticky, "[test]");
    sticky_path = lib.path();
    EXPECT_EQ(value_of(lib), 7);
  }
  for (int i = 0; i < 200; ++i) {
    LoadedLibrary lib(libs_[i % libs_.size()], "[test]");
    EXPECT_NE(lib.path(), sticky_path);
    ASSERT_EQ(value_of(lib), 100 + static_cast<int>(i % libs_.size())) << "load " << i;
  }
}

TEST_F(LoadedLibraryTest, JunkIsRefusedWithTheLabel) {
  try {
    LoadedLibrary lib("not an ELF file", "[RawKernel k] the CPU kernel emulator");
    FAIL() << "loaded junk";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("[RawKernel k] the CPU kernel emulator cannot load"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace loom::cpu_runtime
