// Profiling sessions (docs/PROFILER.md): the runtime's recorder (runtime/profiler.h) plus a
// dispatch hook that times every op, generated kernel, fused jit kernel and user kernel
// launch at loom's one dispatch point.
#pragma once
#include <vector>

#include "loom/runtime/profiler.h"

namespace loom::profiler {

/// Starts the process-wide session and registers the op hook (std::runtime_error if a
/// session is already active).
void start_session();
/// Unregisters the hook and returns the session's events (profiler::stop()).
std::vector<Record> stop_session();
/// Whether a session is recording.
inline bool session_active() { return active(); }

}  // namespace loom::profiler
