// The rows of transports.h: Gloo for cpu() arrays, NCCL for GPU arrays. The device-kind
// knowledge of the distributed layer lives here.
#include "loom/distributed/transports.h"

#include <string>

#include "loom/core/error.h"

namespace loom::distributed {
namespace {

void any_dtype(const char*, DType) {}

void nccl_dtypes(const char* op, DType t) {
  if (t == DType::int16 || t == DType::uint16)
    throw_dtype_error(op, std::string("NCCL has no ") + dtype_name(t) + " reductions; cast to int32 first");
}

BackendSetup with_prefix(const BackendSetup& s, const char* prefix) {
  BackendSetup out = s;
  out.prefix = prefix;
  return out;
}

// Gloo is optional at build time: without it cpu() collectives raise when called.
void open_gloo(TransportSlot& slot, const InitOptions& o, const BackendSetup& setup) {
  if (o.backend != "nccl" && gloo_compiled()) slot.backend = make_gloo_backend(with_prefix(setup, "gloo/"));
}

CollectiveBackend& get_gloo(TransportSlot& slot, const char* op, const Device&, const BackendSetup&, bool) {
  if (!slot.backend)
    throw UnsupportedError(std::string("[") + op + "] loom was built without Gloo (Debian's libgloo-dev): "
                                                   "collectives on cpu() arrays are not available");
  return *slot.backend;
}

// init(device=gpu(i)) makes the communicator at once; otherwise the first GPU collective,
// which every rank calls, makes it on that array's GPU.
void open_nccl(TransportSlot& slot, const InitOptions& o, const BackendSetup& setup) {
  if (o.device && o.device->type == DeviceType::cuda && o.backend != "gloo") {
    slot.backend = make_nccl_backend(with_prefix(setup, "nccl/"), o.device->index);
    slot.device = o.device->index;
  }
}

CollectiveBackend& get_nccl(TransportSlot& slot, const char* op, const Device& dev, const BackendSetup& setup,
                            bool point_to_point) {
  if (!slot.backend) {
    if (point_to_point)
      throw DistributedError(std::string("[") + op + "] no NCCL communicator yet: pass device=gpu(i) to init(), or "
                                                     "run a GPU collective on every rank first (a communicator is "
                                                     "made by all ranks together)");
    slot.backend = make_nccl_backend(with_prefix(setup, "nccl/"), dev.index);
    slot.device = dev.index;
  } else if (dev.index != slot.device) {
    throw DeviceMismatchError(std::string("[") + op + "] this process's NCCL communicator is on gpu(" +
                              std::to_string(slot.device) + "); the array is on " + dev.str() +
                              " (one process drives one GPU: start one process per GPU with python -m loom.launch)");
  }
  return *slot.backend;
}

constexpr Transport kTransports[kNumDeviceTypes] = {
    {"gloo", "cpu() arrays", "cpu()", any_dtype, open_gloo, get_gloo, nullptr},
    {"nccl", "GPU arrays", "a GPU", nccl_dtypes, open_nccl, get_nccl, make_nccl_multi_device},
};
static_assert(static_cast<int>(DeviceType::cpu) == 0 && static_cast<int>(DeviceType::cuda) == 1,
              "one row per device kind, in DeviceType order");

}  // namespace

const Transport& transport_of(DeviceType t) { return kTransports[static_cast<int>(t)]; }

const Transport* transport_named(const std::string& name) {
  for (const Transport& t : kTransports)
    if (name == t.backend) return &t;
  return nullptr;
}

}  // namespace loom::distributed
