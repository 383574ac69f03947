"""The SpatialHash2D node's behaviour (spatial_hash.node) under plain CPython:
Godot-shaped values, batch paths over packed-array-like inputs, stats and
monitors against the core, and bad input that must be reported, not raised."""
import math
import random

import numpy as np
import pytest

from oracle import Oracle, same_pairs
from spatial_hash.node import MONITORS, MonitorSet, NodeBridge, SpatialHashNode


class Vector2:
    """Shaped like godot.Vector2: only .x and .y."""

    def __init__(self, x, y):
        self.x, self.y = x, y

    def __repr__(self):
        return f"Vector2({self.x}, {self.y})"


class Rect2:
    def __init__(self, x, y, w, h):
        self.position, self.size = Vector2(x, y), Vector2(w, h)


class GodotObject:
    """Like a Godot object wrapper: a fresh wrapper may stand for the same object."""

    def __init__(self, instance_id):
        self.instance_id = instance_id

    def get_instance_id(self):
        return self.instance_id


def new_node(**kwargs):
    errors = []
    node = SpatialHashNode(report=errors.append, **kwargs)
    return node, errors


def state(node):
    """Everything observable about a node's index."""
    grid = node.grid
    return (sorted(map(repr, node._ids.items())),
            [(i, grid.bounds(i), grid.circle_of(i)) for i in grid.ids()],
            sorted(map(tuple, grid.pair_ids().tolist())))


# ------------------------------------------------------------ behaviour

def test_godot_values_and_objects():
    node, errors = new_node()
    enemy = GodotObject(1234)
    assert node.insert(enemy, Vector2(10, 10), Vector2(32, 32))
    assert node.insert(7, (30.0, 30.0), (4, 4))
    assert node.query_range(Rect2(0, 0, 50, 50), True) == [enemy, 7]
    # Another wrapper of the same Godot object finds it.
    assert node.has(GodotObject(1234)) and node.is_colliding(GodotObject(1234), 7)
    assert node.update(GodotObject(1234), Rect2(500, 500, 32, 32))
    assert node.get_collision_pairs() == []
    assert node.query_nearby(Vector2(490, 490), Vector2(20, 20)) == [enemy]
    assert node.query_radius(Vector2(500, 500), 1) == [enemy]
    assert node.query_point(Vector2(32, 32)) == [7]
    assert node.query_along_path(Vector2(0, 31), Vector2(1000, 31), Vector2(1, 1)) == [7]
    assert node.remove(GodotObject(1234)) and not node.remove(enemy)
    assert node.get_id(7) >= 0 and node.get_id(enemy) == -1
    assert errors == []


@pytest.mark.parametrize("hierarchical", [False, True])
def test_random_operations_match_brute_force(hierarchical):
    node, errors = new_node()
    assert node.configure(16.0, 4, hierarchical)
    oracle = Oracle(16.0)
    rng = random.Random(3)
    for step in range(600):
        key = rng.randrange(40)
        bounds = (rng.uniform(-200, 200), rng.uniform(-200, 200),
                  rng.choice([0.0, 3.0, rng.uniform(0, 40), 300.0]), rng.uniform(0, 30))
        action = rng.random()
        if action < 0.5:
            node.insert(key, bounds[:2], bounds[2:])
            oracle.insert(key, bounds)
        elif action < 0.7 and key in oracle:
            node.update(key, Rect2(*bounds))
            oracle.update(key, bounds)
        elif action < 0.8:
            assert node.remove(key) == oracle.remove(key)
        else:
            q = Rect2(rng.uniform(-250, 250), rng.uniform(-250, 250), 60, 60)
            got = node.query_range(q, True)
            assert set(got) == set(oracle.query_range((q.position.x, q.position.y, 60, 60)))
        if step % 50 == 0:
            assert same_pairs([tuple(p) for p in node.get_collision_pairs()], oracle.pairs())
    assert same_pairs([tuple(p) for p in node.get_collision_pairs()], oracle.pairs())
    assert errors == []


def test_configure_moves_objects_to_the_new_index():
    node, errors = new_node()
    node.insert(1, (0, 0), (10, 10))
    node.insert_circle(2, (12, 5), 3)
    pairs = node.get_collision_pairs()
    for settings in [(4.0, 2, False), (4.0, 2, True), (100.0, 4, False)]:
        assert node.configure(*settings)
        assert node.get_collision_pairs() == pairs
        assert node.get_stats()["index"] == ("hierarchical" if settings[2] else "uniform")
    assert node.grid.circle_of(node.get_id(2)) == (12.0, 5.0, 3.0)
    ids = node.insert_batch([(k * 20.0, 50.0) for k in range(5)], [(2.0, 2.0)] * 5)
    node.remove_batch([ids[1], ids[3]])
    before = state(node)
    assert node.configure(8.0, 4, True) and node.configure(32.0, 3, False)
    assert state(node) == before     # batch ids survive, holes included
    assert errors == []


