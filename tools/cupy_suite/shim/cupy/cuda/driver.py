"""cupy.cuda.driver: the CUDA version loom was built against."""
from .runtime import _version


def get_build_version():
    return _version("cuda_toolkit")
