"""The errors a PyTorch or NumPy user meets first say loom's spelling: shape mismatches of the
products name both shapes and the axis; PyTorch's keywords, methods and names
(dim=, keepdim=, x.cuda(), loom.tensor, optim.SGD(model.parameters(), 0.1).step()) name loom's."""
import numpy as np
import pytest

import loom
from loom import nn, optim


def _arr(rng, shape):
    return loom.asarray(rng.standard_normal(shape).astype(np.float32), device=loom.cpu())


def test_matmul_operator_names_both_shapes_and_the_axes(rng):
    a, b = _arr(rng, (2, 3)), _arr(rng, (4, 5))
    with pytest.raises(ValueError) as e:
        a @ b
    msg = str(e.value)
    assert msg.startswith("[matmul] shapes (2, 3) and (4, 5) do not match")
    assert "last axis (axis 1, size 3)" in msg and "second-to-last axis (axis 0, size 4)" in msg
    assert "gufunc" not in msg and "signature" not in msg


def test_matmul_with_a_vector_names_its_only_axis(rng):
    with pytest.raises(ValueError, match=r"\[matmul\] shapes \(2, 3\) and \(4,\) do not match: .*only axis "
                                         r"\(axis 0, size 4\)"):
        loom.matmul(_arr(rng, (2, 3)), _arr(rng, (4,)))


def test_matmul_batch_mismatch_names_the_batch_axes(rng):
    with pytest.raises(ValueError, match=r"\[matmul\] shapes \(2, 3, 4\) and \(5, 4, 6\) do not match: their "
                                         r"batch axes .* 2 \(axis 0 of the first\) vs 5 \(axis 0 of the second\)"):
        loom.matmul(_arr(rng, (2, 3, 4)), _arr(rng, (5, 4, 6)))


def test_matmul_of_a_scalar_says_what_to_use(rng):
    with pytest.raises(ValueError, match=r"\[matmul\] operand 1 is 0-d .* multiply"):
        loom.matmul(_arr(rng, (2, 3)), _arr(rng, ()))


def test_dot_and_inner_name_both_shapes_and_the_axes(rng):
    with pytest.raises(ValueError, match=r"\[dot\] shapes \(2,3\) and \(4,5\) not aligned: 3 \(dim 1\) != 4 \(dim 0\)"):
        loom.dot(_arr(rng, (2, 3)), _arr(rng, (4, 5)))
    with pytest.raises(ValueError, match=r"\[inner\] shapes \(2,3\) and \(4,5\) not aligned: 3 \(dim 1\) != 5 \(dim 1\)"):
        loom.inner(_arr(rng, (2, 3)), _arr(rng, (4, 5)))


def test_tensordot_names_both_shapes_and_the_summed_axes(rng):
    with pytest.raises(ValueError, match=r"\[tensordot\] shapes \(2, 3\) and \(4, 5\) do not match: axis 1 of the "
                                         r"first \(size 3\) is summed with axis 0 of the second \(size 4\)"):
        loom.tensordot(_arr(rng, (2, 3)), _arr(rng, (4, 5)), axes=1)


def test_einsum_names_the_index_both_operands_and_their_shapes(rng):
    with pytest.raises(ValueError, match=r"\[einsum\] index 'j' has size 3 in operand 0 \(shape \(2, 3\)\) and size "
                                         r"4 in operand 1 \(shape \(4, 5\), axis 0\)"):
        loom.einsum("ij,jk->ik", _arr(rng, (2, 3)), _arr(rng, (4, 5)))


def test_torch_dim_keyword_says_axis(rng):
    with pytest.raises(TypeError) as e:
        loom.sum(_arr(rng, (2, 3)), dim=1)
    assert str(e.value) == "[sum] unexpected keyword argument 'dim': use axis= (NumPy's name for torch's dim=)"


@pytest.mark.parametrize("call, message", [
    (lambda x: x.sum(dim=1), "[sum] unexpected keyword argument 'dim': use axis="),
    (lambda x: x.max(dim=0), "[max] unexpected keyword argument 'dim': use axis="),
    (lambda x: x.mean(axis=1, keepdim=True), "[mean] unexpected keyword argument 'keepdim': use keepdims="),
    (lambda x: x.std(unbiased=False), "[std] unexpected keyword argument 'unbiased': use ddof="),
    (lambda x: x.argmax(axes=0), "[argmax] unexpected keyword argument 'axes'; its keywords are: "),
])
def test_array_methods_say_loom_keywords_too(rng, call, message):
    x = _arr(rng, (2, 3))
    with pytest.raises(TypeError) as e:
        call(x)
    assert str(e.value).startswith(message)


