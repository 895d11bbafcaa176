// The emulator's precompiled header: a damaged .gch (truncated, zeroed, junk) is found by the
// checksum its name carries, removed and rebuilt, in the same process; one that passes the
// checksum but that g++ still cannot read costs one retry without it, never a failed
// compile; the folder and files are owner-only. (test_emulator_pch.py: a new process.)
#include "loom/kernel/emulator/pch.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "loom/kernel/emulator/emulator_test_util.h"
#include "loom/kernel/emulator/host_compiler.h"
#include "loom/cache/compile_cache.h"
#include "loom/cache/test_util.h"
#include "loom/kernel/raw_module.h"

namespace loom::cpu_emulator {
namespace {

using testing_util::list_dir;
using testing_util::ScopedEnv;

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
void write_file_in_place(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;  // same inode
}
mode_t mode_of(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 ? st.st_mode & 07777 : 0;
}
std::vector<std::string> gch_files(const std::string& folder) {
  std::vector<std::string> r;
  for (const auto& n : list_dir(folder))
    if (n.size() > 4 && n.compare(n.size() - 4, 4, ".gch") == 0) r.push_back(folder + "/" + n);
  return r;
}
// "<key>-<checksum>.gch" whose bytes have that checksum.
bool intact(const std::string& path) {
  const std::string name = path.substr(path.rfind('/') + 1);
  return name.size() > 37 && murmur3_128(read_file(path)).hex() == name.substr(name.size() - 36, 32);
}

bool host_is_gcc() {
  const std::string id = compiler_identity(compiler());
  return id.find("GCC") != std::string::npos || id.find("g++") != std::string::npos;
}

// Writes x[i] * c to out[i] on cpu() and checks it (a compile that needs the PCH).
void check_kernel(int c) {
  const std::string src = "extern \"C\" __global__ void k(const int* x, int* out) { out[threadIdx.x] = x[threadIdx.x] * " +
                          std::to_string(c) + "; }";
  Kernel k = RawModule(src).get_function("k");
  std::vector<int32_t> x = {3, -1, 7, 12};
  Array xa = emulator_test::from(x, int32), out = emulator_test::from(std::vector<int32_t>(4, 0), int32);
  k.launch(LaunchConfig{Dim3(1), Dim3(4)}, {xa, out});
  const auto got = emulator_test::values<int32_t>(out);
  for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(got[i], x[i] * c) << "c " << c;
}

TEST(CpuEmulatorPch, DamagedHeadersAreFoundRemovedAndRebuilt) {
  if (!host_is_gcc()) GTEST_SKIP() << "precompiled headers are g++'s";
  testing_util::TempDir tmp;
  ScopedEnv env("LOOM_CACHE_DIR", (tmp.path() + "/cache").c_str());
  const std::string cxx = compiler(), id = compiler_identity(cxx), flags = "-std=c++17 -O0 -fPIC -w";
  const std::string first = precompiled_header(cxx, id, flags, false);
  ASSERT_FALSE(first.empty());
  EXPECT_TRUE(intact(first));
  EXPECT_EQ(mode_of(tmp.path() + "/cache"), 0700u);
  EXPECT_EQ(mode_of(tmp.path() + "/cache/host-pch"), 0700u);
  EXPECT_EQ(mode_of(first), 0600u);
  EXPECT_EQ(precompiled_header(cxx, id, flags, false), first);  // checked, unchanged: reused
  const std::string good = read_file(first);
  const std::vector<std::pair<std::string, std::string>> damages = {
      {"half", good.substr(0, good.size() / 2)},
      {"zeros", std::string(good.size(), '\0')},
      {"junk", std::string(good.size() / 3, 'j')},
  };
  for (const auto& [what, bytes] : damages) {
    const std::string now = gch_files(tmp.path() + "/cache/host-pch").at(0);
    write_file_in_place(now, bytes);
    const std::string rebuilt = precompiled_header(cxx, id, flags, false);
    ASSERT_FALSE(rebuilt.empty()) << what;
    EXPECT_TRUE(intact(rebuilt)) << what;
    EXPECT_EQ(gch_files(tmp.path() + "/cache/host-pch"), std::vector<std::string>{rebuilt}) << what;
  }
}

TEST(CpuEmulatorPch, FolderOthersCanWriteIsNeverUsed) {
  if (!host_is_gcc()) GTEST_SKIP() << "precompiled headers are g++'s";
  testing_util::TempDir tmp;
  ScopedEnv env("LOOM_CACHE_DIR", tmp.path().c_str());
  ASSERT_EQ(::mkdir((tmp.path() + "/host-pch").c_str(), 0777), 0);
  ASSERT_EQ(::chmod((tmp.path() + "/host-pch").c_str(), 0777), 0);
  EXPECT_EQ(precompiled_header(compiler(), compiler_identity(compiler()), "-std=c++17 -w", false), "");
  EXPECT_TRUE(list_dir(tmp.path() + "/host-pch").empty());
  check_kernel(5);  // compiles without a PCH
}

// The emulator's own PCH, truncated and renamed after its new checksum (so the check passes):
// g++ cannot read it, and the compile retries without it and removes it.
TEST(CpuEmulatorPch, AHeaderGccCannotReadCostsOneRetry) {
  if (!host_is_gcc()) GTEST_SKIP() << "precompiled headers are g++'s";
  testing_util::TempDir tmp;
  ScopedEnv env("LOOM_CACHE_DIR", tmp.path().c_str());
  check_kernel(2);
  const auto files = gch_files(tmp.path() + "/host-pch");
  ASSERT_EQ(files.size(), 1u);
  const std::string half = read_file(files[0]).substr(0, read_file(files[0]).size() / 2);
  const std::string name = files[0].substr(0, files[0].size() - 36) + murmur3_128(half).hex() + ".gch";
  write_file_in_place(name, half);
  ::chmod(name.c_str(), 0600);
  ::unlink(files[0].c_str());
  check_kernel(3);
  EXPECT_EQ(::access(name.c_str(), F_OK), -1) << "the header g++ refused is removed";
}

}  // namespace
}  // namespace loom::cpu_emulator
