"""The private Python engine of the SpatialHash2D node (spatial_hash.node.engine),
driven the way the GDScript faces drive it (face_model.FaceModel: held calls,
ids by the index's own rule, held static flags, query results as text), against
the brute-force oracle; its refusals; and the contracts the faces rely on."""
import math
import pathlib
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from face_model import FaceModel, decode_ids
from oracle import Oracle, Oracle3D, same_pairs
from spatial_hash._core import ALL_LAYERS, HierarchicalGrid, UniformGrid
from spatial_hash.node._ids_text import ids_text
from spatial_hash.node.engine import (IDS_MARK, PROTOCOL, NodeEngine, protocol_names,
                                     query_result)

KEYS = st.integers(0, 9).map(lambda k: f"o{k}")        # batch objects are ints: their ids
# Positions and sizes reach a face as Vector2, which holds 32-bit floats; radii
# are doubles.
COORD = st.one_of(st.integers(-100, 100).map(float), st.floats(-100.0, 100.0, width=32))
LENGTH = st.one_of(st.just(0.0), st.floats(0.0, 20.0, width=32), st.floats(100.0, 400.0, width=32))
RADIUS = st.one_of(st.just(0.0), st.floats(0.0, 20.0), st.floats(100.0, 400.0))
# Beyond a uniform grid's safe bound for cells of 0.5 (2.7e8): sent at once, and
# accepted or refused by the index itself.
FAR = st.sampled_from([3e8, -4e8, 5e8, 1e9])
BITS = st.sampled_from([0, 1, 2, 3, ALL_LAYERS])


