"""Enum members in Python kernels, as Numba types them: an IntEnum member is an int64 of its
class (arithmetic and comparisons as an integer, `int16(m)` converts it); any other Enum
member is a value of its class that compares with == / != / `is` / `is not` only. Members
come from globals (`Color.red`, `Color["red"]`) or kernel arguments (passed as their values,
dispatcher.py); in C a member is its value (an integer, a float, or a tuple's struct)."""
import enum

from . import types as T
from .values import Value, literal, tuple_code, tuple_items


def is_member(obj):
    return isinstance(obj, enum.Enum)


def is_enum_class(obj):
    return isinstance(obj, type) and issubclass(obj, enum.Enum)


def member_type(cls, value_type):
    """The kernel type of a member of `cls` whose value has kernel type `value_type`."""
    if issubclass(cls, int):
        return T.IntEnumMember(cls)
    return T.EnumMember(cls, value_type)


def constant(tr, node, member):
    """A member named by the kernel (a global, or a class attribute or item)."""
    cls = type(member)
    if issubclass(cls, int):
        return Value(T.literal_c(int(member), T.INT64), T.IntEnumMember(cls), const=int(member), nonneg=int(member) >= 0)
    value = tr.from_python(node, member.value, f"{cls.__name__}.{member.name}")
    if isinstance(value.type, T.Opaque):
        tr.unsupported(node, f"{cls.__name__}.{member.name} has the value {member.value!r}: enum members in kernels "
                             "have numbers or tuples of numbers as values")
    code = value.code if not isinstance(value.type, T.Tuple) else tuple_code(tr.module, value)
    return Value(code, T.EnumMember(cls, value.type), const=member)


def member_of(tr, node, cls, name):
    if name not in cls.__members__:
        tr.fail(node, f"{cls.__name__} has no member '{name}'")
    return constant(tr, node, cls.__members__[name])


def compare(tr, node, op, a, b):
    """a == b, a != b, a is b, a is not b where a or b is an enum member (a Value); None when
    neither is one (the caller compares numbers)."""
    ta, tb = a.type, b.type
    if not isinstance(ta, (T.EnumMember, T.IntEnumMember)) and not isinstance(tb, (T.EnumMember, T.IntEnumMember)):
        return None
    same = op in ("==", "is")
    identity = op in ("is", "is not")
    both = isinstance(ta, (T.EnumMember, T.IntEnumMember)) and isinstance(tb, (T.EnumMember, T.IntEnumMember))
    if both and ta.cls is not tb.cls and (identity or not (isinstance(ta, T.IntEnumMember)
                                                           and isinstance(tb, T.IntEnumMember))):
        return literal(not same)  # members of two classes: never the same (IntEnums compare as ints)
    if not both:
        if identity:
            tr.unsupported(node, f"'{op}' compares an enum member with another member only")
        if isinstance(ta, T.IntEnumMember) or isinstance(tb, T.IntEnumMember):
            return None  # an IntEnum with a number: as integers
        return literal(not same)  # an Enum member never equals a number
    if a.const is not None and b.const is not None and isinstance(ta, T.EnumMember):
        return literal((a.const is b.const) == same)
    if isinstance(ta, T.EnumMember) and isinstance(ta.value_type, T.Tuple):
        ia = tuple_items(Value(a.code, ta.value_type))
        ib = tuple_items(Value(b.code, tb.value_type))
        eq = " && ".join(f"(({x.code}) == ({y.code}))" for x, y in zip(ia, ib)) or "true"
    else:
        eq = f"(({a.code}) == ({b.code}))"
    return Value(f"({eq})" if same else f"(!({eq}))", T.BOOL)
