"""The tour's "Transforms" section (examples/tour.py calls it): JAX's quickstart examples on
loom — SELU eager and under jit, a matrix times a batch of vectors by a loop, by hand, by
vmap and by jit(vmap), a gradient checked against finite differences, and per-example
gradients with vmap(grad) — on cpu() and on each GPU. Runs on its own too."""
import time

import numpy as np

import loom


def selu(x, alpha=1.67, lmbda=1.05):
    return lmbda * loom.where(x > 0, x, alpha * loom.exp(x) - alpha)


def sum_logistic(x):
    return loom.sum(1.0 / (1.0 + loom.exp(-x)))


def per_call(fn, repeat=20):
    """Best time of one call of fn(), waiting for its result, in seconds."""
    fn().block_until_ready()
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn().block_until_ready()
        best = min(best, time.perf_counter() - t0)
    return best


def show(label, seconds):
    print(f"  {label:<52} {seconds * 1e6:10.1f} us")


def on_device(d, check):
    key = loom.random.key(0)
    x = loom.random.normal(key, (1_000_000,), device=d)
    selu_jit = loom.jit(selu)
    check(f"jit(selu) equals selu on {d!r}", selu_jit(x), selu(x).numpy())
    show(f"selu, 1e6 float32, eager on {d!r}", per_call(lambda: selu(x)))
    show(f"selu, 1e6 float32, jit on {d!r}", per_call(lambda: selu_jit(x)))

    k1, k2 = loom.random.split(key)
    mat = loom.random.normal(k1, (150, 100), device=d)
    batched_x = loom.random.normal(k2, (10, 100), device=d)

    def apply_matrix(v):
        return loom.dot(mat, v)

    def naively_batched(v_batched):
        return loom.stack([apply_matrix(v) for v in v_batched])

    def batched_by_hand(v_batched):
        return loom.dot(v_batched, mat.T)

    vmapped = loom.vmap(apply_matrix)
    jit_vmapped = loom.jit(loom.vmap(apply_matrix))
    want = naively_batched(batched_x).numpy()
    check(f"vmap(apply_matrix) equals the loop on {d!r}", vmapped(batched_x), want, rtol=1e-5, atol=1e-4)
    check(f"jit(vmap(apply_matrix)) equals the loop on {d!r}", jit_vmapped(batched_x), want, rtol=1e-5, atol=1e-4)
    for label, fn in (("a Python loop", naively_batched), ("by hand (v @ mat.T)", batched_by_hand),
                      ("vmap", vmapped), ("jit(vmap)", jit_vmapped)):
        show(f"150x100 matrix x 10 vectors, {label}", per_call(lambda: fn(batched_x)))


def gradients(check):
    x = loom.arange(3.0)
    g = loom.grad(sum_logistic)(x)
    eps = 1e-4
    xn = x.numpy()
    fd = np.array([(sum_logistic(loom.asarray(xn + eps * e)).item() - sum_logistic(loom.asarray(xn - eps * e)).item())
                   / (2 * eps) for e in np.eye(3)])
    print(f"  grad(sum_logistic)({xn.tolist()}) = {np.round(g.numpy(), 5).tolist()}")
    check("grad equals central finite differences", g, fd, rtol=1e-4, atol=1e-6)
    check("jit(grad) equals grad", loom.jit(loom.grad(sum_logistic))(x), g.numpy(), rtol=1e-6)

    # Per-example gradients of a linear model's squared error: vmap(grad) over the batch.
    rng = np.random.default_rng(0)
    w = loom.asarray(rng.standard_normal(4))
    xs, ys = loom.asarray(rng.standard_normal((8, 4))), loom.asarray(rng.standard_normal(8))

    def loss(w, x, y):
        return (loom.dot(x, w) - y) ** 2

    per_example = loom.vmap(loom.grad(loss), in_axes=(None, 0, 0))(w, xs, ys)
    want = 2 * (xs.numpy() @ w.numpy() - ys.numpy())[:, None] * xs.numpy()
    print(f"  vmap(grad(loss)) over 8 examples: shape {per_example.shape}")
    check("per-example gradients equal the formula", per_example, want, rtol=1e-6, atol=1e-9)


def transforms(default, section, check):
    section("Transforms (JAX style: jit, vmap, grad)")
    for d in [loom.cpu()] + [g for g in loom.try_all_gpus() if g.type != "cpu"]:
        on_device(d, check)
    gradients(check)


if __name__ == "__main__":
    # On its own (python examples/tour_transforms.py): this section of the tour on the default device,
    # with the tour's heading and NumPy comparison helpers.
    from tour import check, section
    transforms(loom.try_gpu(), section, check)
