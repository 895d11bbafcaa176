// The cuSOLVER handle per device, scratch, pointer arrays, the layout kernels and the info
// check of the GPU decompositions (linalg_solver.h).
#include "loom/backend/cuda/linalg_solver.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "loom/backend/cuda/programs.h"
#include "loom/backend/linalg_decomp.h"
#include "loom/core/error.h"
#include "loom/runtime/cuda/check.h"
#include "loom/runtime/cuda/context.h"
#include "loom/runtime/gpu_runtime.h"

namespace loom::cuda {

void raise_cusolver_error(cusolverStatus_t status, const char* call) {
  const char* name = "CUSOLVER_STATUS_OTHER";
  switch (status) {
    case CUSOLVER_STATUS_NOT_INITIALIZED: name = "CUSOLVER_STATUS_NOT_INITIALIZED"; break;
    case CUSOLVER_STATUS_ALLOC_FAILED: name = "CUSOLVER_STATUS_ALLOC_FAILED"; break;
    case CUSOLVER_STATUS_INVALID_VALUE: name = "CUSOLVER_STATUS_INVALID_VALUE"; break;
    case CUSOLVER_STATUS_ARCH_MISMATCH: name = "CUSOLVER_STATUS_ARCH_MISMATCH"; break;
    case CUSOLVER_STATUS_EXECUTION_FAILED: name = "CUSOLVER_STATUS_EXECUTION_FAILED"; break;
    case CUSOLVER_STATUS_INTERNAL_ERROR: name = "CUSOLVER_STATUS_INTERNAL_ERROR"; break;
    case CUSOLVER_STATUS_NOT_SUPPORTED: name = "CUSOLVER_STATUS_NOT_SUPPORTED"; break;
    case CUSOLVER_STATUS_INVALID_WORKSPACE: name = "CUSOLVER_STATUS_INVALID_WORKSPACE"; break;
    default: break;
  }
  const std::string msg = std::string("[cusolver] ") + call + " failed: " + name + " (" +
                          std::to_string(static_cast<int>(status)) + ")";
  if (status == CUSOLVER_STATUS_ALLOC_FAILED)
    throw OutOfMemoryError(msg + ". Process the matrices in batches or free arrays you no longer need.");
  throw CudaError(msg, static_cast<int>(status));
}

namespace {

struct DeviceSolver {
  std::mutex mu;
  cusolverDnHandle_t handle = nullptr;
  cusolverDnParams_t params = nullptr;
};

DeviceSolver& solver(int dev) {
  static DeviceSolver* all = new DeviceSolver[kMaxDevices];  // never destroyed (exit races teardown)
  return all[dev];
}

// The device element type of dt (kernels over whole elements) and of its real parts.
const char* element_name(DType dt) {
  switch (dt) {
    case DType::float32: return "float";
    case DType::float64: return "double";
    case DType::complex64: return "loom_solver_c64";
    default: return "loom_solver_c128";
  }
}
const char* part_name(DType dt) { return real_dtype(dt) == DType::float32 ? "float" : "double"; }

std::string kernel(const char* name, const char* type, const char* extra = "") {
  return std::string(name) + "<" + type + extra + ">";
}

}  // namespace

const Program& solver_program() {
  static const Program* p = [] {
    std::vector<std::string> names{"loom_pointer_stack"};
    for (const char* t : {"float", "double", "loom_solver_c64", "loom_solver_c128"}) {
      names.push_back(std::string("loom_transpose_tiles<") + t + ", false>");
      names.push_back(std::string("loom_transpose_tiles<") + t + ", true>");
      names.push_back(std::string("loom_identity_stack<") + t + ">");
    }
    for (const char* r : {"float", "double"}) {
      for (const char* pivot : {"int", "long long"}) {
        names.push_back(std::string("loom_slogdet_lu<") + r + ", " + pivot + ">");
        names.push_back(std::string("loom_slogdet_lu_complex<") + r + ", " + pivot + ">");
      }
      names.push_back(std::string("loom_conj_inplace<") + r + ">");
      names.push_back(std::string("loom_eig_unpack<") + r + ">");
    }
    return new Program("loom_solver.cu", "#include \"loom_solver.cuh\"\n", names);  // never destroyed
  }();
  return *p;
}

SolverLock lock_solver(int dev, void* stream) {
  DeviceSolver& d = solver(dev);
  SolverLock out{std::unique_lock<std::mutex>(d.mu), nullptr, nullptr};
  if (!d.handle) LOOM_CUSOLVER_CHECK(cusolverDnCreate(&d.handle));
  if (!d.params) LOOM_CUSOLVER_CHECK(cusolverDnCreateParams(&d.params));
  // Every call: a cached stream handle could name a destroyed and recreated stream.
  LOOM_CUSOLVER_CHECK(cusolverDnSetStream(d.handle, static_cast<cudaStream_t>(stream)));
  out.handle = d.handle;
  out.params = d.params;
  return out;
}

SolverCall::SolverCall(const Array& first, std::initializer_list<const Array*> others)
    : dev(first.device().index), stream(nullptr) {
  activate(dev);
  gpu_runtime::wait_for_writer(first);
  for (const Array* a : others) gpu_runtime::wait_for_writer(*a);
  stream = current_stream(dev);
}

void SolverCall::written(std::initializer_list<const Array*> outs) const {
  for (const Array* a : outs) a->buffer()->set_last_stream(stream);
}

std::shared_ptr<Buffer> SolverCall::scratch(size_t nbytes) const {
  return gpu_runtime::allocate(dev, nbytes == 0 ? 1 : nbytes, stream);
}

void SolverCall::copy(void* dst, const void* src, size_t nbytes) const {
  if (nbytes == 0) return;
  LOOM_CUDA_CHECK(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToDevice, static_cast<cudaStream_t>(stream)));
}

