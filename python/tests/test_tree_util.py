"""Pytrees (loom.tree_util, JAX's tree_util semantics): flatten/unflatten round trips,
structure equality and hashing, tree_map over several trees, registered classes, errors."""
import collections

import numpy as np
import pytest

import loom
from loom import tree_util as tu


def random_tree(rng, depth=0):
    """A random nest of tuples, lists, dicts, namedtuples and None with array/scalar leaves."""
    kind = rng.integers(0, 6 if depth < 3 else 1)
    if kind == 0:
        return rng.choice([lambda: float(rng.random()), lambda: int(rng.integers(100)),
                           lambda: rng.random(int(rng.integers(1, 4)))])()
    n = int(rng.integers(0, 4))
    kids = [random_tree(rng, depth + 1) for _ in range(n)]
    if kind == 1:
        return tuple(kids)
    if kind == 2:
        return kids
    if kind == 3:
        return {f"k{int(rng.integers(1000))}_{i}": k for i, k in enumerate(kids)}
    if kind == 4:
        return Pair(random_tree(rng, depth + 1), random_tree(rng, depth + 1))
    return None


Pair = collections.namedtuple("Pair", "first second")


def same(a, b):
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and np.array_equal(a, b)
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return sorted(a) == sorted(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def test_round_trips_of_random_trees(rng):
    for _ in range(50):
        tree = random_tree(rng)
        leaves, treedef = loom.tree_flatten(tree)
        assert treedef.num_leaves == len(leaves)
        assert same(loom.tree_unflatten(treedef, leaves), tree)
        assert loom.tree_structure(tree) == treedef and hash(loom.tree_structure(tree)) == hash(treedef)
        doubled = loom.tree_map(lambda x: x * 2, tree)
        assert all(np.array_equal(a, 2 * b) for a, b in zip(loom.tree_leaves(doubled), leaves))


def test_dicts_are_visited_in_sorted_key_order_and_none_has_no_leaves():
    leaves, treedef = loom.tree_flatten({"b": 2, "a": (1, None), "c": [3]})
    assert leaves == [1, 2, 3]
    assert repr(treedef) == "{'a': (*, None), 'b': *, 'c': [*]}"
    assert loom.tree_flatten(None)[0] == []


def test_structures_differ_by_container_and_keys():
    s = [loom.tree_structure(t) for t in [(1, 2), [1, 2], {"a": 1, "b": 2}, {"a": 1, "c": 2}, Pair(1, 2), (1, (2,))]]
    assert len(set(s)) == len(s)
    assert loom.tree_structure((np.ones(3), 2.0)) == loom.tree_structure((1, "x"))


def test_tree_map_over_several_trees(rng):
    a = {"w": rng.random((2, 3)), "b": [rng.random(3), 1.5]}
    b = loom.tree_map(lambda x: x + 1, a)
    total = loom.tree_map(lambda x, y: x + y, a, b)
    assert np.allclose(total["w"], 2 * a["w"] + 1) and total["b"][1] == 4.0
    with pytest.raises(ValueError, match=r"\[tree_map\] tree 1 has structure"):
        loom.tree_map(lambda x, y: x, a, {"w": 1, "b": [1, 2, 3]})


def test_loom_arrays_are_leaves(device):
    x = loom.ones((2, 2), device=device)
    leaves, treedef = loom.tree_flatten({"x": x, "n": 3})
    assert leaves[1] is x
    assert loom.tree_map(lambda v: v, {"x": x})["x"] is x


class Point:
    def __init__(self, x, y, label):
        self.x, self.y, self.label = x, y, label


loom.register_pytree_node(Point, lambda p: ((p.x, p.y), p.label), lambda label, kids: Point(*kids, label))


@loom.register_pytree_node_class
class Box:
    def __init__(self, content, name):
        self.content, self.name = content, name

    def tree_flatten(self):
        return (self.content,), self.name

    @classmethod
    def tree_unflatten(cls, name, children):
        return cls(children[0], name)


def test_registered_classes():
    p = loom.tree_map(lambda v: v * 10, Point(1, (2, 3), "p"))
    assert (p.x, p.y, p.label) == (10, (20, 30), "p")
    assert loom.tree_structure(Point(1, 2, "a")) != loom.tree_structure(Point(1, 2, "b"))  # aux data counts
    b = loom.tree_map(lambda v: -v, Box([1, 2], "box"))
    assert b.content == [-1, -2] and b.name == "box"
    assert loom.tree_leaves(Box(Point(1, 2, "q"), "n")) == [1, 2]
    with pytest.raises(ValueError, match="already a pytree node type"):
        loom.register_pytree_node(Point, lambda p: ((), None), lambda a, k: None)
    assert tu.all_leaves([1, np.ones(2)]) and not tu.all_leaves([(1,)])


def test_unflatten_checks_the_number_of_leaves_and_is_leaf_stops_descent():
    _, treedef = loom.tree_flatten((1, [2, 3]))
    with pytest.raises(ValueError, match="has 3 leaves, but 2 were given"):
        loom.tree_unflatten(treedef, [1, 2])
    leaves, _ = loom.tree_flatten((1, [2, 3]), is_leaf=lambda x: isinstance(x, list))
    assert leaves == [1, [2, 3]]
    with pytest.raises(TypeError, match="must be sortable"):
        loom.tree_flatten({1: 1, "a": 2})
