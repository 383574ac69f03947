"""The SpatialHash2D node's behaviour (spatial_hash.node) under plain CPython:
Godot-shaped values, batch paths over packed-array-like inputs, stats and
monitors against the core, and bad input that must be reported, not raised."""
import math
import pathlib
import random
import subprocess
import sys

import numpy as np
import pytest

import spatial_hash
from oracle import Oracle, same_pairs
from spatial_hash.node import MONITORS, MonitorSet, NodeBridge, SceneTreeObjects, SpatialHashNode


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

    def __repr__(self):
        return f"GodotObject({self.instance_id})"


def new_node(**kwargs):
    errors = []
    node = SpatialHashNode(report=errors.append, **kwargs)
    return node, errors


def state(node):
    """Everything observable about a node's index."""
    grid = node.grid
    return (sorted(map(repr, node._objects._ids.items())),
            [(i, grid.bounds(i), grid.circle_of(i)) for i in grid.ids()],
            sorted(map(tuple, grid.pair_ids().tolist())))


# ------------------------------------------------------------ behaviour

def test_godot_values_and_objects():
    node, errors = new_node()
    enemy = GodotObject(1234)
    assert node.insert(enemy, Vector2(10, 10), Vector2(32, 32))
    assert node.insert(7, (30.0, 30.0), (4, 4))
    found = node.query_range(Rect2(0, 0, 50, 50), True)
    assert len(found) == 2 and enemy in found and 7 in found
    # Another wrapper of the same Godot object finds it.
    assert node.has(GodotObject(1234)) and node.is_colliding(GodotObject(1234), 7)
    assert node.update(GodotObject(1234), Rect2(500, 500, 32, 32))
    assert node.get_collision_pairs() == []
    assert node.query_nearby(Vector2(490, 490), Vector2(20, 20)) == [enemy]
    assert node.query_radius(Vector2(500, 500), 1) == [enemy]
    assert node.query_point(Vector2(32, 32)) == [7]
    # From (40, 34): 7's box (30..34) is 6 away, the enemy's (500..532) about 460.
    assert node.query_nearest(Vector2(40, 34)) == [7]
    assert node.query_nearest(Vector2(40, 34), 5) == [7, enemy]
    assert node.query_nearest(Vector2(40, 34), 5, 100.0) == [7]
    assert node.query_nearest(Vector2(40, 34), 0) == []
    # A ray along y = 32 meets 7's box (30..34) at x = 30, 30% of the way.
    assert node.raycast(Vector2(0, 32), Vector2(100, 32)) == {
        "collider": 7, "position": (30.0, 32.0), "normal": (-1.0, 0.0), "fraction": 0.3}
    assert node.raycast(Vector2(0, 32), Vector2(20, 32)) == {}
    assert [hit["collider"] for hit in node.raycast_all(Vector2(0, 0), Vector2(600, 600))] == [7, enemy]
    assert node.raycast_all(Vector2(32, 32), Vector2(32, 32)) == [
        {"collider": 7, "position": (32.0, 32.0), "normal": (0.0, 0.0), "fraction": 0.0}]
    assert node.query_along_path(Vector2(0, 31), Vector2(1000, 31), Vector2(1, 1)) == [7]
    assert node.remove(GodotObject(1234)) and not node.remove(enemy)
    assert node.get_id(7) >= 0 and node.get_id(enemy) == -1
    assert errors == []


@pytest.mark.parametrize("hierarchical", [False, True])
def test_random_operations_match_brute_force(hierarchical):
    node, errors = new_node(cell_size=16.0, hierarchical=hierarchical)
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


def apply(node, cell_size, large_object_threshold, hierarchical):
    return all([node.set_setting("cell_size", cell_size),
                node.set_setting("large_object_threshold", large_object_threshold),
                node.set_setting("hierarchical", hierarchical)])


