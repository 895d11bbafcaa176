"""pycuda.gpuarray.vec: CUDA's vector types as NumPy structured dtypes (fields x, y, z, w) and
their make_* constructors, which return a 0-d array of the type (PyCUDA passes its bytes as a
kernel's struct argument)."""
import numpy as np

_BASES = {"char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16,
          "int": np.int32, "uint": np.uint32, "long": np.int64, "ulong": np.uint64,
          "longlong": np.int64, "ulonglong": np.uint64, "float": np.float32, "double": np.float64}
_FIELDS = "xyzw"

types = {}


def _register(name, base, count):
    base = np.dtype(base)
    # CUDA aligns 2- and 4-component types to their size (float4: 16 bytes), 1 and 3 to the base.
    align = base.itemsize * count if count in (2, 4) and base.itemsize * count <= 16 else base.itemsize
    size = base.itemsize * count
    dtype = np.dtype({"names": list(_FIELDS[:count]), "formats": [base] * count,
                      "offsets": [i * base.itemsize for i in range(count)], "itemsize": -(-size // align) * align})
    globals()[name] = types[name] = dtype

    def make(*values):
        if len(values) != count:
            raise TypeError(f"[make_{name}] takes {count} values, got {len(values)}")
        return np.array(tuple(values), dtype=dtype)

    make.__name__ = f"make_{name}"
    globals()[make.__name__] = make

    def filled(value):
        return make(*([value] * count))

    filled.__name__ = f"filled_{name}"
    globals()[filled.__name__] = filled


for _n, _b in _BASES.items():
    for _c in (1, 2, 3, 4):
        _register(f"{_n}{_c}", _b, _c)
