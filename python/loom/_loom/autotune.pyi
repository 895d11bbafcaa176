"""
Run-time autotuning of block shapes: a kernel launched with block="auto" times candidate blocks on its first launch for each (kernel, problem-size class, device), keeps the fastest, and remembers it in memory and in the on-disk compile cache.
"""



def report() -> list:
    """
    The choices made or loaded in this process, oldest first: a list of dicts with kernel (name), device (e.g. 'gpu(0) NVIDIA H100 80GB HBM3 (sm_90)'), size_class (per dimension the power of two at or above the extent, e.g. '1048576x1x1'), block (a tuple of 3 ints), best_ms (its time per launch when timed), candidates (how many blocks were timed) and from_disk (read back from the cache instead of timed in this process).
    """

def clear() -> None:
    """
    Forgets the choices held in memory and empties report(); the disk cache keeps them, so the next launch reads its choice back instead of timing again.
    """
