// NCCL, loaded at run time (dlopen) so that loom builds without nccl.h and runs without
// libnccl. The few types and constants of NCCL's C API that loom uses are declared here
// as NCCL 2 defines them (stable across 2.x): its ABI, not its header, is the contract.
// The library: $LOOM_NCCL_LIBRARY, else libnccl.so.2 on the loader's path (loom.distributed
// points LOOM_NCCL_LIBRARY at the one of the nvidia-nccl wheel when that is installed).
#pragma once
#include <cstddef>
#include <string>

namespace loom::distributed::nccl {

using Comm = struct ncclComm*;
struct UniqueId {
  char internal[128];
};
using Result = int;
constexpr Result kSuccess = 0, kInProgress = 7;
enum DataType : int {
  kInt8 = 0, kUint8 = 1, kInt32 = 2, kUint32 = 3, kInt64 = 4, kUint64 = 5,
  kFloat16 = 6, kFloat32 = 7, kFloat64 = 8, kBfloat16 = 9,
};
enum RedOp : int { kSum = 0, kProd = 1, kMax = 2, kMin = 3, kAvg = 4 };

struct Api {
  Result (*ncclGetVersion)(int*);
  Result (*ncclGetUniqueId)(UniqueId*);
  Result (*ncclCommInitRank)(Comm*, int, UniqueId, int);
  Result (*ncclCommInitAll)(Comm*, int, const int*);
  Result (*ncclCommDestroy)(Comm);
  Result (*ncclCommAbort)(Comm);
  Result (*ncclCommGetAsyncError)(Comm, Result*);
  const char* (*ncclGetErrorString)(Result);
  Result (*ncclAllReduce)(const void*, void*, size_t, DataType, RedOp, Comm, void* stream);
  Result (*ncclBroadcast)(const void*, void*, size_t, DataType, int, Comm, void* stream);
  Result (*ncclAllGather)(const void*, void*, size_t, DataType, Comm, void* stream);
  Result (*ncclReduceScatter)(const void*, void*, size_t, DataType, RedOp, Comm, void* stream);
  Result (*ncclSend)(const void*, size_t, DataType, int, Comm, void* stream);
  Result (*ncclRecv)(void*, size_t, DataType, int, Comm, void* stream);
  Result (*ncclGroupStart)();
  Result (*ncclGroupEnd)();
  int version = 0;  // e.g. 22703 for 2.27.3
};

/// The loaded library, or null with the reason in `why`.
const Api* api(std::string* why = nullptr);
/// UnsupportedError("[op] NCCL could not be loaded ...") when it is missing.
const Api& api_or_throw(const char* op);
/// Throws DistributedError naming op and call when r is not success.
void check(const Api& a, Result r, const char* op, const char* call);
/// "2.27.3"
std::string version_string(int v);

}  // namespace loom::distributed::nccl