def test_new_settings_move_the_objects_to_the_new_index():
    node, errors = new_node()
    node.insert(1, (0, 0), (10, 10))
    node.insert_circle(2, (12, 5), 3)
    pairs = node.get_collision_pairs()
    for settings in [(4.0, 2, False), (4.0, 2, True), (100.0, 4, False)]:
        assert apply(node, *settings)
        assert node.get_collision_pairs() == pairs
        assert node.get_stats()["index"] == ("hierarchical" if settings[2] else "uniform")
    assert node.grid.circle_of(node.get_id(2)) == (12.0, 5.0, 3.0)
    ids = node.insert_batch([(k * 20.0, 50.0) for k in range(5)], [(2.0, 2.0)] * 5)
    node.remove_batch([ids[1], ids[3]])
    before = state(node)
    assert apply(node, 8.0, 4, True) and apply(node, 32.0, 3, False)
    assert state(node) == before     # batch ids survive, holes included
    assert errors == []


def test_new_settings_keep_the_layers_and_the_collision_events_going():
    emitted = []
    node = SpatialHashNode(report=lambda m: None, emit=lambda *e: emitted.append(e))
    node.insert(1, (0, 0), (10, 10))
    node.insert(2, (5, 5), (10, 10))
    node.insert(3, (5, 5), (1, 1))
    node.set_filter(3, 2, 2)
    node.set_filter(2, 1, 1)
    assert node.emit_collision_events() == 2
    assert emitted == [("collision_started", 1, 2), ("collision_started", 1, 3)]
    for settings in [(4.0, 2, False), (4.0, 2, True), (100.0, 4, False)]:
        assert apply(node, *settings)
        assert node.emit_collision_events() == 0
        assert node.grid.filter_of(node.get_id(3)) == (2, 2)
    node.set_filter(1, 1, 1)
    assert node.emit_collision_events() == 1 and emitted[-1] == ("collision_ended", 1, 3)


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
        ids = node.insert_batch(positions, sizes).tolist()
        assert ids == list(range(400))
        flat = node.get_collision_pairs_packed().tolist()
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


def test_batches_of_every_float_layout_and_size_reuse_no_stale_rows():
    """The node writes each batch's rows over the last batch's: frames of moves
    with float32 (what the engines hand over), float64 and strided arrays, of
    changing lengths, each match the oracle, and the caller's arrays stay as
    they were."""
    rng = np.random.default_rng(7)
    node, errors = new_node(cell_size=16.0)
    oracle = Oracle(16.0)
    boxes = {}
    for step, (count, layout) in enumerate([(40, "float32"), (25, "strided"), (200, "float64"),
                                            (120, "float32"), (60, "strided"), (150, "float64")]):
        xy = rng.uniform(0, 200, (count, 2))
        wh = rng.uniform(1, 10, (count, 2))
        if layout == "float32":
            positions, sizes = xy.astype(np.float32), wh.astype(np.float32)
        elif layout == "float64":
            positions, sizes = xy.copy(), wh.copy()
        else:
            positions, sizes = np.repeat(xy, 2, axis=0)[::2], np.repeat(wh, 2, axis=0)[::2]
        before = positions.copy(), sizes.copy()
        if step % 2 == 0:
            ids = node.insert_batch(positions, sizes).tolist()
        else:
            ids = rng.choice(sorted(boxes), size=count, replace=False).tolist()
            assert node.update_batch(np.array(ids, dtype=np.int32), positions, sizes)
        for i, p, s in zip(ids, positions.astype(np.float64), sizes.astype(np.float64)):
            boxes[i] = (*p, *s)
            if i in oracle:
                oracle.remove(i)
            oracle.insert(i, boxes[i])
        assert np.array_equal(positions, before[0]) and np.array_equal(sizes, before[1])
        flat = node.get_collision_pairs_packed().tolist()
        assert same_pairs(list(zip(flat[0::2], flat[1::2])), oracle.pairs())
    assert errors == []


def test_objects_added_one_at_a_time_can_be_removed_by_id():
    node, errors = new_node()
    node.insert(GodotObject(9), (0, 0), (1, 1))
    node.insert(5, (0, 0), (1, 1))
    batch = node.insert_batch([(0, 0)], [(1, 1)]).tolist()
    assert node.remove_batch([node.get_id(GodotObject(9)), node.get_id(5)])
    assert not node.has(GodotObject(9)) and not node.has(5) and node.get_id(5) == -1
    assert list(node.grid.ids()) == batch and node.get_collision_pairs() == []
    assert node.insert(5, (0, 0), (1, 1))
    assert node.get_collision_pairs_packed().tolist() == sorted([node.get_id(5), batch[0]])
    assert errors == []


# ---------------------------------------------------------- stats, monitors

