"""Derivatives through complex numbers (docs/TRANSFORMS.md §6), JAX's convention: for real
f, grad(f)(z) = df/dx - i df/dy; vjp's cotangents pair bilinearly, Re(sum(ct * dF)); with
holomorphic=True, grad gives f'(z). Every rule is checked against central differences in
complex128 on fresh random data (directional derivatives along random complex directions),
vjp with complex cotangents, jvp, the casts between real and complex, and the ops that
refuse complex values with UnsupportedError."""
import numpy as np
import pytest

import loom
from loom.transforms._grad import grad, jvp, value_and_grad, vjp


def carr(x, device=None):
    return loom.asarray(np.asarray(x), device=device)


def crandn(rng, shape):
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)


def directional(f, args, i, e, h=1e-6):
    """d/dt f(..., args[i] + t e, ...) at 0 by central differences (f takes loom arrays)."""
    lo, hi = list(args), list(args)
    lo[i], hi[i] = args[i] - h * e, args[i] + h * e
    to = lambda a: carr(a)  # noqa: E731
    return (np.asarray(f(*map(to, hi)).numpy()) - np.asarray(f(*map(to, lo)).numpy())) / (2 * h)


def check_real_valued(f, args, rng, tol=1e-6):
    """grad of real-valued f against directional differences: d f = Re(sum(g * e))."""
    argnums = tuple(range(len(args)))
    got = grad(f, argnums=argnums)(*[carr(a) for a in args])
    for i, a in enumerate(args):
        for _ in range(2):
            e = crandn(rng, np.shape(a)) if np.iscomplexobj(a) else rng.standard_normal(np.shape(a))
            g = got[i].numpy()
            assert g.dtype == np.asarray(a).dtype, (g.dtype, np.asarray(a).dtype)
            want = directional(f, args, i, e)
            np.testing.assert_allclose(np.real(np.sum(g * e)), want, rtol=tol, atol=tol)



def sumsq(z):
    return loom.sum(loom.real(z * loom.conj(z)))


# Real-valued functions of complex arguments: one per rule family that sees complex values.
UNARY = ["exp", "log", "sin", "cos", "tan", "sinh", "cosh", "tanh", "sqrt", "square", "reciprocal",
         "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh", "log1p", "expm1", "exp2", "log2",
         "log10", "negative", "positive"]


@pytest.mark.parametrize("name", UNARY)
def test_holomorphic_elementwise(name, rng):
    w = crandn(rng, (3, 4))
    fn = getattr(loom, name)
    z = crandn(rng, (3, 4)) * 0.4 + (0.3 + 0.2j)  # away from branch cuts and poles
    check_real_valued(lambda z: loom.sum(loom.real(fn(z) * carr(w))) + sumsq(fn(z)) * 0.1, [z], rng)


CASES = {
    "arith": (lambda a, b: sumsq(a * b - a / (b + 3.0)) + loom.sum(loom.real(a ** 3)), [(3, 4), (4,)]),
    "power_complex_exponent": (lambda a, b: loom.sum(loom.imag((a + 3.0) ** (b * 0.3))), [(3,), (3,)]),
    "abs_conj_real_imag_angle": (lambda z: loom.sum(loom.abs(z) * loom.real(z) + loom.imag(loom.conj(z)) ** 2
                                                    + loom.angle(z)), [(5,)]),
    "abs_method": (lambda z: loom.sum(abs(z) ** 3), [(2, 3)]),
    "reductions": (lambda z: sumsq(loom.sum(z, axis=0)) + loom.real(loom.mean(z) * loom.prod(z[0]))
                   + loom.sum(loom.imag(loom.prod(z, axis=1))), [(3, 4)]),
    "scans": (lambda z: sumsq(loom.cumsum(z, axis=1)) + loom.sum(loom.real(loom.cumprod(z[1]))), [(3, 4)]),
    "var_std": (lambda z: loom.sum(loom.var(z, axis=0)) + loom.sum(loom.std(z, axis=1, ddof=1)), [(3, 4)]),
    "norms": (lambda z: loom.linalg.norm(z) + loom.sum(loom.linalg.norm(z, ord=1, axis=0))
              + loom.sum(loom.linalg.norm(z, ord=np.inf, axis=1)) + loom.sum(loom.linalg.norm(z, ord=3, axis=1)),
              [(3, 4)]),
    "matmul": (lambda a, b: sumsq(a @ b) + loom.sum(loom.imag(loom.matmul(a, b))), [(3, 4), (4, 2)]),
    "matmul_transposed": (lambda a, b: loom.sum(loom.real(loom.sin(a @ b.T))), [(3, 4), (2, 4)]),
    "einsum_dot_vdot": (lambda a, b: sumsq(loom.einsum("ij,jk->ik", a, b)) + loom.real(loom.vdot(a[0], b[:, 0]))
                        + loom.imag(loom.dot(a[1], b[:, 1])), [(3, 4), (4, 2)]),
    "indexing": (lambda z: sumsq(z[np.array([2, 0, 2])] * z[1:, ::-1][:, 0]), [(4, 3)]),
    "at": (lambda x, v: sumsq(x.at[np.array([1, 1, 3])].add(v)) + sumsq(x.at[np.array([0, 2])].set(v[:2]))
           + loom.sum(loom.real(x.at[np.array([0, 3])].add(v[1:]) * (1 + 2j))), [(5,), (3,)]),
    "setitem": (lambda x, v: sumsq(_setitem(x, v)), [(5,), (2,)]),
    "shape_ops": (lambda z: sumsq(loom.concatenate([z.T, z[:2].T], axis=1).reshape(-1)[::2])
                  + loom.sum(loom.real(loom.repeat(z, 2, axis=0) * (2 - 1j))), [(3, 2)]),
    "where_sort": (lambda z: sumsq(loom.where(loom.real(z) > 0, z * 2, z)) + loom.sum(loom.imag(loom.sort(z) * 1j)),
                   [(6,)]),
    "broadcast": (lambda a, b: sumsq(a + b) + loom.sum(loom.real(a * b)), [(3, 1), (4,)]),
}


