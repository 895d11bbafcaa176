"""testing._protocol_helpers: objects that expose only __cuda_array_interface__, to test that
loom consumes it. A loom array has that interface on a GPU only: on cpu() the helper skips the
test (a GPU feature)."""
import pytest

import loom


class DummyObjectWithCudaArrayInterface:
    def __init__(self, a, ver=3, include_strides=False, mask=None, stream=None):
        if not isinstance(a, loom.ndarray):
            raise TypeError("DummyObjectWithCudaArrayInterface: give a loom array")
        if not hasattr(a, "__cuda_array_interface__"):
            pytest.skip("__cuda_array_interface__: an array on a GPU only")
        self.a, self.ver, self.include_strides, self.mask, self.stream = a, ver, include_strides, mask, stream

    @property
    def __cuda_array_interface__(self):
        desc = dict(self.a.__cuda_array_interface__)
        desc["version"] = self.ver
        if self.a.flags.c_contiguous and self.include_strides is not True:
            if self.include_strides is None:
                desc["strides"] = None
            else:
                desc.pop("strides", None)
        else:
            desc["strides"] = tuple(self.a.strides)
        if self.mask is not None:
            desc["mask"] = self.mask
        if self.stream is not None:
            desc["stream"] = self.stream
        return desc


class DummyObjectWithCuPyGetNDArray:
    def __init__(self, a):
        self.a = a

    def __cupy_get_ndarray__(self):
        return self.a
