"""The translation cache: a fresh process launches a known kernel without reading or
translating its Python source, and a changed global constant is a new key (never a stale
kernel)."""
import os
import subprocess
import sys
import textwrap

MODULE = textwrap.dedent('''
    import os
    from loom import cuda
    SCALE = float(os.environ["PYK_SCALE"])

    @cuda.jit
    def scale(x, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = x[i] * SCALE
''')

CHILD = textwrap.dedent('''
    import sys, inspect
    sys.path.insert(0, sys.argv[1])
    import numpy as np
    import loom
    if sys.argv[2] == "no-source":
        def refuse(*a, **k):
            raise AssertionError("the Python source was read")
        inspect.getsourcelines = refuse
    import pyk_cached
    x = loom.arange(8, dtype=loom.float32, device=loom.cpu())
    out = loom.zeros(8, dtype=loom.float32, device=loom.cpu())
    pyk_cached.scale[1, 8](x, out)
    print(out.numpy().tolist())
''')


def run(tmp_path, scale, mode):
    env = dict(os.environ, PYK_SCALE=str(scale))
    r = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path), mode], env=env, capture_output=True, text=True)
    return r.returncode, r.stdout.strip(), r.stderr


def test_fresh_process_skips_translation_and_constants_are_in_the_key(tmp_path):
    (tmp_path / "pyk_cached.py").write_text(MODULE)
    rc, out, err = run(tmp_path, 2, "normal")
    assert rc == 0, err
    assert out == str([2.0 * i for i in range(8)])
    rc, out, err = run(tmp_path, 2, "no-source")
    assert rc == 0, err
    assert out == str([2.0 * i for i in range(8)])
    rc, out, err = run(tmp_path, 3, "no-source")  # a new constant: a miss, so the source is read
    assert rc != 0 and "the Python source was read" in err
    rc, out, err = run(tmp_path, 3, "normal")
    assert rc == 0 and out == str([3.0 * i for i in range(8)]), err
