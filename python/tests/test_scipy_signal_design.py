"""loom.scipy.signal's filter design and analysis (SciPy's, on the host): the same numbers as
scipy.signal, array results as loom arrays on the device of the arrays passed in, SciPy's
errors; and designed filters run on the device."""
import numpy as np
import pytest
import scipy.signal as ss

import loom
from loom.scipy import signal as ls
from scipy_compare import check, same_error


def test_every_name_is_scipys():
    from loom.scipy.signal import _design
    for name in _design.NAMES:
        assert getattr(ls, name).__name__ == name and hasattr(ss, name), name


@pytest.mark.parametrize("design, args, kw", [
    ("butter", (4, 0.2), {}), ("butter", (3, [0.1, 0.4]), {"btype": "band", "output": "sos"}),
    ("cheby1", (5, 1, 0.3), {}), ("cheby2", (4, 40, 0.25, "high"), {}), ("ellip", (4, 1, 40, 0.2), {"output": "sos"}),
    ("bessel", (3, 0.2), {"norm": "mag"}), ("iirfilter", (4, [0.2, 0.5]), {"rs": 60, "ftype": "cheby2"}),
    ("iirnotch", (0.3, 30.0), {}), ("firwin", (31, 0.3), {"window": "hamming"}), ("firwin2", (41, [0, 0.4, 1], [1, 1, 0]), {}),
    ("savgol_coeffs", (7, 2), {}), ("buttord", (0.2, 0.3, 3, 40), {})])
def test_designs_match_scipy_and_run_on_the_device(device, rng, design, args, kw):
    with loom.device(device):
        got = getattr(ls, design)(*args, **kw)
    want = getattr(ss, design)(*args, **kw)
    got_t, want_t = (got, want) if isinstance(want, tuple) else ((got,), (want,))
    for g, w in zip(got_t, want_t):
        if isinstance(w, np.ndarray):
            check(g, w, device=device, rtol=1e-12)
        else:
            assert g == w
    if design in ("butter", "cheby1", "ellip") and not isinstance(want, tuple) and want.ndim == 2:  # sos
        x = rng.standard_normal(200)
        check(ls.sosfilt(got, loom.asarray(x, device=device)), ss.sosfilt(want, x), device=device)
    elif design in ("butter", "cheby1", "cheby2"):
        x = rng.standard_normal(200)
        check(ls.lfilter(got[0], got[1], loom.asarray(x, device=device)), ss.lfilter(*want, x), device=device)


def test_conversions_and_responses_take_loom_arrays(device):
    b, a = ss.cheby1(4, 1, 0.3)
    lb, la = loom.asarray(b, device=device), loom.asarray(a, device=device)
    z, p, k = ls.tf2zpk(lb, la)
    want_z, want_p, want_k = ss.tf2zpk(b, a)
    check(z, want_z, device=device)
    check(p, want_p, device=device)
    assert k == pytest.approx(want_k)
    check(ls.zpk2sos(z, p, k), ss.zpk2sos(want_z, want_p, want_k), device=device)
    w, h = ls.freqz(lb, la, worN=128)
    want_w, want_h = ss.freqz(b, a, worN=128)
    check(w, want_w, device=device)
    check(h, want_h, device=device)
    w, gd = ls.group_delay((lb, la), w=64)
    check(gd, ss.group_delay((b, a), w=64)[1], device=device)
    same_error(lambda: ls.butter(4, 1.5), lambda: ss.butter(4, 1.5))
