"""cuda.core._utils (cuda-python): see cuda/__init__.py."""
