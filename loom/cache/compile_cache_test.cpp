// The compile cache on its own (no compiler involved): hashing, the file format, corrupt
// entries, atomic replacement, concurrency, memory-only fallbacks and the environment.
#include "loom/cache/compile_cache.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "loom/cache/test_util.h"

namespace loom {
namespace {

using testing_util::list_dir;
using testing_util::ScopedEnv;
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

const Hash128 kKey = KeyBuilder().add(std::string_view("a test key")).finish();

// A compile callback that counts its calls.
struct Counter {
  int calls = 0;
  std::string result = "compiled payload \x01\x02\x00\xff";
  CompileCache::Compile fn() {
    return [this] {
      ++calls;
      return result;
    };
  }
};

TEST(Hash128, MurmurHash3ReferenceVectors) {
  EXPECT_EQ(murmur3_128(""), (Hash128{0, 0}));
  EXPECT_EQ(murmur3_128("hello").lo, 0xcbd8a7b341bd9b02ull);
  EXPECT_EQ(murmur3_128("hello", 42), (Hash128{0xc4b8b3c960af6f08ull, 0x2334b875b0efbc7aull}));
  EXPECT_EQ(murmur3_128("The quick brown fox jumps over the lazy dog"),
            (Hash128{0xe34bbc7bbc071b6cull, 0x7a433ca9c49a9347ull}));
  EXPECT_EQ((Hash128{0x1, 0xabcdef}).hex(), "0000000000abcdef0000000000000001");
}

TEST(Hash128, EveryTailLengthAndEveryByteMatters) {
  std::vector<Hash128> seen;
  std::string s;
  for (int n = 0; n < 40; ++n) {
    const Hash128 h = murmur3_128(s);
    for (const auto& o : seen) EXPECT_NE(h, o) << "length " << n;
    seen.push_back(h);
    std::string flipped = s;
    for (size_t i = 0; i < flipped.size(); ++i) {
      flipped[i] ^= 1;
      EXPECT_NE(murmur3_128(flipped), h) << "length " << n << " byte " << i;
      flipped[i] ^= 1;
    }
    s += static_cast<char>('a' + n % 26);
  }
}

TEST(KeyBuilder, FieldsAreLengthPrefixedAndOrdered) {
  auto key = [](std::string_view a, std::string_view b) { return KeyBuilder().add(a).add(b).finish(); };
  EXPECT_EQ(key("ab", "c"), key("ab", "c"));
  EXPECT_NE(key("ab", "c"), key("a", "bc"));
  EXPECT_NE(key("ab", "c"), key("c", "ab"));
  EXPECT_NE(KeyBuilder().add(int64_t{1}).finish(), KeyBuilder().add(int64_t{2}).finish());
  EXPECT_NE(KeyBuilder().add(Hash128{1, 2}).finish(), KeyBuilder().add(Hash128{2, 1}).finish());
}

TEST(Payload, RoundTripAndTruncation) {
  PayloadWriter w;
  const std::string blob("x\0y", 3);
  const std::string bytes = w.u64(7).bytes(blob).bytes("").take();
  PayloadReader r(bytes);
  uint64_t v = 0;
  std::string a, b;
  ASSERT_TRUE(r.u64(&v) && r.bytes(&a) && r.bytes(&b));
  EXPECT_EQ(v, 7u);
  EXPECT_EQ(a, blob);
  EXPECT_EQ(b, "");
  EXPECT_TRUE(r.at_end());
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    PayloadReader t(std::string_view(bytes).substr(0, cut));
    EXPECT_FALSE(t.u64(&v) && t.bytes(&a) && t.bytes(&b) && t.at_end()) << cut;
  }
}

TEST(CompileCache, MemoryThenDiskThenCompile) {
  TempDir tmp;
  Counter c;
  CompileCache cache(tmp.path());
  EXPECT_EQ(*cache.get_or_compile("test", kKey, c.fn()), c.result);
  EXPECT_EQ(*cache.get_or_compile("test", kKey, c.fn()), c.result);
  EXPECT_EQ(c.calls, 1);
  CompileCacheStats s = cache.stats();
  EXPECT_EQ(s.misses, 1u);
  EXPECT_EQ(s.memory_hits, 1u);
  EXPECT_EQ(s.disk_writes, 1u);
  EXPECT_EQ(s.disk_hits, 0u);
  EXPECT_GE(s.compile_seconds, 0.0);
  // One file, named by the key, in the kind's folder: no temp file left behind.
  EXPECT_EQ(cache.entry_path("test", kKey), tmp.path() + "/test/" + kKey.hex());
  EXPECT_EQ(list_dir(tmp.path() + "/test"), std::vector<std::string>{kKey.hex()});

  // A second cache on the same folder stands for a fresh process: a disk hit, no compile.
  CompileCache fresh(tmp.path());
  EXPECT_EQ(*fresh.get_or_compile("test", kKey, c.fn()), c.result);
  EXPECT_EQ(c.calls, 1);
  EXPECT_EQ(fresh.stats().disk_hits, 1u);
  EXPECT_EQ(fresh.stats().misses, 0u);
  // clear_memory() makes the same instance go back to the disk.
  fresh.clear_memory();
  fresh.reset_stats();
  fresh.get_or_compile("test", kKey, c.fn());
  EXPECT_EQ(fresh.stats().disk_hits, 1u);
  EXPECT_EQ(c.calls, 1);
}

TEST(CompileCache, KindAndKeySeparateEntries) {
  TempDir tmp;
  CompileCache cache(tmp.path());
  const Hash128 other = KeyBuilder().add(std::string_view("another key")).finish();
  cache.get_or_compile("a", kKey, [] { return std::string("a/key"); });
  cache.get_or_compile("b", kKey, [] { return std::string("b/key"); });
  cache.get_or_compile("a", other, [] { return std::string("a/other"); });
  CompileCache fresh(tmp.path());
  auto fail = []() -> std::string { throw std::runtime_error("must be a hit"); };
  EXPECT_EQ(*fresh.get_or_compile("a", kKey, fail), "a/key");
  EXPECT_EQ(*fresh.get_or_compile("b", kKey, fail), "b/key");
  EXPECT_EQ(*fresh.get_or_compile("a", other, fail), "a/other");
}

TEST(CompileCache, EmptyPayloadRoundTrips) {
  TempDir tmp;
  CompileCache(tmp.path()).get_or_compile("t", kKey, [] { return std::string(); });
  CompileCache fresh(tmp.path());
  EXPECT_EQ(*fresh.get_or_compile("t", kKey, [] { return std::string("recompiled"); }), "");
  EXPECT_EQ(fresh.stats().disk_hits, 1u);
}

// Each damaged file is a miss (counted as a bad entry) and the recompiled result replaces it.
TEST(CompileCache, DamagedEntriesAreMissesAndReplaced) {
  TempDir tmp;
  Counter c;
  CompileCache(tmp.path()).get_or_compile("t", kKey, c.fn());
  const std::string path = CompileCache(tmp.path()).entry_path("t", kKey);
  const std::string good = read_file(path);
  ASSERT_EQ(good.size(), 56 + c.result.size());

  const Hash128 other = KeyBuilder().add(std::string_view("other")).finish();
  CompileCache(tmp.path()).get_or_compile("t", other, [] { return std::string("other payload"); });
  const std::string other_file = read_file(CompileCache(tmp.path()).entry_path("t", other));

  std::vector<std::pair<std::string, std::string>> damaged = {
      {"empty", ""},
      {"truncated header", good.substr(0, 20)},
      {"truncated payload", good.substr(0, good.size() - 1)},
      {"extra byte", good + "x"},
      {"entry of another key", other_file},
  };
  for (size_t at : {size_t{0}, size_t{7}, size_t{8}, size_t{16}, size_t{30}, size_t{40},
                    size_t{50}, size_t{56}, good.size() - 1}) {
    std::string b = good;
    b[at] ^= 0x20;  // magic, version, key, length, checksum, payload
    damaged.push_back({"byte " + std::to_string(at) + " flipped", b});
  }
  for (const auto& [what, bytes] : damaged) {
    write_file(path, bytes);
    CompileCache fresh(tmp.path());
    const int before = c.calls;
    EXPECT_EQ(*fresh.get_or_compile("t", kKey, c.fn()), c.result) << what;
    EXPECT_EQ(c.calls, before + 1) << what;
    EXPECT_EQ(fresh.stats().disk_hits, 0u) << what;
    EXPECT_EQ(fresh.stats().bad_entries, 1u) << what;
    EXPECT_EQ(read_file(path), good) << what << ": not replaced";
  }
}

TEST(CompileCache, ValidateRejectsUndecodablePayloads) {
  TempDir tmp;
  CompileCache(tmp.path()).get_or_compile("t", kKey, [] { return std::string("old format"); });
  CompileCache fresh(tmp.path());
  auto accept_new = [](std::string_view p) { return p == "new format"; };
  EXPECT_EQ(*fresh.get_or_compile("t", kKey, [] { return std::string("new format"); }, accept_new),
            "new format");
  EXPECT_EQ(fresh.stats().bad_entries, 1u);
  EXPECT_EQ(fresh.stats().misses, 1u);
  CompileCache again(tmp.path());
  again.get_or_compile("t", kKey, [] { return std::string("unused"); }, accept_new);
  EXPECT_EQ(again.stats().disk_hits, 1u);
}

TEST(CompileCache, FailedCompilesAreNotCached) {
  TempDir tmp;
  CompileCache cache(tmp.path());
  int calls = 0;
  auto failing = [&]() -> std::string {
    ++calls;
    throw std::runtime_error("compile error");
  };
  EXPECT_THROW(cache.get_or_compile("t", kKey, failing), std::runtime_error);
  EXPECT_THROW(cache.get_or_compile("t", kKey, failing), std::runtime_error);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(cache.stats().failed_compiles, 2u);
  EXPECT_TRUE(list_dir(tmp.path() + "/t").empty());
  EXPECT_EQ(*cache.get_or_compile("t", kKey, [] { return std::string("fixed"); }), "fixed");
  EXPECT_EQ(*CompileCache(tmp.path()).get_or_compile("t", kKey, failing), "fixed");
}

TEST(CompileCache, UnwritableFolderDegradesToMemory) {
  TempDir tmp;
  // A folder below a regular file can never be created (even by root, unlike chmod 000).
  write_file(tmp.path() + "/file", "x");
  CompileCache cache(tmp.path() + "/file/cache");
  Counter c;
  EXPECT_EQ(*cache.get_or_compile("t", kKey, c.fn()), c.result);
  EXPECT_EQ(*cache.get_or_compile("t", kKey, c.fn()), c.result);
  EXPECT_EQ(c.calls, 1);
  EXPECT_EQ(cache.stats().disk_write_errors, 1u);
  EXPECT_EQ(cache.stats().memory_hits, 1u);
}

TEST(CompileCache, MemoryOnlyCacheTouchesNoDisk) {
  CompileCache cache("");
  EXPECT_EQ(cache.dir(), "");
  EXPECT_EQ(cache.entry_path("t", kKey), "");
  Counter c;
  cache.get_or_compile("t", kKey, c.fn());
  cache.get_or_compile("t", kKey, c.fn());
  EXPECT_EQ(c.calls, 1);
  EXPECT_EQ(cache.stats().disk_writes + cache.stats().disk_write_errors, 0u);
}

TEST(CompileCache, ThreadsShareOneCompile) {
  TempDir tmp;
  CompileCache cache(tmp.path());
  std::atomic<int> calls{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 20; ++i) {
        const Hash128 k = KeyBuilder().add(int64_t{i}).finish();
        auto p = cache.get_or_compile("t", k, [&] {
          calls.fetch_add(1);
          std::this_thread::sleep_for(std::chrono::microseconds(200));
          return "payload " + std::to_string(i);
        });
        EXPECT_EQ(*p, "payload " + std::to_string(i));
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(calls.load(), 20);
  EXPECT_EQ(list_dir(tmp.path() + "/t").size(), 20u);
}

// Independent caches on one folder race to write the same entries, as processes do.
TEST(CompileCache, ConcurrentWritersNeverExposePartialFiles) {
  TempDir tmp;
  const std::string big(200000, 'z');
  std::vector<std::thread> threads;
  std::atomic<int> bad{0};
  for (int t = 0; t < 6; ++t)
    threads.emplace_back([&] {
      for (int round = 0; round < 10; ++round) {
        CompileCache own(tmp.path());  // fresh each round: reads and writes the disk
        auto p = own.get_or_compile("t", kKey, [&] { return big; });
        if (*p != big || own.stats().bad_entries != 0) bad.fetch_add(1);
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_EQ(list_dir(tmp.path() + "/t"), std::vector<std::string>{kKey.hex()});
}

TEST(CompileCache, ConcurrentProcesses) {
  TempDir tmp;
  std::vector<pid_t> children;
  for (int c = 0; c < 3; ++c) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int failures = 0;
      for (int i = 0; i < 30; ++i) {
        CompileCache own(tmp.path());
        const Hash128 k = KeyBuilder().add(int64_t{i % 10}).finish();
        auto p = own.get_or_compile("p", k, [&] { return std::string(10000 + i % 10, 'a' + i % 10); });
        if (*p != std::string(10000 + i % 10, 'a' + i % 10) || own.stats().bad_entries) ++failures;
      }
      ::_exit(failures == 0 ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  EXPECT_EQ(list_dir(tmp.path() + "/p").size(), 10u);
}

TEST(CompileCacheDir, FollowsTheEnvironment) {
  ScopedEnv disable("LOOM_DISABLE_DISK_CACHE", nullptr);
  {
    ScopedEnv dir("LOOM_CACHE_DIR", "/some/where");
    EXPECT_EQ(compile_cache_dir(), "/some/where");
    EXPECT_EQ(CompileCache(std::nullopt).dir(), "/some/where");
  }
  ScopedEnv empty_dir("LOOM_CACHE_DIR", "");  // empty counts as unset
  {
    ScopedEnv xdg("XDG_CACHE_HOME", "/xdg");
    EXPECT_EQ(compile_cache_dir(), "/xdg/loom");
  }
  ScopedEnv xdg("XDG_CACHE_HOME", nullptr);
  {
    ScopedEnv home("HOME", "/home/someone");
    EXPECT_EQ(compile_cache_dir(), "/home/someone/.cache/loom");
  }
  for (const char* off : {"1", "yes"}) {
    ScopedEnv d("LOOM_DISABLE_DISK_CACHE", off);
    ScopedEnv dir("LOOM_CACHE_DIR", "/some/where");
    EXPECT_EQ(compile_cache_dir(), "") << off;
  }
  ScopedEnv zero("LOOM_DISABLE_DISK_CACHE", "0");
  ScopedEnv dir("LOOM_CACHE_DIR", "/some/where");
  EXPECT_EQ(compile_cache_dir(), "/some/where");
}

TEST(CompileCacheDir, GlobalCacheWritesWhereTheEnvironmentSaysAtEachMiss) {
  TempDir a, b;
  CompileCache cache(std::nullopt);
  {
    ScopedEnv dir("LOOM_CACHE_DIR", a.path().c_str());
    cache.get_or_compile("t", kKey, [] { return std::string("x"); });
  }
  {
    ScopedEnv dir("LOOM_CACHE_DIR", b.path().c_str());
    cache.get_or_compile("t", Hash128{1, 2}, [] { return std::string("y"); });
  }
  EXPECT_EQ(list_dir(a.path() + "/t"), std::vector<std::string>{kKey.hex()});
  EXPECT_EQ(list_dir(b.path() + "/t"), std::vector<std::string>{(Hash128{1, 2}).hex()});
}

}  // namespace
}  // namespace loom
