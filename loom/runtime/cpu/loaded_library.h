// A library built by the host compiler (an ELF image in memory: the CPU kernel emulator's
// modules, jit's fused CPU loops) loaded with dlopen, and unloaded with dlclose when the
// object dies.
//
// dlopen needs a file, and glibc's dlopen returns an object that is already loaded when the
// new file has the same path or the same device and inode: a library written to a temp file
// that is deleted right after dlopen frees its inode for the next library's temp file, which
// then silently resolves to the old library (another module's kernels and parameter counts).
// So the file a library was loaded from lives exactly as long as the library: an anonymous
// memory file (memfd, opened as /proc/self/fd/N) or, where that cannot be loaded, a private
// temp file, kept until dlclose has really unloaded it. A library that stays loaded after
// dlclose (glibc keeps some, e.g. with thread_local destructors) keeps its file for the life
// of the process, so neither its path nor its inode can ever name another library.
#pragma once
#include <string>
#include <string_view>

namespace loom::cpu_runtime {

class LoadedLibrary {
 public:
  /// Loads `elf` (RTLD_NOW | RTLD_LOCAL). Throws std::runtime_error starting with `label`
  /// when it cannot.
  LoadedLibrary(std::string_view elf, const std::string& label);
  ~LoadedLibrary();
  LoadedLibrary(const LoadedLibrary&) = delete;
  LoadedLibrary& operator=(const LoadedLibrary&) = delete;

  void* handle() const { return handle_; }
  /// The path it was loaded from (valid while this object lives).
  const std::string& path() const { return path_; }

  /// How many libraries this process has loaded and not yet unloaded (for tests).
  static size_t live_count();

 private:
  void* handle_ = nullptr;
  int fd_ = -1;         // the memfd, or -1
  std::string path_;    // "/proc/self/fd/N" or the temp file
  std::string dir_;     // the temp file's folder, or ""
};

}  // namespace loom::cpu_runtime
