"""The tour's complex-number section: complex64/complex128 arrays on the device, checked
against NumPy (imported by tour.py; runs on its own too)."""
import numpy as np

import loom


def complex_numbers(default, section, check):
    section("complex numbers")
    rng = np.random.default_rng(7)
    zn = (rng.standard_normal((64, 64)) + 1j * rng.standard_normal((64, 64))).astype(np.complex64)
    z = loom.asarray(zn, device=default)
    print(f"  {z.dtype} on {z.device}; float32 + 1j -> {(loom.ones(2, loom.float32, device=default) + 1j).dtype}")
    check("exp, sqrt, log (branch cuts as NumPy)", loom.exp(z) + loom.sqrt(z) * loom.log(z),
          np.exp(zn) + np.sqrt(zn) * np.log(zn), rtol=1e-5)
    check("z @ z.conj().T (cgemm)", z @ z.conj().T, zn @ zn.conj().T, rtol=1e-5, atol=1e-4)
    check("abs, angle, real and imag views", loom.abs(z) + loom.angle(z) + z.real * z.imag,
          np.abs(zn) + np.angle(zn) + zn.real * zn.imag, rtol=1e-5, atol=1e-5)
    check("sum and mean over an axis", loom.mean(z, axis=0) + loom.sum(z, axis=1),
          np.mean(zn, axis=0) + np.sum(zn, axis=1), rtol=1e-5, atol=1e-5)
    f = loom.jit(lambda a: loom.abs(a * a.conj() - a) ** 2)
    check("jit-fused complex expression", f(z), np.abs(zn * zn.conj() - zn) ** 2, rtol=1e-4)


if __name__ == "__main__":
    # On its own (python examples/tour_complex.py): this section of the tour on the default device,
    # with the tour's heading and NumPy comparison helpers.
    from tour import check, section
    complex_numbers(loom.try_gpu(), section, check)
