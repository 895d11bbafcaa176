"""What `loom top` and `loom dashboard` show: one sample of every device and of the
processes on the GPUs, as a plain dict (the `--json` document, the dashboard's /data).

A Monitor keeps the previous sample, because CPU utilisation (/proc/stat) and NVLink
traffic (NVML's counters) are totals since boot, so a rate needs two readings. GPU figures
come from NVML (`_nvml.py`), which needs no CUDA context; loom's pool figures are the
allocator statistics of the process that runs the Monitor (`memory._stats_if_used`, which
never creates a context on a GPU the process has not used).
"""
import ctypes
import os
import socket
import time

from . import _nvml


def _read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def cpu_times():
    """(busy, total) jiffies of all CPUs since boot (/proc/stat), or None off Linux."""
    text = _read("/proc/stat")
    if not text or not text.startswith("cpu "):
        return None
    v = [int(x) for x in text.split("\n", 1)[0].split()[1:]]
    idle = v[3] + (v[4] if len(v) > 4 else 0)  # idle + iowait
    total = sum(v[:8])  # guest time is already inside user and nice
    return total - idle, total


def host_memory():
    """(used, total) bytes of host memory; used is what MemAvailable says is not available."""
    text = _read("/proc/meminfo")
    if text:
        kb = {}
        for line in text.splitlines():
            k, _, rest = line.partition(":")
            if rest.split():
                kb[k] = int(rest.split()[0]) * 1024
        if "MemTotal" in kb:
            total = kb["MemTotal"]
            return total - kb.get("MemAvailable", kb.get("MemFree", 0)), total
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        return None, total
    except (ValueError, OSError, AttributeError):
        return None, None


def cpu_name():
    for line in (_read("/proc/cpuinfo") or "").splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    import platform

    return platform.processor() or platform.machine()


def process_name(pid):
    """The program of `pid` (its command line's first word), or None when it is not
    visible here (another PID namespace, as in a container)."""
    cmd = _read(f"/proc/{pid}/cmdline")
    if cmd:
        words = [w for w in cmd.split("\0") if w]
        if words:
            name = os.path.basename(words[0])
            # `python script.py`: the script says more than the interpreter.
            if name.startswith("python") and len(words) > 1:
                rest = words[1:]
                if rest[0] == "-m" and len(rest) > 1:
                    return f"{name} -m {rest[1]}"
                if not rest[0].startswith("-"):
                    return f"{name} {os.path.basename(rest[0])}"
            return name
    comm = _read(f"/proc/{pid}/comm")
    return comm.strip() if comm else None


def uses_loom(pid):
    """True when `pid` has loom's extension mapped; None when that cannot be seen."""
    maps = _read(f"/proc/{pid}/maps")
    return None if maps is None else "/_loom." in maps


def cuda_pci_bus_ids():
    """The PCI address of each GPU as loom numbers them (CUDA's order, after
    CUDA_VISIBLE_DEVICES), from the driver API: cuInit creates no context. [] without one."""
    try:
        cu = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return []
    n = ctypes.c_int(0)
    if cu.cuInit(0) != 0 or cu.cuDeviceGetCount(ctypes.byref(n)) != 0:
        return []
    out = []
    for i in range(n.value):
        dev = ctypes.c_int()
        buf = ctypes.create_string_buffer(64)
        ok = cu.cuDeviceGet(ctypes.byref(dev), i) == 0 and cu.cuDeviceGetPCIBusId(buf, 64, dev) == 0
        out.append(buf.value.decode() if ok else None)
    return out


def _pool(device):
    """loom's allocator statistics of this process on `device`, or None."""
    try:
        from .. import _loom

        s = _loom.memory._stats_if_used(device)
    except Exception:  # no such device in this build, or loom's extension is absent
        return None
    return None if s is None else {k: s[k] for k in ("in_use", "cached", "peak", "limit")}


