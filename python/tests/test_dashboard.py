"""`python -m loom dashboard`: the server in a subprocess on a free loopback port (page, data,
history, errors, Ctrl-C), in-process start/stop, and a screenshot of the page in headless
Chromium whose charts must have drawn lines."""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import pytest

import loom

TESTS = os.path.dirname(os.path.abspath(__file__))
PY_ROOT = os.path.dirname(TESTS)
CPU_COLOR, GPU0_COLOR = (0x1F, 0x77, 0xB4), (0xD6, 0x27, 0x28)  # the page's first two series


def get(url, timeout=10):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.status, r.headers.get("Content-Type"), r.read()


def get_json(url):
    return json.loads(get(url)[2])


@pytest.fixture(scope="module")
def server():
    """`python -m loom dashboard --port 0` sampling every 0.2 s; yields its URL."""
    env = dict(os.environ, PYTHONPATH=PY_ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    # SIGINT's default in the child: a test run started in the background of a non-interactive
    # shell ignores it, and an ignored signal stays so across exec (no KeyboardInterrupt then)
    p = subprocess.Popen([sys.executable, "-m", "loom", "dashboard", "--port", "0", "--interval", "0.2"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    line = p.stdout.readline()  # "loom dashboard on http://127.0.0.1:PORT/ (Ctrl-C stops it)"
    m = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
    if not m:
        p.kill()
        pytest.fail(f"no URL from the dashboard: {line!r} {p.stderr.read()}")
    yield p, m.group(1)
    if p.poll() is None:
        p.kill()
        p.wait(timeout=30)


def wait_for_samples(url, n, limit_s=30):
    deadline = time.time() + limit_s
    while time.time() < deadline:
        h = get_json(url + "history")
        if len(h["samples"]) >= n:
            return h
        time.sleep(0.1)
    pytest.fail(f"fewer than {n} samples after {limit_s} s")


def test_page_is_self_contained(server):
    _, url = server
    status, ctype, body = get(url)
    page = body.decode()
    assert status == 200 and ctype.startswith("text/html")
    assert page.count("<canvas") == 6 and 'fetch("/data"' in page
    # Nothing fetched from elsewhere: no absolute URL and no external script or stylesheet.
    assert not re.search(r"https?://", page) and "<link" not in page and "src=" not in page


def test_data_and_history(server):
    _, url = server
    h = wait_for_samples(url, 3)
    assert h["interval"] == 0.2
    stamps = [s["timestamp"] for s in h["samples"]]
    assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps)
    status, ctype, body = get(url + "data")
    d = json.loads(body)
    assert status == 200 and ctype == "application/json"
    assert d["timestamp"] >= stamps[-1] and d["devices"][0]["device"] == "cpu"
    assert d["devices"][0]["memory_total"] > 0
    assert len(d["devices"]) == 1 + loom.num_gpus() or d["gpu_note"] is None


def test_unknown_path_is_404(server):
    _, url = server
    with pytest.raises(urllib.error.HTTPError) as e:
        get(url + "nope")
    assert e.value.code == 404


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


@pytest.mark.skipif(chromium() is None, reason="no chromium (make deps installs Debian's)")
def test_screenshot_shows_charts(server):
    Image = pytest.importorskip("PIL.Image", reason="needs Pillow to read the screenshot")

    _, url = server
    data = wait_for_samples(url, 5)["samples"][-1]
    with tempfile.TemporaryDirectory() as tmp:
        png = os.path.join(tmp, "dashboard.png")
        cmd = [chromium(), "--headless", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
               f"--user-data-dir={tmp}/profile", "--window-size=1280,1000",
               # page time runs ahead: /history, then several /data polls, before the shot
               "--virtual-time-budget=4000", f"--screenshot={png}", url]
        if os.geteuid() == 0:
            cmd.insert(1, "--no-sandbox")
        # The browser is not loom: make asan-test's preloaded sanitizer runtimes stay out of it.
        env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS")}
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
        assert os.path.exists(png), f"chromium made no screenshot (rc {r.returncode}): {r.stderr[-2000:]}"
        if os.environ.get("LOOM_KEEP_SCREENSHOT"):
            shutil.copy(png, os.environ["LOOM_KEEP_SCREENSHOT"])
        img = Image.open(png).convert("RGB")
    assert img.size == (1280, 1000)
    assert len(img.getcolors(1 << 20) or []) > 20, "the screenshot is blank"

    def columns_of(color, tol=40):
        """x columns holding a pixel near `color`: a chart line spans hundreds, a legend
        swatch ten."""
        px, (w, h) = img.load(), img.size
        return {x for x in range(w) for y in range(0, h, 1)
                if sum(abs(a - b) for a, b in zip(px[x, y], color)) < tol}

    assert len(columns_of(CPU_COLOR)) > 200, "no cpu() line on the charts"
    if any(d["kind"] == "cuda" for d in data["devices"]):
        assert len(columns_of(GPU0_COLOR)) > 200, "no GPU line on the charts"


def test_ctrl_c_stops_the_server(server):
    p, url = server
    get(url + "data")
    p.send_signal(signal.SIGINT)
    assert p.wait(timeout=30) == 0
    assert "Traceback" not in p.stderr.read()


def test_start_and_stop_in_process():
    dash = loom.dashboard.start(port=0, interval=0.05, history=3)
    try:
        assert dash.url.startswith("http://127.0.0.1:")
        deadline = time.time() + 20
        while len(dash.samples()) < 3 and time.time() < deadline:
            time.sleep(0.05)
        time.sleep(0.2)
        h = get_json(dash.url + "history")
        assert len(h["samples"]) == 3  # history= bounds what is kept
        x = loom.ones(1 << 18, device=loom.cpu())  # devices[0] is cpu(); the dashboard's pool is this process's
        # /data serves the latest sample, and a sample of a busy GPU host (NVML's process
        # queries) can take longer than the interval: wait for one taken after x exists.
        deadline = time.time() + 20
        while True:
            pool = get_json(dash.url + "data")["devices"][0]["pool"]
            if pool["in_use"] >= x.nbytes or time.time() > deadline:
                break
            time.sleep(0.05)
        assert pool["in_use"] >= x.nbytes
    finally:
        dash.stop()
    dash.stop()  # twice is fine
    with pytest.raises(OSError):
        get(dash.url, timeout=2)
    with pytest.raises(ValueError, match="interval must be > 0"):
        loom.dashboard.start(port=0, interval=0)
