"""Pytrees (JAX's tree_util): nested tuples, lists, dicts, namedtuples and registered classes
whose leaves are arrays or scalars. The transforms (loom.jit, vmap, grad) flatten their
arguments and results to lists of leaves for the C++ core, and rebuild them with the
tree's structure (a PyTreeDef: hashable, so it is part of a jit cache key).

    leaves, treedef = loom.tree_flatten({"w": w, "b": (b1, b2)})
    loom.tree_unflatten(treedef, [2 * x for x in leaves])
    loom.tree_map(lambda x, y: x + y, params, grads)
    loom.register_pytree_node(Point, lambda p: ((p.x, p.y), None), lambda aux, kids: Point(*kids))

As in JAX: None is a tree without leaves, dict keys are visited in sorted order, and
anything not registered is a leaf.
"""
import collections
import functools

__all__ = ["PyTreeDef", "tree_flatten", "tree_unflatten", "tree_map", "tree_leaves", "tree_structure",
           "register_pytree_node", "register_pytree_node_class", "all_leaves", "Partial", "tree_reduce", "tree_all",
           "tree_flatten_with_path", "tree_leaves_with_path", "tree_map_with_path", "keystr", "DictKey",
           "SequenceKey", "GetAttrKey", "FlattenedIndexKey", "treedef_is_leaf", "treedef_children"]

# type -> (flatten(obj) -> (children, aux data), unflatten(aux data, children) -> obj)
_REGISTRY = {}


def register_pytree_node(nodetype, flatten_func, unflatten_func):
    """Makes instances of `nodetype` tree nodes: flatten_func(obj) -> (children, aux_data),
    with aux_data hashable and comparable; unflatten_func(aux_data, children) -> obj."""
    if nodetype in _REGISTRY or nodetype in _BUILTIN:
        raise ValueError(f"[register_pytree_node] {nodetype.__name__} is already a pytree node type")
    _REGISTRY[nodetype] = (flatten_func, unflatten_func)
    return nodetype


def register_pytree_node_class(cls):
    """Class decorator: the class defines tree_flatten(self) -> (children, aux_data) and the
    classmethod tree_unflatten(aux_data, children)."""
    register_pytree_node(cls, lambda obj: obj.tree_flatten(), cls.tree_unflatten)
    return cls


def _sorted_keys(d):
    try:
        return sorted(d)
    except TypeError:
        raise TypeError(f"[tree_flatten] the keys of a dict in a pytree must be sortable, not {list(d)!r}") from None


_BUILTIN = {
    tuple: (lambda t: (tuple(t), None), lambda aux, kids: tuple(kids)),
    list: (lambda t: (list(t), None), lambda aux, kids: list(kids)),
    dict: (lambda d: ([d[k] for k in _sorted_keys(d)], tuple(_sorted_keys(d))),
           lambda keys, kids: dict(zip(keys, kids))),
    type(None): (lambda n: ((), None), lambda aux, kids: None),
    collections.OrderedDict: (lambda d: (list(d.values()), tuple(d)),
                              lambda keys, kids: collections.OrderedDict(zip(keys, kids))),
}


def _node_kind(x):
    """(type key, flatten, unflatten) for a node, or None for a leaf."""
    t = type(x)
    if t in _REGISTRY:
        return (t,) + _REGISTRY[t]
    if t in _BUILTIN:
        return (t,) + _BUILTIN[t]
    if isinstance(x, tuple) and hasattr(t, "_fields"):  # a namedtuple
        return (t, lambda n: (tuple(n), None), lambda aux, kids, t=t: t(*kids))
    if t is collections.defaultdict:
        return (t, lambda d: ([d[k] for k in _sorted_keys(d)], (d.default_factory, tuple(_sorted_keys(d)))),
                lambda aux, kids: collections.defaultdict(aux[0], zip(aux[1], kids)))
    return None


class PyTreeDef:
    """The structure of a pytree without its leaves: compares and hashes by structure."""

    __slots__ = ("_node", "_aux", "_children", "_unflatten", "num_leaves", "_hash")

    def __init__(self, node, aux, children, unflatten):
        self._node, self._aux, self._children, self._unflatten = node, aux, tuple(children), unflatten
        self.num_leaves = 1 if node is None else sum(c.num_leaves for c in self._children)
        self._hash = None

    @property
    def num_nodes(self):
        return 1 + sum(c.num_nodes for c in self._children)

    @property
    def children(self):
        return list(self._children)

    def _key(self):
        return (self._node, self._aux, self._children)

    def __eq__(self, other):
        return isinstance(other, PyTreeDef) and self._key() == other._key()

    def __hash__(self):
        if self._hash is None:
            self._hash = hash(self._key())
        return self._hash

    def unflatten(self, leaves):
        return tree_unflatten(self, leaves)

    def __repr__(self):
        if self._node is None:
            return "*"
        inner = ", ".join(map(repr, self._children))
        name = self._node.__name__
        if self._node is tuple:
            return f"({inner}{',' if len(self._children) == 1 else ''})"
        if self._node is list:
            return f"[{inner}]"
        if self._node is dict:
            return "{" + ", ".join(f"{k!r}: {c!r}" for k, c in zip(self._aux, self._children)) + "}"
        if self._node is type(None):
            return "None"
        return f"{name}({inner})"


_LEAF = PyTreeDef(None, None, (), None)


def _flatten(x, leaves, is_leaf):
    if is_leaf is not None and is_leaf(x):
        leaves.append(x)
        return _LEAF
    kind = _node_kind(x)
    if kind is None:
        leaves.append(x)
        return _LEAF
    node, flatten, unflatten = kind
    children, aux = flatten(x)
    return PyTreeDef(node, aux, [_flatten(c, leaves, is_leaf) for c in children], unflatten)


