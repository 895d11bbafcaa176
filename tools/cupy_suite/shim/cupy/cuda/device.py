"""cupy.cuda.device.get_compute_capability(), read by CuPy's FFT tests to skip cases that fail
on Pascal-era GPUs (a capability below 70)."""
import loom as _loom


def get_compute_capability():
    """The current GPU's capability ('90'); with no GPU (loom's cpu()), '999': cpu() has none of
    the old GPUs' faults those skips are for, so none of them applies."""
    d = _loom.default_device()
    if d.type != "cuda":
        return "999"
    major, minor = d.compute_capability
    return f"{major}{minor}"
