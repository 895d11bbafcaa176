#include "loom/backend/cuda/programs.h"

#include <array>
#include <stdexcept>
#include <vector>

#include "loom/runtime/cuda/context.h"

namespace loom::cuda {
namespace {

constexpr const char* kTypeNames[kNumDTypes] = {
    "bool",          "signed char",    "short",        "int",
    "long long",     "unsigned char",  "unsigned short", "unsigned int",
    "unsigned long long", "loom_f16",  "loom_bf16",    "float",
    "double",        "loom_complex64", "loom_complex128",
};
// Element-sized carriers for kernels that only move bytes; complex128 is the 16-byte one.
constexpr int kSizeSlots = 5;
constexpr const char* kBitsNames[kSizeSlots] = {"unsigned char", "unsigned short", "unsigned int",
                                                "unsigned long long", "loom_complex128"};

int size_slot(size_t itemsize) {
  return itemsize == 1 ? 0 : itemsize == 2 ? 1 : itemsize == 4 ? 2 : itemsize == 8 ? 3 : 4;
}

std::string tmpl(const char* fn, const std::string& args) { return std::string(fn) + "<" + args + ">"; }

// Every name expression of the built-in programs, built once.
struct Names {
  std::array<std::string, kSizeSlots> fill, eye, gather;  // arange and linspace: real dtypes only
  std::array<std::string, kNumDTypes> arange, linspace;
  std::array<std::string, kNumDTypes * kNumDTypes> convert, strided;
  Names() {
    for (int i = 0; i < kSizeSlots; ++i) {
      fill[i] = tmpl("loom_fill", kBitsNames[i]);
      gather[i] = tmpl("loom_gather", kBitsNames[i]);
      eye[i] = tmpl("loom_eye", kBitsNames[i]);
    }
    for (int t = 0; t < kNumDTypes; ++t) {
      if (!is_complex(static_cast<DType>(t))) {
        arange[t] = tmpl("loom_arange", kTypeNames[t]);
        linspace[t] = tmpl("loom_linspace", kTypeNames[t]);
      }
      for (int d = 0; d < kNumDTypes; ++d) {
        const std::string pair = std::string(kTypeNames[t]) + ", " + kTypeNames[d];
        convert[t * kNumDTypes + d] = tmpl("loom_convert", pair);
        strided[t * kNumDTypes + d] = tmpl("loom_convert_strided", pair);
      }
    }
  }
};

const Names& names() {
  static const Names n;
  return n;
}

// No FMA contraction: results must match the CPU backend bit for bit.
std::vector<std::string> options() { return {"--fmad=false"}; }

}  // namespace

const char* device_type_name(DType dt) { return kTypeNames[static_cast<int>(dt)]; }

const Program& creation_program() {
  static const Program p = [] {
    const Names& n = names();
    std::vector<std::string> exprs(n.fill.begin(), n.fill.end());
    exprs.insert(exprs.end(), n.eye.begin(), n.eye.end());
    for (const auto* list : {&n.arange, &n.linspace})
      for (const std::string& e : *list)
        if (!e.empty()) exprs.push_back(e);
    return Program("loom_creation.cu", "#include \"loom_creation.cuh\"\n", exprs, options());
  }();
  return p;
}

const Program& convert_program(DType src) {
  // One program per source dtype: all its casts, contiguous and strided, and its gather.
  static const std::array<Program, kNumDTypes> programs = [] {
    const Names& n = names();
    auto make = [&](int t) {
      std::vector<std::string> exprs;
      for (int d = 0; d < kNumDTypes; ++d) {
        exprs.push_back(n.convert[t * kNumDTypes + d]);
        exprs.push_back(n.strided[t * kNumDTypes + d]);
      }
      exprs.push_back(n.gather[size_slot(itemsize(static_cast<DType>(t)))]);
      return Program(std::string("loom_convert_") + dtype_name(static_cast<DType>(t)) + ".cu",
                     "#include \"loom_convert.cuh\"\n", exprs, options());
    };
    return std::array<Program, kNumDTypes>{make(0), make(1), make(2),  make(3),  make(4),
                                           make(5), make(6), make(7),  make(8),  make(9),
                                           make(10), make(11), make(12), make(13), make(14)};
  }();
  return programs[static_cast<int>(src)];
}

const std::string& fill_name(size_t itemsize) { return names().fill[size_slot(itemsize)]; }
const std::string& eye_name(size_t itemsize) { return names().eye[size_slot(itemsize)]; }
const std::string& arange_name(DType dt) { return names().arange[static_cast<int>(dt)]; }
const std::string& linspace_name(DType dt) { return names().linspace[static_cast<int>(dt)]; }
const std::string& convert_name(DType src, DType dst) {
  return names().convert[static_cast<int>(src) * kNumDTypes + static_cast<int>(dst)];
}
const std::string& convert_strided_name(DType src, DType dst) {
  return names().strided[static_cast<int>(src) * kNumDTypes + static_cast<int>(dst)];
}
const std::string& gather_name(size_t itemsize) { return names().gather[size_slot(itemsize)]; }

void launch_elementwise(int device, const Program& program, const std::string& expr, int64_t n,
                        void* stream, std::initializer_list<void*> args) {
  constexpr unsigned kBlock = 256;
  void* params[8];
  if (args.size() > 8) throw std::logic_error("[cuda] too many kernel arguments");
  size_t i = 0;
  for (void* a : args) params[i++] = a;
  CUfunction fn = get_function(device, program, expr);
  launch(device, fn, expr.c_str(), grid_size(device, n, kBlock), kBlock, 0, stream, params);
}

}  // namespace loom::cuda
