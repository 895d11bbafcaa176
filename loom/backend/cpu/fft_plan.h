// The CPU FFT evals' plan cache (backend/cpu/fft.cpp), visible to its test.
#pragma once
#include <cstddef>

namespace loom::cpu_backend {

struct FftPlanStats {
  size_t size = 0, capacity = 0, hits = 0, misses = 0;
};
/// The FFTW plan cache's counters (all zero in a build without FFTW).
FftPlanStats fft_plan_stats();
/// Drops every cached plan (tests; plans in use by another thread live until it finishes).
void fft_plan_clear();
/// True when loom was built with FFTW.
bool have_fftw();

}  // namespace loom::cpu_backend
