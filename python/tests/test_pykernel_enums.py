"""Enum members in Python kernels on every device, against Python itself: IntEnum members as
integers, Enum members compared by ==, != and `is`, members as globals (`Color.red`,
`Color["red"]`) and as kernel arguments (tuple values too), in a vectorize body."""
import enum

import numpy as np
import pytest

import loom
from loom import cuda
from loom.cuda import int16


class Color(enum.Enum):
    red = 1
    green = 2


class Flavor(enum.Enum):
    mint = 1  # Color.red's value, another class


class Point(enum.Enum):
    origin = (0.0, 0.0)
    unit = (1.0, 1.0)


class Status(enum.IntEnum):
    ok = 200
    missing = 404
    broken = 500


class Size(enum.IntEnum):
    small = 200  # Status.ok's value


def compare(a, b, out):
    out[0] = a == b
    out[1] = a != b
    out[2] = a is b
    out[3] = a is not b


compare_kernel = cuda.jit(compare)


@pytest.mark.parametrize("a,b", [(Color.red, Color.red), (Color.red, Color.green), (Color.red, Flavor.mint),
                                 (Point.unit, Point.unit), (Point.unit, Point.origin), (Status.ok, Size.small),
                                 (Status.ok, Status.ok), (Status.ok, Status.missing)])
def test_members_as_arguments_compare_as_python(device, a, b):
    got = loom.zeros(4, dtype=loom.bool, device=device)
    compare_kernel[1, 1](a, b, got)
    want = np.zeros(4, np.bool_)
    compare(a, b, want)
    np.testing.assert_array_equal(got.numpy(), want)


@cuda.jit
def int_enum_arithmetic(x, out):
    i = cuda.grid(1)
    if i < x.size:
        if x[i] > Status.broken:
            out[i] = x[i] - Status.missing
        else:
            out[i] = x[i] + Size.small + int16(Status["ok"])
        if Color.red == Color.green or Color["red"] != Color.red:
            out[i] = -1


def test_int_enum_globals_are_integers(device, rng):
    x = rng.integers(0, 1000, 100)
    out = loom.zeros(100, dtype=loom.int64, device=device)
    int_enum_arithmetic[1, 128](loom.asarray(x, device=device), out)
    np.testing.assert_array_equal(out.numpy(), np.where(x > 500, x - 404, x + 400))


def test_enum_in_vectorize_and_errors(device, rng):
    @loom.vectorize(["int64(int64)"], target="cuda")
    def code_of(x):
        return Status["broken"] if x != Status.missing else Status.ok

    x = rng.choice([200, 404, 500], 50)
    got = code_of(loom.asarray(x, device=device))
    np.testing.assert_array_equal(np.asarray(got), np.where(x != 404, 500, 200))

    @cuda.jit
    def bad(out):
        out[0] = Color.blue == Color.red

    with pytest.raises(loom.TypingError, match="Color has no member 'blue'"):
        bad[1, 1](loom.zeros(1, device=device))

    @cuda.jit
    def ordered(out):
        out[0] = Color.red < Color.green

    with pytest.raises(loom.TypingError, match="must be a number"):
        ordered[1, 1](loom.zeros(1, device=device))


def test_enum_values_are_in_the_translation_key():
    from loom.pykernel import cache

    def make(value):
        E = enum.IntEnum("E", {"a": value})

        def k(out):
            out[0] = E.a
        return k
    keys = {cache.key(make(v), (), ()) for v in (1, 1, 2)}
    assert len(keys) == 2  # same values, same key; another value, another translation
