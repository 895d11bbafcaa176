"""A stand-in for NVIDIA's cuda-python, for the one name Numba-CUDA's tests import from it
(cuda.core._utils.cuda_utils.CUDAError): loom's equivalent is loom.CudaError. loom itself
never imports cuda-python."""
