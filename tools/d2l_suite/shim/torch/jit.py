"""torch.jit.script(net): loom.jit compiles each call of a module's forward (hybridize.md)."""
import loom


class _Scripted:
    def __init__(self, net):
        self._net = net
        self._f = loom.jit(lambda m, x: m(x))

    def __call__(self, x):
        return self._f(self._net, x)

    def save(self, path):
        """torch.jit's ScriptModule.save: here the parameters (torch.save of the state_dict)."""
        from . import save
        save(self._net.state_dict(), path)

    def __getattr__(self, name):
        return getattr(self._net, name)


def script(net):
    return _Scripted(net)