def face_machine(d):
    """Random per-object and batch calls, as a face of dimension d makes them,
    against the oracle of that dimension."""
    point = st.tuples(*[COORD] * d)
    size = st.tuples(*[LENGTH] * d)

    class FaceMachine(RuleBasedStateMachine):
        @initialize(cell=st.sampled_from([0.5, 16.0, 64.0]), hierarchical=st.booleans(),
                    threshold=st.integers(1, 6))
        def start(self, cell, hierarchical, threshold):
            self.face = FaceModel(NodeEngine(dimension=d))
            assert not isinstance(self.face.set_index(cell, threshold, hierarchical), str)
            self.oracle = (Oracle if d == 2 else Oracle3D)(cell)
            self.batch = []             # ids of live batch objects

        @rule(obj=KEYS, corner=point, extent=size, as_static=st.booleans())
        def insert(self, obj, corner, extent, as_static):
            assert self.face.insert(obj, *corner, *extent, as_static=as_static) is True
            self.oracle.insert(obj, corner + extent, static=as_static)

        @rule(obj=KEYS, center=point, r=RADIUS, as_static=st.booleans())
        def insert_circle(self, obj, center, r, as_static):
            assert self.face.insert_circle(obj, *center, r, as_static=as_static) is True
            self.oracle.insert_circle(obj, center, r, static=as_static)

        @rule(obj=KEYS, x=FAR, rest=st.tuples(*[COORD] * (d - 1)))
        def insert_far(self, obj, x, rest):
            box = (x,) + rest + (1.0,) * d
            result = self.face.insert(obj, *box)
            if result is True:
                self.oracle.insert(obj, box)
            else:
                assert "too far" in result

        def _placed(self):
            return sorted(o for o in self.oracle._shapes if isinstance(o, str))

        @precondition(lambda self: self._placed())
        @rule(data=st.data(), corner=point, extent=size)
        def update(self, data, corner, extent):
            obj = data.draw(st.sampled_from(self._placed()))
            assert self.face.update(obj, *corner, *extent) is True
            self.oracle.update(obj, corner + extent)        # it stays static or not

        @rule(obj=KEYS)
        def remove(self, obj):
            assert self.face.remove(obj) == (obj in self.oracle)
            self.oracle.remove(obj)

        @precondition(lambda self: self._placed())
        @rule(data=st.data(), layer=BITS, mask=BITS)
        def set_filter(self, data, layer, mask):
            obj = data.draw(st.sampled_from(self._placed()))
            assert self.face.set_filter(obj, layer, mask) is True
            self.oracle.set_filter(obj, layer, mask)

        @precondition(lambda self: self._placed())
        @rule(data=st.data(), enabled=st.booleans())
        def set_static(self, data, enabled):
            obj = data.draw(st.sampled_from(self._placed()))
            assert self.face.set_static(obj, enabled) is True
            self.oracle.set_static(obj, enabled)

        @precondition(lambda self: self._placed())
        @rule(data=st.data())
        def is_static(self, data):
            obj = data.draw(st.sampled_from(self._placed()))
            assert self.face.is_static(obj) is self.oracle.is_static(obj)

        @rule(boxes=st.lists(st.tuples(point, size, st.booleans()), max_size=5),
              one_for_all=st.sampled_from([None, False, True]))
        def insert_batch(self, boxes, one_for_all):
            flags = [b[2] for b in boxes] if one_for_all is None else one_for_all
            ids = self.face.insert_batch([b[0] for b in boxes], [b[1] for b in boxes], flags)
            for object_id, (corner, extent, flag) in zip(ids.tolist(), boxes):
                # Vectors hold 32-bit floats: a batch's boxes are what arrives.
                self.oracle.insert(("batch", object_id),
                                   tuple(float(np.float32(v)) for v in corner + extent),
                                   static=flag if one_for_all is None else one_for_all)
                self.batch.append(object_id)

        @precondition(lambda self: self.batch)
        @rule(data=st.data())
        def set_static_batch(self, data):
            ids = data.draw(st.lists(st.sampled_from(self.batch), unique=True, min_size=1))
            flags = data.draw(st.one_of(st.booleans(),
                                        st.lists(st.booleans(), min_size=len(ids), max_size=len(ids))))
            assert self.face.set_static_batch(ids, flags) is True
            for object_id, flag in zip(ids, flags if isinstance(flags, list) else [flags] * len(ids)):
                self.oracle.set_static(("batch", object_id), flag)

        @precondition(lambda self: self.batch)
        @rule(data=st.data())
        def remove_batch(self, data):
            ids = data.draw(st.lists(st.sampled_from(self.batch), unique=True, min_size=1))
            assert self.face.remove_batch(ids) is True
            for object_id in ids:
                self.batch.remove(object_id)
                self.oracle.remove(("batch", object_id))

        @rule(cell=st.sampled_from([0.5, 8.0, 64.0]), hierarchical=st.booleans())
        def set_index(self, cell, hierarchical):
            result = self.face.set_index(cell, 4, hierarchical)
            if not isinstance(result, str):
                self.oracle.cell_size = cell
            else:
                assert "too far" in result

        @staticmethod
        def _named(found):
            """The oracle's names of what the face returns: batch ids as ("batch", id)."""
            return [("batch", o) if isinstance(o, (int, np.integer)) else o for o in found]

        def _objects(self, found):
            return set(self._named(found))

        def _id_of(self, obj):
            return obj[1] if isinstance(obj, tuple) else self.face.objects[obj]

        @rule(corner=point, extent=size, mask=BITS)
        def query_range(self, corner, extent, mask):
            found = self.face.query("query_range", *corner, *extent, True, mask)
            assert self._objects(found) == set(self.oracle.query_range(corner + extent, mask))

        @rule(windows=st.lists(st.tuples(point, size), max_size=4), exact=st.booleans(), mask=BITS)
        def query_range_batch(self, windows, exact, mask):
            found = self.face.query_range_batch([c for c, _ in windows], [e for _, e in windows],
                                                exact, mask)
            assert found == [self.face.query("query_range", *c, *e, exact, mask) for c, e in windows]
            if exact:
                assert [self._objects(f) for f in found] == [set(self.oracle.query_range(c + e, mask))
                                                   for c, e in windows]

        @rule(corner=point, extent=size, mask=BITS)
        def query_nearby(self, corner, extent, mask):
            if isinstance(self.face.engine.grid, self.face.engine.dim.hierarchical):
                return          # its cells are its own: the exact answers are what both share
            found = self.face.query("query_nearby", *corner, *extent, mask)
            assert self._objects(found) == set(self.oracle.query_nearby(*corner, *extent, mask))

        @rule(center=point, r=LENGTH, mask=BITS)
        def query_radius(self, center, r, mask):
            found = self.face.query("query_radius", *center, r, mask)
            assert self._objects(found) == set(self.oracle.query_radius(center, r, mask))

        @rule(p=point)
        def query_point(self, p):
            found = self.face.query("query_point", *p, ALL_LAYERS)
            assert self._objects(found) == set(self.oracle.query_point(p))

        @rule(p=point, k=st.integers(0, 4))
        def query_nearest(self, p, k):
            self.face.flush()
            found = self.face.query("query_nearest", *p, k, math.inf, ALL_LAYERS)
            assert self._named(found) == self.oracle.query_nearest(p, k, tie_order=self._id_of)

        @rule(start=point, end=point, extent=size)
        def query_along_path(self, start, end, extent):
            found = self.face.query("query_along_path", *start, *end, *extent, ALL_LAYERS)
            assert self._objects(found) == set(self.oracle.query_along_path(start, end, extent))

        @rule(start=point, end=point)
        def raycast_all(self, start, end):
            self.face.flush()
            rows = self.face.call("raycast_all", *start, *end, ALL_LAYERS)
            width = 2 + 2 * d
            got = [(self.face.handles[int(rows[k])], rows[k + 1]) for k in range(0, len(rows), width)]
            expected = self.oracle.raycast_all(start, end, tie_order=self._id_of)
            assert [self._named([o])[0] for o, _ in got] == [hit[0] for hit in expected]
            assert all(math.isclose(f, hit[1], rel_tol=1e-9, abs_tol=1e-9)
                       for (_, f), hit in zip(got, expected))

        @rule()
        def events(self):
            started, ended = self.face.events()
            ended_at_once = {frozenset(self._objects(p)) for p in self.face.ended_at_once}
            self.face.ended_at_once = []
            now = {frozenset(self._objects(p)) for p in self.face.pairs()}
            before = getattr(self, "reported", set()) - ended_at_once
            assert {frozenset(self._objects(p)) for p in started} == now - before
            assert {frozenset(self._objects(p)) for p in ended} == before - now
            self.reported = now

        @invariant()
        def pairs_equal_brute_force(self):
            if hasattr(self, "face"):
                got = [tuple(self._named(p)) for p in self.face.pairs()]
                assert same_pairs(got, self.oracle.pairs())
                self.face.engine.grid.validate()

    return FaceMachine


