// The format and the trust rules are in compile_cache.h; every file loom writes follows the
// rules of docs/ARCHITECTURE.md §14.
#include "loom/cache/compile_cache.h"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "loom/cache/private_fs.h"

namespace loom {
namespace {

// ---- MurmurHash3 x64-128 (Austin Appleby's reference, public domain) ---------------

inline uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
inline uint64_t fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  k ^= k >> 33;
  return k;
}
inline uint64_t load64(const unsigned char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);  // unaligned-safe; the reference reads little-endian blocks
  return v;
}
constexpr uint64_t kC1 = 0x87c37b91114253d5ull, kC2 = 0x4cf5ad432745937full;

// ---- the file format ------------------------------------------------------------------

constexpr char kMagic[8] = {'L', 'O', 'O', 'M', 'C', 'C', '\r', '\n'};
// 2: the checksum covers the whole file (1: the payload only); older entries are misses.
constexpr uint32_t kFormatVersion = 2;
struct Header {
  char magic[8];
  uint32_t version;
  uint32_t reserved;
  uint64_t key_lo, key_hi;
  uint64_t length;
  uint64_t sum_lo, sum_hi;
};
static_assert(sizeof(Header) == 56, "the on-disk header has no padding");
constexpr size_t kSumOffset = offsetof(Header, sum_lo);

// The checksum of a whole entry file (`file`, its checksum field read as zeros), seeded by the
// entry's kind: a file moved to another kind's folder fails it too.
Hash128 entry_checksum(std::string_view kind, std::string& file) {
  char saved[16];
  std::memcpy(saved, file.data() + kSumOffset, 16);
  std::memset(file.data() + kSumOffset, 0, 16);
  const Hash128 sum = murmur3_128(file, static_cast<uint32_t>(murmur3_128(kind).lo));
  std::memcpy(file.data() + kSumOffset, saved, 16);
  return sum;
}

std::string parent_dir(const std::string& path) { return path.substr(0, path.rfind('/')); }
bool exists(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

int64_t elapsed_ns(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
      .count();
}

bool env_set(const char* name, const char** value = nullptr) {
  const char* v = std::getenv(name);
  if (value) *value = v;
  return v && *v;
}

std::atomic<CompileObserver> g_observer{nullptr};

int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Tells the observer, if one was set when the call began, how the call ended.
struct ObserveCall {
  std::string_view kind;
  CompileObserver observer = g_observer.load(std::memory_order_relaxed);
  int64_t start = observer ? steady_ns() : 0;
  CompileOutcome outcome = CompileOutcome::failed;
  ~ObserveCall() {
    if (observer) observer(kind, outcome, start, steady_ns());
  }
};

}  // namespace

void set_compile_observer(CompileObserver observer) { g_observer.store(observer, std::memory_order_relaxed); }

// ---- hashing ----------------------------------------------------------------------------

Hash128 murmur3_128(std::string_view data, uint32_t seed) {
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  const size_t len = data.size(), nblocks = len / 16;
  uint64_t h1 = seed, h2 = seed;
  for (size_t i = 0; i < nblocks; ++i) {
    uint64_t k1 = load64(p + 16 * i), k2 = load64(p + 16 * i + 8);
    k1 *= kC1; k1 = rotl64(k1, 31); k1 *= kC2; h1 ^= k1;
    h1 = rotl64(h1, 27); h1 += h2; h1 = h1 * 5 + 0x52dce729;
    k2 *= kC2; k2 = rotl64(k2, 33); k2 *= kC1; h2 ^= k2;
    h2 = rotl64(h2, 31); h2 += h1; h2 = h2 * 5 + 0x38495ab5;
  }
  const unsigned char* tail = p + 16 * nblocks;
  uint64_t k1 = 0, k2 = 0;
  const size_t rest = len & 15;
  for (size_t i = rest; i > 8; --i) k2 ^= static_cast<uint64_t>(tail[i - 1]) << (8 * (i - 9));
  if (rest > 8) { k2 *= kC2; k2 = rotl64(k2, 33); k2 *= kC1; h2 ^= k2; }
  for (size_t i = rest < 8 ? rest : 8; i > 0; --i) k1 ^= static_cast<uint64_t>(tail[i - 1]) << (8 * (i - 1));
  if (rest > 0) { k1 *= kC1; k1 = rotl64(k1, 31); k1 *= kC2; h1 ^= k1; }
  h1 ^= len; h2 ^= len;
  h1 += h2; h2 += h1;
  h1 = fmix64(h1); h2 = fmix64(h2);
  h1 += h2; h2 += h1;
  return {h1, h2};
}

std::string Hash128::hex() const {
  static const char* digits = "0123456789abcdef";
  std::string s(32, '0');
  for (int i = 0; i < 16; ++i) {
    s[15 - i] = digits[(hi >> (4 * i)) & 15];
    s[31 - i] = digits[(lo >> (4 * i)) & 15];
  }
  return s;
}