def _setitem(x, v):
    y = x * 1.0
    y[np.array([4, 1])] = v
    return y * 2.0


@pytest.mark.parametrize("name", sorted(CASES))
def test_rule_families(name, rng):
    f, shapes = CASES[name]
    check_real_valued(f, [crandn(rng, s) for s in shapes], rng)


def test_jax_convention_on_a_closed_form(rng):
    """|z|^2 has gradient 2 conj(z) (JAX's df/dx - i df/dy), not PyTorch's 2 z."""
    z = crandn(rng, (4,))
    np.testing.assert_allclose(grad(lambda z: sumsq(z))(carr(z)).numpy(), 2 * np.conj(z), rtol=1e-12)
    # real, imag: the cotangent of Re(z) is 1, of Im(z) is -i (JAX's transposes).
    np.testing.assert_allclose(grad(lambda z: loom.sum(loom.imag(z)))(carr(z)).numpy(), np.full(4, -1j))
    np.testing.assert_allclose(grad(lambda z: loom.sum(loom.real(z)))(carr(z)).numpy(), np.ones(4))


def test_real_and_complex_mixed(rng):
    """Real arguments that meet complex values get real cotangents (the real part)."""
    x, z = rng.standard_normal((3,)), crandn(rng, (3,))
    f = lambda x, z: sumsq(x * z + loom.exp(x.astype("complex128") * 1j)) + loom.sum(z.astype("float64") ** 2)  # noqa: E731
    check_real_valued(f, [x, z], rng)
    gx = grad(f)(carr(x), carr(z))
    assert gx.dtype == loom.float64


def test_complex64(rng):
    z = crandn(rng, (5,)).astype(np.complex64)
    g = grad(lambda z: loom.sum(loom.abs(loom.exp(z)) ** 2))(carr(z)).numpy()
    assert g.dtype == np.complex64
    want = 2 * np.exp(2 * np.real(z.astype(np.complex128)))  # sum |exp(z)|^2 = sum exp(2x)
    np.testing.assert_allclose(g, want, rtol=1e-4)


def test_holomorphic_grad(rng):
    z = crandn(rng, ()) * 0.5
    f = lambda z: loom.sin(z) * loom.exp(z) / (z + 3.0)  # noqa: E731
    got = complex(grad(f, holomorphic=True)(carr(z)).numpy())
    h = 1e-6
    want = (complex(f(carr(z + h)).numpy()) - complex(f(carr(z - h)).numpy())) / (2 * h)
    assert abs(got - want) < 1e-7
    # The derivative in the imaginary direction agrees: f is holomorphic.
    want_i = (complex(f(carr(z + 1j * h)).numpy()) - complex(f(carr(z - 1j * h)).numpy())) / (2j * h)
    assert abs(got - want_i) < 1e-7
    v, g = value_and_grad(f, holomorphic=True)(carr(z))
    assert abs(complex(g.numpy()) - got) < 1e-12 and abs(complex(v.numpy()) - complex(f(carr(z)).numpy())) < 1e-12


def test_holomorphic_grad_of_grad(rng):
    z = crandn(rng, ()) * 0.5
    g2 = grad(grad(lambda z: loom.exp(z * 2.0) * z, holomorphic=True), holomorphic=True)(carr(z))
    want = 4 * np.exp(2 * z) * z + 4 * np.exp(2 * z)
    np.testing.assert_allclose(complex(g2.numpy()), want, rtol=1e-10)