MACHINE_SETTINGS = settings(max_examples=60, stateful_step_count=30, deadline=None,
                            suppress_health_check=[HealthCheck.too_slow])
TestFaceModel = face_machine(2).TestCase
TestFaceModel.settings = MACHINE_SETTINGS
TestFaceModel3D = face_machine(3).TestCase
TestFaceModel3D.settings = MACHINE_SETTINGS


def _state(engine):
    grid = engine.grid
    circle_of = grid.circle_of if engine.dim.d == 2 else grid.sphere_of
    return ([(i, grid.bounds(i), circle_of(i), grid.filter_of(i), grid.is_static(i)) for i in grid.ids()],
            grid.pair_ids().tolist(), dict(engine.settings))


def _engine_with_objects():
    face = FaceModel(NodeEngine())
    face.insert("a", 0.0, 0.0, 10.0, 10.0)
    face.insert_circle("b", 5.0, 5.0, 3.0)
    face.insert_batch([(20.0, 20.0), (21.0, 21.0)], [(4.0, 4.0), (4.0, 4.0)], [True, False])
    face.flush()
    return face


NAN, INF = math.nan, math.inf
BAD_CALLS = [
    ("insert", (-1, NAN, 0.0, 1.0, 1.0), "pos.x must be a finite number, got nan"),
    ("insert", (-1, 0.0, INF, 1.0, 1.0), "pos.y"),
    ("insert", (-1, 0.0, 0.0, -1.0, 1.0), "size.x must be a finite number >= 0, got -1.0"),
    ("insert", (-1, 1e300, 0.0, 1.0, 1.0), "too far from the origin"),
    ("insert", (0, 0.0, 0.0, 1.0, NAN), "size.y"),
    ("update", (0, NAN, 0.0, 1.0, 1.0), "bounds.position.x"),
    ("update", (0, 0.0, 0.0, 1.0, -2.0), "bounds.size.y"),
    ("update", (99, 0.0, 0.0, 1.0, 1.0), "no object with id 99"),
    ("insert_circle", (-1, 0.0, 0.0, -1.0), "radius must be a finite number >= 0"),
    ("insert_circle", (1, INF, 0.0, 1.0), "center.x"),
    ("set_filter", (0, -1, 1), "layer must be an int from 0 to 2**32 - 1, got -1"),
    ("set_filter", (0, 1, 1 << 32), "mask must be an int from 0 to 2**32 - 1, got 4294967296"),
    ("query_nearby", (NAN, 0.0, 1.0, 1.0, ALL_LAYERS), "pos.x"),
    ("query_nearby", (0.0, 0.0, 1.0, -1.0, ALL_LAYERS), "size.y"),
    ("query_range", (0.0, 0.0, -1.0, 1.0, False, ALL_LAYERS), "rect.size.x"),
    ("query_range", (0.0, 0.0, 1.0, 1.0, False, -1), "mask"),
    ("query_radius", (0.0, 0.0, NAN, ALL_LAYERS), "radius"),
    ("query_point", (0.0, INF, ALL_LAYERS), "point.y"),
    ("query_nearest", (0.0, 0.0, -1, INF, ALL_LAYERS), "k must be an int >= 0"),
    ("query_nearest", (0.0, 0.0, 1, NAN, ALL_LAYERS), "max_distance"),
    ("query_along_path", (0.0, 0.0, NAN, 0.0, 1.0, 1.0, ALL_LAYERS), "end.x"),
    ("raycast", (INF, 0.0, 1.0, 1.0, ALL_LAYERS), "start.x"),
    ("raycast_all", (0.0, 0.0, 1.0, 1.0, 1 << 33), "mask"),
    ("is_colliding", (0, 99), "99"),
    ("query_range_batch", (np.array([[0.0, NAN]], np.float32), np.ones((1, 2), np.float32), False, 1),
     "positions[0].y must be a finite number, got nan"),
    ("query_range_batch", (np.ones((1, 2), np.float32), -np.ones((1, 2), np.float32), True, 1),
     "sizes[0].x must be a finite number >= 0, got -1.0"),
    ("query_range_batch", (np.ones((2, 2), np.float32), np.ones((1, 2), np.float32), True, 1),
     "2 positions but 1 sizes"),
    ("query_range_batch", (np.ones((1, 2), np.float32), np.ones((1, 2), np.float32), True, -1),
     "mask must be an int from 0 to 2**32 - 1, got -1"),
    ("query_range_batch", (np.ones((1, 2), np.float32), np.ones((1, 2), np.float32), True, 1 << 32),
     "mask"),
    ("insert_batch", (np.array([[NAN, 1.0]], np.float32), np.ones((1, 2), np.float32), 1, 1, False),
     "positions[0].x must be a finite number, got nan"),
    ("insert_batch", (np.ones((2, 2), np.float32), np.ones((1, 2), np.float32), 1, 1, False),
     "2 positions but 1 sizes"),
    ("insert_batch", (np.ones((1, 2), np.float32), np.ones((1, 2), np.float32), -1, 1, False), "layers"),
    ("update_batch", (np.array([2, 99]), np.ones((2, 2), np.float32), np.ones((2, 2), np.float32)),
     "ids[1]: no object with id 99"),
    ("update_batch", (np.array([2]), np.ones((1, 2), np.float32), -np.ones((1, 2), np.float32)),
     "sizes[0].x"),
    ("remove_batch", (np.array([2, 2]),), "ids[1] repeats id 2"),
    ("remove_batch", (np.array([2, -5]),), "no object with id -5"),
    ("set_filter_batch", (np.array([2, 3]), np.array([1, -1]), 1), "layers[1]"),
    ("is_static", (99,), "no object with id 99"),
    ("insert_batch", (np.ones((2, 2), np.float32), np.ones((2, 2), np.float32), 1, 1,
                      np.array([1, 0, 1], np.int32)),
     "as_static must be true, false or one for each of the 2 rows, got 3 values"),
    ("insert_batch", (np.ones((2, 2), np.float32), np.ones((2, 2), np.float32), 1, 1,
                      np.array([1, 2], np.int32)), "as_static[1] must be true or false, got 2"),
    ("insert_batch", (np.ones((1, 2), np.float32), np.ones((1, 2), np.float32), 1, 1, "yes"),
     "as_static must be true, false or an Array of them, got 'yes'"),
    ("insert_batch", (np.ones((1, 2), np.float32), np.ones((1, 2), np.float32), 1, 1, None),
     "as_static must be true, false or an Array of them"),
    ("set_static_batch", (np.array([2, 99]), True), "ids[1]: no object with id 99"),
    ("set_static_batch", (np.array([2, 2]), False), "repeats id 2"),
    ("set_static_batch", (np.array([2, 3]), np.array([0], np.int32)),
     "enabled must be true, false or one for each of the 2 ids, got 1 values"),
    ("set_static_batch", (np.array([2, 3]), 1), "enabled must be true, false or an Array of them, got 1"),
    ("apply", tuple(np.zeros(0, np.int32) for _ in range(7)) + (np.array([2, 5], np.int32),),
     "static[0] must be True or False, got 5"),
    ("set_index", (-5.0, 4, False), "cell_size must be a positive finite number, got -5.0"),
    ("set_index", (NAN, 4, False), "cell_size"),
    ("set_index", (64.0, 0, False), "large_object_threshold must be an int from 1 to 64, got 0"),
    ("set_index", (64.0, 65, False), "large_object_threshold"),
    ("set_index", (1e-9, 4, False), "too far from the origin"),
]


