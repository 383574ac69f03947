"""Random operation sequences checked against the brute-force oracle, for both
the uniform grid and the hierarchical grid."""
import math
from collections import Counter

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from oracle import Oracle, ranges_meet, same_pairs
from spatial_hash import HierarchicalSpatialHash, OptimizedSpatialHash
from spatial_hash._core import ALL_LAYERS
from spatial_hash.brute_force import pair_allowed

KEYS = st.integers(0, 11)
# Coordinates and lengths are drawn in cells and scaled by the cell size, mixing
# exact cell boundaries with arbitrary positions on both sides of the origin.
CELL_COORD = st.one_of(st.integers(-12, 12).map(float),
                       st.floats(-12.0, 12.0, allow_nan=False))
CELL_LENGTH = st.one_of(st.just(0.0), st.integers(1, 3).map(float),
                        st.floats(0.0, 3.0), st.floats(3.0, 9.0),
                        st.floats(1e3, 3e6))       # covers millions of cells
QUERY_LENGTH = st.one_of(st.just(0.0), st.floats(0.0, 5.0), st.floats(50.0, 2e3))
CELL_SIZES = st.sampled_from([1e-3, 0.5, 1.0, 7.3, 64.0, 1e5])
# Layers and masks: none, single bits, overlapping sets, the top bit and all.
BITS = st.sampled_from([0, 1, 2, 3, 6, 0x80000000, ALL_LAYERS])
MASKS = st.one_of(st.just(ALL_LAYERS), BITS)


