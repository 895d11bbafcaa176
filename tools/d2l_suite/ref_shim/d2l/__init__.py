"""The reference run's `d2l` (real PyTorch): `from d2l import torch as d2l` gives ref_shim/d2l/torch.py."""