KeyBuilder& KeyBuilder::add(std::string_view bytes) {
  add(static_cast<int64_t>(bytes.size()));
  buf_.append(bytes.data(), bytes.size());
  return *this;
}
KeyBuilder& KeyBuilder::add(int64_t v) {
  buf_.append(reinterpret_cast<const char*>(&v), sizeof v);
  return *this;
}
KeyBuilder& KeyBuilder::add(const Hash128& h) {
  buf_.append(reinterpret_cast<const char*>(&h.lo), 8);
  buf_.append(reinterpret_cast<const char*>(&h.hi), 8);
  return *this;
}

PayloadWriter& PayloadWriter::u64(uint64_t v) {
  buf_.append(reinterpret_cast<const char*>(&v), sizeof v);
  return *this;
}
PayloadWriter& PayloadWriter::bytes(std::string_view s) {
  u64(s.size());
  buf_.append(s.data(), s.size());
  return *this;
}
bool PayloadReader::u64(uint64_t* v) {
  if (s_.size() - pos_ < 8) return false;
  std::memcpy(v, s_.data() + pos_, 8);
  pos_ += 8;
  return true;
}
bool PayloadReader::bytes(std::string* out) {
  uint64_t n = 0;
  if (!u64(&n) || s_.size() - pos_ < n) return false;
  out->assign(s_.data() + pos_, n);
  pos_ += n;
  return true;
}

// ---- the folder ---------------------------------------------------------------------------

std::string compile_cache_dir() {
  const char* v = nullptr;
  if (env_set("LOOM_DISABLE_DISK_CACHE", &v) && std::strcmp(v, "0") != 0) return "";
  if (env_set("LOOM_CACHE_DIR", &v)) return v;
  if (env_set("XDG_CACHE_HOME", &v)) return std::string(v) + "/loom";
  if (env_set("HOME", &v)) return std::string(v) + "/.cache/loom";
  // No HOME (daemons, some containers): the password database still names one.
  struct passwd pw, *found = nullptr;
  char buf[4096];
  if (::getpwuid_r(::getuid(), &pw, buf, sizeof buf, &found) == 0 && found && found->pw_dir &&
      *found->pw_dir)
    return std::string(found->pw_dir) + "/.cache/loom";
  return "";
}

// ---- the cache ------------------------------------------------------------------------------

CompileCache& CompileCache::global() {
  static auto* cache = new CompileCache(std::nullopt);  // never destroyed: used at exit too
  return *cache;
}

CompileCache::CompileCache(std::optional<std::string> dir) : fixed_dir_(std::move(dir)) {}

std::string CompileCache::dir() const { return fixed_dir_ ? *fixed_dir_ : compile_cache_dir(); }

std::string CompileCache::entry_path(std::string_view kind, const Hash128& key) const {
  std::string d = dir();
  if (d.empty()) return d;
  if (d.back() != '/') d += '/';
  return d.append(kind).append("/").append(key.hex());
}

std::shared_ptr<const std::string> CompileCache::get_or_compile(std::string_view kind,
                                                                const Hash128& key,
                                                                const Compile& compile,
                                                                const Validate& validate) {
  ObserveCall observe{kind};
  const Hash128 mem_key = KeyBuilder().add(kind).add(key).finish();
  std::shared_ptr<Entry> e;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto& slot = entries_[mem_key];
    if (!slot) slot = std::make_shared<Entry>();
    e = slot;
  }
  // Held across the compile: other callers of this key wait for it instead of compiling too.
  std::lock_guard<std::mutex> lock(e->mu);
  if (e->payload) {
    observe.outcome = CompileOutcome::memory_hit;
    memory_hits_.fetch_add(1, std::memory_order_relaxed);
    return e->payload;
  }
  const std::string path = entry_path(kind, key);
  bool may_store = !path.empty();
  if (!path.empty()) {
    const auto t0 = std::chrono::steady_clock::now();
    DiskRead r = load_from_disk(kind, path, key, validate);
    if (r.payload) {
      read_ns_.fetch_add(elapsed_ns(t0), std::memory_order_relaxed);
      disk_hits_.fetch_add(1, std::memory_order_relaxed);
      observe.outcome = CompileOutcome::disk_hit;
      return e->payload = std::move(r.payload);
    }
    may_store = r.may_store;
  }
  misses_.fetch_add(1, std::memory_order_relaxed);
  const auto t0 = std::chrono::steady_clock::now();
  std::string out;
  try {
    out = compile();
  } catch (...) {
    compile_ns_.fetch_add(elapsed_ns(t0), std::memory_order_relaxed);
    failed_.fetch_add(1, std::memory_order_relaxed);
    throw;
  }
  compile_ns_.fetch_add(elapsed_ns(t0), std::memory_order_relaxed);
  observe.outcome = CompileOutcome::miss;
  auto p = std::make_shared<const std::string>(std::move(out));
  if (may_store) store_to_disk(kind, path, key, *p);
  return e->payload = std::move(p);
}

