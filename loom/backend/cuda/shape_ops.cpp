// GPU evals of the shape family (backend/shape_ops.h). Every other shape op is a view
// or a copyto and needs no kernel of its own.
#include <array>
#include <cstdint>

#include "loom/backend/cuda/programs.h"
#include "loom/runtime/cuda/context.h"
#include "loom/backend/cuda/shape_ops_program.h"
#include "loom/backend/creation.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/backend/shape_ops.h"
#include "loom/core/error.h"

namespace loom::cuda {
namespace {

constexpr size_t kWidths[5] = {1, 2, 4, 8, 16};
constexpr const char* kWidthTypes[5] = {"unsigned char", "unsigned short", "unsigned int",
                                        "unsigned long long", "loom_b128"};

int width_slot(size_t w) { return w == 1 ? 0 : w == 2 ? 1 : w == 4 ? 2 : w == 8 ? 3 : 4; }

const std::array<std::string, 5>& names() {
  static const std::array<std::string, 5> n = [] {
    std::array<std::string, 5> out;
    for (int i = 0; i < 5; ++i) out[i] = std::string("loom_take_rows<") + kWidthTypes[i] + ">";
    return out;
  }();
  return n;
}

}  // namespace

const Program& shape_program() {
  static const Program p("loom_shape.cu", "#include \"loom_shape_ops.cuh\"\n",
                         std::vector<std::string>(names().begin(), names().end()));
  return p;
}

const std::string& take_rows_name(size_t width) { return names()[width_slot(width)]; }

}  // namespace loom::cuda

namespace loom::gpu_backend {

void take_rows(const Array& src, const Array& idx, const Array& dst, int64_t outer, int64_t n,
               int64_t inner) {
  if (!dst.device().is_gpu() || src.device() != dst.device() || idx.device() != dst.device())
    throw_value_error("take_rows", "src, idx and dst must be on the same GPU");
  if (!src.is_contiguous() || !dst.is_contiguous() || !idx.is_contiguous() || idx.dtype() != int64 ||
      src.dtype() != dst.dtype())
    throw_value_error("take_rows", "contiguous src/dst of one dtype and int64 idx required");
  const int dev = dst.device().index;
  cuda::activate(dev);
  gpu_runtime::wait_for_writer(src);
  gpu_runtime::wait_for_writer(idx);
  gpu_runtime::wait_for_writer(dst);
  void* stream = cuda::current_stream(dev);
  const int64_t m = idx.size();
  const uint64_t row = static_cast<uint64_t>(inner) * src.itemsize();
  if (row == 0 || outer * m == 0) return;
  // The widest element that divides a row and both base addresses.
  size_t width = 1;
  for (size_t w : cuda::kWidths) {
    if (row % w == 0 && reinterpret_cast<uintptr_t>(src.data()) % w == 0 &&
        reinterpret_cast<uintptr_t>(dst.data()) % w == 0)
      width = w;
  }
  const void* sp = src.data();
  void* dp = dst.data();
  const void* ip = idx.data();
  long long per_row = static_cast<long long>(row / width), nn = n, mm = m;
  long long total = static_cast<long long>(outer) * mm * per_row;
  cuda::launch_elementwise(dev, cuda::shape_program(), cuda::take_rows_name(width), total, stream,
                           {&sp, &dp, &ip, &total, &nn, &mm, &per_row});
  dst.buffer()->set_last_stream(stream);
}

}  // namespace loom::gpu_backend