@pytest.mark.parametrize("method, args, message", BAD_CALLS,
                         ids=[f"{m}-{k}" for k, (m, _, _) in enumerate(BAD_CALLS)])
def test_a_refused_call_says_why_naming_the_argument_and_changes_nothing(method, args, message):
    face = _engine_with_objects()
    face.call("insert", -1, 1e6, 1e6, 1.0, 1.0)      # a far object: cells of 1e-9 cannot hold it
    before = _state(face.engine)
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    result = face.call(method, *args)
    assert isinstance(result, str) and not result.startswith(IDS_MARK), result
    assert message in result
    assert _state(face.engine) == before
    for arg, copy in zip(args, copies):       # nothing the caller passed is modified
        if isinstance(arg, np.ndarray):
            np.testing.assert_array_equal(arg, copy)


def _engine_with_objects_3d():
    face = FaceModel(NodeEngine(dimension=3))
    face.insert("a", 0.0, 0.0, 0.0, 10.0, 10.0, 10.0)
    face.insert_circle("b", 5.0, 5.0, 5.0, 3.0)
    face.insert_batch([(20.0, 20.0, 20.0), (21.0, 21.0, 21.0)], [(4.0, 4.0, 4.0)] * 2)
    face.flush()
    return face


ONES3 = np.ones((1, 3), np.float32)
BAD_CALLS_3D = [
    ("insert", (-1, 0.0, 0.0, NAN, 1.0, 1.0, 1.0), "pos.z must be a finite number, got nan"),
    ("insert", (-1, 0.0, 0.0, 0.0, 1.0, 1.0, -1.0), "size.z must be a finite number >= 0, got -1.0"),
    ("insert", (-1, 0.0, 0.0, 1e300, 1.0, 1.0, 1.0), "too far from the origin"),
    ("insert", (-1, 0.0, 0.0, 1.0, 1.0), "insert takes 7 arguments, got 5"),
    ("update", (0, 0.0, 0.0, 0.0, 1.0, 1.0, INF), "aabb.size.z"),
    ("update", (99, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0), "no object with id 99"),
    ("insert_circle", (-1, 0.0, 0.0, 0.0, -1.0), "radius must be a finite number >= 0"),
    ("insert_circle", (1, 0.0, 0.0, INF, 1.0), "center.z"),
    ("query_nearby", (0.0, 0.0, NAN, 1.0, 1.0, 1.0, ALL_LAYERS), "pos.z"),
    ("query_range", (0.0, 0.0, 0.0, 1.0, 1.0, -1.0, False, ALL_LAYERS), "aabb.size.z"),
    ("query_radius", (0.0, 0.0, 0.0, NAN, ALL_LAYERS), "radius"),
    ("query_point", (0.0, 0.0, INF, ALL_LAYERS), "point.z"),
    ("query_nearest", (0.0, 0.0, 0.0, -1, INF, ALL_LAYERS), "k must be an int >= 0"),
    ("query_along_path", (0.0, 0.0, 0.0, 1.0, 1.0, NAN, 1.0, 1.0, 1.0, ALL_LAYERS), "end.z"),
    ("query_along_path", (0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, ALL_LAYERS),
     "query_along_path takes 10 arguments, got 9"),
    ("raycast", (0.0, 0.0, INF, 1.0, 1.0, 1.0, ALL_LAYERS), "start.z"),
    ("raycast_all", (0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1 << 33), "mask"),
    ("query_range_batch", (ONES3, np.array([[1.0, 1.0, -2.0]], np.float32), True, 1),
     "sizes[0].z must be a finite number >= 0, got -2.0"),
    ("query_range_batch", (np.ones((1, 2), np.float32), ONES3, True, 1), "positions must be Vector3s"),
    ("insert_batch", (np.array([[0.0, 1.0, NAN]], np.float32), ONES3, 1, 1, False),
     "positions[0].z must be a finite number, got nan"),
    ("insert_batch", (np.ones((1, 2), np.float32), np.ones((1, 2), np.float32), 1, 1, False),
     "positions must be Vector3s or x, y, z number triples"),
    ("insert_batch", ([(1.0, 2.0)], [(1.0, 1.0, 1.0)], 1, 1, False), "got shape (1, 2)"),
    ("update_batch", (np.array([2, 99]), np.ones((2, 3), np.float32), np.ones((2, 3), np.float32)),
     "ids[1]: no object with id 99"),
    ("update_batch", (np.array([2]), ONES3, -ONES3), "sizes[0].x"),
    ("update_batch", (np.array([2]), ONES3, np.array([[1.0, 1.0, NAN]], np.float32)), "sizes[0].z"),
    ("remove_batch", (np.array([2, 2]),), "ids[1] repeats id 2"),
    ("debug_geometry", (0.0, 0.0, 0.0, 1.0, 1.0, 1.0, "yes"), "candidates must be true or false"),
    ("set_index", (-5.0, 4, False), "cell_size must be a positive finite number, got -5.0"),
]


