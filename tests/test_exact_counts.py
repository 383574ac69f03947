"""Exact expected values: the hierarchical grid's worst-case table, boundaries, large objects."""
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import Oracle, same_pairs
from spatial_hash import (BruteForce, BruteForce3D, HierarchicalGrid, HierarchicalGrid3D,
                          OptimizedSpatialHash, SpatialHash, UniformGrid, UniformGrid3D)


def test_one_entity_per_cell_needs_no_checks():
    grid = UniformGrid(64.0)
    for cx in range(10):
        for cy in range(10):
            grid.insert_rect(cx * 64 + 8, cy * 64 + 8, 48, 48)
    assert grid.pairs() == []
    assert (grid.broad_phase_pairs, grid.narrow_phase_checks, grid.hits) == (0, 0, 0)


@pytest.mark.parametrize("n", [2, 10, 57])
def test_everyone_in_one_cell_checks_every_pair(n):
    rng = random.Random(n)
    grid = UniformGrid(1000.0)
    brute = BruteForce()
    for i in range(n):
        x, y = rng.uniform(1, 900), rng.uniform(1, 900)
        grid.insert_rect(x, y, 50, 50, i)
        brute.insert(i, (x, y, 50, 50))
    assert same_pairs(grid.pairs(), brute.pairs())
    assert grid.broad_phase_pairs == grid.narrow_phase_checks == n * (n - 1) // 2
    assert brute.collision_tests == n * (n - 1) // 2
    assert grid.hits == len(brute.pairs())


def test_brute_force_always_tests_every_pair():
    brute = BruteForce()
    for i in range(30):
        brute.insert(i, (i * 100, 0, 1, 1))
    assert brute.pairs() == []
    assert brute.collision_tests == 30 * 29 // 2


def test_pair_sharing_four_cells_is_reported_once():
    grid = UniformGrid(10.0)
    a = grid.insert_rect(5, 5, 10, 10)
    b = grid.insert_rect(6, 6, 10, 10)
    assert grid.pairs() == [(a, b)]
    # They meet in all four cells but are tested only in the first they share.
    assert grid.cells_of(a) == grid.cells_of(b) == (0, 0, 1, 1)
    assert (grid.broad_phase_pairs, grid.narrow_phase_checks, grid.hits) == (4, 1, 1)


def test_floor_never_round_at_cell_boundaries():
    grid = UniformGrid(64.0)
    assert grid.cell_of(64.0, 64.0) == (1, 1)
    assert grid.cell_of(63.999, -0.001) == (0, -1)
    assert grid.cell_of(-64.0, -64.0001) == (-1, -2)
    i = grid.insert_rect(0, 0, 64, 64)          # right/bottom edges sit on the boundary
    assert grid.cells_of(i) == (0, 0, 1, 1)


def floor_cell(v, origin, cell):
    """The documented rule, in plain Python floats: floor((v - origin) / cell)."""
    return math.floor((v - origin) / cell)


@settings(max_examples=400, deadline=None)
@given(cell=st.sampled_from([0.1, 0.3, 1.0 / 3.0, 3.0, 7.3, 64.0, 1e-3, 12345.678, 2.0 ** -20]),
       origin=st.sampled_from([0.0, -5.0, 0.1, 1e6 / 7.0]),
       k=st.one_of(st.integers(-2 ** 30, 2 ** 30), st.integers(-1000, 1000)),
       ulps=st.integers(-6, 6), fraction=st.sampled_from([0.0, 0.0, 0.5, 1e-7, 1.0 - 1e-7]))
def test_cells_follow_the_division_rule_at_and_near_every_boundary(cell, origin, k, ulps, fraction):
    """Values a few ulps either side of a cell boundary (and inside cells), at
    every distance up to the cell limit: the cell is floor((v - origin) / cell),
    and a value past the limit is refused, as the division says."""
    grid = UniformGrid(cell, origin=(origin, origin))
    v = origin + (k + fraction) * cell
    for _ in range(abs(ulps)):
        v = float(np.nextafter(v, math.copysign(math.inf, ulps)))   # math.nextafter: 3.9+
    want = floor_cell(v, origin, cell)
    if -2 ** 30 <= (v - origin) / cell < 2 ** 30 + 1:
        assert grid.cell_of(v, v) == (want, want)
        i = grid.insert_rect(v, v, 0.0, 0.0)
        assert grid.cells_of(i) == (want, want, want, want)
    else:
        with pytest.raises(ValueError, match="too far from the origin"):
            grid.cell_of(v, origin)


def test_origin_offsets_cells():
    grid = UniformGrid(10.0, origin=(-5.0, 3.0))
    assert grid.cell_of(-5.0, 3.0) == (0, 0)
    assert grid.cell_of(-5.1, 2.9) == (-1, -1)
    assert grid.cell_of(4.99, 12.99) == (0, 0)


