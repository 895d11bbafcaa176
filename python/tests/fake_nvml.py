"""A stand-in for libnvidia-ml.so.1 with random values, for the tests of loom/monitor/_nvml.py and
loom/monitor/_sampler.py: each function has NVML's C signature and writes through the ctypes
pointers it gets, as the library does."""
import ctypes

import numpy as np

SUCCESS, ERROR_NOT_SUPPORTED, ERROR_INSUFFICIENT_SIZE = 0, 3, 7


def _target(p):
    """What a ctypes.byref() argument points at."""
    return p._obj


class FakeNvml:
    def __init__(self, n_gpus=2, seed=None, init_rc=SUCCESS, nvlink=True):
        rng = np.random.default_rng(seed)
        self.init_rc, self.initialised, self.shutdowns = init_rc, False, 0
        self.gpus = []
        for i in range(n_gpus):
            total = int(rng.integers(8, 96)) << 30
            self.gpus.append({
                "name": f"Fake GPU {i} {int(rng.integers(1000))}", "uuid": f"GPU-{int(rng.integers(1 << 60)):016x}",
                "util": (int(rng.integers(0, 101)), int(rng.integers(0, 101))),
                "mem": (total, int(rng.integers(0, total))),  # total, used
                "temp": int(rng.integers(25, 90)), "power_mw": int(rng.integers(50_000, 700_000)),
                "limit_mw": 700_000, "pcie_kb": (int(rng.integers(0, 1 << 24)), int(rng.integers(0, 1 << 24))),
                "nvlink_kib": [int(rng.integers(0, 1 << 40)), int(rng.integers(0, 1 << 40))] if nvlink else None,
                "procs": [(int(rng.integers(2, 1 << 22)), int(rng.integers(1, 1 << 34)))
                          for _ in range(int(rng.integers(0, 4)))],
            })

    def _gpu(self, h):
        return self.gpus[h.value - 1]

    # ---- system ---------------------------------------------------------------------
    def nvmlInit_v2(self):  # noqa: N802 (NVML's names)
        self.initialised = self.init_rc == SUCCESS
        return self.init_rc

    def nvmlShutdown(self):  # noqa: N802
        self.shutdowns += 1
        return SUCCESS

    def nvmlErrorString(self, rc):  # noqa: N802
        return {9: b"Driver Not Loaded", 3: b"Not Supported"}.get(rc, b"Unknown Error")

    def nvmlSystemGetDriverVersion(self, buf, size):  # noqa: N802
        buf.value = b"999.12.34"
        return SUCCESS

    def nvmlDeviceGetCount_v2(self, n):  # noqa: N802
        _target(n).value = len(self.gpus)
        return SUCCESS

    def nvmlDeviceGetHandleByIndex_v2(self, i, h):  # noqa: N802
        _target(h).value = i.value + 1  # a handle is an opaque non-null pointer
        return SUCCESS

    # ---- one GPU ----------------------------------------------------------------------
    def nvmlDeviceGetName(self, h, buf, size):  # noqa: N802
        buf.value = self._gpu(h)["name"].encode()
        return SUCCESS

    def nvmlDeviceGetUUID(self, h, buf, size):  # noqa: N802
        buf.value = self._gpu(h)["uuid"].encode()
        return SUCCESS

    def nvmlDeviceGetUtilizationRates(self, h, u):  # noqa: N802
        _target(u).gpu, _target(u).memory = self._gpu(h)["util"]
        return SUCCESS

    def nvmlDeviceGetMemoryInfo(self, h, m):  # noqa: N802
        total, used = self._gpu(h)["mem"]
        _target(m).total, _target(m).used, _target(m).free = total, used, total - used
        return SUCCESS

    def nvmlDeviceGetTemperature(self, h, sensor, t):  # noqa: N802
        _target(t).value = self._gpu(h)["temp"]
        return SUCCESS

    def nvmlDeviceGetPowerUsage(self, h, mw):  # noqa: N802
        _target(mw).value = self._gpu(h)["power_mw"]
        return SUCCESS

    def nvmlDeviceGetEnforcedPowerLimit(self, h, mw):  # noqa: N802
        _target(mw).value = self._gpu(h)["limit_mw"]
        return SUCCESS

    def nvmlDeviceGetPcieThroughput(self, h, counter, kb):  # noqa: N802
        _target(kb).value = self._gpu(h)["pcie_kb"][counter.value]
        return SUCCESS

    def nvmlDeviceGetFieldValues(self, h, n, fields):  # noqa: N802
        counters = self._gpu(h)["nvlink_kib"]
        for k in range(n.value):
            f = fields[k]
            if counters is None or f.fieldId not in (138, 139):
                f.nvmlReturn = ERROR_NOT_SUPPORTED
                continue
            f.nvmlReturn, f.valueType = SUCCESS, 3  # unsigned long long
            f.value.ullVal = counters[f.fieldId - 138]
        return SUCCESS

    def nvmlDeviceGetComputeRunningProcesses_v3(self, h, n, infos):  # noqa: N802
        procs = self._gpu(h)["procs"]
        if infos is None or _target(n).value < len(procs):
            _target(n).value = len(procs)
            return SUCCESS if not procs else ERROR_INSUFFICIENT_SIZE
        for k, (pid, used) in enumerate(procs):
            infos[k].pid, infos[k].usedGpuMemory = pid, used
        _target(n).value = len(procs)
        return SUCCESS

    def nvmlDeviceGetGraphicsRunningProcesses_v3(self, h, n, infos):  # noqa: N802
        _target(n).value = 0
        return SUCCESS
