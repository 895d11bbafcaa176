// The transport of each device kind, in one table, as dispatch() picks an eval by the
// operand's device (ARCHITECTURE.md §2): Gloo serves cpu() arrays, NCCL GPU arrays.
// process_group.cpp and device_group.cpp choose through transport_of(device.type) and
// never test the device kind themselves (tools/check_layers.py); what is particular to a
// kind (NCCL's dtypes, its one communicator per process and GPU) is in its row here.
#pragma once
#include <memory>
#include <vector>

#include "loom/core/dtype.h"
#include "loom/distributed/backend.h"
#include "loom/distributed/collectives.h"
#include "loom/distributed/device_group.h"
#include "loom/runtime/device.h"

namespace loom::distributed {

/// A process group's state for one device kind.
struct TransportSlot {
  std::unique_ptr<CollectiveBackend> backend;
  int device = -1;  // the device index its communicator is bound to (NCCL); -1: any
};

struct Transport {
  const char* backend;      // the init(backend=) name that serves this kind: "gloo", "nccl"
  const char* arrays;       // what it serves, for messages: "cpu() arrays", "GPU arrays"
  const char* device_text;  // the device as the ranks' argument agreement names it ("a GPU":
                            // each rank has its own)
  /// DTypeError for a reduction the transport cannot do on dtype `t`.
  void (*check_reduction)(const char* op, DType t);
  /// At init, by every rank together (point-to-point calls never wait for the others):
  /// opens the transport in `slot` where `o` lets this kind be served now.
  void (*open)(TransportSlot& slot, const InitOptions& o, const BackendSetup& setup);
  /// The transport for an array on `dev`: the one opened, or (NCCL) one made now by the
  /// collective every rank calls; a point-to-point call cannot make one.
  CollectiveBackend& (*get)(TransportSlot& slot, const char* op, const Device& dev, const BackendSetup& setup,
                            bool point_to_point);
  /// One process's communicator over several devices of this kind (DeviceGroup), or
  /// nullptr when the kind has none (its collectives then run through the host).
  std::unique_ptr<MultiDeviceComm> (*multi_device)(const std::vector<int>& devices);
};

inline constexpr int kNumDeviceTypes = 2;
/// The row of device kind `t`.
const Transport& transport_of(DeviceType t);
/// The row whose init(backend=) name is `name`, or nullptr ("auto").
const Transport* transport_named(const std::string& name);

}  // namespace loom::distributed
