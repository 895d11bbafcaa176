"""cupy.cuda.cutensor: loom has no switch for cuTENSOR routines."""
available = False
