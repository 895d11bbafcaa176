// The one compile cache (DESIGN.md §3): every run-time compiled artefact (NVRTC images of
// built-in ops and user kernels, host-compiled emulator libraries, ...) is looked up here by
// a 128-bit hash of everything that decides it, first in memory, then on disk under
// compile_cache_dir(), and compiled only when neither has it.
//
// On disk: <dir>/<kind>/<32 hex digits of the key>, one file per entry:
//   "LOOMCC\r\n" (8) | format version u32 | reserved u32 | key (16) | payload length u64 |
//   checksum (16) | payload
// in native byte order. The checksum (MurmurHash3 x64-128, seeded by the kind) covers the
// whole file, header and key included (its own field read as zeros): an entry copied under
// another name, or patched anywhere, fails it; and an entry whose stored key is not the key
// asked for is a miss. A file is written to a unique temp file in the same folder and
// renamed into place, so readers see a whole entry or none, and concurrent writers (threads
// or processes) just replace each other's identical entry. Anything unreadable, truncated,
// corrupt or written by another format/key is a miss: the file is removed and the fresh
// result replaces it. A folder that cannot be created or written leaves the cache
// memory-only: the op that asked still gets its result. Failed compiles (the callback
// throws) are never cached.
//
// Trust (private_fs.h): loom creates the folder and its subfolders owner-only (0700) and its
// entries 0600. A folder (the cache's own or a kind's) that is not this user's or that group
// or others can write, and an entry that is not this user's regular file, is never read
// (a planted file would run as loom's code): the entry is compiled in memory and nothing is
// written there (a foreign file is never overwritten). An entry of this user that others can
// write is treated as damaged: removed, recompiled, rewritten owner-only. Each refusal counts
// in CompileCacheStats::foreign.
//
// Environment (read at each disk access, so tests can point it elsewhere at any time):
//   LOOM_CACHE_DIR           the folder (an empty value counts as unset)
//   XDG_CACHE_HOME           else $XDG_CACHE_HOME/loom
//   HOME                     else ~/.cache/loom
//   LOOM_DISABLE_DISK_CACHE  "1" (any value but "" and "0") keeps the cache in memory only
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace loom {

/// A 128-bit hash (MurmurHash3 x64-128).
struct Hash128 {
  uint64_t lo = 0, hi = 0;
  /// 32 lower-case hex digits, `hi` first.
  std::string hex() const;
  friend bool operator==(const Hash128& a, const Hash128& b) { return a.lo == b.lo && a.hi == b.hi; }
  friend bool operator!=(const Hash128& a, const Hash128& b) { return !(a == b); }
};

/// For unordered containers keyed by Hash128.
struct Hash128Hash {
  size_t operator()(const Hash128& h) const { return static_cast<size_t>(h.lo ^ (h.hi * 31)); }
};

/// MurmurHash3_x64_128 of `data` (the reference algorithm, so known test vectors apply).
Hash128 murmur3_128(std::string_view data, uint32_t seed = 0);

/// Builds a key from several inputs. Every field is length-prefixed, so ("ab", "c") and
/// ("a", "bc") differ. Fields are buffered and hashed once by finish(); hash a large input
/// that many keys share (embedded headers) once per process and add its Hash128 instead.
class KeyBuilder {
 public:
  KeyBuilder& add(std::string_view bytes);
  KeyBuilder& add(int64_t v);
  KeyBuilder& add(const Hash128& h);
  Hash128 finish() const { return murmur3_128(buf_); }

 private:
  std::string buf_;
};

/// Length-prefixed fields for cache payloads (native byte order, like the file header).
class PayloadWriter {
 public:
  PayloadWriter& u64(uint64_t v);
  PayloadWriter& bytes(std::string_view s);
  std::string take() { return std::move(buf_); }

 private:
  std::string buf_;
};
/// Reads what PayloadWriter wrote; every read returns false once the payload runs short.
class PayloadReader {
 public:
  explicit PayloadReader(std::string_view s) : s_(s) {}
  bool u64(uint64_t* v);
  bool bytes(std::string* out);
  bool at_end() const { return pos_ == s_.size(); }

 private:
  std::string_view s_;
  size_t pos_ = 0;
};

struct CompileCacheStats {
  uint64_t memory_hits = 0;        // found in this process's memory
  uint64_t disk_hits = 0;          // read back from a valid disk entry
  uint64_t misses = 0;             // found nowhere: compiled
  uint64_t failed_compiles = 0;    // the compile callback threw (nothing cached)
  uint64_t disk_writes = 0;        // entries written to disk
  uint64_t disk_write_errors = 0;  // entries that could not be written (memory only)
  uint64_t bad_entries = 0;        // unreadable/corrupt/mismatched files treated as misses
  uint64_t foreign = 0;            // entries or folders refused as not this user's (see above)
  double compile_seconds = 0;      // total time inside compile callbacks
  double disk_read_seconds = 0;    // total time reading and checking disk hits
};

/// The folder the disk cache uses now, from the environment (see above); "" when the disk
/// cache is disabled or no folder can be named (no HOME).
std::string compile_cache_dir();

/// What a get_or_compile call found, as an observer sees it.
enum class CompileOutcome : uint8_t { memory_hit, disk_hit, miss, failed };
/// Told of every get_or_compile of any CompileCache, on the calling thread, with its
/// steady_clock span in nanoseconds since the clock's epoch: the profiler
/// (runtime/profiler.cpp), which sits above this layer, registers one while it records.
using CompileObserver = void (*)(std::string_view kind, CompileOutcome outcome, int64_t start_ns, int64_t end_ns);
/// Replaces the observer (nullptr: none). Costs get_or_compile one relaxed load while none is set.
void set_compile_observer(CompileObserver observer);

class CompileCache {
 public:
  /// The process-wide cache; its folder follows compile_cache_dir() at each disk access.
  static CompileCache& global();
  /// A cache on a fixed folder ("" = memory only), for tests and tools; nullopt follows
  /// the environment like global().
  explicit CompileCache(std::optional<std::string> dir);
  CompileCache(const CompileCache&) = delete;
  CompileCache& operator=(const CompileCache&) = delete;

  using Compile = std::function<std::string()>;
  using Validate = std::function<bool(std::string_view payload)>;
  /// The payload stored under (kind, key): from memory, else from disk, else `compile()`,
  /// whose result is kept in memory and written to disk. `kind` names a subfolder
  /// ("nvrtc", "host") and takes part in the key. Concurrent callers of one key wait for a
  /// single compile. If `compile` throws, the exception propagates and nothing is stored
  /// (the next call compiles again). `validate`, when given, rejects a disk payload that
  /// the caller cannot decode (it then counts as a bad entry and is recompiled).
  std::shared_ptr<const std::string> get_or_compile(std::string_view kind, const Hash128& key,
                                                    const Compile& compile,
                                                    const Validate& validate = nullptr);

  /// The folder this cache writes to now ("" = memory only).
  std::string dir() const;
  /// The file an entry lives in (whether or not it exists); "" when memory only.
  std::string entry_path(std::string_view kind, const Hash128& key) const;
  CompileCacheStats stats() const;
  void reset_stats();
  /// Forgets the in-memory entries (the disk stays): the next lookups behave as in a
  /// fresh process.
  void clear_memory();

 private:
  struct Entry {
    std::mutex mu;
    std::shared_ptr<const std::string> payload;  // null until a compile succeeded
  };
  struct DiskRead {
    std::shared_ptr<const std::string> payload;  // null: a miss
    bool may_store = true;                       // false: a foreign file or folder, left alone
  };
  DiskRead load_from_disk(std::string_view kind, const std::string& path, const Hash128& key,
                          const Validate& validate);
  bool store_to_disk(std::string_view kind, const std::string& path, const Hash128& key,
                     const std::string& payload);

  std::optional<std::string> fixed_dir_;  // nullopt: follow the environment
  mutable std::mutex mu_;
  std::unordered_map<Hash128, std::shared_ptr<Entry>, Hash128Hash> entries_;
  std::atomic<uint64_t> memory_hits_{0}, disk_hits_{0}, misses_{0}, failed_{0}, writes_{0},
      write_errors_{0}, bad_{0}, foreign_{0};
  std::atomic<int64_t> compile_ns_{0}, read_ns_{0};
};

}  // namespace loom
