// The profiler's recorder: the session, the GPU event pool and the resolution of every
// event onto one timeline (docs/PROFILER.md).
#include "loom/runtime/profiler.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <stdexcept>

#include "loom/cache/compile_cache.h"
#include "loom/runtime/device_runtime.h"
#include "loom/runtime/nvtx.h"

namespace loom::profiler {

namespace detail {
std::atomic<bool> g_active{false};
}  // namespace detail

const char* category_name(Category c) {
  switch (c) {
    case Category::kernel: return "kernel";
    case Category::copy: return "copy";
    case Category::alloc: return "alloc";
    case Category::free: return "free";
    case Category::compile: return "compile";
    case Category::range: return "range";
  }
  return "?";
}

namespace {

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// A small number per host thread, stable for the process (trace tracks are per thread).
uint64_t thread_number() {
  static std::atomic<uint64_t> next{1};
  thread_local const uint64_t mine = next.fetch_add(1);
  return mine;
}

// An event as recorded: host times, or a GPU event pair to resolve at stop().
struct Pending {
  Record rec;
  int64_t host_start = 0, host_end = 0;
  void* ev_start = nullptr;
  void* ev_end = nullptr;
  void* stream = nullptr;
  bool gpu = false;
  bool done = false;
};

// One per GPU used in a session: an event recorded on an idle device and the host time at
// which it completed, so that event-to-event times place the device's work on the host clock.
struct Reference {
  void* event = nullptr;
  int64_t host_ns = 0;
};

struct Session {
  std::mutex mu;
  bool running = false;
  uint64_t generation = 0;  // thread-local stacks of an older session are stale
  int64_t t0 = 0;
  std::vector<Pending> pending;
  std::map<int, Reference> refs;               // by GPU index
  std::map<int, std::vector<void*>> free_events;  // recycled across sessions, by GPU index
};

// Never destroyed: buffers freed during static destruction still call instant().
Session& session() {
  static Session* s = new Session();
  return *s;
}

struct Open {
  const void* key;
  size_t index;  // into Session::pending; SIZE_MAX: not recorded (a range begun while off)
  uint64_t generation;
};
thread_local std::vector<Open> t_spans;
thread_local std::vector<Open> t_ranges;
thread_local const OpLabel* t_label = nullptr;

void* take_event(Session& s, const Device& d) {
  auto& pool = s.free_events[d.index];
  if (pool.empty()) return device_runtime(d).event_create(d, true);
  void* e = pool.back();
  pool.pop_back();
  return e;
}

void give_event(Session& s, const Device& d, void* e) {
  if (e) s.free_events[d.index].push_back(e);
}

// The device's reference, made at its first timed work in the session: wait until the
// device is idle, record an event, wait for it and read the host clock (the error is the
// latency of one event wait, microseconds).
void ensure_reference(Session& s, const Device& d, void* stream) {
  if (s.refs.count(d.index)) return;
  const DeviceRuntime& rt = device_runtime(d);
  rt.synchronize(d);
  Reference r;
  r.event = take_event(s, d);
  rt.event_record(d, r.event, stream);
  rt.event_synchronize(d, r.event);
  r.host_ns = now_ns();
  s.refs[d.index] = r;
}

void begin(const void* key, Category cat, std::string name, const char* detail, const Device& device, void* stream,
           int64_t bytes, std::string shapes = {}) {
  Session& s = session();
  size_t index;
  uint64_t gen;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    if (!s.running) return;
    Pending p;
    p.rec.name = std::move(name);
    p.rec.shapes = std::move(shapes);
    p.rec.category = cat;
    p.rec.device = device;
    p.rec.thread = thread_number();
    p.rec.bytes = bytes;
    if (detail) p.rec.detail = detail;
    p.gpu = device.is_gpu();
    if (p.gpu) {
      p.stream = stream;
      p.rec.stream = reinterpret_cast<uint64_t>(stream);
      ensure_reference(s, device, stream);
      p.ev_start = take_event(s, device);
      device_runtime(device).event_record(device, p.ev_start, stream);
    }
    p.host_start = now_ns();
    index = s.pending.size();
    gen = s.generation;
    s.pending.push_back(std::move(p));
  }
  t_spans.push_back({key, index, gen});
}

// Drops entries of older sessions and those whose end never came, down to `key`'s.
bool pop_open(std::vector<Open>& stack, const void* key, Open* out) {
  while (!stack.empty()) {
    Open o = stack.back();
    stack.pop_back();
    if (o.key == key) {
      *out = o;
      return true;
    }
  }
  return false;
}

void finish(Session& s, const Open& o) {
  if (o.index == SIZE_MAX || o.generation != s.generation || !s.running) return;
  Pending& p = s.pending[o.index];
  if (p.gpu) {
    p.ev_end = take_event(s, p.rec.device);
    device_runtime(p.rec.device).event_record(p.rec.device, p.ev_end, p.stream);
  }
  p.host_end = now_ns();
  p.done = true;
}

void on_compile(std::string_view kind, CompileOutcome outcome, int64_t start_ns, int64_t end_ns) {
  if (!active()) return;
  static const char* const kOutcome[] = {"memory hit", "disk hit", "miss", "failed"};
  std::string name = std::string(kind) + ": ";
  const std::string op = current_span_name();
  name += op.empty() ? std::string("(outside an op)") : op;
  Session& s = session();
  std::lock_guard<std::mutex> lock(s.mu);
  if (!s.running) return;
  Pending p;
  p.rec.name = std::move(name);
  p.rec.category = Category::compile;
  p.rec.thread = thread_number();
  p.rec.detail = kOutcome[static_cast<int>(outcome)];
  p.host_start = start_ns;
  p.host_end = end_ns;
  p.done = true;
  s.pending.push_back(std::move(p));
}

}  // namespace