class IndexMachine(RuleBasedStateMachine):
    """Rules shared by every index; subclasses build the index and say what
    query_nearby (cell candidates) must return."""

    @initialize(cell=CELL_SIZES, origin=st.tuples(CELL_COORD, CELL_COORD),
                threshold=st.integers(1, 5), factor=st.sampled_from([1.5, 2.0, 4.0]),
                threads=st.sampled_from([1, 2, 3]),
                density=st.sampled_from([0.125, 1.0, 4.0]),
                crowd=st.lists(st.tuples(CELL_COORD, CELL_COORD, st.floats(0.0, 2.0),
                                         st.floats(0.0, 2.0), st.one_of(st.none(), st.tuples(BITS, BITS)),
                                         st.booleans()),
                               max_size=40))
    def setup(self, cell, origin, threshold, factor, density, threads, crowd):
        self.cell = cell
        origin = (origin[0] * cell, origin[1] * cell)
        self.index = self.make_index(cell, origin, threshold, factor, density, threads)
        self.oracle = Oracle(cell, origin, threshold)
        self.generation, self.reported = {}, set()
        # A crowd of fixed objects makes most queries walk cells instead of
        # scanning; some of them on layers of their own, some static (a level).
        for n, (x, y, w, h, layers, static) in enumerate(crowd):
            self._both("insert", ("crowd", n), (x * cell, y * cell, w * cell, h * cell), static)
            if layers:
                self._both("set_filter", ("crowd", n), *layers)

    def _track(self, obj):
        """Removing an object makes it another one for pair events."""
        if obj in self.oracle:
            self.generation[obj] = self.generation.get(obj, 0) + 1

    def _both(self, method, obj, *args):
        getattr(self.index, method)(obj, *args)
        getattr(self.oracle, method)(obj, *args)

    def _scale(self, *values):
        return tuple(v * self.cell for v in values)

    @rule(obj=KEYS, x=CELL_COORD, y=CELL_COORD, w=CELL_LENGTH, h=CELL_LENGTH, static=st.booleans())
    def insert_rect(self, obj, x, y, w, h, static):
        self._both("insert", obj, self._scale(x, y, w, h), static)

    @rule(obj=KEYS, x=CELL_COORD, y=CELL_COORD, r=CELL_LENGTH, static=st.booleans())
    def insert_circle(self, obj, x, y, r, static):
        self._both("insert_circle", obj, self._scale(x, y), r * self.cell, static)

    @rule(obj=KEYS, x=CELL_COORD, y=CELL_COORD, w=CELL_LENGTH, h=CELL_LENGTH)
    def update(self, obj, x, y, w, h):
        if obj in self.oracle:
            self._both("update", obj, self._scale(x, y, w, h))

    @rule(obj=KEYS, dx=st.floats(-0.2, 0.2))
    def nudge(self, obj, dx):
        """Small moves mostly keep their home cell: the no-relink path."""
        if obj in self.oracle:
            x0, y0, x1, y1 = self.oracle.shape(obj)[0]
            bounds = (x0 + dx * self.cell, y0, x1 - x0, y1 - y0)
            if self.oracle.shape(obj)[1] is None:
                self._both("update", obj, bounds)

    @rule(obj=KEYS, layer=BITS, mask=BITS)
    def set_filter(self, obj, layer, mask):
        """Changing layers ends and begins pairs as moving does."""
        if obj in self.oracle:
            self._both("set_filter", obj, layer, mask)
            assert self.index.filter_of(obj) == (layer, mask)

    @rule(obj=KEYS, static=st.booleans())
    def set_static(self, obj, static):
        """Two static objects never pair; marking or clearing begins and ends
        pairs as moving does."""
        if obj in self.oracle:
            self._both("set_static", obj, static)
            assert self.index.is_static(obj) == static

    @rule()
    def rest(self):
        """A pass with nothing changed since the last keeps its pairs as they were."""
        grid = self.index.grid
        first = grid.pair_ids().copy()
        again = grid.pair_ids()
        assert grid.last_pair_pass() == "unchanged"
        assert (again == first).all()

    @rule(obj=KEYS)
    def remove(self, obj):
        self._track(obj)
        assert self.index.remove(obj) == self.oracle.remove(obj)

    @precondition(lambda self: len(self.oracle) > 30)
    @rule()
    def clear(self):
        for obj in list(self.oracle._shapes):
            self._track(obj)
        self.index.clear()
        self.oracle.clear()

    @rule()
    def pair_events(self):
        """Each pair that began or ended since the last call, once; a removed
        object's pairs end, and the same object put back is a new one."""
        current = {frozenset((o, self.generation.get(o, 0)) for o in pair) for pair in self.oracle.pairs()}
        began, ended = self.index.pair_events()
        objects = lambda pairs: Counter(frozenset(o for o, _ in pair) for pair in pairs)
        assert Counter(frozenset(p) for p in began) == objects(current - self.reported)
        assert Counter(frozenset(p) for p in ended) == objects(self.reported - current)
        self.reported = current

    @rule(x=CELL_COORD, y=CELL_COORD, w=QUERY_LENGTH, h=QUERY_LENGTH, mask=MASKS)
    def query_nearby_and_range(self, x, y, w, h, mask):
        box = self._scale(x, y, w, h)
        nearby = self.index.query_nearby(box[:2], box[2:], mask)
        assert len(nearby) == len(set(nearby))
        assert set(self.index.query_range(box, mask=mask)) == set(nearby)
        exact = self.index.query_range(box, exact=True, mask=mask)
        assert len(exact) == len(set(exact))
        assert set(exact) == set(self.oracle.query_range(box, mask))
        self.check_nearby(box, set(nearby), set(exact), mask)

    @rule(x=CELL_COORD, y=CELL_COORD, k=st.integers(0, 6),
          limit=st.one_of(st.just(math.inf), st.just(0.0), st.floats(0.0, 20.0)), mask=MASKS)
    def query_nearest(self, x, y, k, limit, mask):
        """Nearest first, by exact distance; ties (objects containing the point,
        equal boxes) in id order."""
        p, limit = self._scale(x, y), limit * self.cell
        assert self.index.query_nearest(p, k, limit, mask) == \
            self.oracle.query_nearest(p, k, limit, tie_order=self.index.id_of, mask=mask)

    @rule(start=st.tuples(CELL_COORD, CELL_COORD),
          end=st.one_of(st.tuples(CELL_COORD, CELL_COORD), st.just(None)), mask=MASKS)
    def raycast(self, start, end, mask):
        """Every hit, earliest first (ties in id order), its point and normal as
        the brute force computes them; rays along cell edges and through corners
        come from the integer coordinates, zero-length rays from end=None."""
        start = self._scale(*start)
        end = start if end is None else self._scale(*end)
        hits = self.index.raycast_all(start, end, mask)
        assert hits == self.oracle.raycast_all(start, end, tie_order=self.index.id_of, mask=mask)
        assert self.index.raycast(start, end, mask) == (hits[0] if hits else None)

    @rule(x=CELL_COORD, y=CELL_COORD, mask=MASKS)
    def query_point(self, x, y, mask):
        p = self._scale(x, y)
        assert set(self.index.query_point(p, mask)) == set(self.oracle.query_point(p, mask))

    @rule(x=CELL_COORD, y=CELL_COORD, r=QUERY_LENGTH, mask=MASKS)
    def query_radius(self, x, y, r, mask):
        c = self._scale(x, y)
        got = self.index.query_radius(c, r * self.cell, mask)
        assert len(got) == len(set(got))
        assert set(got) == set(self.oracle.query_radius(c, r * self.cell, mask))

    @rule(start=st.tuples(CELL_COORD, CELL_COORD), end=st.tuples(CELL_COORD, CELL_COORD),
          size=st.tuples(st.floats(0.0, 2.0), st.floats(0.0, 2.0)), mask=MASKS)
    def query_along_path(self, start, end, size, mask):
        start, end, size = self._scale(*start), self._scale(*end), self._scale(*size)
        got = self.index.query_along_path(start, end, size, mask)
        assert len(got) == len(set(got))
        assert set(got) == set(self.oracle.query_along_path(start, end, size, mask))

    @rule(a=KEYS, b=KEYS)
    def is_colliding(self, a, b):
        if a in self.oracle and b in self.oracle:
            assert self.index.is_colliding(a, b) == self.oracle.is_colliding(a, b)

    @invariant()
    def pairs_equal_brute_force(self):
        if hasattr(self, "index"):
            assert same_pairs(self.index.pairs(), self.oracle.pairs())

    @invariant()
    def structure_matches(self):
        if hasattr(self, "index"):
            self.index.grid.validate()
            assert self.index.stats()["objects"] == len(self.oracle) == len(self.index)
            self.check_structure()

    @invariant()
    def candidates_hold_the_pairs(self):
        if hasattr(self, "index"):
            grid = self.index.grid
            pairs = {tuple(p) for p in grid.pair_ids().tolist()}
            candidates = [tuple(p) for p in grid.candidate_ids().tolist()]
            assert all(a < b for a, b in candidates) and len(set(candidates)) == len(candidates)
            assert pairs <= set(candidates) and len(candidates) == grid.narrow_phase_checks
            self.check_candidates(set(candidates))