@pytest.mark.parametrize("hierarchical", [False, True])
def test_stats_and_monitors_follow_the_core(hierarchical):
    node, _ = new_node(cell_size=8.0, hierarchical=hierarchical)
    rng = np.random.default_rng(2)
    node.insert_batch(rng.uniform(0, 100, (200, 2)), np.full((200, 2), 3.0))
    node.insert(GodotObject(5), (0, 0), (500, 500))
    pairs = node.get_collision_pairs()
    stats = node.get_stats()
    core = node.grid.stats()
    assert {k: v for k, v in stats.items() if k in core} == core
    assert stats["objects"] == 201 and stats["hits"] == len(pairs) == node.grid.hits
    assert stats["broad_phase_pairs"] == node.grid.broad_phase_pairs
    assert stats["active_cells"] == sum(level["occupied_cells"] for level in core["levels"])
    assert stats["large_objects"] == (0 if hierarchical else 1)
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


def test_debug_candidates_are_the_index_own_for_both_kinds():
    for hierarchical in (False, True):
        node, _ = new_node(cell_size=10.0, hierarchical=hierarchical)
        for k in range(30):
            node.insert(k, (k * 3.0, (k % 3) * 2.0), (4, 4))
        lines = node.debug_geometry((0, 0, 100, 30))["candidates"]
        boxes = {k: node.grid.bounds(k) for k in range(30)}
        center = {k: (b[0] + b[2] / 2, b[1] + b[3] / 2) for k, b in boxes.items()}
        expected = [(center[a], center[b]) for a, b in node.grid.candidate_ids().tolist()]
        assert lines == expected and len(lines) >= len(node.get_collision_pairs()) > 0


# -------------------------------------------------------------- bad input

