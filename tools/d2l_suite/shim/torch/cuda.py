"""torch.cuda over loom's devices."""
import loom


def device_count():
    return loom.num_gpus()


def is_available():
    return loom.num_gpus() > 0


def synchronize(device=None):
    loom.synchronize()


def memory_allocated(device=None):
    return loom.memory.stats(device or loom.default_device())["in_use"]