def test_hinted_array_methods_still_work_as_methods(rng):
    a = rng.standard_normal((2, 3))
    x = loom.asarray(a)
    np.testing.assert_allclose(x.sum(axis=1).numpy(), a.sum(axis=1))
    np.testing.assert_allclose(loom.ndarray.mean(x, 0).numpy(), a.mean(0))  # looked up on the class
    m = x.std
    np.testing.assert_allclose(m(ddof=1).numpy(), a.std(ddof=1))  # a bound method kept for later
    assert "axis" in x.sum.__doc__ and x.sum.__name__ == "sum"


def test_torch_keepdim_keyword_says_keepdims(rng):
    with pytest.raises(TypeError, match=r"^\[mean\] unexpected keyword argument 'keepdim': use keepdims="):
        loom.mean(_arr(rng, (2, 3)), axis=1, keepdim=True)


def test_unknown_keyword_lists_the_functions_keywords(rng):
    with pytest.raises(TypeError, match=r"^\[sum\] unexpected keyword argument 'axes'; its keywords are: .*axis"):
        loom.sum(_arr(rng, (2, 3)), axes=1)


def test_wrong_positional_types_keep_nanobinds_message():
    with pytest.raises(TypeError, match="incompatible function arguments"):
        loom.sum("not an array", 1, 2, 3, 4, 5, 6, 7)


def test_torch_device_cuda_string_is_loom_gpu():
    # device='cuda' is accepted (it means gpu(0), as 'gpu' does); without a GPU it says so.
    if loom.num_gpus():
        assert loom.zeros(2, device="cuda").device == loom.gpu(0)
    else:
        with pytest.raises(Exception, match="gpu"):
            loom.zeros(2, device="cuda")


@pytest.mark.parametrize("method, hint", [("cuda", r"x\.to\(loom\.gpu\(0\)\)"), ("cpu", r"x\.to\(loom\.cpu\(\)\)")])
def test_torch_device_methods_say_to(rng, method, hint):
    with pytest.raises(AttributeError, match=rf"'loom.ndarray' object has no attribute '{method}': {hint}"):
        getattr(_arr(rng, (2,)), method)()


def test_missing_array_attributes_stay_plain_attribute_errors(rng):
    x = _arr(rng, (2,))
    assert not hasattr(x, "no_such_attribute")
    with pytest.raises(AttributeError, match=r"^'loom.ndarray' object has no attribute 'no_such_attribute'$"):
        x.no_such_attribute


def test_loom_tensor_says_asarray():
    with pytest.raises(AttributeError, match=r"module 'loom' has no attribute 'tensor': loom\.asarray\(data\)"):
        loom.tensor([1.0, 2.0])


def test_pytorch_optimiser_forms_are_taken():
    model = nn.Sequential(nn.Linear(3, 2))
    sgd = optim.SGD(model.parameters(), 0.1, 0.9)
    assert (sgd.learning_rate, sgd.momentum) == (0.1, 0.9)
    assert optim.Adam(model.parameters(), lr=1e-3).learning_rate == 1e-3
    assert optim.AdamW(lr=0.01).learning_rate == 0.01
    with pytest.raises(TypeError, match=r"^\[optim\.SGD\] a parameter group sets 'betas'"):
        optim.SGD([{"params": model.parameters(), "betas": (0.9, 0.99)}], lr=0.1)
    with pytest.raises(TypeError, match=r"^\[optim\.SGD\] step\(\) needs gradients .*opt\.update\(model, grads\)"):
        sgd.step()


def test_optimisers_still_take_loom_forms():
    assert optim.SGD(0.1).learning_rate == 0.1
    assert optim.Adam(learning_rate=1e-3).learning_rate == 1e-3
    assert callable(optim.SGD(lambda step: 0.1).learning_rate)


def test_a_cpu_array_says_why_it_has_no_cuda_array_interface():
    x = loom.ones(2, device=loom.cpu())
    assert not hasattr(x, "__cuda_array_interface__")  # what Numba and CuPy test for
    with pytest.raises(AttributeError, match=r"a cpu\(\) array is host memory.*np.from_dlpack\(x\)"):
        x.__cuda_array_interface__