BAD_CALLS = [
    ("insert", (1, (math.nan, 0), (1, 1)), "pos.x must be a finite number, got nan"),
    ("insert", (1, (0, 0), (1, 1), 5), "takes 3 arguments, got 4"),
    ("insert", (1, (0, 0), (1, -1)), "size.y must be a finite number >= 0, got -1.0"),
    ("query_range", (Rect2(0, 0, 5, 5), "no"), "exact must be true or false, got 'no'"),
    ("query_range", (Rect2(0, 0, 5, 5), 1), "exact must be true or false, got 1"),
    ("query_point", (Vector2(0, 0), 1, 2), "query_point(point, mask) takes 1 to 2 arguments, got 3"),
    ("query_point", (Vector2(0, 0), Vector2(0, 0)), "mask must be an int from 0 to 2**32 - 1, got Vector2"),
    ("get_stats", (1,), "takes 0 arguments, got 1"),
    ("remove_batch", ([0], 1), "takes 1 arguments, got 2"),
    ("insert_batch", (None, None), "positions must be a PackedVector2Array or an Array of Vector2, got NoneType"),
    ("insert_batch", ([Vector2(0, 0)],),
     "insert_batch(positions, sizes, layers, masks) takes 2 to 4 arguments, got 1"),
    ("update_batch", (), "takes 3 arguments, got 0"),
    ("update_batch", ([0], [Vector2(0, 0)], [Vector2(-1, 1)]), "sizes[0].x must be a finite number >= 0, got -1.0"),
    ("remove_batch", ("0",), "ids must be a PackedInt32Array or an Array of ints, got str"),
    ("remove", (GodotObject(4321),), None),
    ("is_colliding", (GodotObject(4321), 1), "a GodotObject(4321) is not in this spatial hash"),
    ("insert", (1, (0, 0), (-1, 1)), "-1"),
    ("insert", (1, (0, 0)), "takes 3 arguments, got 2"),
    ("insert", (None, (0, 0), (1, 1)), "obj must be an int or a Node, got None"),
    ("insert", ("player", (0, 0), (1, 1)), "obj must be an int or a Node, got 'player'"),
    ("insert", (1, "here", (1, 1)), "'here'"),
    ("insert", (1, (0, 0), (math.inf, 1)), "inf"),
    ("insert_circle", (1, (0, 0), "big"), "'big'"),
    ("update", (99, Rect2(0, 0, 1, 1)), "99"),
    ("update", (1, Rect2(0, 0, 1, math.nan)), "nan"),
    ("update", (1,), "takes 2 arguments, got 1"),
    ("remove", (), "takes 1 arguments, got 0"),
    ("query_nearby", (Vector2(0, math.inf), Vector2(1, 1)), "inf"),
    ("query_range", (Rect2(0, 0, -5, 1),), "-5"),
    ("query_range", (), "takes 1 to 3 arguments, got 0"),
    ("query_radius", (Vector2(0, 0), None), "None"),
    ("query_radius", (Vector2(0, 0), -2.0), "-2"),
    ("query_along_path", (Vector2(0, 0), Vector2(math.nan, 0), Vector2(1, 1)), "nan"),
    ("query_nearest", (Vector2(math.nan, 0),), "nan"),
    ("query_nearest", (Vector2(0, 0), -1), "k must be an int >= 0"),
    ("query_nearest", (Vector2(0, 0), 2.5), "2.5"),
    ("query_nearest", (Vector2(0, 0), True), "True"),
    ("query_nearest", (Vector2(0, 0), 1, -3.0), "max_distance must be a number >= 0"),
    ("query_nearest", (Vector2(0, 0), 1, math.nan), "nan"),
    ("query_nearest", (Vector2(0, 0), 1, "far"), "'far'"),
    ("query_nearest", (), "takes 1 to 4 arguments, got 0"),
    ("query_nearest", (Vector2(0, 0), 1, 5.0, 2 ** 32), "mask must be an int from 0 to 2**32 - 1, got 4294967296"),
    ("raycast", (Vector2(math.nan, 0), Vector2(1, 1)), "start.x must be a finite number, got nan"),
    ("raycast", (Vector2(0, 0), Vector2(1, math.inf)), "end.y must be a finite number, got inf"),
    ("raycast", (Vector2(0, 0),), "takes 2 to 3 arguments, got 1"),
    ("raycast_all", (Vector2(0, 0), Vector2(1, 1), 1.5), "mask must be an int from 0 to 2**32 - 1, got 1.5"),
    ("set_filter", (1, -1, 1), "layer must be an int from 0 to 2**32 - 1, got -1"),
    ("set_filter", (12345, 1, 1), "12345"),
    ("set_filter_batch", ([0, 1], [1, 2, 3], 1), "layers must be one int or 2 ints"),
    ("set_filter_batch", ([0, 77], 1, 1), "77"),
    ("insert_batch", ([Vector2(0, 0)], [Vector2(1, 1)], 1, [True]), "masks"),
    ("emit_collision_events", (1,), "takes 0 arguments, got 1"),
    ("get_collision_events_packed", (1,), "takes 0 arguments, got 1"),
    ("raycast_all", (Vector2(0, 0), "far"), "'far'"),
    ("raycast_all", (Vector2(0, 0), Vector2(1e300, 0)), "1e+300"),
    ("is_colliding", (1, 12345), "12345"),
    ("insert_batch", ([Vector2(0, 0), Vector2(1, math.nan)], [Vector2(1, 1)] * 2), "nan"),
    ("insert_batch", ([Vector2(0, 0)], [Vector2(1, 1)] * 2), "1 positions but 2 sizes"),
    ("insert_batch", (["a", "b"], [Vector2(1, 1)] * 2), "'a'"),
    ("update_batch", ([0, 77], [Vector2(0, 0)] * 2, [Vector2(1, 1)] * 2), "77"),
    ("update_batch", ([0.5], [Vector2(0, 0)], [Vector2(1, 1)]), "integers"),
    ("update_batch", ([2, 3, 2], [Vector2(0, 0)] * 3, [Vector2(1, 1)] * 3), "repeats id 2"),
    ("remove_batch", ([3, 3],), "duplicates"),
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
    if named is None:       # a miss, not an error
        assert errors == [] and node.get_last_error() == "" and state(node) == before
        return
    assert len(errors) == 1 and named in errors[0], errors
    assert errors[0].startswith(f"SpatialHash2D.{name}") and node.get_last_error() == errors[0]
    assert state(node) == before
    assert node.get_stats()["objects"] == 4


def test_bridge_converts_arguments_and_results():
    errors = []
    bridge = NodeBridge(lambda v: v * 2 if isinstance(v, int) else v, lambda v: ("engine", v),
                        lambda v: ("packed", list(v)), report=errors.append)
    assert bridge.call("insert", (1, (0, 0), (5, 5))) == ("engine", True)
    assert bridge.node.has(2) and not bridge.node.has(1)       # arguments went through from_engine
    assert bridge.call("insert_batch", ([(3, 3)], [(1, 1)])) == ("packed", [1])
    assert bridge.call("get_collision_pairs_packed", ()) == ("packed", [0, 1])
    assert bridge.call("get_collision_pairs_packed", (1,)) == ("packed", [])
    assert "takes 0 arguments, got 1" in errors[-1]
    broken = NodeBridge(lambda v: v, lambda v: 1 / 0, list, report=errors.append)
    assert broken.call("clear", ()) is None and "cannot convert" in errors[-1]
    unreadable = NodeBridge(lambda v: 1 / 0, lambda v: v, list, report=errors.append)
    assert unreadable.call("query_point", ((0, 0),)) == [] and "cannot read" in errors[-1]
    vectors = NodeBridge(lambda v: v, lambda v: v, list, report=errors.append,
                         vector=lambda x, y: ("Vector2", x, y))
    vectors.call("insert", (1, (0, 0), (2, 2)))
    assert vectors.call("raycast", ((-2, 1), (2, 1))) == {
        "collider": 1, "position": ("Vector2", 0.0, 1.0), "normal": ("Vector2", -1.0, 0.0),
        "fraction": 0.5}


# ------------------------------------------------------- exported properties

@pytest.mark.parametrize("name,bad,good", [
    ("cell_size", -5, 8), ("cell_size", 0.0, 8), ("cell_size", math.nan, 8.0), ("cell_size", "big", 32.0),
    ("large_object_threshold", 0, 2), ("large_object_threshold", 2.5, 8),
    ("hierarchical", "yes", True), ("debug_draw", 1, True), ("overlay", None, True),
])
def test_rejected_property_is_reported_once_and_keeps_its_value(name, bad, good):
    node, errors = new_node(cell_size=16.0)
    node.insert(1, (0, 0), (3, 3))
    before, kept = state(node), node.setting(name)
    assert node.set_setting(name, bad) is False
    assert len(errors) == 1 and name in errors[0] and repr(bad) in errors[0]
    assert f"it stays {kept!r}" in errors[0] and node.get_last_error() == errors[0]
    assert node.setting(name) == kept and state(node) == before
    node.get_stats()                   # later calls do not repeat it
    assert len(errors) == 1 and node.get_last_error() == ""
    assert node.set_setting(name, good) and node.setting(name) == good and len(errors) == 1


def test_index_settings_rebuild_and_a_cell_size_too_small_for_the_objects_is_refused():
    node, errors = new_node(cell_size=16.0)
    node.insert(1, (1e9, 0), (3, 3))
    node.insert(2, (1e9 + 1, 1), (3, 3))
    batch = node.insert_batch([(0, 0), (5, 5), (9, 9)], [(2, 2)] * 3).tolist()
    node.remove_batch([batch[1]])
    kept = {i: node.grid.bounds(i) for i in node.grid.ids()}
    assert node.set_setting("hierarchical", True) and node.get_stats()["index"] == "hierarchical"
    assert {i: node.grid.bounds(i) for i in node.grid.ids()} == kept and node.get_id(2) == 1
    node.grid.validate()
    assert node.set_setting("hierarchical", False) and node.set_setting("cell_size", 7)
    assert node.grid.cell_size == 7.0 and node.setting("cell_size") == 7.0
    before = state(node)
    assert not node.set_setting("cell_size", 1e-300)
    assert "too far" in errors[-1] and node.setting("cell_size") == 7.0 and state(node) == before
    assert node.get_collision_pairs() == [[1, 2]]


# -------------------------------------------- Godot values that misbehave

class Godot4Dictionary:
    """godot-python-extension's Dictionary: __getitem__ and __len__ but no
    __iter__, and a missing key reads as None, so anything that reads it as a
    sequence never ends (the engine hung). Here it gives up loudly instead."""

    def __init__(self, items):
        self.items_ = dict(items)
        self.reads = 0

    def __len__(self):
        return len(self.items_)

    def __getitem__(self, key):
        self.reads += 1
        if self.reads > 1000:
            raise AssertionError("read as a sequence: the engine would hang here")
        return self.items_.get(key)

    def keys(self):
        return list(self.items_)

    def __repr__(self):
        return f"Dictionary({self.items_})"


class Godot3Dictionary(Godot4Dictionary):
    """pythonscript's Dictionary: reading a missing key inserts it."""

    def __getitem__(self, key):
        self.reads += 1
        return self.items_.setdefault(key, None)


DICTIONARY_CALLS = [
    ("insert_batch", lambda d: (d, [Vector2(1, 1)]), "positions"),
    ("insert_batch", lambda d: ([Vector2(1, 1)], d), "sizes"),
    ("update_batch", lambda d: ([0], [Vector2(0, 0)], d), "sizes"),
    ("update_batch", lambda d: (d, [Vector2(0, 0)], [Vector2(1, 1)]), "ids"),
    ("remove_batch", lambda d: (d,), "ids"),
    ("insert", lambda d: (1, d, (1, 1)), "pos"),
    ("insert", lambda d: (d, (0, 0), (1, 1)), "obj"),
    ("query_nearby", lambda d: ((0, 0), d), "size"),
    ("query_range", lambda d: (d,), "rect"),
    ("update", lambda d: (1, d), "bounds"),
    ("query_radius", lambda d: (d, 3), "center"),
    ("query_point", lambda d: (d,), "point"),
    ("query_nearest", lambda d: (d,), "point"),
    ("raycast", lambda d: (d, (1, 1)), "start"),
    ("raycast_all", lambda d: ((0, 0), d), "end"),
    ("query_nearest", lambda d: ((0, 0), d), "k"),
    ("query_nearest", lambda d: ((0, 0), 1, d), "max_distance"),
    ("is_colliding", lambda d: (1, d), "b"),
]


@pytest.mark.parametrize("kind", [Godot4Dictionary, Godot3Dictionary])
@pytest.mark.parametrize("name,args,named", DICTIONARY_CALLS,
                         ids=[f"{c[0]}-{c[2]}" for c in DICTIONARY_CALLS])
def test_a_dictionary_argument_is_refused_unread(kind, name, args, named):
    node, errors = new_node()
    node.insert(1, (0, 0), (3, 3))
    node.insert_batch([(0, 0)], [(1, 1)])
    before = state(node)
    for items in ({"x": 1, "y": 2}, {0: 1, 1: 2}, {"a": 1}):
        d = kind(items)
        assert getattr(node, name)(*args(d)) in (False, [], {})
        assert d.items_ == items and d.reads == 0          # neither read nor changed
        assert named in errors[-1] and "Dictionary" in errors[-1]
    assert state(node) == before


def test_caller_arrays_are_never_modified():
    node, errors = new_node()
    positions = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)
    sizes = [Vector2(1, 1), Vector2(2, 2)]
    ids = np.array([0, 1], dtype=np.int32)
    node.insert_batch(positions, sizes)
    node.update_batch(ids, positions, sizes)
    assert not node.update_batch(ids, positions, [Vector2(1, 1), Vector2(math.nan, 1)])
    assert positions.tolist() == [[1.0, 2.0], [3.0, 4.0]] and ids.tolist() == [0, 1]
    assert [(v.x, v.y) for v in sizes] == [(1, 1), (2, 2)]


