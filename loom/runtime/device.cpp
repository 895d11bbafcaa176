#include "loom/runtime/device.h"

#include <cstdlib>
#include <mutex>

#include "loom/runtime/device_runtime.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/core/error.h"

namespace loom {
namespace {

std::mutex g_default_mutex;
std::optional<Device> g_default;           // set_default_device()
thread_local std::optional<Device> t_scope;  // innermost DeviceScope of this thread

Device initial_default() {
  if (const char* env = std::getenv("LOOM_DEVICE"); env && *env) {
    try {
      Device d = parse_device(env);
      check_device_present(d);
      return d;
    } catch (const std::exception& e) {
      throw_value_error("default_device", std::string("LOOM_DEVICE='") + env +
                                              "' is not a usable device: " + e.what());
    }
  }
  return try_gpu(0);
}

}  // namespace

std::string Device::str() const {
  return is_cpu() ? std::string("cpu()") : "gpu(" + std::to_string(index) + ")";
}

Device cpu() { return Device{DeviceType::cpu, 0}; }

namespace {

[[noreturn]] void no_such_gpu(int i) {
  const int n = num_gpus();
  std::string have = n == 0 ? std::string("this machine has no GPU")
                            : "this machine has " + std::to_string(n) + (n == 1 ? " GPU" : " GPUs") +
                                  " (gpu(0)" + (n > 1 ? " to gpu(" + std::to_string(n - 1) + ")" : "") + ")";
  throw_value_error("gpu", "gpu(" + std::to_string(i) + ") does not exist: " + have);
}

}  // namespace

Device gpu(int i) {
  if (i < 0) no_such_gpu(i);
  return Device{DeviceType::cuda, i};
}

void check_device_present(const Device& d) {
  if (d.is_gpu() && (d.index < 0 || d.index >= num_gpus())) no_such_gpu(d.index);
}

int num_gpus() {
  static const int n = gpu_runtime::device_count();
  return n;
}

Device try_gpu(int i) { return i >= 0 && i < num_gpus() ? Device{DeviceType::cuda, i} : cpu(); }

std::vector<Device> try_all_gpus() {
  std::vector<Device> out;
  for (int i = 0; i < num_gpus(); ++i) out.push_back(Device{DeviceType::cuda, i});
  if (out.empty()) out.push_back(cpu());
  return out;
}

std::vector<Device> devices() {
  std::vector<Device> out{cpu()};
  for (int i = 0; i < num_gpus(); ++i) out.push_back(Device{DeviceType::cuda, i});
  return out;
}

DeviceProperties properties(const Device& d) {
  check_device_present(d);
  return device_runtime(d).properties(d);
}

Device parse_device(const std::string& spec) {
  std::string s = spec;
  if (s == "cpu" || s == "cpu()") return cpu();
  for (const char* prefix : {"gpu", "cuda"}) {
    const std::string p(prefix);
    if (s == p || s == p + "()") return gpu(0);
    if (s.rfind(p + ":", 0) == 0 || s.rfind(p + "(", 0) == 0) {
      std::string num = s.substr(p.size() + 1);
      if (!num.empty() && num.back() == ')') num.pop_back();
      if (num.empty() || num.find_first_not_of("0123456789") != std::string::npos) break;
      return gpu(std::stoi(num));
    }
  }
  throw_value_error("device", "cannot parse device '" + spec + "' (expected cpu, gpu, gpu:N)");
}

Device default_device() {
  if (t_scope) return *t_scope;
  std::lock_guard<std::mutex> lock(g_default_mutex);
  if (!g_default) g_default = initial_default();
  return *g_default;
}

void set_default_device(const Device& d) {
  check_device_present(d);
  std::lock_guard<std::mutex> lock(g_default_mutex);
  g_default = d;
}

DeviceScope::DeviceScope(const Device& d) : previous_(t_scope) {
  check_device_present(d);
  t_scope = d;
}

DeviceScope::~DeviceScope() { t_scope = previous_; }

void synchronize(std::optional<Device> d) {
  if (d) {
    check_device_present(*d);
    return device_runtime(*d).synchronize(*d);
  }
  for (const Device& each : devices()) device_runtime(each).synchronize(each);
}

void check_same_device(const char* op, const Device& a, const Device& b) {
  if (a != b) {
    throw DeviceMismatchError(std::string("[") + op + "] operands are on " + a.str() + " and " +
                              b.str() + "; move one with .to(device) first");
  }
}

}  // namespace loom
