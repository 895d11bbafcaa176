"""Devices: cpu()/gpu(i), queries, the default device, `with loom.device`, synchronize."""
import os
import subprocess
import sys
import threading

import pytest

import loom


def test_cpu_device():
    d = loom.cpu()
    assert repr(d) == "cpu()"
    assert d.type == "cpu"
    assert d.index == 0
    assert d == loom.cpu() and hash(d) == hash(loom.cpu())
    assert d == "cpu" and d != "gpu:0"
    assert isinstance(d.name, str) and d.name
    assert d.total_memory > 0
    assert 0 <= d.free_memory <= d.total_memory
    assert d.compute_capability == (0, 0)
    assert d.multiprocessor_count == 0


def test_devices_lists_cpu_then_gpus():
    n = loom.num_gpus()
    assert isinstance(n, int) and n >= 0
    assert loom.devices() == [loom.cpu()] + [loom.gpu(i) for i in range(n)]
    assert len({*loom.devices()}) == n + 1  # hashable and distinct


def test_try_gpu_and_try_all_gpus():
    n = loom.num_gpus()
    if n == 0:
        assert loom.try_gpu() == loom.cpu()
        assert loom.try_all_gpus() == [loom.cpu()]
    else:
        assert loom.try_gpu() == loom.gpu(0)
        assert loom.try_all_gpus() == [loom.gpu(i) for i in range(n)]
    assert loom.try_gpu(n + 3) == loom.cpu()


def test_gpu_that_does_not_exist_names_the_count():
    # An absent GPU is a Device (as torch.device('cuda:5')); its first use names the count.
    n = loom.num_gpus()
    with pytest.raises(ValueError) as e:
        loom.zeros(3, device=loom.gpu(n + 5))
    msg = str(e.value)
    assert f"gpu({n + 5})" in msg
    assert ("no GPU" in msg) if n == 0 else (str(n) in msg)
    with pytest.raises(ValueError):
        loom.gpu(-1)


@pytest.mark.gpu
def test_gpu_properties():
    for i in range(loom.num_gpus()):
        g = loom.gpu(i)
        assert repr(g) == f"gpu({i})"
        assert g.type == "cuda" and g.index == i
        assert g != loom.cpu() and g == f"gpu:{i}" and g == f"cuda:{i}"
        assert g.name
        major, minor = g.compute_capability
        assert major >= 3 and minor >= 0
        assert g.multiprocessor_count > 0
        assert 0 < g.free_memory <= g.total_memory


def test_device_parses_strings():
    assert loom.device("cpu") == loom.cpu()
    assert loom.device(loom.cpu()) == loom.cpu()
    assert loom.Device("cpu") == loom.cpu() and isinstance(loom.cpu(), loom.Device)
    for bad in ("tpu", "gpu:x", ""):
        with pytest.raises(ValueError):
            loom.device(bad)
    # An absent GPU parses (as torch.device('cuda:N')) and fails at its first use.
    absent = loom.device(f"gpu:{loom.num_gpus()}")
    assert absent == loom.gpu(loom.num_gpus())
    with pytest.raises(ValueError):
        loom.zeros(3, device=absent)
    with pytest.raises((TypeError, ValueError)):
        loom.zeros(3, device=42)


def test_default_device():
    if os.environ.get("LOOM_DEVICE"):
        pytest.skip("LOOM_DEVICE overrides the default device")
    want = loom.gpu(0) if loom.num_gpus() else loom.cpu()
    assert loom.default_device() == want
    assert loom.zeros(3).device == want


def test_set_default_device(device):
    old = loom.default_device()
    try:
        loom.set_default_device(device)
        assert loom.default_device() == device
        assert loom.ones((2, 2)).device == device
        loom.set_default_device("cpu")
        assert loom.default_device() == loom.cpu()
    finally:
        loom.set_default_device(old)
    assert loom.default_device() == old


def test_with_device(device):
    before = loom.default_device()
    with loom.device(device) as d:
        assert d == device
        assert loom.default_device() == device
        assert loom.empty((4,)).device == device
        assert loom.asarray([1, 2, 3]).device == device
        with loom.device("cpu"):
            assert loom.default_device() == loom.cpu()
            assert loom.zeros(2).device == loom.cpu()
        assert loom.default_device() == device
    assert loom.default_device() == before


def test_with_device_restores_after_exception(device):
    before = loom.default_device()
    with pytest.raises(KeyError):
        with loom.device(device):
            raise KeyError("x")
    assert loom.default_device() == before


def test_with_device_is_per_thread(device):
    before = loom.default_device()
    seen = []
    with loom.device(device):
        t = threading.Thread(target=lambda: seen.append(loom.default_device()))
        t.start()
        t.join()
    assert seen == [before]


def test_synchronize(device):
    x = loom.ones((100,), dtype=loom.float32, device=device)
    loom.synchronize(device)
    loom.synchronize()
    loom.synchronize(f"gpu:{device.index}" if device.type == "cuda" else "cpu")
    device.synchronize()
    assert x.block_until_ready() is x


def test_build_info():
    b = loom.build_info()
    for key in ("version", "cuda", "cuda_runtime", "driver", "nvrtc", "num_gpus"):
        assert key in b
    assert b["version"] == loom.__version__
    assert isinstance(b["cuda"], bool)
    assert b["num_gpus"] == loom.num_gpus()
    if b["num_gpus"]:
        assert b["cuda"] and b["driver"]


def test_cli_info(tmp_path):
    env = dict(os.environ, LOOM_CACHE_DIR=str(tmp_path / "kcache"))
    r = subprocess.run([sys.executable, "-m", "loom", "info"], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert f"loom {loom.__version__}" in r.stdout
    assert "cpu()" in r.stdout
    assert str(tmp_path / "kcache") in r.stdout
    for i in range(loom.num_gpus()):
        assert f"gpu({i})" in r.stdout
    bad = subprocess.run([sys.executable, "-m", "loom"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "usage" in bad.stderr
