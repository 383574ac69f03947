"""The hierarchical grid's design rules, checked with exact values."""
import math
import random

import numpy as np
import pytest

from oracle import Oracle, same_pairs
from spatial_hash._core import STATS_KEYS
from spatial_hash import (BruteForce, HierarchicalGrid, HierarchicalSpatialHash,
                          OptimizedSpatialHash, UniformGrid)


def test_first_level_cell_is_longest_side_times_sqrt_factor():
    grid = HierarchicalGrid(hierarchy_factor=2.0)
    i = grid.insert_rect(0, 0, 10, 4)
    cell, exponent = grid.level_of_id(i)
    assert exponent == 0 and cell == pytest.approx(10 * math.sqrt(2), rel=1e-9)


@pytest.mark.parametrize("factor", [1.5, 2.0, 3.0])
def test_each_object_gets_the_smallest_level_that_fits_it(factor):
    grid = HierarchicalGrid(hierarchy_factor=factor)
    rng = random.Random(1)
    sides = [1.0] + [10 ** rng.uniform(-2, 4) for _ in range(200)]
    ids = [grid.insert_rect(rng.uniform(-500, 500), rng.uniform(-500, 500), s, s * 0.5)
           for s in sides]
    base = grid.level_of_id(ids[0])[0]
    for i, s in zip(ids, sides):
        cell, exponent = grid.level_of_id(i)
        assert cell == pytest.approx(base * factor ** exponent, rel=1e-9)
        assert cell >= s * math.sqrt(factor) * (1 - 1e-9)
        assert cell / factor < s * math.sqrt(factor) * (1 + 1e-9)


def test_extreme_size_ratio_pairs_match_brute_force():
    h = HierarchicalSpatialHash()
    oracle = Oracle(1.0)
    rng = random.Random(5)
    for k in range(300):
        side = 0.01 if k % 2 else rng.choice([0.01, 1.0, 100.0])
        bounds = (rng.uniform(-60, 60), rng.uniform(-60, 60), side, side)
        h.insert(k, bounds)
        oracle.insert(k, bounds)
    h.insert("giant", (-50, -50, 100.0, 100.0))     # 1 : 10,000 against the 0.01s
    oracle.insert("giant", (-50, -50, 100.0, 100.0))
    assert same_pairs(h.pairs(), oracle.pairs())
    assert len(h.stats()["levels"]) >= 3


def test_everyone_in_one_cell_checks_every_pair_once():
    grid = HierarchicalGrid()
    grid.insert_rect(0.0, 0.0, 10.0, 10.0)             # sets the level: cells of 14.1
    for k in range(1, 40):
        grid.insert_rect(0.1 * k, 0.1 * k, 10.0, 10.0)   # all min corners in cell (0, 0)
    grid.pairs()
    assert grid.narrow_phase_checks == 40 * 39 // 2 == grid.hits


def test_objects_two_cells_apart_need_no_checks():
    grid = HierarchicalGrid(density=4.0)
    for cx in range(8):
        for cy in range(8):
            grid.insert_rect(cx * 2 * 14.2, cy * 2 * 14.2, 10.0, 10.0)
    assert grid.pairs() == [] and grid.narrow_phase_checks == 0