std::shared_ptr<Buffer> SolverCall::pointers(void* base, int64_t count, int64_t stride_bytes) const {
  std::shared_ptr<Buffer> out = scratch(static_cast<size_t>(count) * sizeof(void*));
  void* dst = out->data();
  long long stride = stride_bytes, n = count;
  // A kernel rather than a host array: a copy from pageable memory would stall the host.
  launch_elementwise(dev, solver_program(), "loom_pointer_stack", count, stream, {&base, &stride, &n, &dst});
  return out;
}

void SolverCall::download_info(const int* info, std::vector<int>& host) const {
  LOOM_CUDA_CHECK(cudaMemcpyAsync(host.data(), info, host.size() * sizeof(int), cudaMemcpyDeviceToHost,
                                  static_cast<cudaStream_t>(stream)));
  LOOM_CUDA_CHECK(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)));
}

void SolverCall::check_info(const char* op, const char* what, const int* info, int64_t batches) const {
  std::vector<int> host(static_cast<size_t>(batches));
  download_info(info, host);
  for (int64_t b = 0; b < batches; ++b) {
    if (host[b] > 0) raise_linalg_error(op, what, b, batches);
    if (host[b] < 0)
      throw std::logic_error("[linalg." + std::string(op) + "] cuSOLVER rejected argument " +
                             std::to_string(-host[b]));
  }
}

void transpose_stack(int dev, void* stream, DType dt, const void* src, void* dst, int64_t batches, int64_t rows,
                     int64_t cols, bool tril) {
  long long r = rows, c = cols, b = batches;
  const int64_t tiles = batches * ((rows + 31) / 32) * ((cols + 31) / 32);
  if (tiles == 0) return;
  const std::string name = kernel("loom_transpose_tiles", element_name(dt), tril ? ", true" : ", false");
  const unsigned grid = static_cast<unsigned>(std::min<int64_t>(tiles, int64_t{multiprocessor_count(dev)} * 16));
  void* args[] = {&src, &dst, &r, &c, &b};
  launch(dev, get_function(dev, solver_program(), name), name.c_str(), grid, 256, 0, stream, args);
}

void SolverCall::transpose(DType dt, const void* src, void* dst, int64_t batches, int64_t rows, int64_t cols,
                           bool tril) const {
  transpose_stack(dev, stream, dt, src, dst, batches, rows, cols, tril);
}

void SolverCall::identity(DType dt, void* m, int64_t batches, int64_t n) const {
  long long nn = n, total = batches * n * n;
  if (total == 0) return;
  launch_elementwise(dev, solver_program(), kernel("loom_identity_stack", element_name(dt)), total, stream, {&m, &nn, &total});
}

void SolverCall::slogdet_from_lu(DType dt, const void* lu, const void* pivots, size_t pivot_bytes, void* sign,
                                 void* logabs, int64_t batches, int64_t n) const {
  long long nn = n, b = batches;
  const char* name = is_complex(dt) ? "loom_slogdet_lu_complex" : "loom_slogdet_lu";
  launch_elementwise(dev, solver_program(), kernel(name, part_name(dt), pivot_bytes == 4 ? ", int" : ", long long"),
                     batches, stream, {&lu, &pivots, &sign, &logabs, &nn, &b});
}

void SolverCall::conj(DType dt, void* z, int64_t count) const {
  long long c = count;
  if (count == 0) return;
  launch_elementwise(dev, solver_program(), kernel("loom_conj_inplace", part_name(dt)), count, stream, {&z, &c});
}

void SolverCall::eig_unpack(DType dt, const void* vr, const void* w, void* v, int64_t batches, int64_t n) const {
  long long nn = n, total = batches * n * n;
  if (total == 0) return;
  launch_elementwise(dev, solver_program(), kernel("loom_eig_unpack", part_name(dt)), total, stream,
                     {&vr, &w, &v, &nn, &total});
}

}  // namespace loom::cuda