def test_touching_boxes_collide_and_zero_size_objects_count():
    h = OptimizedSpatialHash(64.0)
    h.insert("left", (0, 0, 64, 64))
    h.insert("right", (64, 0, 10, 10))          # shares the edge x = 64
    h.insert("dot", (64, 64, 0, 0))             # a point on the corner of "left"
    assert same_pairs(h.pairs(), [("left", "right"), ("left", "dot")])
    assert set(h.query_point((64, 64))) == {"left", "dot"}


def test_circle_narrow_phase():
    h = OptimizedSpatialHash(10.0)
    h.insert_circle("a", (0, 0), 5)
    h.insert_circle("b", (8, 0), 3)             # touching: 5 + 3 = 8
    h.insert_circle("c", (7.5, 7.5), 3)         # boxes overlap, circles do not
    h.insert("box", (3.6, 3.6, 10, 10))         # box corner inside a's bounds, outside a
    assert same_pairs(h.pairs(), [("a", "b"), ("c", "box")])
    assert not h.is_colliding("a", "c")
    assert not h.is_colliding("a", "box")
    assert set(h.query_radius((0, 0), 1)) == {"a"}


def test_object_covering_millions_of_cells_uses_the_large_list():
    grid = UniformGrid(1.0)
    small = grid.insert_rect(10.5, 10.5, 0.2, 0.2)
    before = grid.stats()
    huge = grid.insert_rect(-2e6, -2e6, 4e6, 4e6)
    after = grid.stats()
    assert grid.is_large(huge) and not grid.is_large(small)
    assert after["active_cells"] == before["active_cells"] == 1
    assert after["memberships"] == 1 and after["large_objects"] == 1
    assert set(grid.query_point(10.6, 10.6)) == {small, huge}
    assert grid.pairs() == [(small, huge)]
    # A query covering millions of cells scans objects instead of walking cells.
    assert set(grid.query_rect(-1e6, -1e6, 2e6, 2e6, exact=True)) == {small, huge}


def test_large_threshold_is_cells_per_side():
    grid = UniformGrid(10.0, large_threshold=4)
    assert not grid.is_large(grid.insert_rect(0, 0, 39.9, 39.9))    # 4 x 4 cells
    assert grid.is_large(grid.insert_rect(0, 0, 40.0, 1.0))         # 5 cells wide


def test_fast_mover_finds_what_it_passes_between_endpoints():
    h = SpatialHash(10.0)
    h.insert("wall", (500, -50), (4, 100))
    h.insert("beside", (500, 60), (4, 4))
    assert h.query_nearby((0, 0), (4, 4)) == []
    assert h.query_nearby((1000, 0), (4, 4)) == []
    assert h.query_along_path((0, 0), (1000, 0), (4, 4)) == ["wall"]
    # Diagonal path: every crossed cell is visited, endpoints alone would miss it.
    h.insert("diag", (497, 497), (6, 6))
    assert "diag" in h.query_along_path((0, 0), (1000, 1000), (1, 1))


@pytest.mark.parametrize("index", [lambda: UniformGrid(0.001), lambda: HierarchicalGrid()])
def test_swept_query_stops_at_the_box_it_sweeps(index):
    # Rounding put a box 6e-171 beyond the path's end inside its time window,
    # though in a cell the walk never visits: a hit only within the swept box.
    grid, oracle = index(), BruteForce()
    grid.insert_rect(0.0, -5.742297623313507e-171, 0.0, 0.0, "below")
    oracle.insert("below", (0.0, -5.742297623313507e-171, 0.0, 0.0))
    assert grid.query_swept(0.0, 1.0, 0.0, 0.0, 0.0, 0.0) == []
    assert oracle.query_along_path((0.0, 1.0), (0.0, 0.0)) == []
    assert grid.query_swept(0.0, 1.0, 0.0, -1e-9, 0.0, 0.0) == ["below"]


def test_update_inside_same_cells_keeps_memberships():
    grid = UniformGrid(64.0)
    i = grid.insert_rect(10, 10, 5, 5)
    grid.update_rect(i, 20, 30, 5, 5)
    assert grid.cells_of(i) == (0, 0, 0, 0) and grid.bounds(i) == (20, 30, 5, 5)
    grid.update_rect(i, 70, 30, 5, 5)
    assert grid.cells_of(i) == (1, 0, 1, 0)
    assert grid.stats()["active_cells"] == 1


def test_ids_are_recycled_and_handles_released():
    grid = UniformGrid(8.0)
    a = grid.insert_rect(0, 0, 1, 1, "a")
    b = grid.insert_rect(0, 0, 1, 1, "b")
    assert grid.remove(a) and not grid.remove(a)
    c = grid.insert_rect(0, 0, 1, 1, "c")
    assert c == a and grid.handle(c) == "c"
    assert grid.pairs() == [("c", "b")] or grid.pairs() == [("b", "c")]
    assert grid.ids() == [a, b]


