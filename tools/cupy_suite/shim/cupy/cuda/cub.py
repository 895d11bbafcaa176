"""cupy.cuda.cub: loom has no switch for CUB routines."""
available = False