class Monitor:
    """Samples devices and processes. `nvml`: an open `_nvml.Nvml`, or None to open the
    system's (absent or failing NVML leaves GPU rows out, with the reason in 'gpu_note')."""

    def __init__(self, nvml=None, warmup=0.25):
        self._prev_cpu = None
        self._prev_nvlink = {}  # nvml index -> (time, tx bytes, rx bytes)
        self._cpu_name = cpu_name()
        self._nvml, self.gpu_note = nvml, None
        if nvml is None:
            try:
                self._nvml = _nvml.Nvml.open()
            except _nvml.NvmlUnavailable as e:
                self.gpu_note = str(e)
        self._loom_index = {}  # nvml index -> loom's gpu index
        self._handles = []
        if self._nvml is not None:
            try:
                self._handles = [self._nvml.handle(i) for i in range(self._nvml.device_count())]
            except _nvml.NvmlUnavailable as e:
                self.gpu_note = str(e)
            if not self._handles and not self.gpu_note:
                self.gpu_note = "NVML reports no GPU"
            for loom_i, bus in enumerate(cuda_pci_bus_ids() if self._handles else []):
                j = self._nvml.index_of_pci_bus(bus) if bus else None
                if j is not None:
                    self._loom_index[j] = loom_i
            self.driver = self._nvml.driver_version()
        else:
            self.driver = None
        self._first = True
        self._warmup = warmup

    def close(self):
        if self._nvml is not None:
            self._nvml.close()
            self._nvml = None

    def sample(self):
        """One frame: {'timestamp', 'host', 'driver', 'gpu_note', 'devices', 'processes'}."""
        if self._first:  # rates need a previous reading: take one, then wait a little
            self._first = False
            self._prev_cpu = cpu_times()
            for i, h in enumerate(self._handles):
                self._nvlink_rates(i, h, time.time())
            time.sleep(self._warmup)
        now = time.time()
        devices = [self._cpu_row()] + self._gpu_rows(now)
        return {"timestamp": now, "host": socket.gethostname(), "driver": self.driver,
                "gpu_note": self.gpu_note, "devices": devices, "processes": self._processes()}

    def _cpu_row(self):
        cur = cpu_times()
        util = None
        if cur and self._prev_cpu and cur[1] > self._prev_cpu[1]:
            util = 100.0 * (cur[0] - self._prev_cpu[0]) / (cur[1] - self._prev_cpu[1])
        self._prev_cpu = cur or self._prev_cpu
        used, total = host_memory()
        return {"device": "cpu", "kind": "cpu", "name": f"{self._cpu_name} ({os.cpu_count()} CPUs)",
                "utilization": util, "memory_used": used, "memory_total": total, "pool": _pool("cpu")}

    def _gpu_rows(self, now):
        rows = []
        for i, h in enumerate(self._handles):
            nv = self._nvml
            util, mem = nv.utilization(h), nv.memory(h)
            (power, limit), (ptx, prx) = nv.power(h), nv.pcie_throughput(h)
            loom_i = self._loom_index.get(i)
            rows.append({
                "device": f"gpu({loom_i})" if loom_i is not None else f"nvml:{i}",
                "kind": "cuda", "index": loom_i, "nvml_index": i, "name": nv.name(h), "uuid": nv.uuid(h),
                "utilization": util[0] if util else None, "memory_utilization": util[1] if util else None,
                "memory_used": mem[0] if mem else None, "memory_total": mem[1] if mem else None,
                "pool": _pool(f"gpu:{loom_i}") if loom_i is not None else None,
                "pcie_tx": ptx, "pcie_rx": prx, **self._nvlink_rates(i, h, now),
                "temperature": nv.temperature(h), "power": power, "power_limit": limit})
        return rows

    def _nvlink_rates(self, i, h, now):
        counters = self._nvml.nvlink_counters(h)
        prev = self._prev_nvlink.get(i)
        rates = {"nvlink_tx": None, "nvlink_rx": None}
        if counters is not None:
            if prev is not None and now > prev[0]:
                dt = now - prev[0]
                rates = {"nvlink_tx": max(0.0, (counters[0] - prev[1]) / dt),
                         "nvlink_rx": max(0.0, (counters[1] - prev[2]) / dt)}
            self._prev_nvlink[i] = (now, *counters)
        return rates

    def _processes(self):
        out = []
        for i, h in enumerate(self._handles):
            loom_i = self._loom_index.get(i)
            for pid, used in self._nvml.processes(h):
                out.append({"pid": pid, "name": process_name(pid), "device":
                            f"gpu({loom_i})" if loom_i is not None else f"nvml:{i}",
                            "gpu_memory": used, "loom": uses_loom(pid)})
        return out