class UniformGridMachine(IndexMachine):
    def make_index(self, cell, origin, threshold, factor, density, threads):
        return OptimizedSpatialHash(cell, origin, threshold)

    def check_nearby(self, box, nearby, exact, mask):
        assert nearby == set(self.oracle.query_nearby(*box, mask))

    def check_candidates(self, candidates):
        """Exactly the pairs whose cell ranges meet (a common cell, or a large
        object's range) and whose filters pass."""
        ids = {self.index.id_of(obj): obj for obj in self.oracle._shapes}
        expected = {(a, b) for a in ids for b in ids
                    if a < b and ranges_meet(self.oracle.cells(ids[a]), self.oracle.cells(ids[b]))
                    and pair_allowed(self.oracle.filter_of(ids[a]), self.oracle.filter_of(ids[b]),
                                     self.oracle.is_static(ids[a]), self.oracle.is_static(ids[b]))}
        assert candidates == expected

    def check_structure(self):
        stats = self.index.stats()
        cells, members, most, large = self.oracle.occupancy()
        assert (stats["active_cells"], stats["memberships"], stats["max_objects_per_cell"],
                stats["large_objects"]) == (cells, members, most, large)
        # A true ratio (it was once an integer division).
        assert stats["avg_objects_per_cell"] == (members / cells if cells else 0.0)


class HierarchicalGridMachine(IndexMachine):
    def make_index(self, cell, origin, threshold, factor, density, threads):
        self.factor, self.density = factor, density
        return HierarchicalSpatialHash(factor, density, threads)

    def check_nearby(self, box, nearby, exact, mask):
        assert exact <= nearby <= {o for o, _ in self.oracle._on(mask)}

    def check_candidates(self, candidates):
        pass

    def check_structure(self):
        d = self.oracle.dimension
        levels = self.index.stats()["levels"]
        assert sum(level["objects"] for level in levels) == len(self.oracle)
        sizes = [level["cell_size"] for level in levels]
        assert sizes == sorted(sizes)
        for level in levels:
            # One cell per object, and the table grew to keep the density bound.
            assert level["occupied_cells"] <= level["objects"]
            assert level["objects"] <= max(self.density * level["grid"] ** d, 1)
        for obj in self.oracle._shapes:
            box = self.oracle.shape(obj)[0]
            longest = max(box[d + i] - box[i] for i in range(d))
            cell, _ = self.index.grid.level_of_id(self.index.id_of(obj))
            assert cell >= longest * self.factor ** 0.5 * (1 - 1e-9)


SETTINGS = settings(max_examples=150, stateful_step_count=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
UniformGridMachine.TestCase.settings = SETTINGS
HierarchicalGridMachine.TestCase.settings = SETTINGS
TestUniformGrid = UniformGridMachine.TestCase
TestHierarchicalGrid = HierarchicalGridMachine.TestCase
