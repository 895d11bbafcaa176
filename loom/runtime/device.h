// Devices (PyTorch / d2l style): cpu(), gpu(i), the default device and device queries.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace loom {

enum class DeviceType : uint8_t { cpu, cuda };

/// A place where arrays live: the host CPU or GPU `index`.
struct Device {
  DeviceType type = DeviceType::cpu;
  int index = 0;

  bool is_cpu() const { return type == DeviceType::cpu; }
  bool is_gpu() const { return type == DeviceType::cuda; }
  /// "cpu()" or "gpu(0)", as repr() shows it.
  std::string str() const;
  bool operator==(const Device& o) const { return type == o.type && index == o.index; }
  bool operator!=(const Device& o) const { return !(*this == o); }
};

struct DeviceProperties {
  std::string name;
  size_t total_memory = 0;
  size_t free_memory = 0;
  int compute_capability_major = 0;
  int compute_capability_minor = 0;
  int multiprocessor_count = 0;
};

/// The host CPU.
Device cpu();
/// GPU `i`, present or not (as torch.device('cuda:1')): it prints and compares on any
/// machine, and its first use (an array on it, its streams, stats, synchronize, making it
/// the default) throws std::invalid_argument naming how many GPUs exist. A negative `i`
/// is no device at all and throws at once.
Device gpu(int i = 0);
/// Throws gpu()'s std::invalid_argument when `d` is a GPU this machine does not have.
void check_device_present(const Device& d);
/// Number of usable GPUs: 0 without a GPU, a driver, or a CUDA build.
int num_gpus();
/// gpu(i) when it exists, else cpu().
Device try_gpu(int i = 0);
/// Every GPU, or {cpu()} when there is none.
std::vector<Device> try_all_gpus();
/// cpu() followed by every GPU.
std::vector<Device> devices();
DeviceProperties properties(const Device& d);
/// Parses "cpu", "gpu", "gpu:1", "cuda:0"; throws std::invalid_argument.
Device parse_device(const std::string& spec);

/// The device new arrays go to: the innermost DeviceScope, else set_default_device(),
/// else $LOOM_DEVICE, else gpu(0) when present, else cpu().
Device default_device();
void set_default_device(const Device& d);

/// Makes `d` the default device of this thread while alive (Python: `with loom.device(d)`).
class DeviceScope {
 public:
  explicit DeviceScope(const Device& d);
  ~DeviceScope();
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  std::optional<Device> previous_;
};

/// Waits for all work queued on `d` (every device when empty).
void synchronize(std::optional<Device> d = std::nullopt);

/// Throws DeviceMismatchError("[op] operands are on A and B ...") when a != b.
void check_same_device(const char* op, const Device& a, const Device& b);

}  // namespace loom