void start() {
  Session& s = session();
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.running)
    throw std::runtime_error(
        "[profiler] a profile is already active: profiles do not nest (loom.profiler.profile() is "
        "process-wide; use loom.profiler.range() to mark a part of the profiled code)");
  s.running = true;
  ++s.generation;
  s.pending.clear();
  s.pending.reserve(1 << 14);
  s.refs.clear();
  s.t0 = now_ns();
  set_compile_observer(&on_compile);
  detail::g_active.store(true, std::memory_order_relaxed);
}

std::vector<Record> stop() {
  Session& s = session();
  std::lock_guard<std::mutex> lock(s.mu);
  if (!s.running) return {};
  detail::g_active.store(false, std::memory_order_relaxed);
  set_compile_observer(nullptr);
  s.running = false;
  for (const auto& [index, ref] : s.refs) {
    const Device d{DeviceType::cuda, index};
    device_runtime(d).synchronize(d);
  }
  std::vector<Record> out;
  out.reserve(s.pending.size());
  for (Pending& p : s.pending) {
    const Device d = p.rec.device;
    if (p.done && p.gpu) {
      const DeviceRuntime& rt = device_runtime(d);
      const Reference& ref = s.refs.at(d.index);
      p.rec.start_us = (ref.host_ns - s.t0) / 1e3 + 1e3 * rt.event_elapsed_ms(d, ref.event, p.ev_start);
      p.rec.dur_us = 1e3 * rt.event_elapsed_ms(d, p.ev_start, p.ev_end);
    } else if (p.done) {
      p.rec.start_us = (p.host_start - s.t0) / 1e3;
      p.rec.dur_us = (p.host_end - p.host_start) / 1e3;
    }
    if (p.gpu) {
      give_event(s, d, p.ev_start);
      give_event(s, d, p.ev_end);
    }
    if (p.done) out.push_back(std::move(p.rec));
  }
  for (const auto& [index, ref] : s.refs) give_event(s, Device{DeviceType::cuda, index}, ref.event);
  s.refs.clear();
  std::vector<Pending>().swap(s.pending);
  std::stable_sort(out.begin(), out.end(), [](const Record& a, const Record& b) { return a.start_us < b.start_us; });
  return out;
}

void begin_span(const void* key, Category cat, const std::string& name, const char* detail, const Device& device,
                void* stream, int64_t bytes, std::string shapes) {
  if (active()) begin(key, cat, name, detail, device, stream, bytes, std::move(shapes));
}

void begin_span(const void* key, Category cat, const char* name, const char* detail, const Device& device,
                void* stream, int64_t bytes, std::string shapes) {
  if (active()) begin(key, cat, name, detail, device, stream, bytes, std::move(shapes));
}

void end_span(const void* key) {
  if (!active() || t_spans.empty()) return;
  Open o;
  if (!pop_open(t_spans, key, &o)) return;
  Session& s = session();
  std::lock_guard<std::mutex> lock(s.mu);
  finish(s, o);
}

std::string current_span_name() {
  Session& s = session();
  for (auto it = t_spans.rbegin(); it != t_spans.rend(); ++it) {
    std::lock_guard<std::mutex> lock(s.mu);
    if (it->generation == s.generation && s.running && it->index < s.pending.size())
      return s.pending[it->index].rec.name;
  }
  return {};
}

void instant(Category cat, const char* name, const Device& device, int64_t bytes) {
  if (!active()) return;
  Session& s = session();
  std::lock_guard<std::mutex> lock(s.mu);
  if (!s.running) return;
  Pending p;
  p.rec.name = name;
  p.rec.category = cat;
  p.rec.device = device;
  p.rec.thread = thread_number();
  p.rec.bytes = bytes;
  p.host_start = p.host_end = now_ns();
  p.done = true;
  s.pending.push_back(std::move(p));
}

void range_push(const std::string& name) {
  nvtx::push(name.c_str());
  Open o{nullptr, SIZE_MAX, 0};
  if (active()) {
    Session& s = session();
    std::lock_guard<std::mutex> lock(s.mu);
    if (s.running) {
      Pending p;
      p.rec.name = name;
      p.rec.category = Category::range;
      p.rec.thread = thread_number();
      for (const Open& r : t_ranges) p.rec.depth += r.generation == s.generation && r.index != SIZE_MAX;
      p.host_start = now_ns();
      o = {nullptr, s.pending.size(), s.generation};
      s.pending.push_back(std::move(p));
    }
  }
  t_ranges.push_back(o);
}

void range_pop() {
  nvtx::pop();
  if (t_ranges.empty()) return;
  const Open o = t_ranges.back();
  t_ranges.pop_back();
  if (!active()) return;
  Session& s = session();
  std::lock_guard<std::mutex> lock(s.mu);
  finish(s, o);
}

OpLabel::OpLabel(const std::string& name, const void* stream, bool has_stream, const char* detail)
    : name_(name), stream_(stream), has_stream_(has_stream), detail_(detail) {
  if (!active()) return;
  saved_ = t_label;
  t_label = this;
  set_ = true;
}

OpLabel::~OpLabel() {
  if (set_) t_label = saved_;
}

const OpLabel* OpLabel::current() { return t_label; }

}  // namespace loom::profiler
