// The compile cache against a careless or hostile neighbour: the checksum covers the whole
// entry (an entry copied under another key and patched never loads), folders are created
// owner-only, and entries or folders that are not this user's or that others can write are
// never read (each case still returns the freshly compiled payload).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "loom/cache/compile_cache.h"
#include "loom/cache/test_util.h"

namespace loom {
namespace {

using testing_util::TempDir;

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}
mode_t mode_of(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 ? st.st_mode & 07777 : 0;
}

const Hash128 kKeyA = KeyBuilder().add(std::string_view("key a")).finish();
const Hash128 kKeyB = KeyBuilder().add(std::string_view("key b")).finish();
auto compiles(std::string s) {
  return [s] { return s; };
}

// The first process's entry of kKeyA, "planted" payload; its path.
std::string plant(const TempDir& tmp, const Hash128& key = kKeyA) {
  CompileCache(tmp.path()).get_or_compile("t", key, compiles("planted"));
  return CompileCache(tmp.path()).entry_path("t", key);
}

// What a fresh process gets for kKeyA when it would compile "fresh".
std::string fresh_result(const TempDir& tmp, CompileCacheStats* stats = nullptr) {
  CompileCache c(tmp.path());
  const std::string r = *c.get_or_compile("t", kKeyA, compiles("fresh"));
  if (stats) *stats = c.stats();
  return r;
}

TEST(CompileCacheTrust, FoldersAndEntriesAreOwnerOnly) {
  TempDir tmp;
  const mode_t old = ::umask(0);  // even a permissive umask gives private files
  const std::string root = tmp.path() + "/a/b";
  CompileCache(root).get_or_compile("t", kKeyA, compiles("x"));
  ::umask(old);
  EXPECT_EQ(mode_of(tmp.path() + "/a"), 0700u);
  EXPECT_EQ(mode_of(root), 0700u);
  EXPECT_EQ(mode_of(root + "/t"), 0700u);
  EXPECT_EQ(mode_of(CompileCache(root).entry_path("t", kKeyA)), 0600u);
  EXPECT_EQ(*CompileCache(root).get_or_compile("t", kKeyA, compiles("y")), "x");
}

// An entry copied under another key with its key field patched: the old format's payload
// checksum still matched, so another kernel's code would have run.
TEST(CompileCacheTrust, EntryCopiedUnderAnotherKeyNeverLoads) {
  TempDir tmp;
  const std::string a = plant(tmp, kKeyB);
  std::string bytes = read_file(a);
  ASSERT_GE(bytes.size(), 56u);
  std::memcpy(bytes.data() + 16, &kKeyA.lo, 8);
  std::memcpy(bytes.data() + 24, &kKeyA.hi, 8);
  const std::string target = CompileCache(tmp.path()).entry_path("t", kKeyA);
  write_file(target, bytes);
  ::chmod(target.c_str(), 0600);
  CompileCacheStats s;
  EXPECT_EQ(fresh_result(tmp, &s), "fresh");
  EXPECT_EQ(s.bad_entries, 1u);
  EXPECT_EQ(s.disk_hits, 0u);
  // Copied unpatched: its stored key is not the key asked for.
  write_file(target, read_file(a));
  EXPECT_EQ(fresh_result(tmp, &s), "fresh");
  EXPECT_EQ(s.bad_entries, 1u);
  // Moved to another kind's folder under the same key: the checksum is seeded by the kind.
  ASSERT_EQ(::mkdir((tmp.path() + "/u").c_str(), 0700), 0);
  const std::string moved = CompileCache(tmp.path()).entry_path("u", kKeyB);
  write_file(moved, read_file(a));
  ::chmod(moved.c_str(), 0600);
  CompileCache c(tmp.path());
  EXPECT_EQ(*c.get_or_compile("u", kKeyB, compiles("fresh u")), "fresh u");
  EXPECT_EQ(c.stats().bad_entries, 1u);
}

// Every byte counts, the reserved header field included; a damaged entry is removed and
// replaced by the fresh one; truncations anywhere are misses.
TEST(CompileCacheTrust, EveryByteAndEveryLengthIsChecked) {
  TempDir tmp;
  const std::string path = plant(tmp);
  const std::string good = read_file(path);
  for (size_t at = 0; at < good.size(); ++at) {
    std::string b = good;
    b[at] ^= 0x01;
    write_file(path, b);
    CompileCacheStats s;
    ASSERT_EQ(fresh_result(tmp, &s), "fresh") << "byte " << at;
    ASSERT_EQ(s.bad_entries, 1u) << "byte " << at;
    ASSERT_EQ(mode_of(path), 0600u);
    write_file(path, good);
  }
  for (size_t n = 0; n < good.size(); ++n) {
    write_file(path, good.substr(0, n));
    ASSERT_EQ(fresh_result(tmp), "fresh") << "length " << n;
    write_file(path, good);
  }
}

TEST(CompileCacheTrust, EntriesOthersCanWriteAreReplaced) {
  for (mode_t extra : {S_IWGRP, S_IWOTH}) {
    TempDir tmp;
    const std::string path = plant(tmp);
    ASSERT_EQ(::chmod(path.c_str(), 0600 | extra), 0);
    CompileCacheStats s;
    EXPECT_EQ(fresh_result(tmp, &s), "fresh");  // valid, but never read
    EXPECT_EQ(s.bad_entries, 1u);
    EXPECT_EQ(mode_of(path), 0600u);  // rewritten owner-only
    EXPECT_EQ(fresh_result(tmp, &s), "fresh");
    EXPECT_EQ(s.disk_hits, 1u);
  }
}

TEST(CompileCacheTrust, SymbolicLinksAreNotFollowed) {
  TempDir tmp;
  const std::string path = plant(tmp), elsewhere = tmp.path() + "/elsewhere";
  ASSERT_EQ(::rename(path.c_str(), elsewhere.c_str()), 0);
  ASSERT_EQ(::symlink(elsewhere.c_str(), path.c_str()), 0);
  EXPECT_EQ(fresh_result(tmp), "fresh");
  EXPECT_EQ(read_file(elsewhere).size(), 56u + 7);  // the link's target is untouched
}

// A folder others can write may hold anything: nothing in it is read, nothing written.
TEST(CompileCacheTrust, FoldersOthersCanWriteAreRefused) {
  for (const char* which : {"root", "kind"}) {
    for (mode_t extra : {S_IWGRP, S_IWOTH}) {
      TempDir tmp;
      const std::string path = plant(tmp);
      const std::string dir = std::string(which) == "root" ? tmp.path() : tmp.path() + "/t";
      ASSERT_EQ(::chmod(dir.c_str(), 0700 | extra), 0);
      CompileCacheStats s;
      EXPECT_EQ(fresh_result(tmp, &s), "fresh") << which;
      EXPECT_GE(s.foreign, 1u) << which;
      EXPECT_EQ(s.disk_writes, 0u) << which;
      EXPECT_EQ(read_file(path).size(), 56u + 7) << which << ": the refused entry is left alone";
      CompileCache c(tmp.path());
      c.get_or_compile("t", kKeyB, compiles("b"));
      EXPECT_EQ(c.stats().disk_writes, 0u) << which << ": nothing new is written there";
      EXPECT_EQ(c.stats().foreign, 1u) << which;
    }
  }
}

// Files and folders of another user (root may chown; others skip).
TEST(CompileCacheTrust, OtherUsersFilesAreNeverReadNorOverwritten) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to give a file to another user";
  TempDir tmp;
  const std::string path = plant(tmp);
  const std::string good = read_file(path);
  ASSERT_EQ(::chown(path.c_str(), 65534, 65534), 0);
  CompileCacheStats s;
  EXPECT_EQ(fresh_result(tmp, &s), "fresh");
  EXPECT_EQ(s.foreign, 1u);
  EXPECT_EQ(s.disk_writes, 0u);
  EXPECT_EQ(read_file(path), good);  // not overwritten
  ASSERT_EQ(::chown(path.c_str(), 0, 0), 0);
  ASSERT_EQ(::chown((tmp.path() + "/t").c_str(), 65534, 65534), 0);
  EXPECT_EQ(fresh_result(tmp, &s), "fresh");
  EXPECT_EQ(s.foreign, 1u);
  EXPECT_EQ(s.disk_writes, 0u);
}

}  // namespace
}  // namespace loom
