"""Sphinx configuration of loom's documentation site (`make docs`).

The site's own pages are Markdown (MyST). The design documents in docs/*.md stay where they
are and are included by the pages under design/. The API reference is generated from the
docstrings and signatures of the importable package (python/loom must hold a built
extension: `make docs` builds first).
"""
import os
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(HERE.parents[1] / "python"))

# A GPU is not needed, and on a GPU machine the reference must not depend on one.
os.environ.setdefault("LOOM_DEVICE", "cpu")

import loom  # noqa: E402  (after sys.path)

project = "loom"
author = "the loom authors"
copyright = "the loom authors"
release = version = loom.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "loom_api",
    "loom_bench",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "requirements.txt", "README.md", "benchmarks/results.md", "benchmarks/data"]
myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3

autodoc_default_options = {"members": True, "undoc-members": True}
autodoc_member_order = "alphabetical"
autosummary_generate = False

html_theme = "alabaster"
html_title = f"loom {release}"
html_static_path = []
html_theme_options = {"description": "GPU arrays, kernels and transforms with a C++ core",
                      "fixed_sidebar": True}
