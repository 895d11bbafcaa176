"""The d2l harness's `d2l` package: `from d2l import torch as d2l` gives shim/d2l/torch.py."""