CompileCache::DiskRead CompileCache::load_from_disk(std::string_view kind, const std::string& path,
                                                   const Hash128& key, const Validate& validate) {
  const std::string folder = parent_dir(path), root = parent_dir(folder);
  if (!exists(folder)) return {};  // a plain miss; store_to_disk creates the folders
  if (!cache_fs::trusted_dir(root) || !cache_fs::trusted_dir(folder)) {
    // Someone else could have planted this entry: compile in memory, write nothing there.
    foreign_.fetch_add(1, std::memory_order_relaxed);
    return {nullptr, false};
  }
  std::string file;
  struct stat st;
  switch (cache_fs::read_trusted_file(path, &file, &st)) {
    case cache_fs::ReadResult::kMissing:
      return {};
    case cache_fs::ReadResult::kForeign:
      if (cache_fs::owned_by_me(st)) break;  // ours but writable by others (or a link): damaged
      foreign_.fetch_add(1, std::memory_order_relaxed);
      return {nullptr, false};  // not ours: never read, never overwritten
    case cache_fs::ReadResult::kUnreadable:
      bad_.fetch_add(1, std::memory_order_relaxed);
      return {};  // the compile that follows replaces it
    case cache_fs::ReadResult::kOk: {
      Header h;
      if (file.size() < sizeof h) break;
      std::memcpy(&h, file.data(), sizeof h);
      const Hash128 sum = entry_checksum(kind, file);
      if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0 || h.version != kFormatVersion || h.key_lo != key.lo ||
          h.key_hi != key.hi || h.length != file.size() - sizeof h || sum.lo != h.sum_lo || sum.hi != h.sum_hi)
        break;
      file.erase(0, sizeof h);
      if (validate && !validate(file)) break;
      return {std::make_shared<const std::string>(std::move(file)), true};
    }
  }
  // Damaged: removed now (so that no other process trusts it either); the compile that
  // follows writes a fresh entry.
  bad_.fetch_add(1, std::memory_order_relaxed);
  ::unlink(path.c_str());
  return {};
}

bool CompileCache::store_to_disk(std::string_view kind, const std::string& path, const Hash128& key,
                                 const std::string& payload) {
  const std::string folder = parent_dir(path), root = parent_dir(folder);
  if (!cache_fs::make_private_dir(root) || !cache_fs::make_private_dir(folder)) {
    // Folders that exist but are not private are refused; ones that cannot be made are errors.
    const bool refused = (exists(root) && !cache_fs::trusted_dir(root)) ||
                         (exists(folder) && !cache_fs::trusted_dir(folder));
    (refused ? foreign_ : write_errors_).fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  Header h;
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kFormatVersion;
  h.reserved = 0;
  h.key_lo = key.lo;
  h.key_hi = key.hi;
  h.length = payload.size();
  h.sum_lo = h.sum_hi = 0;
  std::string file(reinterpret_cast<const char*>(&h), sizeof h);
  file += payload;
  const Hash128 sum = entry_checksum(kind, file);
  std::memcpy(file.data() + offsetof(Header, sum_lo), &sum.lo, 8);
  std::memcpy(file.data() + offsetof(Header, sum_hi), &sum.hi, 8);
  const bool ok = cache_fs::write_private_file(path, file);
  (ok ? writes_ : write_errors_).fetch_add(1, std::memory_order_relaxed);
  return ok;
}

CompileCacheStats CompileCache::stats() const {
  CompileCacheStats s;
  s.memory_hits = memory_hits_.load();
  s.disk_hits = disk_hits_.load();
  s.misses = misses_.load();
  s.failed_compiles = failed_.load();
  s.disk_writes = writes_.load();
  s.disk_write_errors = write_errors_.load();
  s.bad_entries = bad_.load();
  s.foreign = foreign_.load();
  s.compile_seconds = static_cast<double>(compile_ns_.load()) * 1e-9;
  s.disk_read_seconds = static_cast<double>(read_ns_.load()) * 1e-9;
  return s;
}

void CompileCache::reset_stats() {
  for (auto* c : {&memory_hits_, &disk_hits_, &misses_, &failed_, &writes_, &write_errors_, &bad_, &foreign_})
    c->store(0);
  compile_ns_.store(0);
  read_ns_.store(0);
}

void CompileCache::clear_memory() {
  std::lock_guard<std::mutex> lock(mu_);
  entries_.clear();
}

}  // namespace loom
