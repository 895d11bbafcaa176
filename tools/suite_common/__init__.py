"""What the harnesses that run another project's test suite against loom share
(tools/numba_suite, tools/cupy_suite): scope.txt and known_failures.txt, the pytest hooks that
leave out-of-scope tests out, mark known failures xfail, time tests out and write the JSONL
report (plugin.py), and the per-file counts, pass rate and causes ranked (summary.py)."""