def test_vjp_with_complex_cotangents(rng):
    """vjp(F)(ct) is the gradient of Re(sum(ct * F)) (the bilinear pairing)."""
    a, b, ct = crandn(rng, (3, 4)), crandn(rng, (4, 2)), crandn(rng, (3, 2))
    F = lambda a, b: loom.tanh(a @ b) * loom.conj(a[:, :2])  # noqa: E731
    out, f_vjp = vjp(F, carr(a), carr(b))
    ga, gb = f_vjp(carr(ct))
    L = lambda a, b: loom.sum(loom.real(F(a, b) * carr(ct)))  # noqa: E731
    for i, g in enumerate((ga, gb)):
        e = crandn(rng, (a, b)[i].shape)
        np.testing.assert_allclose(np.real(np.sum(g.numpy() * e)), directional(L, [a, b], i, e), rtol=1e-6, atol=1e-7)


def test_vjp_real_input_complex_output(rng):
    """A real input of a complex-valued function gets the real part of its cotangent."""
    x, ct = rng.standard_normal((4,)), crandn(rng, (4,))
    F = lambda x: loom.exp(x * (1 + 2j))  # noqa: E731
    (gx,) = vjp(F, carr(x))[1](carr(ct))
    assert gx.dtype == loom.float64
    np.testing.assert_allclose(gx.numpy(), np.real(ct * (1 + 2j) * np.exp(x * (1 + 2j))), rtol=1e-12)


def test_jvp(rng):
    z, t = crandn(rng, (3,)), crandn(rng, (3,))
    F = lambda z: loom.sin(z) * loom.conj(z) + loom.abs(z)  # noqa: E731 -- not holomorphic
    out, tout = jvp(F, (carr(z),), (carr(t),))
    h = 1e-6
    want = (F(carr(z + h * t)).numpy() - F(carr(z - h * t)).numpy()) / (2 * h)
    np.testing.assert_allclose(tout.numpy(), want, rtol=1e-6, atol=1e-8)


def test_jit_and_vmap_of_complex_grad(rng):
    z = crandn(rng, (4, 3))
    g = grad(lambda z: sumsq(loom.exp(z)))
    want = np.stack([g(carr(z[i])).numpy() for i in range(4)])
    np.testing.assert_allclose(loom.vmap(g)(carr(z)).numpy(), want, rtol=1e-12)
    np.testing.assert_allclose(loom.jit(g)(carr(z)).numpy(), g(carr(z)).numpy(), rtol=1e-12)


def test_unsupported_ops_raise(rng):
    z = carr(crandn(rng, (4,)))
    with pytest.raises(NotImplementedError, match="maximum"):
        grad(lambda z: loom.sum(loom.real(loom.maximum(z, z * 2))))(z)
    with pytest.raises(NotImplementedError, match="complex"):
        grad(lambda z: loom.sum(loom.real(loom.sign(z))))(z)


def test_complex_max_min_select_one_element(rng):
    """max/min of complex values (lexicographic) gather one element: its cotangent."""
    z = crandn(rng, (5,))
    g = grad(lambda z: loom.real(loom.max(z)) + loom.imag(loom.min(z)))(carr(z)).numpy()
    want = np.zeros(5, complex)
    want[np.argmax(z)] += 1
    want[np.argmin(z)] += -1j
    np.testing.assert_allclose(g, want)


def test_argument_errors(rng):
    z = carr(crandn(rng, (3,)))
    with pytest.raises(TypeError, match="holomorphic=True"):
        grad(lambda z: loom.sum(z))(z)
    with pytest.raises(TypeError, match="complex inputs"):
        grad(lambda x: loom.sum(x), holomorphic=True)(carr(np.ones(3)))
    with pytest.raises(TypeError, match="complex output"):
        grad(lambda z: loom.sum(loom.abs(z)), holomorphic=True)(z)
    with pytest.raises(TypeError):
        vjp(lambda x: x * 2.0, carr(np.ones(3)))[1](z)


def test_on_every_device(device, rng):
    """The same rules on each device present (a GPU's generated conj/abs kernels, cuBLAS's
    complex GEMM, complex reductions)."""
    a, b = crandn(rng, (3, 4)), crandn(rng, (4, 2))
    L = lambda x: loom.asarray(x, device=device)  # noqa: E731
    f = lambda a, b: (sumsq(loom.exp(a * 0.3) @ b) + loom.sum(loom.abs(a)) + loom.real(loom.prod(b[0]))  # noqa: E731
                      + loom.linalg.norm(loom.cumsum(a, axis=1)))
    ga, gb = grad(f, argnums=(0, 1))(L(a), L(b))
    assert ga.device == device
    for i, g in enumerate((ga, gb)):
        e = crandn(rng, (a, b)[i].shape)
        h = 1e-6
        lo, hi = [a, b], [a, b]
        lo[i], hi[i] = (a, b)[i] - h * e, (a, b)[i] + h * e
        want = (float(f(*map(L, hi)).numpy()) - float(f(*map(L, lo)).numpy())) / (2 * h)
        np.testing.assert_allclose(np.real(np.sum(g.numpy() * e)), want, rtol=1e-6, atol=1e-6)