# --------------------------------------------------------------- batch

def test_batch_paths_accept_packed_array_shapes_and_match_per_object():
    rng = np.random.default_rng(1)
    xy = rng.uniform(0, 300, (400, 2))
    wh = rng.uniform(1, 12, (400, 2))
    forms = [
        (xy, wh),                                                  # numpy rows
        ([Vector2(*p) for p in xy], [Vector2(*s) for s in wh]),    # Vector2 arrays
        (xy.ravel().tolist(), wh.ravel().tolist()),                # flat float arrays
    ]
    expected = None
    for positions, sizes in forms:
        node, errors = new_node(cell_size=16.0)
        ids = node.insert_batch(positions, sizes)
        assert ids == list(range(400))
        flat = node.get_collision_pairs_packed()
        pairs = sorted(zip(flat[0::2], flat[1::2]))
        oracle = Oracle(16.0)
        for i in range(400):
            oracle.insert(i, (*xy[i], *wh[i]))
        assert same_pairs(pairs, oracle.pairs())
        expected = expected or pairs
        assert pairs == expected
        moved = xy + 5.0
        assert node.update_batch(np.array(ids, dtype=np.int32), moved, sizes)
        assert 0 in node.query_point(Vector2(*(moved[0] + 0.5)))
        assert 0 not in node.query_point(Vector2(*(xy[0] - 0.5)))
        assert node.remove_batch(ids[:100]) and node.get_stats()["objects"] == 300
        assert errors == []


def test_remove_batch_refuses_objects_added_one_at_a_time():
    node, errors = new_node()
    node.insert(GodotObject(9), (0, 0), (1, 1))
    before = state(node)
    assert node.remove_batch([node.get_id(GodotObject(9))]) is False
    assert "remove(obj)" in errors[-1] and state(node) == before


# ---------------------------------------------------------- stats, monitors

@pytest.mark.parametrize("hierarchical", [False, True])
def test_stats_and_monitors_follow_the_core(hierarchical):
    node, _ = new_node()
    node.configure(8.0, 4, hierarchical)
    rng = np.random.default_rng(2)
    node.insert_batch(rng.uniform(0, 100, (200, 2)), np.full((200, 2), 3.0))
    node.insert(GodotObject(5), (0, 0), (500, 500))
    pairs = node.get_collision_pairs()
    stats = node.get_stats()
    core = node.grid.stats()
    assert stats["objects"] == core["objects"] == 201
    assert stats["broad_phase_pairs"] == node.grid.broad_phase_pairs
    assert stats["hits"] == len(pairs) == node.grid.hits
    if hierarchical:
        cells = sum(level["occupied_cells"] for level in core["levels"])
        assert stats["active_cells"] == cells and stats["large_objects"] == 0
    else:
        assert (stats["active_cells"], stats["large_objects"]) == (core["active_cells"], 1)
        assert stats["avg_objects_per_cell"] == core["avg_objects_per_cell"]
    assert stats["last_pairs_ms"] > 0.0
    taken = set()
    first = MonitorSet(node, "A", taken.__contains__)
    taken.update(first.ids)
    second = MonitorSet(node, "B", taken.__contains__)
    assert len(first.ids) == len(second.ids) == len(MONITORS)
    assert not taken & set(second.ids)
    assert all(i.count("/") == 1 and i.startswith("spatial_hash/") for i in taken | set(second.ids))
    assert first.reader("spatial_hash/total_objects")() == 201.0
    assert first.reader("spatial_hash/narrow_phase_checks")() == stats["narrow_phase_checks"]


def test_debug_geometry_and_overlay():
    node, _ = new_node(cell_size=10.0)
    node.insert(1, (1, 1), (4, 4))
    node.insert(2, (6, 2), (4, 4))    # shares cell (0, 0) with 1, no overlap
    node.insert(3, (4, 4), (3, 3))    # overlaps 1 and 2
    shapes = node.debug_geometry((0, 0, 40, 20))
    assert len(shapes["grid"]) == 5 + 3    # borders x = 0, 10, .., 40 and y = 0, 10, 20
    assert len(shapes["candidates"]) == 3
    assert [hit for _, hit in shapes["boxes"]] == [True, True, True]
    assert node.debug_geometry((0, 0, 40, 20), False)["candidates"] == []
    commands = node.draw_list((0, 0, 40, 20))
    assert [c[0] for c in commands] == ["line"] * 11 + ["rect"] * 3
    assert commands[-1][1:5] == (4.0, 4.0, 3.0, 3.0) and len(commands[-1][5]) == 4
    assert "3 objects" in node.overlay_text()