def tree_flatten(tree, is_leaf=None):
    """(leaves in order, PyTreeDef). `is_leaf(x)` may stop the descent at a subtree."""
    leaves = []
    return leaves, _flatten(tree, leaves, is_leaf)


def _build(treedef, it):
    if treedef._node is None:
        return next(it)
    return treedef._unflatten(treedef._aux, [_build(c, it) for c in treedef._children])


def tree_unflatten(treedef, leaves):
    """The pytree of structure `treedef` with `leaves` (exactly treedef.num_leaves of them)."""
    leaves = list(leaves)
    if len(leaves) != treedef.num_leaves:
        raise ValueError(f"[tree_unflatten] the structure {treedef!r} has {treedef.num_leaves} leaves, "
                         f"but {len(leaves)} were given")
    return _build(treedef, iter(leaves))


def tree_leaves(tree, is_leaf=None):
    return tree_flatten(tree, is_leaf)[0]


def tree_structure(tree, is_leaf=None):
    return tree_flatten(tree, is_leaf)[1]


def all_leaves(iterable):
    """Whether every item is a leaf."""
    return all(_node_kind(x) is None for x in iterable)


def tree_map(f, tree, *rest, is_leaf=None):
    """f applied to each leaf of `tree` (and the matching leaves of `rest`, which must have
    the same structure), in a tree of the same structure."""
    leaves, treedef = tree_flatten(tree, is_leaf)
    others = []
    for k, r in enumerate(rest):
        rl, rd = tree_flatten(r, is_leaf)
        if rd != treedef:
            raise ValueError(f"[tree_map] tree {k + 1} has structure {rd!r}, not {treedef!r} as the first")
        others.append(rl)
    return tree_unflatten(treedef, [f(*xs) for xs in zip(leaves, *others)])


def tree_reduce(function, tree, initializer=None, is_leaf=None):
    """functools.reduce over the leaves (with initializer first when given)."""
    leaves = tree_leaves(tree, is_leaf)
    return functools.reduce(function, leaves) if initializer is None else functools.reduce(function, leaves, initializer)


def tree_all(tree, is_leaf=None):
    return all(bool(x) for x in tree_leaves(tree, is_leaf))


def treedef_is_leaf(treedef):
    return treedef._node is None


def treedef_children(treedef):
    return treedef.children


class Partial(functools.partial):
    """jax.tree_util.Partial: functools.partial whose bound arguments are pytree children (the
    function is static), so it passes through jit, vmap and grad as an argument."""

    def __new__(cls, func, *args, **kw):
        if isinstance(func, functools.partial) and not isinstance(func, Partial):
            args, kw = func.args + args, {**func.keywords, **kw}
            func = func.func
        return super().__new__(cls, func, *args, **kw)


register_pytree_node(Partial, lambda p: ((p.args, p.keywords), p.func),
                     lambda func, kids: Partial(func, *kids[0], **kids[1]))


class DictKey(collections.namedtuple("DictKey", ["key"])):
    def __str__(self):
        return f"[{self.key!r}]"


class SequenceKey(collections.namedtuple("SequenceKey", ["idx"])):
    def __str__(self):
        return f"[{self.idx}]"


class GetAttrKey(collections.namedtuple("GetAttrKey", ["name"])):
    def __str__(self):
        return f".{self.name}"


class FlattenedIndexKey(collections.namedtuple("FlattenedIndexKey", ["key"])):
    def __str__(self):
        return f"[<flat index {self.key}>]"


def _child_keys(x, n):
    if isinstance(x, (dict, collections.OrderedDict, collections.defaultdict)):
        keys = list(x) if type(x) is collections.OrderedDict else _sorted_keys(x)
        return [DictKey(k) for k in keys]
    if isinstance(x, tuple) and hasattr(type(x), "_fields"):
        return [GetAttrKey(f) for f in type(x)._fields]
    if isinstance(x, (tuple, list)):
        return [SequenceKey(i) for i in range(n)]
    return [FlattenedIndexKey(i) for i in range(n)]


def _with_path(x, path, out, is_leaf):
    if (is_leaf is not None and is_leaf(x)) or _node_kind(x) is None:
        out.append((path, x))
        return
    children, _ = _node_kind(x)[1](x)
    children = list(children)
    for k, c in zip(_child_keys(x, len(children)), children):
        _with_path(c, path + (k,), out, is_leaf)


def tree_flatten_with_path(tree, is_leaf=None):
    """([(key path, leaf), ...], treedef): each path a tuple of DictKey, SequenceKey, GetAttrKey
    (namedtuple fields) or FlattenedIndexKey (registered nodes)."""
    out = []
    _with_path(tree, (), out, is_leaf)
    return out, tree_structure(tree, is_leaf)


def tree_leaves_with_path(tree, is_leaf=None):
    return tree_flatten_with_path(tree, is_leaf)[0]


def tree_map_with_path(f, tree, *rest, is_leaf=None):
    """f(path, leaf, *matching leaves of rest) for each leaf, in a tree of the same structure."""
    pairs, treedef = tree_flatten_with_path(tree, is_leaf)
    others = []
    for k, r in enumerate(rest):
        rl, rd = tree_flatten(r, is_leaf)
        if rd != treedef:
            raise ValueError(f"[tree_map_with_path] tree {k + 1} has structure {rd!r}, not {treedef!r} as the first")
        others.append(rl)
    return tree_unflatten(treedef, [f(p, x, *xs) for (p, x), *xs in zip(pairs, *others)])


def keystr(keys):
    """A key path as a string: ['a'][0].b"""
    return "".join(str(k) for k in keys)
