// Run-time autotuning of block shapes (see autotune.h). The search is split from the
// timing: detail::choose_block owns the memo, the disk entry and the selection and takes a
// timing function, so all of it is tested without a GPU; choose_block adds event timing.
#include "loom/kernel/autotune.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <unordered_map>

#include "loom/kernel/kernel_backend.h"

namespace loom::autotune {
namespace {

constexpr const char* kKind = "autotune";    // the compile cache's subfolder
constexpr uint64_t kPayloadVersion = 1;      // bump when the payload layout changes
constexpr unsigned kMaxDim[3] = {1024, 1024, 64};  // CUDA's per-dimension block limits
constexpr unsigned kMaxThreads = 1024;
// Each candidate: one untimed warm-up launch, then kBatches batches of kPerBatch
// back-to-back launches between two events; the best batch's time per launch counts.
// Batches average out event resolution (~0.5 us) on tiny kernels; the best of two
// drops a batch that another stream or the host slowed down.
constexpr int kBatches = 2, kPerBatch = 3;

uint64_t pow2_at_or_above(uint64_t e) {
  uint64_t p = 1;
  while (p < e) p <<= 1;
  return p;
}

// The memo of this process: one Record per (kernel, size class, device identity) key.
struct State {
  std::mutex mu;
  struct KeyHash {
    size_t operator()(const Hash128& h) const { return static_cast<size_t>(h.lo ^ (h.hi * 31)); }
  };
  std::unordered_map<Hash128, size_t, KeyHash> index;  // key -> records[i]
  std::vector<Record> records;
};
State& state() {
  static State* s = new State;  // never destroyed: launches may outlive static destructors
  return *s;
}

bool fits(const Dim3& b, int max_threads) { return max_threads <= 0 || b.count() <= uint64_t(max_threads); }

// The remembered block, unless it does not fit `max_threads` (an entry known() loaded
// before the kernel's limit was at hand). Names a record known() made without a name.
std::optional<Dim3> memo_find(const Hash128& key, const std::string& name = "", int max_threads = 0) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  auto it = s.index.find(key);
  if (it == s.index.end()) return std::nullopt;
  Record& r = s.records[it->second];
  if (!fits(r.block, max_threads)) return std::nullopt;
  if (r.kernel.empty()) r.kernel = name;
  return r.block;
}

// Keeps the first record of a key when two threads raced to it, so every caller launches
// with the same block; replaces one that does not fit `max_threads`.
Dim3 memo_insert(const Hash128& key, Record rec, int max_threads = 0) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  auto [it, fresh] = s.index.emplace(key, s.records.size());
  if (fresh) {
    s.records.push_back(std::move(rec));
  } else if (!fits(s.records[it->second].block, max_threads)) {
    s.records[it->second] = std::move(rec);
  }
  return s.records[it->second].block;
}

Hash128 entry_key(const Hash128& kernel_key, const std::string& size_class, const std::string& identity) {
  return KeyBuilder().add("loom autotune v1").add(kernel_key).add(size_class).add(identity).finish();
}

struct Choice {
  Dim3 block;
  double best_ms = 0;
  int candidates = 0;
};

std::string encode(const Choice& c) {
  uint64_t ms_bits;
  std::memcpy(&ms_bits, &c.best_ms, sizeof ms_bits);
  PayloadWriter w;
  w.u64(kPayloadVersion).u64(c.block.x).u64(c.block.y).u64(c.block.z).u64(ms_bits).u64(
      static_cast<uint64_t>(c.candidates));
  return w.take();
}

// nullopt for anything this version did not write or a block `max_threads` cannot run.
std::optional<Choice> decode(std::string_view payload, int max_threads) {
  PayloadReader r(payload);
  uint64_t version, x, y, z, ms_bits, count;
  if (!r.u64(&version) || !r.u64(&x) || !r.u64(&y) || !r.u64(&z) || !r.u64(&ms_bits) || !r.u64(&count) ||
      !r.at_end() || version != kPayloadVersion) {
    return std::nullopt;
  }
  Choice c;
  std::memcpy(&c.best_ms, &ms_bits, sizeof ms_bits);
  const uint64_t limit = max_threads > 0 ? std::min<uint64_t>(max_threads, kMaxThreads) : kMaxThreads;
  if (x < 1 || y < 1 || z < 1 || x > kMaxDim[0] || y > kMaxDim[1] || z > kMaxDim[2] || x * y * z > limit ||
      !std::isfinite(c.best_ms) || c.best_ms < 0 || count < 1 || count > 1024) {
    return std::nullopt;
  }
  c.block = Dim3(static_cast<unsigned>(x), static_cast<unsigned>(y), static_cast<unsigned>(z));
  c.candidates = static_cast<int>(count);
  return c;
}