@pytest.mark.parametrize("method, args, message", BAD_CALLS_3D,
                         ids=[f"{m}-{k}" for k, (m, _, _) in enumerate(BAD_CALLS_3D)])
def test_a_refused_3d_call_says_why_naming_the_argument_and_changes_nothing(method, args, message):
    face = _engine_with_objects_3d()
    before = _state(face.engine)
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    result = face.call(method, *args)
    assert isinstance(result, str) and not result.startswith(IDS_MARK), result
    assert message in result
    assert _state(face.engine) == before
    for arg, copy in zip(args, copies):
        if isinstance(arg, np.ndarray):
            np.testing.assert_array_equal(arg, copy)


def test_the_first_call_of_a_face_names_the_engine_dimension():
    assert NodeEngine.for_face(np.asarray, (0,)).dim.d == 2
    assert NodeEngine.for_face(np.asarray, (0, 3)).dim.d == 3
    for args in ((0, 2), (5, 3), (0, 3.0), (0, "3"), (0, 7), (), (None, None), (0, True)):
        assert NodeEngine.for_face(np.asarray, args).dim.d == 2
    engine = NodeEngine(dimension=3)
    numbers = engine.call(0, (3,))
    assert numbers == {name: k for k, name in enumerate(protocol_names(3))}
    assert numbers["insert_sphere"] == PROTOCOL.index("insert_circle") and "insert_circle" not in numbers
    assert engine.call(0, ()) == "this engine is 3D, not 2D"     # a 2D face on a 3D engine
    assert NodeEngine().call(0, (3,)) == "this engine is 2D, not 3D"


