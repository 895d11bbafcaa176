// The exception types of loom (DESIGN.md §5). Each derives from a standard exception
// so that the Python bindings map it to the expected Python type.
#pragma once
#include <stdexcept>
#include <string>

namespace loom {

/// Unsupported dtype for an op (Python: TypeError).
class DTypeError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Operands live on different devices (Python: loom.DeviceMismatchError, a ValueError).
class DeviceMismatchError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// A device allocation failed after freeing the cache and retrying once (Python: MemoryError).
class OutOfMemoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A CUDA runtime, driver or library call failed (Python: loom.CudaError, a RuntimeError).
class CudaError : public std::runtime_error {
 public:
  CudaError(const std::string& msg, int code = 0, bool context_lost = false)
      : std::runtime_error(msg), code_(code), context_lost_(context_lost) {}
  int code() const { return code_; }
  bool context_lost() const { return context_lost_; }

 private:
  int code_;
  bool context_lost_;
};

/// NVRTC or host compiler failure (Python: loom.CompileError).
class CompileError : public std::runtime_error {
 public:
  CompileError(const std::string& msg, std::string log = {})
      : std::runtime_error(msg), log_(std::move(log)) {}
  const std::string& log() const { return log_; }

 private:
  std::string log_;
};

/// The op is not available on this device or in this build (Python: NotImplementedError).
class UnsupportedError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

/// An axis argument outside [-ndim, ndim) (Python: numpy.exceptions.AxisError, which is
/// both a ValueError and an IndexError, as NumPy raises).
class AxisError : public std::out_of_range {
 public:
  using std::out_of_range::out_of_range;
};

/// A fault inside kernel code run on the CPU (the emulator): a NULL or wild pointer, an
/// integer division by zero, a stack overflow (Python: loom.KernelFaultError, a RuntimeError).
class KernelFaultError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A wait or a CPU kernel launch stopped by Ctrl-C (SIGINT; interrupt.h) (Python:
/// KeyboardInterrupt, delivered through Python's own SIGINT handler).
class Interrupted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An op needs the values of an array that is being traced (inside loom.jit, vmap or grad),
/// which are not known until the traced function runs: a host read, a Python `if` or
/// `int()` on a traced array (Python: loom.ConcretizationTypeError, a TypeError, as JAX's).
class ConcretizationError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

/// A collective or the rendezvous failed: a peer closed its connection or died, a
/// communicator was aborted, ranks called collectives that do not match (Python:
/// loom.DistributedError, a RuntimeError).
class DistributedError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The other ranks did not arrive within the process group's timeout (Python:
/// loom.DistributedTimeoutError, both a loom.DistributedError and a TimeoutError).
class DistributedTimeoutError : public DistributedError {
 public:
  using DistributedError::DistributedError;
};

/// A matrix the algorithm cannot handle: singular (solve, inv), not positive definite
/// (cholesky), no convergence (eigh); the message names the op and the batch index (Python:
/// numpy.linalg.LinAlgError itself).
class LinAlgError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Something a CUDA graph capture cannot record happened while one was being captured
/// (loom.cuda_graph): a host read of GPU data (numpy(), item(), a bounds-check flag), a
/// synchronize, a kernel compile, or a capture CUDA refused (Python: loom.GraphCaptureError,
/// a RuntimeError). The capture is abandoned; nothing has run.
class GraphCaptureError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Throws std::invalid_argument("[op] msg").
[[noreturn]] void throw_value_error(const char* op, const std::string& msg);
[[noreturn]] void throw_dtype_error(const char* op, const std::string& msg);

}  // namespace loom
