// Keeping the precompiled-header folder small: each loom version, compiler or header
// change makes a new ~30 MB .gch and nothing else would ever delete the old ones.
#pragma once
#include <ctime>
#include <string>

namespace loom::cpu_emulator {

constexpr time_t kPchMaxIdleSeconds = 7 * 24 * 3600;  // unused this long: deleted
constexpr size_t kPchMaxFiles = 4;                     // at most this many, oldest deleted first
constexpr time_t kPchTempMaxAgeSeconds = 3600;         // a build's *.tmp<pid> left by a killed process

/// Deletes, in `folder`, the .gch files other than `keep` (a file name) whose mtime is
/// more than kPchMaxIdleSeconds before `now`, then the oldest others until at most
/// kPchMaxFiles remain (`keep` counted), and `*.tmp<pid>` files older than an hour. A
/// .gch's mtime is its last use (precompiled_header touches it once per process). Never
/// throws: a file that cannot be deleted stays.
void prune_precompiled_headers(const std::string& folder, const std::string& keep, time_t now) noexcept;

}  // namespace loom::cpu_emulator