@pytest.mark.parametrize("position_type", [np.float32, np.float64])
@pytest.mark.parametrize("size_type", [np.float32, np.float64])
def test_batch_rows_name_the_first_bad_row_of_random_arrays(position_type, size_type):
    """rect_rows against numpy: the rows it builds, and the first row holding a
    NaN, an infinity or a negative size named in its error."""
    from spatial_hash.node.arguments import rect_rows
    rng = np.random.default_rng(5)
    for trial in range(40):
        n = int(rng.integers(1, 300))
        positions = rng.uniform(-1e3, 1e3, (n, 2)).astype(position_type)
        sizes = rng.uniform(0, 50, (n, 2)).astype(size_type)
        for _ in range(int(rng.integers(0, 3))):
            bad = (positions, sizes)[int(rng.integers(2))]
            bad[rng.integers(n), rng.integers(2)] = rng.choice([np.nan, np.inf, -np.inf, -1.0])
        given = positions.copy(), sizes.copy()
        good = np.isfinite(positions).all(axis=1) & np.isfinite(sizes).all(axis=1) \
            & (sizes >= 0).all(axis=1)
        memory = np.full((n + 3, 4), 7.0)
        if good.all():
            rows = rect_rows(positions, sizes, memory)
            assert rows.base is memory and rows.shape == (n, 4)
            assert rows.tolist() == np.hstack([positions, sizes]).astype(np.float64).tolist()
        else:
            first = int(np.argmin(good))
            named = "positions" if not np.isfinite(positions[first]).all() else "sizes"
            with pytest.raises(ValueError, match=rf"^{named}\[{first}\]\.[xy] must"):
                rect_rows(positions, sizes, memory)
        assert np.array_equal(positions, given[0], equal_nan=True)
        assert np.array_equal(sizes, given[1], equal_nan=True)


