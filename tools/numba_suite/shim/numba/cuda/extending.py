"""numba.cuda.extending: Numba's extension API (type models, typing and lowering hooks), which
loom does not have. Its registration calls are accepted and recorded, doing nothing, so that a
test file that registers an extension type at import (extensions_usecases.py) loads and its
other tests run; a kernel that uses the extension type then fails in loom's translator (an
unknown type), which counts that test as failed, as it should."""
from .._missing import missing_callable

REGISTERED = []


def _recorder(kind):
    def register(*args, **kwargs):
        def decorate(obj):
            REGISTERED.append((kind, args, obj))
            return obj
        return decorate
    register.__name__ = kind
    return register


class _Registry:
    def __init__(self, kind):
        self.register = _recorder(kind)


typeof_impl = _Registry("typeof_impl")
register_model = _recorder("register_model")
type_callable = _recorder("type_callable")
lower_builtin = _recorder("lower_builtin")
lower_cast = _recorder("lower_cast")


def make_attribute_wrapper(typeclass, struct_attr, python_attr):
    REGISTERED.append(("make_attribute_wrapper", (typeclass, struct_attr, python_attr), None))


class _Models:
    """core_models / models: base classes an extension subclasses."""

    class StructModel:
        def __init__(self, dmm, fe_type, members):
            self.members = members

    class PrimitiveModel:
        def __init__(self, dmm, fe_type, be_type):
            pass

    class OpaqueModel(PrimitiveModel):
        pass


core_models = models = _Models
overload = missing_callable("numba.cuda.extending.overload", "Numba's extension API")
overload_method = missing_callable("numba.cuda.extending.overload_method", "Numba's extension API")
overload_attribute = missing_callable("numba.cuda.extending.overload_attribute", "Numba's extension API")
intrinsic = missing_callable("numba.cuda.extending.intrinsic", "Numba's extension API")
