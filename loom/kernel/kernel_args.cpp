#include "loom/kernel/kernel_args.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "loom/convert.h"
#include "loom/error.h"

namespace loom::kernel_detail {
namespace {

std::string param_text(size_t i, size_t size) {
  return "parameter " + std::to_string(i) + " (" + std::to_string(size) + " bytes)";
}

// An integer scalar at `size` bytes. Values that fit the signed or the unsigned type of
// that width are taken (0xFFFFFFFF for an unsigned int parameter); others overflow.
void pack_integer(const std::string& kernel, const Scalar& s, size_t i, size_t size, void* dst) {
  const bool negative = s.kind == Scalar::Kind::int_ && s.i < 0;
  const uint64_t magnitude = s.kind == Scalar::Kind::uint_ ? s.u
                             : s.kind == Scalar::Kind::boolean ? uint64_t{s.b}
                                                              : static_cast<uint64_t>(s.i);
  if (size < 8) {
    const int bits = static_cast<int>(size) * 8;
    const int64_t lo = -(int64_t{1} << (bits - 1));
    const uint64_t hi = (uint64_t{1} << bits) - 1;
    const bool fits = negative ? s.i >= lo : magnitude <= hi;
    if (!fits)
      throw std::overflow_error(prefix(kernel) + " the Python int " +
                                (negative ? std::to_string(s.i) : std::to_string(magnitude)) +
                                " does not fit " + param_text(i, size));
  }
  const uint64_t bits = negative ? static_cast<uint64_t>(s.i) : magnitude;
  std::memcpy(dst, &bits, size);  // little-endian: the low bytes are the value
}

void pack_float(const std::string& kernel, const Scalar& s, size_t i, size_t size, void* dst) {
  const double v = s.as_double();
  if (size == 8) {
    std::memcpy(dst, &v, 8);
  } else if (size == 4) {
    const float f = static_cast<float>(v);
    std::memcpy(dst, &f, 4);
  } else if (size == 2) {
    const uint16_t h = double_to_half(v);  // a 2-byte float parameter is taken as __half
    std::memcpy(dst, &h, 2);
  } else {
    throw DTypeError(prefix(kernel) + " a Python float cannot be passed as " + param_text(i, size) +
                     "; pass a NumPy scalar of the parameter's type");
  }
}

}  // namespace

PackedArgs::PackedArgs(const std::string& kernel, const std::vector<KernelArg>& args,
                       const std::vector<size_t>& sizes, bool sizes_known) {
  if (args.size() <= kInline) {
    storage_ = inline_storage_;
    ptrs_ = inline_ptrs_;
  } else {
    heap_storage_.resize(2 * args.size());
    heap_ptrs_.resize(args.size());
    storage_ = heap_storage_.data();
    ptrs_ = heap_ptrs_.data();
  }
  std::fill(storage_, storage_ + 2 * args.size(), uint64_t{0});
  if (sizes_known && args.size() != sizes.size()) {
    std::string list;
    for (size_t s : sizes) list += (list.empty() ? "" : ", ") + std::to_string(s);
    throw DTypeError(prefix(kernel) + " takes " + std::to_string(sizes.size()) + " argument" +
                     (sizes.size() == 1 ? "" : "s") + " (parameter sizes in bytes: " +
                     (list.empty() ? "none" : list) + ") but " + std::to_string(args.size()) +
                     (args.size() == 1 ? " was" : " were") + " given");
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelArg& a = args[i];
    void* slot = &storage_[2 * i];
    ptrs_[i] = slot;
    size_t size = 0;
    switch (a.kind()) {
      case KernelArg::Kind::array:
      case KernelArg::Kind::pointer: size = 8; break;
      case KernelArg::Kind::bytes: size = a.bytes_value().size(); break;
      case KernelArg::Kind::scalar:
        size = a.scalar().kind == Scalar::Kind::float_ ? 8 : a.scalar().kind == Scalar::Kind::boolean ? 1 : 8;
        break;
    }
    if (sizes_known) {
      const size_t want = sizes[i];
      if (a.kind() != KernelArg::Kind::scalar && want != size)
        throw DTypeError(prefix(kernel) + " argument " + std::to_string(i) + " is a " + a.describe() +
                         " but the kernel's " + param_text(i, want) + " takes " +
                         std::to_string(want) + " bytes" +
                         (a.kind() == KernelArg::Kind::array || a.kind() == KernelArg::Kind::pointer
                              ? ": is that parameter declared as a pointer?"
                              : ""));
      size = want;
    }
    switch (a.kind()) {
      case KernelArg::Kind::array: {
        void* p = a.array().data();
        std::memcpy(slot, &p, 8);
        break;
      }
      case KernelArg::Kind::pointer: {
        void* p = a.pointer_value();
        std::memcpy(slot, &p, 8);
        break;
      }
      case KernelArg::Kind::bytes:
        // Large values (structs) are read in place; the argument outlives the launch call.
        if (size <= 16) std::memcpy(slot, a.bytes_value().data(), size);
        else ptrs_[i] = const_cast<char*>(a.bytes_value().data());
        break;
      case KernelArg::Kind::scalar:
        if (size != 1 && size != 2 && size != 4 && size != 8)
          throw DTypeError(prefix(kernel) + " argument " + std::to_string(i) + " is a " + a.describe() +
                           " but the kernel's " + param_text(i, size) +
                           " is not a number; pass a NumPy scalar or bytes of that size");
        if (a.scalar().kind == Scalar::Kind::float_) pack_float(kernel, a.scalar(), i, size, slot);
        else pack_integer(kernel, a.scalar(), i, size, slot);
        break;
    }
  }
}

void PackedArgs::set_pointer(size_t i, void* p) { std::memcpy(&storage_[2 * i], &p, 8); }

}  // namespace loom::kernel_detail
