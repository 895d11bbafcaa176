"""The Python-kernel translation cache against a careless or hostile neighbour. Translations
live in the one compile cache (kind "pykernel"), so its checks hold for them: a planted
entry (generated source rewritten, checksum recomputed) is used only from this user's own
private folder; in a folder others can write, owned by another user, behind a symbolic link,
copied from another key or truncated it is a miss that is translated again, never run.

Each case runs the kernel in fresh processes on cpu(): one plants an entry whose source
writes 42 under the key of `scale` (what a neighbour able to write the folder would do),
the next runs the unchanged program."""
import json
import os
import shutil
import stat
import subprocess
import sys
import textwrap

import pytest
from test_pykernel_cache import MODULE as SCALE_MODULE

# test_pykernel_cache's kernel, and what the neighbour would rather it ran.
MODULE = SCALE_MODULE + textwrap.dedent('''

    @cuda.jit
    def evil(x, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = 42.0
''')

CHILD = textwrap.dedent('''
    import json, os, sys
    sys.path.insert(0, sys.argv[1])
    if sys.argv[3] != "-":
        os.umask(int(sys.argv[3], 8))
    import loom
    from loom import _loom
    import pyk_trust
    if sys.argv[2] == "plant":
        # The neighbour's entry: evil's source under scale's name and key, stored through the
        # cache itself, so its format and checksum are valid.
        from loom.pykernel import dispatcher
        real = dispatcher.translate_kernel
        def planted(func, argtypes, src=None, debug=False, **options):
            source, name = real(pyk_trust.evil.py_func, argtypes, None, debug)
            want = "loom_pk_" + func.__name__
            return source.replace(name, want), want
        dispatcher.translate_kernel = planted
    x = loom.arange(8, dtype=loom.float32, device=loom.cpu())
    out = loom.zeros(8, dtype=loom.float32, device=loom.cpu())
    pyk_trust.scale[1, 8](x, out)
    print(json.dumps({"out": out.numpy().tolist(), "stats": _loom._compile_cache_stats()}))
''')

PLANTED = [42.0] * 8


def expected(scale):
    return [float(scale) * i for i in range(8)]


def run(tmp_path, cache_dir, mode="normal", scale=2, umask=None):
    if not (tmp_path / "pyk_trust.py").exists():
        (tmp_path / "pyk_trust.py").write_text(MODULE)
    env = dict(os.environ, PYK_SCALE=str(scale), LOOM_CACHE_DIR=str(cache_dir))
    argv = [sys.executable, "-c", CHILD, str(tmp_path), mode, "-" if umask is None else oct(umask)[2:]]
    r = subprocess.run(argv, env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def entries(cache_dir):
    folder = cache_dir / "pykernel"
    return sorted(p for p in folder.iterdir() if not p.name.startswith(".")) if folder.exists() else []


def mode_of(path):
    return stat.S_IMODE(os.lstat(path).st_mode)


@pytest.fixture
def planted(tmp_path):
    """A cache folder holding scale's entry with evil's source; (folder, entry path)."""
    cache_dir = tmp_path / "cache"
    assert run(tmp_path, cache_dir, "plant")["out"] == PLANTED
    (entry,) = entries(cache_dir)
    return cache_dir, entry


def test_an_own_private_entry_is_used(tmp_path, planted):
    # The baseline that makes the other cases mean something: this user's own entry in a
    # private folder is trusted, planted source and all.
    cache_dir, _ = planted
    r = run(tmp_path, cache_dir)
    assert r["out"] == PLANTED
    assert r["stats"]["foreign"] == 0


@pytest.mark.parametrize("which", ["root", "pykernel"])
@pytest.mark.parametrize("extra", [stat.S_IWGRP, stat.S_IWOTH])
def test_folders_others_can_write_are_never_read(tmp_path, planted, which, extra):
    cache_dir, entry = planted
    folder = cache_dir if which == "root" else cache_dir / "pykernel"
    os.chmod(folder, 0o700 | extra)
    before = entry.read_bytes()
    r = run(tmp_path, cache_dir)
    assert r["out"] == expected(2)
    assert r["stats"]["foreign"] >= 1
    assert entry.read_bytes() == before  # nothing is written in a folder others can write


def test_an_entry_others_can_write_is_replaced(tmp_path, planted):
    cache_dir, entry = planted
    os.chmod(entry, 0o666)
    r = run(tmp_path, cache_dir)
    assert r["out"] == expected(2)
    assert r["stats"]["bad_entries"] >= 1
    assert mode_of(entry) == 0o600  # rebuilt, owner-only
    assert run(tmp_path, cache_dir)["out"] == expected(2)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to give a file to another user")
def test_another_users_entry_is_never_read_nor_overwritten(tmp_path, planted):
    cache_dir, entry = planted
    os.chown(entry, 65534, 65534)
    before = entry.read_bytes()
    r = run(tmp_path, cache_dir)
    assert r["out"] == expected(2)
    assert r["stats"]["foreign"] >= 1
    assert entry.read_bytes() == before and os.lstat(entry).st_uid == 65534
    os.chown(entry, 0, 0)
    os.chown(cache_dir / "pykernel", 65534, 65534)
    r = run(tmp_path, cache_dir)
    assert r["out"] == expected(2)
    assert r["stats"]["foreign"] >= 1


def test_a_symbolic_link_is_not_followed(tmp_path, planted):
    cache_dir, entry = planted
    elsewhere = tmp_path / "elsewhere"
    shutil.move(entry, elsewhere)
    os.symlink(elsewhere, entry)
    before = elsewhere.read_bytes()
    assert run(tmp_path, cache_dir)["out"] == expected(2)
    assert elsewhere.read_bytes() == before  # the link's target is untouched


def test_an_entry_copied_under_another_key_never_loads(tmp_path):
    cache_dir = tmp_path / "cache"
    assert run(tmp_path, cache_dir, scale=2)["out"] == expected(2)
    (mine,) = entries(cache_dir)
    assert run(tmp_path, cache_dir, "plant", scale=3)["out"] == PLANTED  # another key: SCALE differs
    (theirs,) = [p for p in entries(cache_dir) if p != mine]
    shutil.copyfile(theirs, mine)
    os.chmod(mine, 0o600)
    r = run(tmp_path, cache_dir, scale=2)
    assert r["out"] == expected(2)
    assert r["stats"]["bad_entries"] >= 1


def test_a_truncated_entry_is_a_miss_that_is_rebuilt(tmp_path, planted):
    cache_dir, entry = planted
    whole = entry.read_bytes()
    for n in (0, 7, 40, len(whole) // 2, len(whole) - 1):
        entry.write_bytes(whole[:n])
        r = run(tmp_path, cache_dir)
        assert r["out"] == expected(2), f"truncated to {n} bytes"
        assert r["stats"]["bad_entries"] >= 1
        assert entry.read_bytes() != whole[:n]  # replaced by the fresh translation


def test_the_cache_root_is_created_owner_only_by_a_python_kernel(tmp_path):
    # The translation is the first thing to touch the cache here; a permissive umask must
    # still give private folders and entries.
    cache_dir = tmp_path / "new" / "cache"
    assert run(tmp_path, cache_dir, umask=0)["out"] == expected(2)
    assert mode_of(tmp_path / "new") == 0o700
    assert mode_of(cache_dir) == 0o700
    assert mode_of(cache_dir / "pykernel") == 0o700
    (entry,) = entries(cache_dir)
    assert mode_of(entry) == 0o600
