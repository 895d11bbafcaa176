"""cupy.cuda as far as the suite's in-scope tests read it for facts about the device: the
runtime and driver versions, HIP or not, devices as context managers, whether CUB or cuTENSOR
routines are available (loom has no such switch: False). The memory pools, allocators, streams
and library handles of CuPy are not here: an attribute the tests read beyond these raises an
AttributeError naming it."""
import loom as _loom

from . import device, driver, runtime  # noqa: F401
from . import cub, cusolver, cutensor  # noqa: F401

OutOfMemoryError = _loom.OutOfMemoryError


class _Memory:
    OutOfMemoryError = _loom.OutOfMemoryError


memory = _Memory()


class Device:
    """cupy.cuda.Device(i): gpu(i) as the current device inside `with`; `.id` its index."""

    def __init__(self, device=None):
        if device is None:
            d = _loom.default_device()
            device = d.index if d.type == "cuda" else 0
        self.id = int(device)
        self._ctx = None

    def __enter__(self):
        self._ctx = _loom.device(_loom.gpu(self.id))
        self._ctx.__enter__()
        return self

    def __exit__(self, *exc):
        return self._ctx.__exit__(*exc)

    def use(self):
        _loom.set_default_device(_loom.gpu(self.id))

    def synchronize(self):
        _loom.synchronize(_loom.gpu(self.id))

    @property
    def compute_capability(self):
        major, minor = _loom.gpu(self.id).compute_capability
        return f"{major}{minor}"

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self):
        return hash(self.id)


def is_available():
    return _loom.num_gpus() > 0


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise AttributeError(f"cupy.cuda.{name}: loom has no equivalent (CuPy's CUDA internals)")
