"""NVML (libnvidia-ml.so.1) through ctypes, loaded at run time: the build never needs it.

`Nvml.open()` returns a session, or raises NvmlUnavailable with the reason (no library, no
driver, ...), which `loom top` shows where the GPU rows would be. Each query returns None
for what a GPU or driver does not support (NVML_ERROR_NOT_SUPPORTED and friends), so one
missing counter never hides the others.

The structures are NVML's public ABI (nvml.h): only the versions every driver since R450
has are used, with fallbacks where a newer version replaced an old one.
"""
import ctypes

SUCCESS = 0
ERROR_INSUFFICIENT_SIZE = 7
TEMPERATURE_GPU = 0
PCIE_UTIL_TX_BYTES, PCIE_UTIL_RX_BYTES = 0, 1
# Field ids of nvmlDeviceGetFieldValues: cumulative NVLink data KiB over all links.
FI_NVLINK_THROUGHPUT_DATA_TX, FI_NVLINK_THROUGHPUT_DATA_RX = 138, 139
_NOT_AVAILABLE = 2**64 - 1  # NVML_VALUE_NOT_AVAILABLE for unsigned long long


class NvmlUnavailable(RuntimeError):
    """NVML cannot be used here; str() says why."""


class Utilization(ctypes.Structure):
    _fields_ = [("gpu", ctypes.c_uint), ("memory", ctypes.c_uint)]


class Memory(ctypes.Structure):
    _fields_ = [("total", ctypes.c_ulonglong), ("free", ctypes.c_ulonglong), ("used", ctypes.c_ulonglong)]


class ProcessInfo(ctypes.Structure):  # nvmlProcessInfo_t of the _v2/_v3 queries
    _fields_ = [("pid", ctypes.c_uint), ("usedGpuMemory", ctypes.c_ulonglong),
                ("gpuInstanceId", ctypes.c_uint), ("computeInstanceId", ctypes.c_uint)]


class ProcessInfoV1(ctypes.Structure):  # the unversioned query of older drivers
    _fields_ = [("pid", ctypes.c_uint), ("usedGpuMemory", ctypes.c_ulonglong)]


class _Value(ctypes.Union):
    _fields_ = [("dVal", ctypes.c_double), ("uiVal", ctypes.c_uint), ("ulVal", ctypes.c_ulong),
                ("ullVal", ctypes.c_ulonglong), ("sllVal", ctypes.c_longlong)]


class FieldValue(ctypes.Structure):
    _fields_ = [("fieldId", ctypes.c_uint), ("scopeId", ctypes.c_uint), ("timestamp", ctypes.c_longlong),
                ("latencyUsec", ctypes.c_longlong), ("valueType", ctypes.c_int),
                ("nvmlReturn", ctypes.c_int), ("value", _Value)]


def _field_number(f):
    """The value of a FieldValue by its nvmlValueType_t, or None when NVML failed on it."""
    if f.nvmlReturn != SUCCESS:
        return None
    return [f.value.dVal, f.value.uiVal, f.value.ulVal, f.value.ullVal, f.value.sllVal][f.valueType] \
        if 0 <= f.valueType <= 4 else None


def load_library(name="libnvidia-ml.so.1"):
    """The NVML library object; NvmlUnavailable when the system has none."""
    try:
        return ctypes.CDLL(name)
    except OSError as e:
        raise NvmlUnavailable(f"NVML not found ({e}); is the NVIDIA driver installed?") from None


