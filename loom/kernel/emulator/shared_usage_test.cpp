// The static shared memory of emulated kernels (shared_usage.h): the ELF reader on a
// library g++ builds here, the owner of a local name, and what each kernel is charged.
#include "loom/kernel/emulator/shared_usage.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "loom/kernel/emulator/emu_source.h"
#include "loom/kernel/emulator/host_compiler.h"

namespace loom::cpu_emulator {
namespace {

TEST(SharedUsage, OwningFunction) {
  std::string n;
  EXPECT_EQ(owning_function("k::tile", &n), "k");
  EXPECT_EQ(n, "tile");
  EXPECT_EQ(owning_function("ns::k(float*)::c", &n), "k");
  EXPECT_EQ(owning_function("void tk<float>(float*)::tt", &n), "tk");
  EXPECT_EQ(n, "tt");
  EXPECT_EQ(owning_function("void ns::S<int, (char)3>::run<float>(float*, int (*)(int)) const::buf", &n), "run");
  EXPECT_EQ(owning_function("k::{lambda(int)#1}::operator()(int) const::t", &n), "k");
  EXPECT_EQ(owning_function("tile", &n), "");
  EXPECT_EQ(n, "tile");
}

// A library as the emulator builds it, from thread-locals standing for __shared__. The
// emulator needs the host compiler, so a failed build fails the test (with its log).
std::string build_library(const std::string& source) {
  TempDir dir;
  write_file(dir.path + "/m.cpp", source);
  std::string log;
  if (run_command(compiler() + " -std=c++17 -O2 -fPIC -shared -fvisibility=hidden -o " + shell_quote(dir.path + "/m.so") +
                      " " + shell_quote(dir.path + "/m.cpp"),
                  &log) != 0) {
    ADD_FAILURE() << "the host compiler failed: " << log;
    return "";
  }
  std::ifstream f(dir.path + "/m.so", std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

constexpr const char* kSource = R"(
#define S static thread_local
S float file_tile[100];
namespace ns { S double ns_tile[3]; }
inline thread_local void* loom_emu_current = nullptr;
__attribute__((noinline)) float helper(int i) { S float h[50]; h[i] = i; return h[i + 1]; }
extern "C" __attribute__((visibility("default"))) void kern(float* x) {
  S float tile[256]; tile[(int)x[2]] = x[0]; file_tile[(int)x[3]] = 1; ns::ns_tile[(int)x[4]] = 2;
  loom_emu_current = x;
  x[1] = tile[3] + helper(2) + file_tile[1] + ns::ns_tile[0];
}
template <typename T> void tk(T* x) { S T tt[7]; tt[(int)x[2]] = x[0]; x[1] = tt[1]; }
template void tk<double>(double*);
)";

TEST(SharedUsage, ReadsThreadLocalObjectsOfALibrary) {
  const std::string lib = build_library(kSource);
  ASSERT_FALSE(lib.empty());
  std::map<std::string, SharedObject> got;
  for (const SharedObject& o : shared_objects(lib)) got[o.function + "::" + o.name] = o;
  ASSERT_EQ(got.size(), 5u);  // not the emulator's own loom_emu_current
  EXPECT_EQ(got.at("kern::tile").size, 1024u);
  EXPECT_EQ(got.at("helper::h").size, 200u);
  EXPECT_EQ(got.at("tk::tt").size, 56u);
  EXPECT_EQ(got.at("::file_tile").size, 400u);
  EXPECT_EQ(got.at("::ns_tile").size, 24u);
}

TEST(SharedUsage, DamagedLibrariesGiveNothing) {
  const std::string lib = build_library(kSource);
  ASSERT_FALSE(lib.empty());
  EXPECT_TRUE(shared_objects("").empty());
  EXPECT_TRUE(shared_objects("\x7f" "ELF").empty());
  EXPECT_TRUE(shared_objects(std::string(4096, '\xff')).empty());
  for (size_t n = 0; n < lib.size(); n += 97) shared_objects(std::string_view(lib).substr(0, n));  // no crash
  std::string bad = lib;
  for (size_t i = 0x28; i < 0x40; ++i) bad[i] = '\xff';  // section header offset and counts
  EXPECT_TRUE(shared_objects(bad).empty());
}

TEST(SharedUsage, EachKernelCountsWhatItReaches) {
  Plan p;
  p.functions = {"a", "b", "helper", "unused"};
  PlannedKernel a, b;
  a.reaches = {"a", "helper", "g"};
  b.reaches = {"b"};
  const std::vector<SharedObject> objects = {
      {"a", "t", 100}, {"b", "t", 10}, {"helper", "h", 1000}, {"unused", "u", 5}, {"", "g", 20000},
      {"made_by_a_macro", "m", 7}};
  EXPECT_EQ(static_shared_bytes(objects, a, p), 100u + 1000 + 20000 + 7);
  EXPECT_EQ(static_shared_bytes(objects, b, p), 10u + 7);
}

}  // namespace
}  // namespace loom::cpu_emulator
