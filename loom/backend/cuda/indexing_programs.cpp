#include "loom/backend/cuda/indexing_programs.h"

#include <array>
#include <stdexcept>
#include <vector>

#include "loom/backend/cuda/programs.h"

namespace loom::cuda {
namespace {

// Element carriers by size; the 16-byte one (complex128) only moves elements (gather, scatter).
// complex128's multiply/min/max combine in order (loom_index_combine_runs): no atomic covers
// 16 bytes.
constexpr const char* kBits[5] = {"unsigned char", "unsigned short", "unsigned int", "unsigned long long",
                                  "loom_complex128"};

int size_slot(size_t itemsize) {
  return itemsize == 1 ? 0 : itemsize == 2 ? 1 : itemsize == 4 ? 2 : itemsize == 8 ? 3 : 4;
}

// nonzero variants: (bits, float) for bool/ints of each size and the three float sizes.
int nz_slot(DType dt) {
  const int s = size_slot(itemsize(dt));
  return is_floating(dt) ? 3 + s : s;  // float slots 4 (2 bytes), 5 (4), 6 (8)
}

struct Names {
  std::string offsets = "loom_index_offsets", scan = "loom_nonzero_scan";
  std::array<std::string, 5> gather, gather_direct, scatter;
  std::string targets = "loom_index_targets";
  std::array<std::string, kNumDTypes * 4> combine;  // scatter-add & co.
  std::array<std::string, 7> nz_count, nz_write;
  Names() {
    for (int i = 0; i < 5; ++i) {
      gather[i] = std::string("loom_index_gather<") + kBits[i] + ">";
      gather_direct[i] = std::string("loom_index_gather_direct<") + kBits[i] + ">";
      scatter[i] = std::string("loom_index_scatter<") + kBits[i] + ">";
    }
    for (int t = 0; t < kNumDTypes; ++t)
      for (int m = 0; m < 4; ++m) {
        const bool runs = static_cast<DType>(t) == DType::complex128 && m > 0;
        combine[t * 4 + m] = std::string(runs ? "loom_index_combine_runs<" : "loom_index_combine<") +
                             device_type_name(static_cast<DType>(t)) + ", " + std::to_string(m + 1) + ">";
      }
    for (int v = 0; v < 7; ++v) {
      const std::string args = std::string(kBits[v < 4 ? v : v - 3]) + (v < 4 ? ", false>" : ", true>");
      nz_count[v] = "loom_nonzero_count<" + args;
      nz_write[v] = "loom_nonzero_write<" + args;
    }
  }
};

const Names& names() {
  static const Names n;
  return n;
}

}  // namespace

const Program& index_program() {
  static const Program p = [] {
    const Names& n = names();
    std::vector<std::string> exprs{n.offsets};
    exprs.insert(exprs.end(), n.gather.begin(), n.gather.end());
    exprs.insert(exprs.end(), n.gather_direct.begin(), n.gather_direct.end());
    exprs.insert(exprs.end(), n.scatter.begin(), n.scatter.end());
    exprs.push_back(n.targets);
    return Program("loom_index.cu", "#include \"loom_indexing.cuh\"\n", exprs);
  }();
  return p;
}

const Program& index_combine_program(DType dt) {
  static const std::array<Program, kNumDTypes> programs = [] {
    auto make = [](int t) {
      const Names& n = names();
      std::vector<std::string> exprs(n.combine.begin() + t * 4, n.combine.begin() + t * 4 + 4);
      // Complex multiply and comparisons are loom_complex.cuh's (NumPy's), parsed only here.
      const bool cplx = is_complex(static_cast<DType>(t));
      // No FMA contraction and no fast math: float results match the CPU backend.
      return Program(std::string("loom_index_combine_") + dtype_name(static_cast<DType>(t)) + ".cu",
                     std::string(cplx ? "#include \"loom_complex.cuh\"\n" : "") + "#include \"loom_indexing.cuh\"\n",
                     exprs, {"--fmad=false"});
    };
    return std::array<Program, kNumDTypes>{make(0), make(1),  make(2),  make(3),  make(4),
                                           make(5), make(6),  make(7),  make(8),  make(9),
                                           make(10), make(11), make(12), make(13), make(14)};
  }();
  return programs[static_cast<int>(dt)];
}

const Program& nonzero_program() {
  static const Program p = [] {
    const Names& n = names();
    std::vector<std::string> exprs{n.scan};
    exprs.insert(exprs.end(), n.nz_count.begin(), n.nz_count.end());
    exprs.insert(exprs.end(), n.nz_write.begin(), n.nz_write.end());
    return Program("loom_nonzero.cu", "#include \"loom_indexing_nonzero.cuh\"\n", exprs);
  }();
  return p;
}

const std::string& index_offsets_name() { return names().offsets; }
const std::string& index_targets_name() { return names().targets; }
const std::string& index_gather_name(size_t itemsize) { return names().gather[size_slot(itemsize)]; }
const std::string& index_gather_direct_name(size_t itemsize) { return names().gather_direct[size_slot(itemsize)]; }
const std::string& index_scatter_name(size_t itemsize) { return names().scatter[size_slot(itemsize)]; }
const std::string& index_combine_name(DType dt, ScatterMode mode) {
  if (mode == ScatterMode::set) throw std::logic_error("[index] set has no combine kernel");
  return names().combine[static_cast<int>(dt) * 4 + static_cast<int>(mode) - 1];
}
const std::string& nonzero_count_name(DType dt) { return names().nz_count[nz_slot(dt)]; }
const std::string& nonzero_write_name(DType dt) { return names().nz_write[nz_slot(dt)]; }
const std::string& nonzero_scan_name() { return names().scan; }

}  // namespace loom::cuda
