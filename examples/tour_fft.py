"""The tour's FFT section: loom.fft (numpy.fft's names and arguments; FFTW on cpu(), cuFFT
on GPUs), checked against NumPy (imported by tour.py; runs on its own too)."""
import numpy as np

import loom


def fourier_transforms(default, section, check):
    section("FFT")
    rng = np.random.default_rng(11)
    # A noisy two-tone signal: rfft finds the tones, irfft of the cleaned spectrum denoises.
    t = np.arange(4096) / 4096.0
    xn = (np.sin(2 * np.pi * 50 * t) + 0.5 * np.sin(2 * np.pi * 120 * t)
          + 0.3 * rng.standard_normal(4096)).astype(np.float32)
    x = loom.asarray(xn, device=default)
    spec = loom.fft.rfft(x)
    print(f"  rfft of {x.shape[0]} {x.dtype} on {x.device} -> {spec.shape[0]} {spec.dtype}")
    check("rfft (float32 stays single precision)", spec, np.fft.rfft(xn), rtol=1e-3, atol=1e-2)
    power = loom.abs(spec)
    tones = np.sort(np.argsort(power.numpy())[-2:])
    print(f"  strongest frequencies: {tones.tolist()} (the signal's 50 and 120)")
    clean = loom.where(power > 200, spec, 0)
    check("irfft of the cleaned spectrum", loom.fft.irfft(clean, n=4096),
          np.fft.irfft(np.where(np.abs(np.fft.rfft(xn)) > 200, np.fft.rfft(xn), 0), n=4096), rtol=1e-3, atol=1e-3)
    img = rng.standard_normal((64, 48))
    li = loom.asarray(img, device=default)
    check("fft2 / ifft2 round trip, norm='ortho'", loom.fft.ifft2(loom.fft.fft2(li, norm="ortho"), norm="ortho"),
          img.astype(np.complex128), rtol=1e-10, atol=1e-10)
    check("rfftn over axes (1, 0), s=(32, 50)", loom.fft.rfftn(li, s=(32, 50), axes=(1, 0)),
          np.fft.rfftn(img, s=(32, 50), axes=(1, 0)), rtol=1e-10, atol=1e-10)
    check("fftshift(fftfreq(8, d=0.1))", loom.fft.fftshift(loom.fft.fftfreq(8, d=0.1, device=default)),
          np.fft.fftshift(np.fft.fftfreq(8, d=0.1)))
    batch = loom.asarray(rng.standard_normal((16, 256)).astype(np.float32), device=default)
    check("vmap(rfft) over 16 signals, one plan", loom.vmap(loom.fft.rfft)(batch),
          np.fft.rfft(batch.numpy()), rtol=1e-3, atol=1e-3)


if __name__ == "__main__":
    # On its own (python examples/tour_fft.py): this section of the tour on the default device,
    # with the tour's heading and NumPy comparison helpers.
    from tour import check, section
    fourier_transforms(loom.try_gpu(), section, check)
