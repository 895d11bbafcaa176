"""torch.nn.parallel.scatter: a batch cut into equal parts along axis 0, one a device."""
import loom


def scatter(data, devices):
    n = len(devices)
    k = (data.shape[0] + n - 1) // n
    return [data[i * k:(i + 1) * k].to(d) for i, d in enumerate(devices)]
