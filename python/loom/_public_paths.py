"""Public module paths whose code lives in a subpackage: `import loom.profiler`,
`from loom.data import DataLoader` and `python -m loom.launch` keep working while the modules
sit in loom/monitor/, loom/train/ and loom/distributed/ (docs/ARCHITECTURE.md, "The Python
package").

Importing a public path imports the module that implements it and binds that same module
object under the public name, so there is one copy of its state; nothing loads before it is
asked for (loom.profiler and loom.dashboard stay out of `import loom`).
"""
import importlib
import importlib.abc
import importlib.util
import sys

# public path -> the module that implements it
PUBLIC_PATHS = {
    "loom.tree_util": "loom.transforms.tree_util",
    "loom.lax": "loom.transforms.lax",
    "loom.data": "loom.train.data",
    "loom.d2l": "loom.train.d2l",
    "loom.launch": "loom.distributed.launch",
    "loom.profiler": "loom.monitor.profiler",
    "loom.dashboard": "loom.monitor.dashboard",
}


class _PublicPathFinder(importlib.abc.MetaPathFinder, importlib.abc.InspectLoader):
    """Finds the public paths (after every other finder: a real file always wins)."""

    def find_spec(self, name, path=None, target=None):
        if name not in PUBLIC_PATHS:
            return None
        real = importlib.util.find_spec(PUBLIC_PATHS[name])
        return importlib.util.spec_from_loader(name, self, origin=real.origin if real else None)

    def create_module(self, spec):
        return importlib.import_module(PUBLIC_PATHS[spec.name])

    def exec_module(self, module):
        pass  # the real module ran when create_module imported it

    def get_code(self, name):
        # `python -m loom.launch`: runpy runs this as __main__; it runs the real module the
        # same way, so the module's relative imports resolve in its own package.
        return compile(f"import runpy\nrunpy.run_module({PUBLIC_PATHS[name]!r}, run_name='__main__', alter_sys=True)\n",
                       f"<{name}>", "exec")

    def get_source(self, name):
        return None


def install():
    if not any(isinstance(f, _PublicPathFinder) for f in sys.meta_path):
        sys.meta_path.append(_PublicPathFinder())
