#include "loom/backend/cuda/sorting_programs.h"

#include <array>
#include <vector>

#include "loom/backend/cuda/programs.h"

namespace loom::cuda {
namespace {

const char* index_type(bool index64) { return index64 ? "unsigned long long" : "unsigned int"; }

const char* bits_type(size_t bytes) {
  return bytes == 1 ? "unsigned char" : bytes == 2 ? "unsigned short" : bytes == 4 ? "unsigned int"
                                                                                  : "unsigned long long";
}

std::string pair(const char* fn, const std::string& a, const char* b) {
  return std::string(fn) + "<" + a + ", " + b + ">";
}

}  // namespace

std::string sort_keys_name(DType dt, bool index64) {
  return pair("loom_sort_keys", device_type_name(dt), index_type(index64));
}
std::string searchsorted_name(DType dt) {
  return std::string("loom_searchsorted<") + device_type_name(dt) + ">";
}
std::string sort_rows_name(bool index64) { return std::string("loom_sort_rows<") + index_type(index64) + ">"; }
std::string sort_gather_name(size_t bytes, bool index64) {
  return pair("loom_sort_gather", bits_type(bytes), index_type(index64));
}
std::string sort_local_name(bool index64) { return std::string("loom_sort_local<") + index_type(index64) + ">"; }
std::string unique_flags_name(size_t bytes, bool index64) {
  return pair("loom_unique_flags", bits_type(bytes), index_type(index64));
}
std::string unique_scatter_name(size_t bytes, bool index64) {
  return pair("loom_unique_scatter", bits_type(bytes), index_type(index64));
}

SelectNames select_names(DType dt) {
  const std::string t = std::string("<") + device_type_name(dt) + ">";
  return {"loom_select_init",          "loom_select_scan",
          "loom_select_hist" + t,      "loom_select_finish" + t,
          "loom_select_chunk_counts" + t, "loom_select_resolve" + t};
}

const Program& sort_dtype_program(DType dt) {
  static const std::array<Program, kNumDTypes> programs = [] {
    auto make = [](int t) {
      const DType d = static_cast<DType>(t);
      // Complex arrays are sorted by ops/sorting_complex.cpp's real passes: only searchsorted.
      std::vector<std::string> exprs{searchsorted_name(d)};
      if (!is_complex(d)) exprs = {sort_keys_name(d, false), sort_keys_name(d, true), searchsorted_name(d)};
      return Program(std::string("loom_sorting_") + dtype_name(d) + ".cu", "#include \"loom_sorting.cuh\"\n", exprs);
    };
    return std::array<Program, kNumDTypes>{make(0), make(1),  make(2),  make(3),  make(4),
                                           make(5), make(6),  make(7),  make(8),  make(9),
                                           make(10), make(11), make(12), make(13), make(14)};
  }();
  return programs[static_cast<int>(dt)];
}

const Program& sort_index_program(bool index64) {
  static const std::array<Program, 2> programs = [] {
    auto make = [](bool i64) {
      std::vector<std::string> exprs = {sort_rows_name(i64), sort_local_name(i64), check_sorter_name()};
      for (size_t b : {1, 2, 4, 8}) exprs.push_back(sort_gather_name(b, i64));
      return Program(std::string("loom_sorting_index") + (i64 ? "64" : "32") + ".cu",
                     "#include \"loom_sorting.cuh\"\n", exprs);
    };
    return std::array<Program, 2>{make(false), make(true)};
  }();
  return programs[index64 ? 1 : 0];
}

const Program& unique_program(bool index64) {
  static const std::array<Program, 2> programs = [] {
    auto make = [](bool i64) {
      std::vector<std::string> exprs = {unique_counts_name()};
      for (size_t b : {1, 2, 4, 8}) {
        exprs.push_back(unique_flags_name(b, i64));
        exprs.push_back(unique_scatter_name(b, i64));
      }
      return Program(std::string("loom_unique_index") + (i64 ? "64" : "32") + ".cu",
                     "#include \"loom_sorting.cuh\"\n", exprs);
    };
    return std::array<Program, 2>{make(false), make(true)};
  }();
  return programs[index64 ? 1 : 0];
}

const Program& select_program(DType dt) {
  static const std::array<Program, kNumRealDTypes> programs = [] {
    auto make = [](int t) {
      const DType d = static_cast<DType>(t);
      const SelectNames n = select_names(d);
      return Program(std::string("loom_select_") + dtype_name(d) + ".cu", "#include \"loom_select.cuh\"\n",
                     {n.init, n.scan, n.hist, n.finish, n.chunk_counts, n.resolve});
    };
    return std::array<Program, kNumRealDTypes>{make(0), make(1), make(2),  make(3),  make(4),
                                               make(5), make(6), make(7),  make(8),  make(9),
                                               make(10), make(11), make(12)};
  }();
  return programs[static_cast<int>(dt)];
}

}  // namespace loom::cuda
