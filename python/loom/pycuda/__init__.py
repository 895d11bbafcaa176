"""PyCUDA's modules over loom: a PyCUDA program runs after `pycuda.X` becomes `loom.pycuda.X`.

`import loom.pycuda.autoinit`, `loom.pycuda.driver` (devices, contexts, memory, streams,
events, kernels' prepared calls), `loom.pycuda.compiler` (SourceModule), `gpuarray`,
`cumath`, `curandom`, `elementwise`, `reduction`, `tools` and `characterize` keep PyCUDA's
names and its rule that device pointers are integers. Arrays are loom arrays (GPUArray is
loom's ndarray), so NumPy's whole API works on them too.

Devices: the GPUs loom sees; on a machine without one (or with LOOM_DEVICE=cpu) a single
device, cpu(), where kernels run in loom's CPU kernel emulator and "device memory" is host
memory. docs/site/porting/pycuda.md lists what differs.
"""
VERSION = (2025, 1, 0)
VERSION_STATUS = "loom"
VERSION_TEXT = "2025.1 (loom)"
