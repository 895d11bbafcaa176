#include "loom/backend/cuda/counting_programs.h"

#include <array>
#include <vector>

#include "loom/backend/cuda/programs.h"

namespace loom::cuda {
namespace {

// No FMA contraction: the histogram's arithmetic must round as NumPy's and the CPU's.
std::vector<std::string> options() { return {"--fmad=false"}; }

const char* elem(DType dt) { return device_type_name(dt == bool_ ? uint8 : dt); }

bool wide_varies(DType dt) { return dt == float16 || dt == float32; }

const char* bin_type(DType dt) { return is_floating(dt) ? device_type_name(dt) : "double"; }

Program make(DType dt, CountingGroup g) {
  std::vector<std::string> exprs;
  const bool integer = !is_floating(dt);
  auto histograms = [&](int w) {
    exprs.push_back(histogram_name(dt, false, w));
    if (wide_varies(dt)) exprs.push_back(histogram_name(dt, true, w));
  };
  if (g == CountingGroup::plain) {
    exprs = {minmax_partial_name(dt), minmax_final_name(dt)};
    if (integer) exprs.push_back(bincount_name(dt, 0));
    histograms(0);
  } else if (g == CountingGroup::weighted) {
    for (int w : {1, 2}) {
      if (integer) exprs.push_back(bincount_name(dt, w));
      histograms(w);
    }
  } else {
    histograms(3);
  }
  static const char* const kGroup[] = {"", "_weighted", "_bins"};
  return Program(std::string("loom_counting_") + dtype_name(dt) + kGroup[static_cast<int>(g)] + ".cu",
                 "#include \"loom_counting.cuh\"\n", exprs, options());
}

// The dtypes with programs, in DType order: bool maps to uint8's.
constexpr DType kDTypes[] = {int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64};
constexpr int kNumCounting = sizeof(kDTypes) / sizeof(kDTypes[0]);

int slot(DType dt) {
  if (dt == bool_) dt = uint8;
  for (int i = 0; i < kNumCounting; ++i)
    if (kDTypes[i] == dt) return i;
  return -1;
}

}  // namespace

bool counting_dtype(DType dt) { return slot(dt) >= 0; }

const Program& counting_program(DType dt, CountingGroup group) {
  static const std::vector<Program> programs = [] {
    std::vector<Program> v;
    v.reserve(kNumCounting * 3);
    for (DType d : kDTypes)
      for (CountingGroup g : {CountingGroup::plain, CountingGroup::weighted, CountingGroup::bins}) v.push_back(make(d, g));
    return v;
  }();
  return programs[static_cast<size_t>(slot(dt) * 3 + static_cast<int>(group))];
}

std::string minmax_partial_name(DType dt) { return std::string("loom_minmax_partial<") + elem(dt) + ">"; }
std::string minmax_final_name(DType dt) { return std::string("loom_minmax_final<") + elem(dt) + ">"; }
std::string bincount_name(DType dt, int w) {
  return std::string("loom_bincount<") + elem(dt) + ", " + std::to_string(w) + ">";
}
std::string histogram_name(DType dt, bool wide, int w) {
  return std::string("loom_histogram<") + elem(dt) + ", " + bin_type(dt) + ", " +
         (wide && wide_varies(dt) ? "true" : "false") + ", " + std::to_string(w) + ">";
}

}  // namespace loom::cuda