def test_3d_debug_geometry_draws_the_occupied_cells_near_the_view():
    face = _engine_with_objects_3d()
    grid = face.engine.grid
    shapes = face.call("debug_geometry", -100.0, -100.0, -100.0, 200.0, 200.0, 200.0, True)
    assert len(shapes["grid"]) == 6 * 12 * len(grid.cell_counts())
    assert len(shapes["candidates"]) == 6 * len(grid.candidate_ids())
    boxes = sorted(zip(*[iter(shapes["free"] + shapes["colliding"])] * 6))
    assert boxes == sorted(grid.bounds(i) for i in grid.ids())
    far = face.call("debug_geometry", 500.0, 500.0, 500.0, 10.0, 10.0, 10.0, False)
    assert far["grid"] == [] and far["candidates"] == []


def test_3d_held_spheres_keep_their_radius_and_the_last_move_wins():
    face = FaceModel(NodeEngine(dimension=3))
    face.insert_circle("c", 0.0, 0.0, 0.0, 0.7)
    assert face.query("query_radius", 0.0, 1.0, 0.0, 0.3, ALL_LAYERS) == ["c"]
    face.update("c", 100.0, 0.0, 0.0, 1.0, 1.0, 1.0)
    face.insert_circle("c", 0.0, 0.0, 300.0, 1.0)
    assert face.query("query_point", 0.0, 0.0, 300.5, ALL_LAYERS) == ["c"]
    assert face.engine.grid.sphere_of(0) == (0.0, 0.0, 300.0, 1.0)


def test_nothing_raises_out_of_the_engine():
    engine = NodeEngine()
    assert "no method" not in engine.call(len(PROTOCOL), ())     # an unknown number is refused
    for bad in (len(PROTOCOL), -len(PROTOCOL) - 1, "query_range", None):
        assert isinstance(engine.call(bad, ()), str)
    for number in range(len(PROTOCOL)):
        for args in ((), (None,) * 9, ("x",) * 3):
            engine.call(number, args)        # refused or done: never raises


def test_the_protocol_is_every_public_method_numbered_once():
    engine = NodeEngine()
    numbers = engine.call(0, ())
    assert numbers == {name: k for k, name in enumerate(PROTOCOL)} and len(set(PROTOCOL)) == len(PROTOCOL)
    public = {name for name in dir(NodeEngine) if not name.startswith("_")
              and name not in ("call", "for_face") and callable(getattr(NodeEngine, name))}
    assert public == set(PROTOCOL)


def test_query_results_travel_as_text_and_large_ids_as_an_array():
    assert ids_text([]) == IDS_MARK and ids_text([0, 1, 5]) == "\x01\x02\x03\x07"
    assert decode_ids(ids_text(list(range(0, 0xD7FE, 7)))) == list(range(0, 0xD7FE, 7))
    assert ids_text([0xD7FE]) is None and ids_text([-1]) is None
    assert query_result([3, 0xD7FE]).tolist() == [3, 0xD7FE]
    assert query_result([3, 0xD7FE]).dtype == np.int32
    long = list(range(200))             # past the stack buffer
    assert decode_ids(ids_text(long)) == long


def test_far_ids_come_back_as_an_array_through_a_face():
    face = FaceModel(NodeEngine())
    ids = face.insert_batch(np.zeros((0xD800, 2)), np.ones((0xD800, 2)))
    assert ids[-1] == 0xD7FF
    found = face.query("query_point", 0.5, 0.5, ALL_LAYERS)
    assert sorted(found) == ids.tolist()


@pytest.mark.parametrize("grid", [UniformGrid(0.001), UniformGrid(64.0, (1e6, -3e5)), UniformGrid(1e5, (0, 0), 1),
                                  HierarchicalGrid(), HierarchicalGrid(4.0)])
def test_rows_within_the_safe_bound_are_never_refused(grid):
    """The faces hold calls whose numbers are within safe_bound and apply them
    later in one batch, which must then be accepted whatever they are."""
    bound = grid.safe_magnitude
    rng = np.random.default_rng(5)
    edges = np.array([-bound, bound, 0.0, -0.0, bound * (1 - 1e-16)])
    rows = np.concatenate([rng.uniform(-bound, bound, (200, 4)), rng.choice(edges, (200, 4))])
    rows[:, 2:] = np.abs(rows[:, 2:])
    ids = grid.insert_rects(rows)
    grid.insert_circles(rows[:, :2], rows[:, 2])
    grid.update_rects(ids, rows[::-1].copy())
    grid.validate()


