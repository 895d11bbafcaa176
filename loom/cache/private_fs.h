// Files that loom will later load as code (compile cache entries, the emulator's
// precompiled header) live in folders only their owner can write, and are trusted only when
// this user owns them and no one else can write them, as ccache's and Python's __pycache__
// caches are: anyone who could plant or patch such a file could run code in loom's process.
// The rules, and every place loom writes a file: docs/ARCHITECTURE.md §14.
#pragma once
#include <sys/stat.h>

#include <string>
#include <string_view>

namespace loom::cache_fs {

/// True when `st` is a regular file of this user that group and others cannot write.
bool trusted_file(const struct stat& st);
/// True when `st` belongs to this user (whatever its mode).
bool owned_by_me(const struct stat& st);

/// True when `dir` (symbolic links followed) is a folder of this user that group and others
/// cannot write.
bool trusted_dir(const std::string& dir);

/// Creates `dir` and its missing parents owner-only (0700), then says whether `dir` is
/// trusted (an existing folder keeps its mode: one that others could write stays untrusted,
/// since files may already have been planted in it).
bool make_private_dir(const std::string& dir);

/// Writes `bytes` to `path` whole or not at all: a unique owner-only (0600) temp file in the
/// same folder, renamed into place. False (and nothing left behind) when it cannot.
bool write_private_file(const std::string& path, std::string_view bytes);

/// Reads the file at `path` into `out` when it exists and is trusted (no symbolic link is
/// followed). Otherwise returns what stopped it.
enum class ReadResult { kOk, kMissing, kForeign, kUnreadable };
ReadResult read_trusted_file(const std::string& path, std::string* out, struct stat* st = nullptr);

/// Writes all of `bytes` to `fd` (retrying short writes and EINTR); false on an error.
bool write_all(int fd, std::string_view bytes);

}  // namespace loom::cache_fs