# -------------------------------------------------------------- bad input

BAD_CALLS = [
    ("insert", (1, (math.nan, 0), (1, 1)), "nan"),
    ("insert", (1, (0, 0), (-1, 1)), "-1"),
    ("insert", (1, (0, 0)), "takes 3 arguments, got 2"),
    ("insert", (None, (0, 0), (1, 1)), "None"),
    ("insert", ("player", (0, 0), (1, 1)), "'player'"),
    ("insert", (1, "here", (1, 1)), "'here'"),
    ("insert", (1, (0, 0), (math.inf, 1)), "inf"),
    ("insert_circle", (1, (0, 0), "big"), "'big'"),
    ("update", (99, Rect2(0, 0, 1, 1)), "99"),
    ("update", (1, Rect2(0, 0, 1, math.nan)), "nan"),
    ("update", (1,), "takes 2 arguments, got 1"),
    ("remove", (), "takes 1 arguments, got 0"),
    ("query_nearby", (Vector2(0, math.inf), Vector2(1, 1)), "inf"),
    ("query_range", (Rect2(0, 0, -5, 1),), "-5"),
    ("query_range", (), "takes 1 to 2 arguments, got 0"),
    ("query_radius", (Vector2(0, 0), None), "None"),
    ("query_radius", (Vector2(0, 0), -2.0), "-2"),
    ("query_along_path", (Vector2(0, 0), Vector2(math.nan, 0), Vector2(1, 1)), "nan"),
    ("is_colliding", (1, 12345), "12345"),
    ("insert_batch", ([Vector2(0, 0), Vector2(1, math.nan)], [Vector2(1, 1)] * 2), "nan"),
    ("insert_batch", ([Vector2(0, 0)], [Vector2(1, 1)] * 2), "1 positions but 2 sizes"),
    ("insert_batch", (["a", "b"], [Vector2(1, 1)] * 2), "'a'"),
    ("update_batch", ([0, 77], [Vector2(0, 0)] * 2, [Vector2(1, 1)] * 2), "77"),
    ("update_batch", ([0.5], [Vector2(0, 0)], [Vector2(1, 1)]), "integers"),
    ("update_batch", ([2, 3, 2], [Vector2(0, 0)] * 3, [Vector2(1, 1)] * 3), "repeats id 2"),
    ("remove_batch", ([3, 3],), "duplicates"),
    ("configure", (0.0, 4, False), "0.0"),
    ("configure", (64.0, 4.5, False), "4.5"),
    ("configure", (1e-300, 4, False), "too far"),
    ("get_collision_pairs", (1,), "takes 0 arguments, got 1"),
]


@pytest.mark.parametrize("name,args,named", BAD_CALLS, ids=[f"{c[0]}-{k}" for k, c in enumerate(BAD_CALLS)])
def test_bad_input_is_reported_and_changes_nothing(name, args, named):
    node, errors = new_node(cell_size=4.0)
    node.insert(1, (0, 0), (3, 3))
    node.insert(GodotObject(2), (1e9, 1e9), (3, 3))     # far away: rejects tiny cell sizes
    node.insert_batch([Vector2(2, 2), Vector2(50, 50)], [Vector2(2, 2)] * 2)
    before = state(node)
    result = getattr(node, name)(*args)
    assert result in (False, [], {}, -1, "")
    assert len(errors) == 1 and named in errors[0], errors
    assert errors[0].startswith(f"SpatialHash2D.{name}") and node.get_last_error() == errors[0]
    assert state(node) == before
    assert node.get_stats()["objects"] == 4


def test_bridge_applies_settings_and_converts_results():
    settings = [16.0, 4, False]
    errors = []
    bridge = NodeBridge(lambda: tuple(settings), lambda v: ("engine", v),
                        lambda v: ("packed", v), report=errors.append)
    assert bridge.call("insert", (1, (0, 0), (5, 5))) == ("engine", True)
    assert bridge.call("insert_batch", ([(3, 3)], [(1, 1)])) == ("packed", [1])
    assert bridge.call("get_collision_pairs_packed", ()) == ("packed", [0, 1])
    settings[2] = True
    assert bridge.call("get_stats", ())[1]["index"] == "hierarchical"
    assert bridge.call("get_collision_pairs_packed", ()) == ("packed", [0, 1])
    settings[0] = -1.0                   # rejected: the index and objects stay
    assert bridge.call("get_stats", ())[1]["objects"] == 2
    assert "cell_size" in errors[-1]
    broken = NodeBridge(lambda: (16.0, 4, False), lambda v: 1 / 0, list, report=errors.append)
    assert broken.call("clear", ()) is None and "cannot convert" in errors[-1]