def test_held_ids_follow_the_index_rule_through_every_kind_of_call():
    """The faces hand out ids before the index does: the most recently freed
    first, then the next never used, batch rows in order, removals freed in
    the order given; apply refuses a mismatch instead of mislabelling objects."""
    face = FaceModel(NodeEngine())
    for k in range(6):
        face.insert(k, float(k), 0.0, 1.0, 1.0)
    for k in (4, 1, 3):
        face.remove(k)
    face.insert_batch([(9.0, 9.0)] * 2, [(1.0, 1.0)] * 2)      # takes 3, then 1
    face.insert("late", 0.0, 0.0, 1.0, 1.0)                      # takes 4
    face.insert_circle("round", 0.0, 0.0, 1.0)                   # takes 6, new
    face.flush()
    assert face.objects["late"] == 4 and face.objects["round"] == 6
    grid = face.engine.grid
    assert sorted(grid.ids()) == [0, 1, 2, 3, 4, 5, 6]
    wrong = face.call("apply", np.array([9], np.int32), np.zeros((2, 2), np.float32), np.zeros(0),
                      np.zeros(0, np.int32), np.zeros((0, 2), np.float32), np.zeros(0),
                      np.zeros(0, np.int32), np.zeros(0, np.int32))
    assert "the index gave the ids [7], the face expected [9]" in wrong


def test_a_held_circle_keeps_its_radius_in_doubles():
    face = FaceModel(NodeEngine())
    face.insert_circle("c", 0.0, 0.0, 0.7)
    assert face.query("query_radius", 1.0, 0.0, 0.3, ALL_LAYERS) == ["c"]    # 0.7 + 0.3 == 1.0
    face.insert_circle("c", 0.0, 0.0, 0.7)                                   # a held move too
    assert face.engine.grid.circle_of(0) is not None
    assert face.query("query_radius", 1.0, 0.0, 0.3, ALL_LAYERS) == ["c"]


def test_the_last_held_move_of_an_object_wins():
    face = FaceModel(NodeEngine())
    face.insert("a", 0.0, 0.0, 1.0, 1.0)
    face.flush()
    face.update("a", 100.0, 0.0, 1.0, 1.0)
    face.insert_circle("a", 200.0, 0.0, 1.0)
    face.update("a", 300.0, 0.0, 2.0, 2.0)
    assert face.query("query_point", 301.0, 1.0, ALL_LAYERS) == ["a"]
    assert face.query("query_range", 0.0, 0.0, 250.0, 10.0, True, ALL_LAYERS) == []


def test_stats_monitors_and_timings():
    face = _engine_with_objects()
    face.query("query_range", 0.0, 0.0, 5.0, 5.0, False, ALL_LAYERS)
    face.pairs()
    stats = face.call("stats")
    assert stats["objects"] == 4 and stats["index"] == "uniform"
    assert stats["levels"] == {"cell_size": [64.0], "grid": [16], "objects": [4], "occupied_cells": [1]}
    assert stats["last_query_ms"] > 0 and stats["last_pairs_ms"] > 0 and stats["last_update_ms"] > 0
    places = face.call("monitors")
    values = face.call("monitor_values")
    assert sorted(places.values()) == list(range(len(values))) == list(range(8))
    assert values[places["total_objects"]] == 4.0 and values[places["active_cells"]] == 1.0
    assert values[places["objects_per_100_cells"]] == 400.0           # 4 objects in 1 cell
    assert values[places["last_query_microseconds"]] == 1000 * stats["last_query_ms"]
    assert values[places["last_pairs_microseconds"]] == 1000 * stats["last_pairs_ms"]
    face.set_index(64.0, 4, True)
    assert face.call("stats")["index"] == "hierarchical"


def test_last_pairs_ms_is_the_last_pass_that_looked_for_pairs():
    """Seen in the Godot 4.6 editor: main.tscn asks for events, then pairs,
    each frame; the second call hands back the first one's pairs in about a
    microsecond, and the Last Pairs monitor showed that instead of the pass."""
    face = _engine_with_objects()
    face.pairs()
    face.engine.last_pairs_ms = 123.0          # what the pass took, as far as this test knows
    face.call("collision_events")
    face.pairs()
    assert face.call("stats")["last_pairs_ms"] == 123.0
    face.call("update", 1, 40.0, 40.0, 1.0, 1.0)
    face.pairs()
    assert face.call("stats")["last_pairs_ms"] < 123.0


def test_stats_of_an_empty_hierarchical_index_has_no_level():
    engine = NodeEngine()
    engine.set_index(64.0, 4, True)
    stats = engine.call(PROTOCOL.index("stats"), ())
    assert stats["index"] == "hierarchical" and stats["objects"] == 0
    assert stats["levels"] == {"cell_size": [], "grid": [], "objects": [], "occupied_cells": []}


def test_debug_geometry_is_the_index_own():
    face = _engine_with_objects()
    shapes = face.call("debug_geometry", 0.0, 0.0, 128.0, 64.0, True)
    grid = face.engine.grid
    assert len(shapes["grid"]) == 4 * (3 + 2)       # x = 0, 64, 128 and y = 0, 64
    assert len(shapes["candidates"]) == 4 * len(grid.candidate_ids())
    boxes = sorted(zip(*[iter(shapes["free"] + shapes["colliding"])] * 4))
    assert boxes == sorted(grid.bounds(i) for i in grid.ids())
    assert len(shapes["colliding"]) == 4 * len(set(grid.pair_ids().ravel().tolist()))
    face.set_index(64.0, 4, True)
    assert face.call("debug_geometry", 0.0, 0.0, 128.0, 64.0, False)["grid"] == []


