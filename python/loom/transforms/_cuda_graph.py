"""loom.cuda_graph: capture one call of a function as a CUDA graph, then replay it.

>>> g = loom.cuda_graph(f, x, y)     # warm-up call, then capture of a second call
>>> out = g(x2, y2)                  # copies x2, y2 into the graph's inputs and replays

The graph reads its inputs from buffers of its own: a call copies the new arguments into
them (same shapes, dtypes and device as the examples, else a ValueError). As PyTorch's
CUDA graphs, it returns its *static outputs*: the same arrays on every call, overwritten
by the next replay (copy one to keep it). Arguments that are not loom arrays are baked
into the graph and must be the same on every call. Nothing may read GPU data back on the
host, synchronize or compile a new kernel inside the function while it is captured:
those raise loom.GraphCaptureError. On cpu() each call just runs the function.
"""
from .. import _loom
from .tree_util import tree_flatten

__all__ = ["cuda_graph", "CudaGraph"]


def cuda_graph(fn, *example_args):
    """Captures `fn(*example_args)` as a CUDA graph and returns a callable that replays it."""
    return CudaGraph(fn, example_args)


def _same_constant(a, b):
    if a is b:
        return True
    try:
        return bool(a == b)
    except Exception:  # arrays of other libraries: only the same object is the same
        return False


class CudaGraph:
    """A captured call of a function; call it with new arguments to replay it."""

    def __init__(self, fn, example_args):
        if not callable(fn):
            raise TypeError(f"[cuda_graph] fn must be callable, got {type(fn).__name__}")
        self._fn = fn
        example_args = tuple(example_args)
        self._array_pos = [i for i, a in enumerate(example_args) if isinstance(a, _loom.ndarray)]
        if not self._array_pos:
            raise TypeError("[cuda_graph] needs at least one loom array argument (the graph's inputs)")
        arrays = [example_args[i] for i in self._array_pos]
        # The constants only: the graph copies the arrays, so it need not keep the examples.
        self._args = tuple(None if isinstance(a, _loom.ndarray) else a for a in example_args)
        self._is_array = [isinstance(a, _loom.ndarray) for a in example_args]
        self._const_pos = [i for i, is_array in enumerate(self._is_array) if not is_array]
        self._specs = [(a.shape, a.dtype, a.device) for a in arrays]
        self.device = arrays[0].device
        for a in arrays[1:]:
            if a.device != self.device:
                raise _loom.DeviceMismatchError(
                    f"[cuda_graph] the array arguments are on {self.device} and {a.device}; a graph runs on one device")
        self._graph = None
        self._outputs = None
        if self.device.type != "cpu":
            self._capture(arrays)

    def _capture(self, arrays):
        g = _loom._CudaGraph(self.device)
        statics = [g.add_input(a) for a in arrays]
        # The warm-up compiles every kernel and fills the graph stream's pool with the
        # temporaries the capture will reuse. It runs on copies of the inputs: the same
        # layouts, so the same kernels, and a function that writes its arguments does not
        # write the graph's inputs twice.
        # Compiles happen in the warm-up itself, not on the background worker: a jitted
        # function whose fused kernel is still compiling runs node by node (TRANSFORMS.md
        # §4), and the graph would keep those many kernels for good.
        background = _loom._set_background_compiles(False)
        try:
            with g.stream:
                warm = list(self._args)
                for i, s in zip(self._array_pos, statics):
                    warm[i] = s.copy()
                self._fn(*warm)
                del warm
        finally:
            _loom._set_background_compiles(background)
        call = list(self._args)
        for i, s in zip(self._array_pos, statics):
            call[i] = s
        g.begin_capture()
        try:
            out = self._fn(*call)
            leaves, _ = tree_flatten(out)
            for leaf in leaves:
                if not isinstance(leaf, _loom.ndarray):
                    raise TypeError(
                        f"[cuda_graph] the function must return loom arrays (or tuples, lists, dicts of them), "
                        f"got a {type(leaf).__name__}")
            g.end_capture(leaves)
        except BaseException:
            g.abort_capture()
            raise
        self._graph = g
        self._outputs = out

    @property
    def inputs(self):
        """The graph's input buffers (each call copies its array arguments into them); None on cpu()."""
        return None if self._graph is None else self._graph.inputs

    def _check(self, args):
        if len(args) != len(self._args):
            raise TypeError(f"[cuda_graph] the graph was captured with {len(self._args)} arguments, got {len(args)}")
        arrays = []
        for i, (a, e) in enumerate(zip(args, self._args)):
            if not self._is_array[i]:
                if not _same_constant(a, e):
                    raise ValueError(
                        f"[cuda_graph] argument {i} is not an array, so the graph baked in its captured value "
                        f"{e!r}; got {a!r} (capture a new graph for a new value, or pass it as a loom array)")
                continue
            if not isinstance(a, _loom.ndarray):
                raise TypeError(f"[cuda_graph] argument {i} must be a loom array, as at capture; got {type(a).__name__}")
            shape, dtype, device = self._specs[len(arrays)]
            if a.device != device:
                raise _loom.DeviceMismatchError(f"[cuda_graph] argument {i} is on {a.device}, the graph on {device}")
            if a.shape != shape or a.dtype != dtype:
                raise ValueError(
                    f"[cuda_graph] argument {i} has shape {a.shape} and dtype {a.dtype}; the graph was captured "
                    f"with shape {shape} and dtype {dtype} (capture a new graph for new shapes)")
            arrays.append(a)
        return arrays

    def __call__(self, *args):
        g = self._graph
        if g is not None and len(args) == len(self._is_array) and all(
                _same_constant(args[i], self._args[i]) for i in self._const_pos):
            # A replay is a few microseconds of host time, so the arrays' shapes, dtypes and
            # devices are checked once, by the replay itself; a wrong one is then named by
            # the argument's place in the call.
            try:
                g.replay([args[i] for i in self._array_pos])
            except (TypeError, ValueError):
                self._check(args)
                raise
            return self._outputs
        arrays = self._check(args)
        if g is None:  # cpu(): eager, every call
            return self._fn(*args)
        g.replay(arrays)
        return self._outputs

    def __repr__(self):
        return f"<loom.CudaGraph of {getattr(self._fn, '__name__', 'a function')} on {self.device}>"