@pytest.mark.parametrize("grid_class", [UniformGrid, HierarchicalGrid])
def test_ids_past_the_last_one_given_a_handle_are_their_own_handles(grid_class):
    """The handles are kept up to the last id given one of its own: ids after it,
    and a named id once removed and given again without one, are the ids."""
    grid = grid_class(8.0) if grid_class is UniformGrid else grid_class()
    plain = grid.insert_rects(np.array([[20.0 * i, 0, 1, 1] for i in range(5)])).tolist()
    named = grid.insert_rect(100, 0, 1, 1, handle="far")
    after = grid.insert_circle(100.5, 0.5, 1)
    assert [grid.handle(i) for i in plain + [named, after]] == [0, 1, 2, 3, 4, "far", 6]
    assert sorted(grid.query_rect(99, -1, 3, 3, exact=True), key=str) == [6, "far"]
    grid.validate()
    assert grid.remove(named) and grid.remove(after)
    again = grid.insert_rects(np.array([[100.0, 0, 1, 1], [100.5, 0.5, 1, 1]])).tolist()
    assert sorted(again) == [5, 6] and [grid.handle(i) for i in again] == again
    assert grid.pairs() == [(5, 6)]
    named = grid.insert_rect(200, 0, 1, 1, handle="last")
    assert named == 7 and grid.handle(7) == "last" and grid.handle(6) == 6
    grid.validate()


@pytest.mark.parametrize("grid_class", [UniformGrid, HierarchicalGrid])
def test_default_handle_is_the_id_everywhere_a_handle_comes_back(grid_class):
    """No handle, or a None one, singly or in a batch, is the id: in queries,
    rays, pairs, pair events (a removed object's too) and handle()."""
    grid = grid_class(8.0) if grid_class is UniformGrid else grid_class()
    singles = [grid.insert_rect(300 * i, 0, 1, 1, handle=h) for i, h in enumerate((None, "named"))]
    batch = grid.insert_rects(np.array([[300.0 * i + 0.5, 0.5, 1, 1] for i in range(2)]),
                              handles=[None, "other"]).tolist()
    assert [grid.handle(i) for i in singles + batch] == [singles[0], "named", batch[0], "other"]
    assert grid.query_rect(0, 0, 2, 2, exact=True) in ([singles[0], batch[0]], [batch[0], singles[0]])
    assert [hit[0] for hit in grid.raycast_all(-1, 0.75, 2, 0.75)] == sorted([singles[0], batch[0]])
    pair = tuple(sorted((singles[0], batch[0])))
    assert set(grid.pairs()) == {pair, ("named", "other")}
    began, ended = grid.pair_events()
    assert pair in began and ended == []
    grid.remove(batch[0])
    assert grid.insert_rect(1000, 1000, 1, 1, handle="new") == batch[0]     # the id comes back
    began, ended = grid.pair_events()
    assert began == [] and ended == [pair]


def test_clear_then_reuse():
    h = OptimizedSpatialHash(16.0)
    for i in range(100):
        h.insert(i, (i, i, 20, 20))
    h.clear()
    assert len(h) == 0 and h.stats()["active_cells"] == 0 and h.pairs() == []
    h.insert("x", (0, 0, 1, 1))
    h.insert("y", (1, 1, 1, 1))
    assert h.pairs() == [("x", "y")]


def test_stats_figures():
    grid = UniformGrid(10.0, large_threshold=2)
    grid.insert_rect(1, 1, 1, 1)
    grid.insert_rect(2, 2, 1, 1)
    grid.insert_rect(5, 5, 10, 1)                # cells (0,0) and (1,0)
    grid.insert_rect(0, 0, 100, 100)             # large
    s = grid.stats()
    assert s["objects"] == 4 and s["large_objects"] == 1
    assert s["active_cells"] == 2 and s["memberships"] == 4
    assert s["avg_objects_per_cell"] == 2.0 and s["max_objects_per_cell"] == 3
    assert grid.cell_counts() == {(0, 0): 3, (1, 0): 1}


def test_hash_distribution_check_warns_on_crowded_cells():
    h = OptimizedSpatialHash(1000.0)
    for i in range(25):
        h.insert(i, (i, i, 1, 1))
    with pytest.warns(RuntimeWarning, match="max chain: 25"):
        assert h.check_hash_distribution(max_chain=20) == 25
    sparse = OptimizedSpatialHash(1.0)
    for i in range(25):
        sparse.insert(i, (i * 3, 0, 1, 1))
    assert sparse.check_hash_distribution() == 1