class Nvml:
    """One initialised NVML session over `lib` (a ctypes library, or any object with NVML's
    functions as attributes: the tests pass a fake). Close it with close() or `with`."""

    def __init__(self, lib):
        self._lib = lib
        self._check(self._call_raw("nvmlInit_v2"), "nvmlInit_v2")
        self._open = True

    @classmethod
    def open(cls, lib=None):
        return cls(load_library() if lib is None else lib)

    def close(self):
        if self._open:
            self._open = False
            self._call_raw("nvmlShutdown")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- plumbing ------------------------------------------------------------------
    def _fn(self, name):
        return getattr(self._lib, name, None)

    def _call_raw(self, name, *args):
        fn = self._fn(name)
        if fn is None:
            raise NvmlUnavailable(f"NVML has no {name} (driver too old?)")
        return fn(*args)

    def _error(self, rc):
        fn = self._fn("nvmlErrorString")
        if fn is not None:
            if isinstance(fn, ctypes._CFuncPtr):  # a real library returns char*, not int
                fn.restype = ctypes.c_char_p
            s = fn(rc)
            if s:
                return s.decode() if isinstance(s, bytes) else str(s)
        return f"error {rc}"

    def _check(self, rc, what):
        if rc != SUCCESS:
            raise NvmlUnavailable(f"{what} failed: {self._error(rc)}")

    def _query(self, name, *args):
        """Calls an NVML getter; True on success, False when it failed or does not exist."""
        fn = self._fn(name)
        return fn is not None and fn(*args) == SUCCESS

    # ---- system and devices --------------------------------------------------------
    def driver_version(self):
        buf = ctypes.create_string_buffer(96)
        return buf.value.decode() if self._query("nvmlSystemGetDriverVersion", buf, ctypes.c_uint(96)) else None

    def device_count(self):
        n = ctypes.c_uint(0)
        self._check(self._call_raw("nvmlDeviceGetCount_v2", ctypes.byref(n)), "nvmlDeviceGetCount_v2")
        return n.value

    def handle(self, index):
        h = ctypes.c_void_p()
        self._check(self._call_raw("nvmlDeviceGetHandleByIndex_v2", ctypes.c_uint(index), ctypes.byref(h)),
                    f"nvmlDeviceGetHandleByIndex_v2({index})")
        return h

    def index_of_pci_bus(self, bus_id):
        """NVML's index of the GPU at PCI address `bus_id` ("0000:65:00.0"), or None."""
        h = ctypes.c_void_p()
        if not self._query("nvmlDeviceGetHandleByPciBusId_v2", ctypes.c_char_p(bus_id.encode()), ctypes.byref(h)):
            return None
        i = ctypes.c_uint()
        return i.value if self._query("nvmlDeviceGetIndex", h, ctypes.byref(i)) else None

    def _string(self, name, h, size):
        buf = ctypes.create_string_buffer(size)
        return buf.value.decode(errors="replace") if self._query(name, h, buf, ctypes.c_uint(size)) else None

    def name(self, h):
        return self._string("nvmlDeviceGetName", h, 96)

    def uuid(self, h):
        return self._string("nvmlDeviceGetUUID", h, 96)

    def utilization(self, h):
        """(gpu %, memory-controller %) over the driver's last sample period, or None."""
        u = Utilization()
        return (u.gpu, u.memory) if self._query("nvmlDeviceGetUtilizationRates", h, ctypes.byref(u)) else None

    def memory(self, h):
        """(used, total) bytes, or None."""
        m = Memory()
        return (m.used, m.total) if self._query("nvmlDeviceGetMemoryInfo", h, ctypes.byref(m)) else None

    def _uint(self, name, h, *args):
        v = ctypes.c_uint()
        return v.value if self._query(name, h, *args, ctypes.byref(v)) else None

    def temperature(self, h):
        """Degrees Celsius of the GPU die, or None."""
        return self._uint("nvmlDeviceGetTemperature", h, ctypes.c_int(TEMPERATURE_GPU))

    def power(self, h):
        """(draw, enforced limit) in watts; either may be None."""
        mw = self._uint("nvmlDeviceGetPowerUsage", h)
        limit = self._uint("nvmlDeviceGetEnforcedPowerLimit", h)
        return (None if mw is None else mw / 1000.0, None if limit is None else limit / 1000.0)

    def pcie_throughput(self, h):
        """(tx, rx) bytes per second over NVML's 20 ms window; either may be None."""
        tx = self._uint("nvmlDeviceGetPcieThroughput", h, ctypes.c_int(PCIE_UTIL_TX_BYTES))
        rx = self._uint("nvmlDeviceGetPcieThroughput", h, ctypes.c_int(PCIE_UTIL_RX_BYTES))
        return (None if tx is None else tx * 1024, None if rx is None else rx * 1024)

    def nvlink_counters(self, h):
        """(tx, rx) NVLink data bytes since the driver loaded; None on GPUs without NVLink."""
        fields = (FieldValue * 2)()
        fields[0].fieldId, fields[1].fieldId = FI_NVLINK_THROUGHPUT_DATA_TX, FI_NVLINK_THROUGHPUT_DATA_RX
        if not self._query("nvmlDeviceGetFieldValues", h, ctypes.c_int(2), fields):
            return None
        tx, rx = _field_number(fields[0]), _field_number(fields[1])
        return None if tx is None or rx is None else (int(tx) * 1024, int(rx) * 1024)

    def processes(self, h):
        """[(pid, GPU bytes or None)] of the compute and graphics processes on the GPU."""
        out = {}
        for kind in ("Compute", "Graphics"):
            for pid, used in self._process_list(h, kind):
                out[pid] = used if out.get(pid) is None else out[pid]
        return sorted(out.items())

    def _process_list(self, h, kind):
        for suffix, struct in (("_v3", ProcessInfo), ("_v2", ProcessInfo), ("", ProcessInfoV1)):
            fn = self._fn(f"nvmlDeviceGet{kind}RunningProcesses{suffix}")
            if fn is None:
                continue
            n = ctypes.c_uint(0)
            rc = fn(h, ctypes.byref(n), None)
            for _ in range(3):  # the list may grow between the two calls
                if rc == SUCCESS and n.value == 0:
                    return []
                if rc not in (SUCCESS, ERROR_INSUFFICIENT_SIZE):
                    return []
                n = ctypes.c_uint(n.value + 4)
                infos = (struct * n.value)()
                rc = fn(h, ctypes.byref(n), infos)
                if rc == SUCCESS:
                    return [(p.pid, None if p.usedGpuMemory == _NOT_AVAILABLE else p.usedGpuMemory)
                            for p in infos[: n.value]]
            return []
        return []
