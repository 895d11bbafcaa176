"""Watching loom at work: what ran and for how long, and what each device holds.

  profiler.py        loom.profiler: ops, kernels, copies and compiles of a program, its trace
  _sampler.py        one sample of every device and of the processes on the GPUs
  _nvml.py           the NVML calls the sampler makes (loaded at run time, no CUDA context)
  _top.py            `python -m loom top`: the samples in a terminal
  dashboard.py       `python -m loom dashboard`, loom.dashboard.start(): the samples in a browser
  _dashboard.html    the dashboard's page

Nothing is imported here: loom.profiler and loom.dashboard load on first use, and the
profiler does not load the HTTP server.
"""
