"""The d2l harness's torchvision: datasets.FashionMNIST and the transforms the book uses."""
from . import datasets, transforms  # noqa: F401