// Times every candidate; the fastest wins (ties: the earlier, i.e. the more conventional).
Choice search(const std::string& name, Dim3 extent, int max_threads, const detail::TimeFn& time) {
  Choice best;
  best.best_ms = std::numeric_limits<double>::infinity();
  std::exception_ptr first_error;
  for (const Dim3& b : candidate_blocks(extent, max_threads)) {
    double ms;
    try {
      ms = time(b);
    } catch (const detail::Abort& a) {
      if (a.error) std::rethrow_exception(a.error);
      throw std::runtime_error("[autotune " + name + "] timing was aborted");
    } catch (...) {
      // A block this kernel cannot run (registers, shared memory): try the others.
      if (!first_error) first_error = std::current_exception();
      continue;
    }
    if (!std::isfinite(ms) || ms < 0) continue;
    ++best.candidates;
    if (ms < best.best_ms) {
      best.best_ms = ms;
      best.block = b;
    }
  }
  if (best.candidates == 0) {
    if (first_error) std::rethrow_exception(first_error);
    throw std::runtime_error("[autotune " + name + "] no candidate block could be timed");
  }
  return best;
}

// Thrown by known()'s compile callback: "not on disk", never stored (failed compiles are not).
struct NotCached {};

// Event timing of one candidate on the caller's stream. Errors of the launch itself skip
// the candidate; errors of the events (a failed device) abort the search.
class EventTimer {
 public:
  EventTimer(const Device& d, const Stream& s, const std::function<void(Dim3)>& run)
      : device_(d), stream_(s), run_(run) {}

  double time(Dim3 b) {
    run_(b);  // warm-up (module load, caches); a block the kernel cannot run throws here
    guarded([&] {
      if (events_.empty()) {  // created on the first timing only: memo hits pay nothing
        for (int i = 0; i < 2 * kBatches; ++i) events_.emplace_back(device_, true);
      }
    });
    for (int i = 0; i < kBatches; ++i) {
      guarded([&] { events_[2 * i].record(stream_); });
      for (int j = 0; j < kPerBatch; ++j) run_(b);
      guarded([&] { events_[2 * i + 1].record(stream_); });
    }
    double best = std::numeric_limits<double>::infinity();
    guarded([&] {
      events_.back().synchronize();
      for (int i = 0; i < kBatches; ++i) {
        best = std::min(best, static_cast<double>(events_[2 * i].elapsed_time(events_[2 * i + 1])) / kPerBatch);
      }
    });
    return best;
  }

 private:
  template <class F>
  static void guarded(F&& f) {
    try {
      f();
    } catch (...) {
      throw detail::Abort{std::current_exception()};
    }
  }
  Device device_;
  const Stream& stream_;
  const std::function<void(Dim3)>& run_;
  std::vector<Event> events_;
};

}  // namespace

std::string size_class(Dim3 extent) {
  return std::to_string(pow2_at_or_above(extent.x)) + "x" + std::to_string(pow2_at_or_above(extent.y)) + "x" +
         std::to_string(pow2_at_or_above(extent.z));
}