# ----------------------------------------------------------- freed objects

class TreeNode(GodotObject):
    """A node that can leave the tree; touching it after it is freed crashes the
    engine (every plugin segfaults converting a freed object)."""

    def __init__(self, instance_id):
        super().__init__(instance_id)
        self.freed = False
        self.name = f"Node{instance_id}"

    def is_inside_tree(self):
        return not self.freed

    def get_class(self):
        return "Node2D"

    def get_path(self):
        return f"/root/{self.name}"

    def get_instance_id(self):
        if self.freed:
            raise SystemExit("signal 11: a freed object reached Python")
        return self.instance_id


class TreeObjects(SceneTreeObjects):
    """The engine scripts' watcher, its signal a dict: tree_exiting calls node.forget."""

    node_class = TreeNode

    def __init__(self):
        super().__init__(owner=None)
        self.watched = {}

    def connect_exit(self, obj, instance_id):
        self.watched[instance_id] = obj
        return instance_id

    def unwatch(self, obj, token):
        del self.watched[token]

    def free(self, node, obj):
        if obj.instance_id in self.watched:      # tree_exiting
            node.forget(obj.instance_id)
        obj.freed = True


@pytest.mark.parametrize("hierarchical", [False, True])
def test_a_freed_node_leaves_the_index_and_is_never_handed_back(hierarchical):
    errors = []
    tree = TreeObjects()
    node = SpatialHashNode(report=errors.append, objects=tree, hierarchical=hierarchical)
    a, b, c = TreeNode(1), TreeNode(2), TreeNode(3)
    for obj in (a, b, c):
        node.insert(obj, (0, 0), (4, 4))
    batch = node.insert_batch([(1, 1)], [(1, 1)]).tolist()
    b_id = node.get_id(b)
    tree.free(node, b)
    assert sorted(tree.watched) == [1, 3]
    pairs = node.get_collision_pairs()
    assert b not in [o for pair in pairs for o in pair] and len(pairs) == 3
    assert b not in node.query_nearby((0, 0), (4, 4)) and len(node.query_point((1, 1))) == 3
    assert node.get_stats()["objects"] == 3 and b_id not in list(node.grid.ids())
    assert not node.remove_batch([b_id]) and str(b_id) in errors[-1]
    node.remove(a)                               # disconnects: freeing it later is harmless
    node.remove_batch([node.get_id(c)])
    assert tree.watched == {}
    assert list(node.grid.ids()) == batch
    node.insert(TreeNode(4), (0, 0), (1, 1))
    node.clear()
    assert tree.watched == {} and node.get_stats()["objects"] == 0


def test_a_refused_object_leaves_nothing_behind():
    class Refusing(TreeObjects):
        def watch(self, obj, key):
            raise TypeError(f"obj must be an int or a Node inside the scene tree, got {obj!r}")

    errors = []
    node = SpatialHashNode(report=errors.append, objects=Refusing())
    assert node.insert(GodotObject(5), (0, 0), (1, 1)) is False
    assert "inside the scene tree" in errors[-1] and node.get_stats()["objects"] == 0

    tree = TreeObjects()
    node = SpatialHashNode(report=errors.append, objects=tree)
    assert node.insert(TreeNode(6), (math.nan, 0), (1, 1)) is False
    assert tree.watched == {} and node.get_stats()["objects"] == 0


def test_a_game_imports_nothing_of_the_benchmark():
    code = ("import sys, spatial_hash.node; "
            "print(sorted(m for m in sys.modules if m.startswith('spatial_hash.bench')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
    addon = pathlib.Path(spatial_hash.__file__).parent
    assert (addon / "bench" / ".gdignore").exists()     # Godot's editor never scans it
