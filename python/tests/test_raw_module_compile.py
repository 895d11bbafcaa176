"""RawModule compiles and argument conversion without a GPU: NVRTC, CompileError with the
source around the error, templates, SourceModule's extern "C", and launch argument errors
that are raised before any device is touched."""
import numpy as np
import pytest

import loom

# NVRTC needs the CUDA backend, not a GPU.
pytestmark = pytest.mark.skipif(not loom.build_info()["cuda"], reason="loom built without CUDA")


def test_compile_for_an_arch_returns_lowered_template_names():
    mod = loom.RawModule("template <typename T> __global__ void k(T* a) { a[0] = T(1); }",
                         name_expressions=("k<float>", "k<int>"))
    names = mod.compile(arch=90)
    assert len(names) == 2 and names[0] != names[1] and all(n.startswith("_Z") for n in names)
    assert mod.name_expressions == ["k<float>", "k<int>"]


def test_compile_error_holds_the_log_and_numbered_source():
    src = 'extern "C" __global__ void f(float* a) {\n  int i = 0;\n  a[i] = not_declared;\n}\n'
    with pytest.raises(loom.CompileError) as e:
        loom.RawModule(src).compile(arch=90)
    msg = str(e.value)
    assert "not_declared" in e.value.log
    assert "> 3 |   a[i] = not_declared;" in msg and "  2 |   int i = 0;" in msg


def test_source_module_wraps_extern_c_and_keeps_line_numbers():
    mod = loom.SourceModule("__global__ void g(float* a) {\n  a[0] = oops;\n}")
    assert mod.code.startswith('extern "C" {')
    with pytest.raises(loom.CompileError, match=r"> 2 \|   a\[0\] = oops;"):
        mod.compile(arch=90)
    loom.SourceModule("__global__ void g(float* a) { a[0] = 1; }").compile(arch=80)
    loom.SourceModule("extern \"C\" __global__ void g(float* a) { a[0] = 1; }", no_extern_c=True).compile(arch=90)


def test_options_reach_nvrtc():
    src = 'extern "C" __global__ void f(float* a) { a[0] = SCALE; }'
    with pytest.raises(loom.CompileError):
        loom.RawModule(src).compile(arch=90)
    loom.RawModule(src, options=("-DSCALE=2.0f",)).compile(arch=90)


def test_bad_constructor_arguments():
    with pytest.raises(ValueError, match="empty"):
        loom.RawModule("")
    with pytest.raises(TypeError, match="sequence of strings"):
        loom.RawModule("x", options="-O3")
    with pytest.raises(ValueError, match="compute capability"):
        loom.RawModule("x").compile(arch=7)


def test_bad_launch_arguments_fail_before_launching():
    k = loom.RawKernel('extern "C" __global__ void f(float* a, int n) {}', "f")
    a = loom.ones(4, dtype=loom.float32, device=loom.cpu())
    with pytest.raises(TypeError, match="NumPy array in host memory"):
        k((1,), (4,), (np.ones(4, np.float32), 4))
    with pytest.raises(TypeError, match="argument 1 is a list"):
        k((1,), (4,), (a, [1, 2]))
    with pytest.raises(TypeError, match="k\\(grid, block, args\\)"):
        k(1, 4)
    with pytest.raises(TypeError, match="unexpected keyword"):
        k((1,), (4,), (a, 4), shard_mem=4)
    with pytest.raises(ValueError, match="1 to 3 dimensions"):
        k((1, 1, 1, 1), (4,), (a, 4))
    with pytest.raises(ValueError, match="out of range"):
        k((-1,), (4,), (a, 4))
    with pytest.raises(ValueError, match="\"auto\""):
        k((1,), "fast", (a, 4))
    with pytest.raises(TypeError, match="k\\[grid, block\\]"):
        k[1]
    with pytest.raises(TypeError, match="NumPy array"):
        loom.Out([1.0, 2.0])


def test_cpu_arrays_run_on_the_emulator():
    k = loom.RawKernel('extern "C" __global__ void f(float* a, int n) '
                       '{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] += i; }', "f")
    x = np.random.default_rng(5).standard_normal(4).astype(np.float32)
    a = loom.asarray(x.copy(), device=loom.cpu())  # asarray may share x's memory on the CPU
    launches = (lambda: k((1,), (4,), (a, 4)), lambda: k(a, 4, block=4), lambda: k[1, 4](a, 4))
    for count, launch in enumerate(launches, 1):
        launch()
        np.testing.assert_array_equal(a.numpy(), x + count * np.arange(4, dtype=np.float32))
