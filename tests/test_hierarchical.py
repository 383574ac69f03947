"""The hierarchical grid's design rules, checked with exact values."""
import math
import random

import numpy as np
import pytest

from oracle import Oracle, same_pairs
from spatial_hash import HierarchicalGrid, HierarchicalSpatialHash, OptimizedSpatialHash


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
    grid.insert_rects(np.column_stack([rng.uniform(0, 1000, (5000, 2)), np.ones((5000, 2))]))
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


@pytest.mark.parametrize("factor,density", [(1.0, 0.125), (0.5, 0.1), ("x", 0.1),
                                            (2.0, 0.0), (2.0, -1), (2.0, math.nan), (math.inf, 0.1)])
def test_bad_parameters(factor, density):
    with pytest.raises(ValueError):
        HierarchicalGrid(factor, density)
