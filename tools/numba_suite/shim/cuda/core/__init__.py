"""cuda.core (cuda-python): see cuda/__init__.py."""
