"""The Numba settings (numba.cuda.config) that loom honours, as `loom.cuda.config`:

CUDA_NVRTC_EXTRA_SEARCH_PATHS: folders, separated by ':', where the CUDA C++ a kernel links
  (link=, cuda.declare_device) finds the headers it #includes; each becomes an -I option of the
  kernel's compile (NVRTC on a GPU, the emulator's host compiler on cpu()). Read from the
  environment variable NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS at import, as Numba reads it, and
  settable in code (config.CUDA_NVRTC_EXTRA_SEARCH_PATHS = "..."), which later compiles use.

Numba's other settings tune Numba's own machinery; reading one here is an AttributeError."""
import os

CUDA_NVRTC_EXTRA_SEARCH_PATHS = os.environ.get("NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS", "")


def include_options():
    """The -I options of CUDA_NVRTC_EXTRA_SEARCH_PATHS."""
    paths = CUDA_NVRTC_EXTRA_SEARCH_PATHS
    if not isinstance(paths, str):
        raise TypeError("[loom.cuda.config] CUDA_NVRTC_EXTRA_SEARCH_PATHS is a string of folders separated by ':', "
                        f"not {type(paths).__name__}")
    return [f"-I{p}" for p in paths.split(":") if p]
