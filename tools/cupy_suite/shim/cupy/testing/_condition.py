"""testing._condition: tests of random results run several times, passing on enough successes."""
import functools
import unittest

import pytest

_SKIP = (unittest.SkipTest, pytest.skip.Exception)


def repeat_with_success_at_least(times, min_success):
    """Runs the test up to `times` times; it passes once `min_success` runs have passed, and
    fails as soon as that can no longer happen (with the first failure's error)."""
    if times < min_success:
        raise ValueError("repeat_with_success_at_least: times < min_success")

    def decorate(f):
        @functools.wraps(f)
        def test(*args, **kwargs):
            passed, failures = 0, []
            for run in range(times):
                instance = args[0] if args and isinstance(args[0], unittest.TestCase) else None
                if instance is not None and run:
                    instance.setUp()
                try:
                    f(*args, **kwargs)
                    passed += 1
                except _SKIP:
                    raise
                except Exception as e:
                    failures.append(e)
                finally:
                    if instance is not None and run:
                        instance.tearDown()
                if passed >= min_success:
                    return
                if passed + (times - run - 1) < min_success:
                    break
            raise AssertionError(f"{passed} of {times} runs passed, {min_success} needed; the first "
                                 f"failure: {type(failures[0]).__name__}: {failures[0]}") from failures[0]
        return test
    return decorate


def repeat(times, intensive_times=None):
    """Every one of `times` runs must pass."""
    return repeat_with_success_at_least(times, times)


def retry(times):
    """One of `times` runs must pass."""
    return repeat_with_success_at_least(times, 1)
