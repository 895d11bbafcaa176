"""cupy.cuda.runtime: the facts the suite's tests read (HIP or CUDA, the runtime's version)."""
import loom as _loom

is_hip = False


def _version(key):
    """'13.0' in loom.build_info() as CUDA's integer 13000."""
    text = _loom.build_info().get(key) or ""
    parts = [int(p) for p in text.split(".")[:2] if p.isdigit()]
    if not parts:
        raise RuntimeError(f"cupy.cuda.runtime: loom was built without a CUDA {key} (build_info()[{key!r}] is empty)")
    return parts[0] * 1000 + (parts[1] * 10 if len(parts) > 1 else 0)


def runtimeGetVersion():
    return _version("cuda_runtime")


def getDeviceCount():
    return _loom.num_gpus()


def deviceCanAccessPeer(device, peer):
    return int(device != peer and max(device, peer) < _loom.num_gpus())