def test_many_cells_stress_against_oracle():
    """Thousands of objects force table growth, long cell lists and many relinks;
    the pair list must still equal brute force."""
    rng = random.Random(7)
    h = OptimizedSpatialHash(4.0, origin=(-3.0, 2.0))
    oracle = Oracle(4.0, (-3.0, 2.0))
    for step in range(3):
        for i in range(700):
            b = (rng.uniform(-150, 150), rng.uniform(-150, 150), rng.uniform(0, 9), rng.uniform(0, 9))
            h.insert(i, b)
            oracle.insert(i, b)
        for i in rng.sample(range(700), 300):
            assert h.remove(i) == oracle.remove(i)
        assert same_pairs(h.pairs(), oracle.pairs())
        cells, members, most, large = oracle.occupancy()
        s = h.stats()
        assert (s["active_cells"], s["memberships"], s["large_objects"]) == (cells, members, large)


@pytest.mark.parametrize("dim,axis", [(2, 0), (2, 1), (3, 0), (3, 1), (3, 2)])
@pytest.mark.parametrize("a,b", [((1.7, 0.94), (2.94, 0.3)), ((2.4, 0.433), (3.363, 0.53))])
def test_balls_whose_boxes_miss_by_rounding_do_not_touch(dim, axis, a, b):
    """The box test comes first: two discs (spheres) whose boxes miss only by
    rounding (b's side, centre minus radius, rounds past a's centre plus
    radius) do not touch, though their centres' squared distance does not
    exceed the squared sum of radii. Every index and the batch pair pass agree
    with brute force."""
    (ca, ra), (cb, rb) = a, b
    assert cb - rb > ca + ra and (cb - ca) ** 2 <= (ra + rb) ** 2
    centers = np.full((2, dim), 5.0)
    centers[:, axis] = (ca, cb)
    radii = np.array([ra, rb])
    brute, ball = (BruteForce(), "circle") if dim == 2 else (BruteForce3D(), "sphere")
    for k in range(2):
        getattr(brute, "insert_" + ball)(k, tuple(centers[k]), radii[k])
    assert brute.pairs() == []
    grids = ((UniformGrid(1.0), UniformGrid(4.0), HierarchicalGrid()) if dim == 2
             else (UniformGrid3D(1.0), UniformGrid3D(4.0), HierarchicalGrid3D()))
    for grid in grids:
        getattr(grid, "insert_%ss" % ball)(centers, radii)
        assert grid.pair_ids().tolist() == [] and grid.candidate_ids().shape == (1, 2)
        assert not grid.is_colliding(0, 1)


@pytest.mark.parametrize("dim", [2, 3])
def test_pairs_at_the_edge_of_touching_follow_the_rule_on_any_thread_count(dim):
    """10,000 pairs of balls, each pair far from the others, its second ball
    at the sum of the radii from the first along x, give or take a few units
    in the last place: many pairs touch by the distance test alone while
    their boxes miss by rounding, or the reverse. Enough objects for the
    pair pass to take its threads. A pair is found, on one thread or two,
    exactly when its boxes meet (closed) and the squared distance between
    the centres is at most the squared sum of the radii, summed axis by
    axis as the rule says."""
    rng = np.random.default_rng(5)
    n = 10_000
    first = np.zeros((n, dim))
    first[:, 0] = rng.uniform(-1.0, 1.0, n)
    first[:, 1] = np.arange(n) * 50.0      # each pair far from the others
    ra, rb = rng.uniform(0.1, 2.0, n), rng.uniform(0.1, 2.0, n)
    second = first.copy()
    second[:, 0] = first[:, 0] + (ra + rb) * (1.0 + rng.integers(-3, 4, n) * 2.0 ** -52)
    d = first - second
    distance = d[:, 0] * d[:, 0]
    for k in range(1, dim):
        distance = distance + d[:, k] * d[:, k]
    boxes = np.ones(n, bool)
    for k in range(dim):
        boxes &= (first[:, k] - ra <= second[:, k] + rb) & (second[:, k] - rb <= first[:, k] + ra)
    touching = boxes & (distance <= (ra + rb) * (ra + rb))
    assert 0 < touching.sum() < n and (boxes != (distance <= (ra + rb) ** 2)).any()
    expected = [[2 * k, 2 * k + 1] for k in np.flatnonzero(touching)]
    centers = np.empty((2 * n, dim))
    centers[0::2], centers[1::2] = first, second
    radii = np.empty(2 * n)
    radii[0::2], radii[1::2] = ra, rb
    grids = (UniformGrid, HierarchicalGrid) if dim == 2 else (UniformGrid3D, HierarchicalGrid3D)
    for threads in (1, 2):
        for grid in (grids[0](4.0, threads=threads), grids[1](threads=threads)):
            getattr(grid, "insert_circles" if dim == 2 else "insert_spheres")(centers, radii)
            found = grid.pair_ids()
            assert sorted(found.tolist()) == expected, (type(grid).__name__, threads)
