"""Random operation sequences checked against the brute-force oracle in 3D, for
both the uniform grid and the hierarchical grid: the 2D machines' rules and
invariants, with boxes, spheres, points and rays of three coordinates."""
import math

from hypothesis import strategies as st
from hypothesis.stateful import initialize, rule

from oracle import Oracle3D
from spatial_hash import HierarchicalSpatialHash3D, OptimizedSpatialHash3D
from test_index_oracle import (BITS, CELL_COORD, CELL_LENGTH, CELL_SIZES, KEYS, MASKS, QUERY_LENGTH,
                               SETTINGS, HierarchicalGridMachine, IndexMachine, UniformGridMachine)

POINT = st.tuples(CELL_COORD, CELL_COORD, CELL_COORD)


class IndexMachine3D(IndexMachine):
    """IndexMachine's rules with a third coordinate; the rules and invariants
    that take no coordinates are IndexMachine's own."""

    @initialize(cell=CELL_SIZES, origin=POINT,
                threshold=st.integers(1, 5), factor=st.sampled_from([1.5, 2.0, 4.0]),
                threads=st.sampled_from([1, 2, 3]),
                density=st.sampled_from([0.125, 1.0, 4.0]),
                crowd=st.lists(st.tuples(POINT, st.tuples(*[st.floats(0.0, 2.0)] * 3),
                                         st.one_of(st.none(), st.tuples(BITS, BITS)), st.booleans()),
                               max_size=40))
    def setup(self, cell, origin, threshold, factor, density, threads, crowd):
        self.cell = cell
        origin = self._scale(*origin)
        self.index = self.make_index(cell, origin, threshold, factor, density, threads)
        self.oracle = Oracle3D(cell, origin, threshold)
        self.generation, self.reported = {}, set()
        for n, (corner, size, layers, static) in enumerate(crowd):
            self._both("insert", ("crowd", n), self._scale(*corner, *size), static)
            if layers:
                self._both("set_filter", ("crowd", n), *layers)

    def _scale(self, *values):
        return tuple(v * self.cell for v in values)

    @rule(obj=KEYS, corner=POINT, size=st.tuples(CELL_LENGTH, CELL_LENGTH, CELL_LENGTH),
          static=st.booleans())
    def insert_rect(self, obj, corner, size, static):
        self._both("insert", obj, self._scale(*corner, *size), static)

    @rule(obj=KEYS, center=POINT, r=CELL_LENGTH, static=st.booleans())
    def insert_circle(self, obj, center, r, static):
        self.index.insert_sphere(obj, self._scale(*center), r * self.cell, static)
        self.oracle.insert_sphere(obj, self._scale(*center), r * self.cell, static)

    @rule(obj=KEYS, corner=POINT, size=st.tuples(CELL_LENGTH, CELL_LENGTH, CELL_LENGTH))
    def update(self, obj, corner, size):
        if obj in self.oracle:
            self._both("update", obj, self._scale(*corner, *size))

    @rule(obj=KEYS, dx=st.floats(-0.2, 0.2))
    def nudge(self, obj, dx):
        if obj in self.oracle and self.oracle.shape(obj)[1] is None:
            box = self.oracle.shape(obj)[0]
            self._both("update", obj, (box[0] + dx * self.cell,) + box[1:3]
                       + tuple(box[3 + i] - box[i] for i in range(3)))

    @rule(corner=POINT, size=st.tuples(QUERY_LENGTH, QUERY_LENGTH, QUERY_LENGTH), mask=MASKS)
    def query_nearby_and_range(self, corner, size, mask):
        box = self._scale(*corner, *size)
        nearby = self.index.query_nearby(box[:3], box[3:], mask)
        assert len(nearby) == len(set(nearby))
        assert set(self.index.query_range(box, mask=mask)) == set(nearby)
        exact = self.index.query_range(box, exact=True, mask=mask)
        assert len(exact) == len(set(exact))
        assert set(exact) == set(self.oracle.query_range(box, mask))
        self.check_nearby(box, set(nearby), set(exact), mask)

    @rule(point=POINT, k=st.integers(0, 6),
          limit=st.one_of(st.just(math.inf), st.just(0.0), st.floats(0.0, 20.0)), mask=MASKS)
    def query_nearest(self, point, k, limit, mask):
        p, limit = self._scale(*point), limit * self.cell
        assert self.index.query_nearest(p, k, limit, mask) == \
            self.oracle.query_nearest(p, k, limit, tie_order=self.index.id_of, mask=mask)

    @rule(start=POINT, end=st.one_of(POINT, st.just(None)), mask=MASKS)
    def raycast(self, start, end, mask):
        start = self._scale(*start)
        end = start if end is None else self._scale(*end)
        hits = self.index.raycast_all(start, end, mask)
        assert hits == self.oracle.raycast_all(start, end, tie_order=self.index.id_of, mask=mask)
        assert self.index.raycast(start, end, mask) == (hits[0] if hits else None)

    @rule(point=POINT, mask=MASKS)
    def query_point(self, point, mask):
        p = self._scale(*point)
        assert set(self.index.query_point(p, mask)) == set(self.oracle.query_point(p, mask))

    @rule(center=POINT, r=QUERY_LENGTH, mask=MASKS)
    def query_radius(self, center, r, mask):
        c = self._scale(*center)
        got = self.index.query_radius(c, r * self.cell, mask)
        assert len(got) == len(set(got))
        assert set(got) == set(self.oracle.query_radius(c, r * self.cell, mask))

    @rule(start=POINT, end=POINT, size=st.tuples(*[st.floats(0.0, 2.0)] * 3), mask=MASKS)
    def query_along_path(self, start, end, size, mask):
        start, end, size = self._scale(*start), self._scale(*end), self._scale(*size)
        got = self.index.query_along_path(start, end, size, mask)
        assert len(got) == len(set(got))
        assert set(got) == set(self.oracle.query_along_path(start, end, size, mask))


class UniformGrid3DMachine(IndexMachine3D, UniformGridMachine):
    def make_index(self, cell, origin, threshold, factor, density, threads):
        return OptimizedSpatialHash3D(cell, origin, threshold)


class HierarchicalGrid3DMachine(IndexMachine3D, HierarchicalGridMachine):
    def make_index(self, cell, origin, threshold, factor, density, threads):
        self.factor, self.density = factor, density
        return HierarchicalSpatialHash3D(factor, density, threads)


UniformGrid3DMachine.TestCase.settings = SETTINGS
HierarchicalGrid3DMachine.TestCase.settings = SETTINGS
TestUniformGrid3D = UniformGrid3DMachine.TestCase
TestHierarchicalGrid3D = HierarchicalGrid3DMachine.TestCase