std::vector<Dim3> candidate_blocks(Dim3 extent, int max_threads) {
  static const std::vector<Dim3> k1d = {{64}, {128}, {256}, {512}, {1024}};
  // Wide in x (coalesced rows), a few taller shapes for column-heavy access.
  static const std::vector<Dim3> k2d = {{32, 4}, {32, 8}, {16, 16}, {32, 16}, {64, 4},
                                        {32, 32}, {128, 2}, {64, 8}, {256, 1}};
  static const std::vector<Dim3> k3d = {{8, 8, 4}, {16, 8, 4}, {32, 4, 2}, {8, 8, 8},
                                        {32, 8, 4}, {32, 4, 4}, {16, 16, 2}, {64, 4, 2}};
  const bool is3 = extent.z > 1, is2 = !is3 && extent.y > 1;
  const uint64_t max_t = max_threads > 0 ? std::min<uint64_t>(max_threads, kMaxThreads) : kMaxThreads;
  // No dimension beyond the power of two covering its extent, except that x keeps a warp.
  const unsigned lim[3] = {
      static_cast<unsigned>(std::min<uint64_t>(kMaxDim[0], std::max<uint64_t>(32, pow2_at_or_above(extent.x)))),
      static_cast<unsigned>(std::min<uint64_t>(kMaxDim[1], pow2_at_or_above(extent.y))),
      static_cast<unsigned>(std::min<uint64_t>(kMaxDim[2], pow2_at_or_above(extent.z)))};
  std::vector<Dim3> out;
  for (Dim3 s : is3 ? k3d : is2 ? k2d : k1d) {
    s.x = std::min(s.x, lim[0]);
    s.y = std::min(s.y, lim[1]);
    s.z = std::min(s.z, lim[2]);
    // Too many threads for this kernel: halve z, then y, keeping x a whole warp longest.
    while (s.count() > max_t) {
      if (s.z > 1 && s.z >= s.y) {
        s.z /= 2;
      } else if (s.y > 1 && (s.y >= s.x || s.x <= 32)) {
        s.y /= 2;
      } else if (s.x > 1) {
        s.x /= 2;
      } else {
        break;
      }
    }
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
  // Blocks under two warps leave most of an SM idle: drop them when larger ones exist.
  if (std::any_of(out.begin(), out.end(), [](const Dim3& b) { return b.count() >= 64; })) {
    out.erase(std::remove_if(out.begin(), out.end(), [](const Dim3& b) { return b.count() < 64; }), out.end());
  }
  return out;
}

namespace detail {

DeviceId device_id(const Device& device) {
  static std::mutex mu;
  static auto* known_ids = new std::map<std::pair<int, int>, DeviceId>;  // (type, index)
  const std::pair<int, int> k{static_cast<int>(device.type), device.index};
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = known_ids->find(k);
    if (it != known_ids->end()) return it->second;
  }
  DeviceId id;
  kernel_backend(device).tuning_names(device, id.identity, id.label);
  std::lock_guard<std::mutex> lock(mu);
  return known_ids->emplace(k, id).first->second;
}

Dim3 choose_block(CompileCache& cache, const Hash128& kernel_key, const std::string& kernel_name, Dim3 extent,
                  const DeviceId& device, int max_threads, const TimeFn& time) {
  Record rec;
  rec.size_class = size_class(extent);
  const Hash128 key = entry_key(kernel_key, rec.size_class, device.identity);
  if (auto b = memo_find(key, kernel_name, max_threads)) return *b;
  rec.kernel = kernel_name;
  rec.device = device.label;
  bool timed = false;
  auto payload = cache.get_or_compile(
      kKind, key,
      [&] {
        timed = true;
        return encode(search(kernel_name, extent, max_threads, time));
      },
      [&](std::string_view p) { return decode(p, max_threads).has_value(); });
  std::optional<Choice> c = decode(*payload, max_threads);
  if (!c) {
    // Only when an entry loaded for a larger max_threads (known()) does not fit this
    // kernel's limit: time again, without replacing what the cache holds.
    c = search(kernel_name, extent, max_threads, time);
    timed = true;
  }
  rec.block = c->block;
  rec.best_ms = c->best_ms;
  rec.candidates = c->candidates;
  rec.from_disk = !timed;
  return memo_insert(key, std::move(rec), max_threads);
}

bool known(CompileCache& cache, const Hash128& kernel_key, Dim3 extent, const DeviceId& device) {
  Record rec;
  rec.size_class = size_class(extent);
  const Hash128 key = entry_key(kernel_key, rec.size_class, device.identity);
  if (memo_find(key)) return true;
  // Look on disk only when the file is there: a plain miss must not count as a failed
  // compile in the cache's statistics.
  const std::string path = cache.entry_path(kKind, key);
  if (path.empty() || ::access(path.c_str(), R_OK) != 0) return false;
  std::shared_ptr<const std::string> payload;
  try {
    payload = cache.get_or_compile(
        kKind, key, []() -> std::string { throw NotCached{}; },
        [](std::string_view p) { return decode(p, 0).has_value(); });
  } catch (const NotCached&) {
    return false;
  }
  const std::optional<Choice> c = decode(*payload, 0);
  if (!c) return false;
  rec.device = device.label;
  rec.block = c->block;
  rec.best_ms = c->best_ms;
  rec.candidates = c->candidates;
  rec.from_disk = true;
  // The record has no kernel name here: the key is all known() is given.
  memo_insert(key, std::move(rec));
  return true;
}

}  // namespace detail

Dim3 choose_block(const Hash128& kernel_key, const std::string& kernel_name, Dim3 extent, const Device& device,
                  const Stream& stream, int max_threads, const std::function<void(Dim3)>& run) {
  const detail::DeviceId id = detail::device_id(device);
  EventTimer timer(device, stream, run);
  return detail::choose_block(CompileCache::global(), kernel_key, kernel_name, extent, id, max_threads,
                              [&](Dim3 b) { return timer.time(b); });
}

bool known(const Hash128& kernel_key, Dim3 extent, const Device& device) {
  return detail::known(CompileCache::global(), kernel_key, extent, detail::device_id(device));
}

std::vector<Record> report() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  return s.records;
}

void clear_memory() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  s.index.clear();
  s.records.clear();
}

}  // namespace loom::autotune