def test_level_table_grows_with_density():
    grid = HierarchicalGrid(density=0.125)
    rng = np.random.default_rng(0)
    # About one object per cell: spaced as closely as their size, so no coarser level.
    grid.insert_rects(np.column_stack([rng.uniform(0, 100, (5000, 2)), np.ones((5000, 2))]))
    (level,) = grid.stats()["levels"]
    assert level["grid"] ** 2 * 0.125 >= 5000 > (level["grid"] // 2) ** 2 * 0.125
    assert level["objects"] == 5000 and level["occupied_cells"] <= 5000


def test_update_keeps_level_until_size_changes():
    grid = HierarchicalGrid()
    i = grid.insert_rect(0, 0, 4, 4)
    j = grid.insert_rect(50, 50, 4, 4)
    before = grid.level_of_id(i)
    grid.update_rect(i, 200, -300, 4, 4)                  # a move: same level
    assert grid.level_of_id(i) == before
    grid.update_rect(i, 0, 0, 40, 40)                     # ten times larger: coarser level
    assert grid.level_of_id(i)[0] > before[0]
    grid.update_rect(i, 48, 48, 4, 4)
    assert grid.level_of_id(i) == before and grid.pairs() == [(i, j)]


def test_interchangeable_with_the_uniform_hash():
    rng = random.Random(9)
    uniform, hierarchical = OptimizedSpatialHash(8.0), HierarchicalSpatialHash()
    for k in range(400):
        bounds = (rng.uniform(0, 300), rng.uniform(0, 300), rng.uniform(0, 20), rng.uniform(0, 5))
        for index in (uniform, hierarchical):
            index.insert(k, bounds)
    for k in range(0, 400, 3):
        for index in (uniform, hierarchical):
            index.update(k, (k * 0.5, 10.0, 3.0, 3.0))
            index.remove(k + 1)
    assert same_pairs(uniform.pairs(), hierarchical.pairs())
    for q in [(0, 0, 50, 50), (100, 100, 0, 0), (-10, 280, 400, 30)]:
        assert set(uniform.query_range(q, exact=True)) == set(hierarchical.query_range(q, exact=True))
    assert set(uniform.query_along_path((0, 0), (300, 300), (2, 2))) == \
        set(hierarchical.query_along_path((0, 0), (300, 300), (2, 2)))


def test_points_and_far_away_tiny_objects():
    grid = HierarchicalGrid()
    p = grid.insert_rect(5.0, 5.0, 0.0, 0.0)               # a point before any size
    far = grid.insert_rect(1e15, 1e15, 1e-6, 1e-6)          # too fine for its distance
    near = grid.insert_rect(1e15, 1e15, 1e-6, 1e-6)
    big = grid.insert_rect(0.0, 0.0, 10.0, 10.0)
    assert same_pairs(grid.pair_ids().tolist(), [(p, big), (far, near)])
    assert set(grid.query_point(1e15, 1e15)) == {far, near}


def points_level(points, base, factor, start):
    """The rule for the points' level, worked out here from the points alone:
    from exponent `start`, the coarsest level (cells base * factor**e) in whose
    cells at least 60% of the points are alone."""
    def alone(e):
        cells = np.floor(points / (base * factor ** e)).astype(np.int64)
        _, counts = np.unique(cells, axis=0, return_counts=True)
        return len(counts) / len(points)
    e = start
    if alone(e) >= 0.6:
        while alone(e + 1) >= 0.6:
            e += 1
    else:
        while alone(e) < 0.6:
            e -= 1
    return base * factor ** e


def expected_pairs(point_ids, points, sized):
    """Every touching pair among distinct points and boxes: a box and each point
    in it (closed), and boxes that meet (by the brute-force reference); two
    distinct points never touch. sized: (id, (x, y, w, h)) pairs."""
    assert len(np.unique(points, axis=0)) == len(points)
    boxes = BruteForce()
    pairs = []
    for i, (x, y, w, h) in sized:
        boxes.insert(i, (x, y, w, h))
        inside = (points[:, 0] >= x) & (points[:, 0] <= x + w) & (points[:, 1] >= y) & (points[:, 1] <= y + h)
        pairs += [(i, j) for j in point_ids[inside].tolist()]
    return pairs + boxes.pairs()


def points_within(point_ids, points, x, y, r):
    return set(point_ids[np.hypot(points[:, 0] - x, points[:, 1] - y) <= r].tolist())


@pytest.mark.parametrize("first_side,spread,factor", [
    (None, 1000.0, 2.0),        # points alone, far apart: coarser than the first point's cell
    (100.0, 10.0, 2.0),         # dense points under a large first object: far finer than its
    (None, 1000.0, 3.0),
])
def test_points_get_a_level_sized_for_their_spacing(first_side, spread, factor):
    rng = np.random.default_rng(7)
    points = rng.uniform(0.0, spread, (6000, 2))
    grid = HierarchicalGrid(hierarchy_factor=factor)
    sized, base = [], 1.0       # a first point's cell
    if first_side is not None:
        box = (-5.0, -5.0, first_side, first_side)
        sized.append((grid.insert_rect(*box), box))
        base = first_side * math.sqrt(factor)
    ids = grid.insert_rects(np.column_stack([points, np.zeros_like(points)]))
    expected = points_level(points, base, factor, 0)
    (cell,) = {grid.level_of_id(i)[0] for i in ids.tolist()}
    assert cell == pytest.approx(expected, rel=1e-9) and expected != pytest.approx(base)
    grid.validate()
    assert same_pairs(grid.pair_ids().tolist(), expected_pairs(ids, points, sized))
    for x, y in rng.uniform(0.0, spread, (30, 2)).tolist():
        r = spread / 50
        assert set(grid.query_radius(x, y, r)) - {i for i, _ in sized} == points_within(ids, points, x, y, r)
        if first_side is None:
            nearest = np.sort(np.hypot(points[:, 0] - x, points[:, 1] - y))[:5]
            assert np.allclose(grid.query_nearest_many([(x, y)], k=5)[2], nearest)


def test_points_stacked_on_one_another_keep_their_level():
    """Points that are never alone, however fine the cells, are not sent down
    the levels looking for cells that would part them."""
    grid = HierarchicalGrid()
    ids = grid.insert_rects(np.tile([5.0, 5.0, 0.0, 0.0], (1000, 1)))
    assert {grid.level_of_id(i) for i in ids.tolist()} == {(1.0, 0)}
    assert len(grid.pair_ids()) == 1000 * 999 // 2 == grid.hits
    assert sorted(grid.query_radius(5.0, 5.0, 0.0)) == ids.tolist()
    grid.validate()


def test_the_points_level_follows_their_spacing_both_ways():
    """Points added one at a time far apart get a coarse level; many more in the
    same square bring it down, moving the first ones with them; objects with an
    extent stay in the smallest level that fits them throughout."""
    rng = np.random.default_rng(11)
    grid = HierarchicalGrid()
    sized = []
    for _ in range(300):
        side = float(rng.uniform(0.5, 3.0))
        box = (*rng.uniform(0.0, 2000.0, 2).tolist(), side, side)
        sized.append((grid.insert_rect(*box), box))
    cell, exponent = grid.level_of_id(sized[0][0])
    base = cell / 2 ** exponent
    sparse = rng.uniform(0.0, 2000.0, (3000, 2))
    first = [grid.insert_rect(x, y, 0.0, 0.0) for x, y in sparse.tolist()]
    (coarse,) = {grid.level_of_id(i)[0] for i in first}
    dense = rng.uniform(0.0, 2000.0, (60000, 2))
    ids = grid.insert_rects(np.column_stack([dense, np.zeros_like(dense)]))
    (fine,) = {grid.level_of_id(i)[0] for i in first + ids.tolist()}
    points = np.vstack([sparse, dense])
    point_ids = np.array(first + ids.tolist())
    assert fine < coarse
    assert fine == pytest.approx(points_level(points, base, 2.0, round(math.log2(coarse / base))))
    for i, (_, _, side, _) in sized:
        assert side * math.sqrt(2) <= grid.level_of_id(i)[0] < 2 * side * math.sqrt(2)
    grid.validate()
    assert same_pairs(grid.pair_ids().tolist(), expected_pairs(point_ids, points, sized))
    for x, y in rng.uniform(0.0, 2000.0, (20, 2)).tolist():
        got = set(grid.query_radius(x, y, 15.0)) - {i for i, _ in sized}
        assert got == points_within(point_ids, points, x, y, 15.0)


@pytest.mark.parametrize("factor,density", [(1.0, 0.125), (1.05, 0.125), (2e6, 0.125), (0.5, 0.1), ("x", 0.1),
                                            (2.0, 0.0), (2.0, -1), (2.0, math.nan), (math.inf, 0.1)])
def test_bad_parameters(factor, density):
    with pytest.raises(ValueError):
        HierarchicalGrid(factor, density)


def test_threads_give_the_same_pairs_in_the_same_order():
    """Enough objects for every threaded loop (the pair search, packing and a
    batch move's first half), before and after a batch move of them all."""
    rng = np.random.default_rng(4)
    centers = rng.uniform(0, 400, (20_000, 2))
    radii = np.where(rng.random(20_000) < 0.05, rng.uniform(5, 40, 20_000), 1.0)
    moved = centers + rng.uniform(-2.0, 2.0, centers.shape)
    results = []
    for threads in (1, 2, 3, 8):
        grid = HierarchicalGrid(threads=threads)
        ids = grid.insert_circles(centers, radii)
        first = (grid.pair_ids().tolist(), grid.narrow_phase_checks, grid.hits)
        grid.update_circles(ids, moved, radii)
        grid.validate()
        results.append((first, grid.pair_ids().tolist(), grid.narrow_phase_checks, grid.hits,
                        grid.stats()))
    assert all(r == results[0] for r in results[1:])
    assert len(results[0][1]) == results[0][3] > 1000 and results[0][1] != results[0][0][0]


@pytest.mark.parametrize("threads", [1, 2])
def test_mixed_sizes_in_a_wrapping_world_match_brute_force(threads):
    """The benchmark's mixed scene, small enough for brute force but with a world
    several times wider than the finest level's table, so the upward search
    meets wrapped windows and the cover filter meets aliased sub-cells."""
    from spatial_hash.bench import peers, scenes
    scene = scenes.mixed(4000, seed=3)
    grid = HierarchicalGrid(threads=threads)
    ids = grid.insert_circles(scene.pos, scene.extent)
    finest = grid.stats()["levels"][0]
    assert finest["grid"] * finest["cell_size"] * 2 < scene.world[0]
    for _ in range(4):
        expected = peers.canonical_array(peers.NaiveAllPairs().frame(scene))
        assert np.array_equal(peers.canonical_array(ids[grid.pair_ids()]), expected)
        assert len(expected) > 100
        for _ in range(15):
            scene.step()
        grid.update_circles(ids, scene.pos, scene.extent)


@pytest.mark.parametrize("threads", [0, -1, 1.5, True, "2"])
def test_bad_thread_counts(threads):
    with pytest.raises(ValueError, match="threads"):
        HierarchicalGrid(threads=threads)


def test_a_tiny_first_object_does_not_push_large_ones_out_of_range():
    """The first object sets the base cell; one of 1e-307 used to send a later
    1000-wide object through int overflow into a 1e-12 cell (and a hang)."""
    h = HierarchicalSpatialHash()
    oracle = Oracle(1.0)
    for key, bounds in [("dust", (0.0, 64.0, 1.4e-307, 0.0)), ("wall", (-500.0, 0.0, 1000.0, 80.0)),
                        ("speck", (3.0, 3.0, 1e-200, 1e-200)), ("rock", (2.0, 2.0, 5.0, 5.0))]:
        h.insert(key, bounds)
        oracle.insert(key, bounds)
    assert same_pairs(h.pairs(), oracle.pairs())
    cells = {key: h.grid.level_of_id(h.id_of(key))[0] for key in ("wall", "rock")}
    assert cells["wall"] >= 1000 * math.sqrt(2) * (1 - 1e-9) and cells["wall"] < 1e4
    assert set(h.query_range((-1, 60, 2, 10), exact=True)) == {"dust", "wall"}


@pytest.mark.parametrize("bounds", [(0.0, 0.0, 1e151, 1.0), (1e161, 0.0, 1.0, 1.0),
                                    (0.0, -1e200, 1.0, 1.0)])
def test_out_of_range_objects_are_refused_and_change_nothing(bounds):
    h = HierarchicalSpatialHash()
    h.insert("a", (0, 0, 2, 2))
    h.insert("b", (1, 1, 2, 2))
    with pytest.raises(ValueError, match="out of range"):
        h.insert("c", bounds)
    with pytest.raises(ValueError, match="out of range"):
        h.update("a", bounds)
    assert h.bounds("a") == (0.0, 0.0, 2.0, 2.0) and "c" not in h and h.pairs() == [("a", "b")]


@pytest.mark.parametrize("factor", [1.1, 2.0, 1e6])
@pytest.mark.parametrize("row", [(0.0, 0.0, 2e149, 1.0), (0.0, 0.0, 1.1e150, 1.0), (9e159, 0.0, 1.0, 1.0),
                                 (5e159, 0.0, 6e159, 1.0), (-1.01e160, 0.0, 1.0, 1.0)])
def test_batches_refuse_exactly_what_single_calls_refuse(factor, row):
    """Batches check their rows with a quick bound first; near the limits the
    verdict must be the single call's."""
    single = HierarchicalGrid(factor)
    single.insert_rect(0, 0, 1, 1)
    try:
        single.insert_rect(*row)
        refused = False
    except ValueError:
        refused = True
    for call in (lambda g: g.insert_rects([(0, 0, 1, 1), row]),
                 lambda g: g.update_rects([0, 1], [(0, 0, 1, 1), row]),
                 lambda g: g.insert_circles([(0, 0), row[:2]], [0.5, row[2] / 2])):
        grid = HierarchicalGrid(factor)
        grid.insert_rects([(0, 0, 1, 1), (5, 5, 1, 1)])
        before = (grid.pair_ids().tolist(), [grid.bounds(i) for i in range(2)], len(grid))
        if refused:
            with pytest.raises(ValueError, match=r"(rects|circles)\[1\]"):
                call(grid)
            assert (grid.pair_ids().tolist(), [grid.bounds(i) for i in range(2)], len(grid)) == before
        else:
            call(grid)


@pytest.mark.parametrize("make", [lambda: UniformGrid(10.0), lambda: HierarchicalGrid()],
                         ids=["uniform", "hierarchical"])
def test_both_grids_share_one_stats_schema(make):
    grid = make()
    empty = grid.stats()
    assert tuple(empty) == STATS_KEYS
    assert (empty["objects"], empty["active_cells"], empty["max_objects_per_cell"]) == (0, 0, 0)
    for k in range(3):                      # three equal boxes in one cell
        grid.insert_rect(1.0, 1.0, 2.0, 2.0)
    grid.insert_rect(501.0, 501.0, 8.0, 8.0)     # one cell of its own (a level of its own)
    grid.pairs()
    s = grid.stats()
    assert tuple(s) == STATS_KEYS
    assert (s["objects"], s["active_cells"], s["memberships"]) == (4, 2, 4)
    assert (s["max_objects_per_cell"], s["avg_objects_per_cell"], s["large_objects"]) == (3, 2.0, 0)
    assert s["hits"] == 3 and sum(level["objects"] for level in s["levels"]) == 4
    assert sum(level["occupied_cells"] for level in s["levels"]) == 2


def test_hierarchical_hash_distribution_check_warns_like_the_uniform_one():
    h = HierarchicalSpatialHash()
    for k in range(25):
        h.insert(k, (1.0, 1.0, 2.0, 2.0))
    with pytest.warns(RuntimeWarning, match="max chain: 25"):
        assert h.check_hash_distribution(max_chain=20) == 25
    assert h.check_hash_distribution(max_chain=30) == 25


def test_both_indexes_have_one_contract():
    """The same public methods on both compiled grids and both object-keyed
    classes, beyond their settings and what describes each one's own cells."""
    def public(cls):
        return {name for name in dir(cls) if not name.startswith("_")}

    uniform_only = {"cell_size", "origin_x", "origin_y", "large_threshold",
                    "cells_of", "cell_of", "is_large", "cell_counts"}
    hierarchical_only = {"hierarchy_factor", "density", "level_of_id"}
    assert public(UniformGrid) - uniform_only == public(HierarchicalGrid) - hierarchical_only
    assert public(OptimizedSpatialHash) - {"cell_size"} == public(HierarchicalSpatialHash)


@pytest.mark.parametrize("index", [HierarchicalSpatialHash, lambda: OptimizedSpatialHash(1.0)],
                         ids=["hierarchical", "uniform"])
def test_steep_long_sweeps_find_every_object_in_their_path(index):
    # A sweep crossing few columns but more rows than a table has: each column's
    # rows must be cut to the table's side there, not to the first column's
    # (the hierarchical grid once missed most of such a path).
    rng = random.Random(3)
    grid, brute = index(), BruteForce()
    for k in range(3000):
        bounds = (rng.uniform(0, 6), rng.uniform(0, 2000), 0.7, 0.7)
        grid.insert(k, bounds)
        brute.insert(k, bounds)
    for _ in range(60):
        start = (rng.uniform(0, 6), rng.uniform(0, 100))
        end = (rng.uniform(0, 6), rng.uniform(1500, 2000))
        found = grid.query_along_path(start, end, (0.3, 0.3))
        assert sorted(found) == sorted(brute.query_along_path(start, end, (0.3, 0.3)))
        assert len(found) > 100
