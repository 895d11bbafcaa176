"""cuda.core._utils.cuda_utils (cuda-python): CUDAError is loom.CudaError."""
from loom import CudaError as CUDAError  # noqa: F401
