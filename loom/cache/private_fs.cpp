#include "loom/cache/private_fs.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <functional>
#include <thread>

namespace loom::cache_fs {
namespace {

bool writable_by_others(const struct stat& st) { return (st.st_mode & (S_IWGRP | S_IWOTH)) != 0; }

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

bool owned_by_me(const struct stat& st) { return st.st_uid == ::geteuid(); }

bool trusted_file(const struct stat& st) { return S_ISREG(st.st_mode) && owned_by_me(st) && !writable_by_others(st); }

bool trusted_dir(const std::string& dir) {
  struct stat st;
  return ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && owned_by_me(st) && !writable_by_others(st);
}

bool make_private_dir(const std::string& dir) {
  for (size_t pos = 1; pos <= dir.size(); ++pos) {
    if (pos != dir.size() && dir[pos] != '/') continue;
    const std::string part = dir.substr(0, pos);
    if (::mkdir(part.c_str(), 0700) != 0 && errno != EEXIST) return false;
  }
  return trusted_dir(dir);
}

bool write_private_file(const std::string& path, std::string_view bytes) {
  static std::atomic<uint64_t> counter{0};
  // Unique per process and thread; O_EXCL never reuses a stale temp file of a crash.
  const std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." +
                          std::to_string(std::hash<std::thread::id>()(std::this_thread::get_id()) % 100000) + "." +
                          std::to_string(counter.fetch_add(1));
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return false;
  bool ok = write_all(fd, bytes);
  ok = (::close(fd) == 0) && ok;
  // rename() is atomic within a folder: readers see the old file, or the whole new one.
  ok = ok && ::rename(tmp.c_str(), path.c_str()) == 0;
  if (!ok) ::unlink(tmp.c_str());
  return ok;
}

ReadResult read_trusted_file(const std::string& path, std::string* out, struct stat* st_out) {
  struct stat local;
  struct stat& st = st_out ? *st_out : local;
  // O_NOFOLLOW: a symbolic link planted in place of an entry is refused (ELOOP), not followed.
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)};
  if (f.fd < 0) {
    if (errno == ENOENT) return ReadResult::kMissing;
    if (errno == ELOOP && ::lstat(path.c_str(), &st) == 0) return ReadResult::kForeign;
    return ReadResult::kUnreadable;
  }
  if (::fstat(f.fd, &st) != 0) return ReadResult::kUnreadable;
  if (!trusted_file(st)) return ReadResult::kForeign;  // checked on the open file: no race
  out->resize(static_cast<size_t>(st.st_size));
  size_t got = 0;
  while (got < out->size()) {
    const ssize_t r = ::read(f.fd, out->data() + got, out->size() - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += static_cast<size_t>(r);
  }
  if (got != out->size()) return ReadResult::kUnreadable;  // shrank while reading
  return ReadResult::kOk;
}

bool write_all(int fd, std::string_view bytes) {
  const char* p = bytes.data();
  size_t n = bytes.size();
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

}  // namespace loom::cache_fs
