// The precompiled loom_cuda_emu.h for g++ (about 30 MB, once per compiler, flags and header,
// in <cache>/host-pch): halves the compile of a small kernel.
//
// A damaged .gch is worse than none: g++ fails every compile that uses a truncated one
// ("cannot read PCH file", for every process, until someone deletes it). So each file is
// named after its own checksum, <key>-<MurmurHash3 of its bytes>.gch, and checked before
// first use in a process and again whenever its size, mtime or inode change; one that fails
// is removed and rebuilt. It is built to a temp file and renamed into place, in an
// owner-only folder, and a file or folder not this user's or writable by others is never
// used (compiles then go without a PCH). The compile itself retries without the PCH when g++
// blames it (emu_compile.cpp).
#pragma once
#include <string>

namespace loom::cpu_emulator {

/// The path of an intact precompiled embedded::kEmulatorHeader built by `cxx` (whose
/// identity is `identity`) with `flags`, building it if needed (`dumpdir`: the flags write
/// -fcallgraph-info files, sent to a scratch folder). "" when there is no disk cache, its
/// folder is not private or the build fails; g++ silently ignores a PCH that does not fit
/// (e.g. -D options that change the header), so using it is never wrong.
std::string precompiled_header(const std::string& cxx, const std::string& identity, const std::string& flags,
                               bool dumpdir);

/// Forgets and removes (when it is this user's) a PCH that g++ could not read; this process
/// then compiles without a PCH.
void discard_precompiled_header(const std::string& path);

/// True when a compiler log blames the precompiled header.
bool log_blames_pch(const std::string& log);

}  // namespace loom::cpu_emulator
