"""The classes mirroring the GDScript designs: method names, argument order and Godot-shaped values."""
import pytest

from oracle import same_pairs
from spatial_hash import (CollisionObject, HierarchicalGrid, OptimizedSpatialHash, SpatialHash,
                          SpatialHashCollisionSystem, UniformGrid, read_rect, read_vec2)


class Vector2:
    """Shaped like Godot's Vector2 (attributes only, not a sequence)."""

    def __init__(self, x, y):
        self.x, self.y = x, y

    def __add__(self, other):
        return Vector2(self.x + other.x, self.y + other.y)


class Rect2:
    def __init__(self, x, y, w, h):
        self.position, self.size = Vector2(x, y), Vector2(w, h)


class Node:
    """Any hashable object can be stored."""


def test_spatial_hash_gdscript_api():
    h = SpatialHash(64.0)
    a, b, far = Node(), Node(), Node()
    h.insert(a, Vector2(10, 10), Vector2(32, 32))
    h.insert(b, (70, 70), (32, 32))
    h.insert(far, (1000, 1000), (8, 8))
    assert set(h.query_nearby(Vector2(0, 0), Vector2(1, 1))) == {a}
    assert set(h.query_nearby((60, 60), (10, 10))) == {a, b}
    h.insert(a, (2000, 2000), (4, 4))          # inserting again moves it
    assert len(h) == 3 and h.query_nearby((0, 0), (1, 1)) == []
    assert h.remove(b, (70, 70), (32, 32)) is True
    assert h.remove(b, (70, 70), (32, 32)) is False
    h.clear()
    assert len(h) == 0 and h.query_nearby((1000, 1000), (1, 1)) == []


def test_optimized_spatial_hash_gdscript_api():
    h = OptimizedSpatialHash(32.0)
    h.insert("player", Rect2(0, 0, 16, 16))
    h.insert("coin", (20, 0, 8, 8))
    h.insert("enemy", [10, 10, 16, 16])
    assert set(h.query_range(Rect2(0, 0, 1, 1))) == {"player", "coin", "enemy"}
    assert set(h.query_range((0, 0, 1, 1), exact=True)) == {"player"}
    h.update("coin", Rect2(500, 500, 8, 8))
    assert h.bounds("coin") == (500, 500, 8, 8)
    assert same_pairs(h.pairs(), [("player", "enemy")])
    assert h.is_colliding("enemy", "player") and not h.is_colliding("coin", "player")
    assert h.remove("coin") is True and "coin" not in h


def test_collision_system_calls_on_collision_both_ways_once():
    system = SpatialHashCollisionSystem(32.0)
    hits = []
    objs = [CollisionObject(i, (i * 10.0, 0.0), (12.0, 12.0)) for i in range(4)]
    for obj in objs:
        obj.on_collision = lambda other, me=obj: hits.append((me.id, other.id))
        system.add_object(obj)
    system.check_collisions()
    assert sorted(hits) == [(0, 1), (1, 0), (1, 2), (2, 1), (2, 3), (3, 2)]
    hits.clear()
    system.update_object_position(objs[3], Vector2(500.0, 0.0))
    assert objs[3].position.x == 500.0
    assert system.remove_object(objs[0]) and not system.remove_object(objs[0])
    pairs = system.check_collisions()
    assert same_pairs(pairs, [(objs[1], objs[2])])
    assert sorted(hits) == [(1, 2), (2, 1)]
    assert objs[1].velocity == (0.0, 0.0) and objs[3].on_collision is not None


def test_collision_object_without_callback():
    system = SpatialHashCollisionSystem()
    a, b = CollisionObject(1, (0, 0), (5, 5)), CollisionObject(2, (1, 1), (5, 5))
    system.add_object(a)
    system.add_object(b)
    assert len(system.check_collisions()) == 1


def test_readers_accept_sequences_and_godot_shapes():
    import numpy as np
    assert read_vec2(Vector2(1, 2)) == (1.0, 2.0)
    assert read_vec2(np.array([1.5, 2])) == (1.5, 2.0)
    assert read_rect(Rect2(1, 2, 3, 4)) == (1.0, 2.0, 3.0, 4.0)
    assert read_rect(np.arange(4)) == (0.0, 1.0, 2.0, 3.0)


def test_update_names_what_is_wrong_and_changes_nothing():
    index = OptimizedSpatialHash(10.0)
    index.insert("ship", (1.0, 2.0, 3.0, 4.0))
    with pytest.raises(KeyError, match="obj 'ghost' is not in this spatial hash"):
        index.update("ghost", (0.0, 0.0, 1.0, 1.0))
    with pytest.raises(TypeError, match="obj must be hashable, got \\[1\\]"):
        index.update([1], (0.0, 0.0, 1.0, 1.0))
    with pytest.raises(TypeError, match="new_bounds must be a Rect2 or an .* got 'oops'"):
        index.update("ship", "oops")
    with pytest.raises(TypeError, match="new_bounds.height must be a number"):
        index.update("ship", (0.0, 0.0, 1.0, None))
    assert index.bounds("ship") == (1.0, 2.0, 3.0, 4.0)
    index.grid.validate()


def test_update_bounds_reads_tuples_and_rect2s_like_update_rect():
    for grid in (UniformGrid(4.0), HierarchicalGrid()):
        a, b = grid.insert_rect(0, 0, 1, 1), grid.insert_rect(0, 0, 1, 1)
        grid.update_bounds(a, (5.0, 6.0, 2.0, 3.0))
        grid.update_bounds(b, Rect2(5.0, 6.0, 2.0, 3.0))
        assert grid.bounds(a) == grid.bounds(b) == (5.0, 6.0, 2.0, 3.0)
        with pytest.raises(ValueError, match="width must be a finite number >= 0"):
            grid.update_bounds(a, (0.0, 0.0, -1.0, 1.0))
        with pytest.raises(KeyError, match="no object with id 7"):
            grid.update_bounds(7, (0.0, 0.0, 1.0, 1.0))
        assert grid.bounds(a) == (5.0, 6.0, 2.0, 3.0)
        grid.validate()