def test_removals_while_signalling_end_their_pairs_at_once():
    face = FaceModel(NodeEngine())
    for obj in "abc":
        face.insert(obj, 0.0, 0.0, 2.0, 2.0)
    started, ended = face.events()
    assert {frozenset(p) for p in started} == {frozenset("ab"), frozenset("ac"), frozenset("bc")}
    face.remove("b")
    assert {frozenset(p) for p in face.ended_at_once} == {frozenset("ab"), frozenset("bc")}
    assert face.events() == ([], [])        # not reported again


def test_a_game_imports_nothing_of_the_benchmark():
    code = ("import sys, spatial_hash.node.engine; "
            "print(sorted(m for m in sys.modules if m.startswith(('spatial_hash.bench', 'scipy'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
    checkout = pathlib.Path(__file__).resolve().parents[1]
    for folder in ("bench", "tools"):       # a developer's, beside the addon, not in it
        assert (checkout / folder).is_dir()
        assert not (checkout / "addons" / "spatial_hash" / folder).exists()


def _pair_set(face):
    return {frozenset(pair) for pair in face.pairs()}


def test_two_static_objects_never_pair_and_set_static_brings_the_pair_back():
    """A level's tiles, inserted static in one batch, do not pair with each
    other; a mover pairs with them as before; clearing a flag brings the pair
    back; a move keeps the flag, an insert of an object already there sets it."""
    face = FaceModel(NodeEngine())
    t0, t1, t2 = face.insert_batch([(0.0, 0.0), (10.0, 0.0), (20.0, 0.0)], [(10.0, 10.0)] * 3,
                                   True).tolist()
    face.insert("mover", 5.0, 5.0, 1.0, 1.0)
    assert _pair_set(face) == {frozenset((t0, "mover"))}
    assert face.call("is_static", t1) is True and face.is_static("mover") is False
    assert face.set_static_batch([t0, t2], [False, True]) is True
    assert _pair_set(face) == {frozenset((t0, "mover")), frozenset((t0, t1))}
    face.insert("wall", 30.0, 0.0, 10.0, 10.0, as_static=True)
    face.set_static("mover", True)
    face.update("mover", 25.0, 5.0, 10.0, 1.0)      # touches tile 2 and the wall, both static
    assert _pair_set(face) == {frozenset((t0, t1))} and face.is_static("mover") is True
    face.insert("mover", 25.0, 5.0, 10.0, 1.0)      # as_static=False: an insert sets the flag
    assert _pair_set(face) == {frozenset((t0, t1)), frozenset((t2, "mover")),
                               frozenset(("mover", "wall"))}


def test_held_static_flags_apply_in_one_call_the_last_of_an_object_winning():
    face = FaceModel(NodeEngine())
    face.insert("a", 0.0, 0.0, 4.0, 4.0, as_static=True)
    face.insert_circle("b", 2.0, 2.0, 1.0, as_static=True)
    face.set_static("a", False)
    face.set_static("a", True)
    face.insert("c", 1.0, 1.0, 1.0, 1.0, as_static=True)
    face.set_static("c", False)
    assert len(face.held["statics"]) == 2 * 6
    assert _pair_set(face) == {frozenset("ac"), frozenset("bc")}
    assert [face.is_static(o) for o in "abc"] == [True, True, False]


def test_a_far_insert_goes_at_once_and_still_holds_its_flag():
    face = FaceModel(NodeEngine())
    face.set_index(0.5, 4, False)
    assert face.insert("far", 3e8, 0.0, 1.0, 1.0, as_static=True) is True
    assert face.insert("near", 3e8, 0.5, 1.0, 1.0, as_static=True) is True
    assert face.pairs() == [] and face.is_static("far") and face.is_static("near")
    assert face.insert_circle("near", 3e8, 0.5, 1.0) is True      # not static any more
    assert _pair_set(face) == {frozenset(("far", "near"))}


def test_static_spheres_in_3d():
    face = FaceModel(NodeEngine(dimension=3))
    face.insert_circle("rock", 0.0, 0.0, 0.0, 1.0, as_static=True)
    face.insert("floor", -5.0, -5.0, -2.0, 10.0, 10.0, 1.0, as_static=True)
    ids = face.insert_batch([(0.5, 0.5, 0.5)], [(1.0, 1.0, 1.0)], [False])
    assert _pair_set(face) == {frozenset((int(ids[0]), "rock"))}
    assert face.set_static_batch(ids, True) is True and face.pairs() == []
    assert face.call("is_static", int(ids[0])) is True
    face.set_static("floor", False)         # the rock rests on it: touching counts
    assert _pair_set(face) == {frozenset(("floor", "rock"))}
