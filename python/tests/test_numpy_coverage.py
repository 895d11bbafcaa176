"""loom against NumPy's main namespace (tools/numpy_coverage.py): every NumPy function that
the README's "Left out of NumPy" list does not name is in loom, and the list names only
functions NumPy has."""
import importlib.util
import pathlib

import numpy as np

import loom

_TOOL = pathlib.Path(__file__).resolve().parents[2] / "tools" / "numpy_coverage.py"
_spec = importlib.util.spec_from_file_location("numpy_coverage", _TOOL)
numpy_coverage = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(numpy_coverage)


def test_every_numpy_function_is_in_loom_or_left_out_with_a_reason():
    share, missing, counted = numpy_coverage.coverage(loom)
    assert counted > 300, counted  # the walk found NumPy's functions
    assert not missing, f"loom lacks {len(missing)} of {counted} ({share:.1%}): {' '.join(missing)}"


def test_left_out_list_names_numpy_functions_only():
    left_out = numpy_coverage.left_out()
    assert "load" in left_out and "frompyfunc" in left_out
    functions = set(numpy_coverage.numpy_functions())
    stray = sorted(n for n in left_out if n not in functions)
    assert not stray, f"README's left-out list names what NumPy does not have: {stray}"


def test_left_out_parser_reads_reasons():
    text = "### Left out of NumPy\n\nintro\n- **Because**: `a`, `b_c`.\n- **Other**: `d`\n\n### Next\n- **x**: `e`"
    assert numpy_coverage.left_out(text) == {"a": "Because", "b_c": "Because", "d": "Other"}
