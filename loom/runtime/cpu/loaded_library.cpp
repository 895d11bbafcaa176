#include "loom/runtime/cpu/loaded_library.h"

#include "loom/cache/private_fs.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <mutex>
#include <set>
#include <stdexcept>

namespace loom::cpu_runtime {
namespace {

// Every handle dlopen gave this process that may still be loaded (libraries that outlived
// their dlclose stay here). dlopen and dlclose run under `mu`, so a handle value freed by
// one dlclose and reused by the next dlopen is never mistaken for a library loaded twice.
std::mutex mu;
std::set<void*>& handles() {
  static auto* s = new std::set<void*>;  // never destroyed: libraries may unload at exit
  return *s;
}
std::atomic<size_t> live{0};

std::string temp_root() {
  const char* t = std::getenv("TMPDIR");
  return t && *t ? t : "/tmp";
}

}  // namespace

LoadedLibrary::LoadedLibrary(std::string_view elf, const std::string& label) {
  std::lock_guard<std::mutex> lock(mu);
  std::string error;
  // An anonymous memory file: no disk, no noexec /tmp, and its inode is ours while fd_ is open.
  fd_ = ::memfd_create("loom-compiled-library", MFD_CLOEXEC);
  if (fd_ >= 0 && cache_fs::write_all(fd_, elf)) {
    path_ = "/proc/self/fd/" + std::to_string(fd_);
    handle_ = ::dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) error = ::dlerror();
  }
  if (!handle_ && fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
  if (!handle_) {
    // No memfd (or a kernel that refuses to map one executable, vm.memfd_noexec): a private
    // temp file, kept until the library is unloaded (docs/ARCHITECTURE.md §14).
    std::string tmpl = temp_root() + "/loom-lib-XXXXXX";
    if (::mkdtemp(tmpl.data())) {
      dir_ = tmpl;
      path_ = dir_ + "/module.so";
      const int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0700);
      const bool written = fd >= 0 && cache_fs::write_all(fd, elf);
      if (fd >= 0) ::close(fd);
      if (written) handle_ = ::dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!handle_) {
        if (written) error = ::dlerror();
        ::unlink(path_.c_str());
        ::rmdir(dir_.c_str());
      }
    }
  }
  if (!handle_)
    throw std::runtime_error(label + " cannot load its compiled library" +
                             (error.empty() ? std::string() : ": " + error));
  if (!handles().insert(handle_).second) {
    // glibc handed back an object loaded before: its kernels are not this library's. The
    // files above make this impossible; refuse rather than run the wrong code.
    ::dlclose(handle_);
    if (fd_ >= 0) ::close(fd_);
    if (!dir_.empty()) {
      ::unlink(path_.c_str());
      ::rmdir(dir_.c_str());
    }
    throw std::runtime_error(label + " compiled library resolved to another library already loaded");
  }
  live.fetch_add(1);
}

LoadedLibrary::~LoadedLibrary() {
  std::lock_guard<std::mutex> lock(mu);
  live.fetch_sub(1);
  ::dlclose(handle_);
  // Still loaded (glibc may keep a library)? Its file must then stay, or a later library
  // could reuse its path or inode and resolve to it.
  if (void* again = ::dlopen(path_.c_str(), RTLD_LAZY | RTLD_NOLOAD)) {
    ::dlclose(again);
    return;
  }
  handles().erase(handle_);
  if (fd_ >= 0) ::close(fd_);
  if (!dir_.empty()) {
    ::unlink(path_.c_str());
    ::rmdir(dir_.c_str());
  }
}

size_t LoadedLibrary::live_count() { return live.load(); }

}  // namespace loom::cpu_runtime
