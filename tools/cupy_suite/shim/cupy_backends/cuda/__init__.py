"""cupy_backends.cuda: see cupy_backends."""
