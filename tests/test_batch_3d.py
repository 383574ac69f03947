"""3D batch calls against the single calls and the brute force, on both grids:
inserts, updates (rows, spheres, float32 corners and sizes), box queries,
nearest searches, ray casts, pairs, pair events, layers, copy_into and stats."""
import math

import numpy as np
import pytest

from oracle import Oracle3D, same_pairs
from spatial_hash import HierarchicalGrid3D, UniformGrid3D
from spatial_hash.brute_force import distance_to

GRIDS = {"uniform": lambda: UniformGrid3D(4.0, origin=(-3.0, 1.5, -7.25)),
         "uniform-small-table": lambda: UniformGrid3D(0.5, large_threshold=2),
         "hierarchical": lambda: HierarchicalGrid3D(2.0),
         "hierarchical-threads": lambda: HierarchicalGrid3D(1.5, density=1.0, threads=2)}


def scene(rng, n, spread=40.0):
    corners = rng.uniform(-spread, spread, size=(n, 3))
    sizes = rng.choice([0.0, 0.5, 2.0, 7.0, 60.0], size=(n, 3), p=[0.1, 0.4, 0.3, 0.15, 0.05])
    centers = rng.uniform(-spread, spread, size=(n, 3))
    radii = rng.choice([0.0, 0.7, 3.0, 25.0], size=n, p=[0.1, 0.5, 0.3, 0.1])
    return np.hstack([corners, sizes]), centers, radii


def filled(make, rng, n=150):
    grid, oracle = make(), Oracle3D(1.0)
    boxes, centers, radii = scene(rng, n)
    box_ids = grid.insert_boxes(boxes)
    sphere_ids = grid.insert_spheres(centers, radii)
    for i, row in zip(box_ids.tolist(), boxes.tolist()):
        oracle.insert(i, row)
    for i, c, r in zip(sphere_ids.tolist(), centers.tolist(), radii.tolist()):
        oracle.insert_sphere(i, c, r)
    return grid, oracle, box_ids, sphere_ids


@pytest.mark.parametrize("kind", GRIDS)
def test_batches_match_the_brute_force(kind):
    rng = np.random.default_rng(7)
    grid, oracle, box_ids, sphere_ids = filled(GRIDS[kind], rng)
    for step in range(4):
        grid.validate()
        assert same_pairs(grid.pair_ids().tolist(), oracle.pairs())
        assert {tuple(p) for p in grid.pair_ids().tolist()} <= \
            {tuple(p) for p in grid.candidate_ids().tolist()}
        boxes, centers, radii = scene(rng, len(box_ids))
        if step % 2:
            grid.update_boxes(box_ids, boxes)
        else:
            grid.update_packed(box_ids, boxes[:, :3].astype(np.float32), boxes[:, 3:].astype(np.float32))
            boxes = np.hstack([boxes[:, :3].astype(np.float32), boxes[:, 3:].astype(np.float32)]) \
                .astype(np.float64)
        grid.update_spheres(sphere_ids, centers[:len(sphere_ids)], radii[:len(sphere_ids)])
        for i, row in zip(box_ids.tolist(), boxes.tolist()):
            oracle.update(i, row)
        for i, c, r in zip(sphere_ids.tolist(), centers.tolist(), radii.tolist()):
            oracle.insert_sphere(i, c, r)
    for i in box_ids.tolist()[:5]:
        x, y, z, w, h, d = grid.bounds(i)
        box = oracle.shape(i)[0]
        assert (x, y, z) == box[:3] and grid.sphere_of(i) is None
    i = sphere_ids.tolist()[0]
    assert grid.sphere_of(i) == oracle.shape(i)[1]


@pytest.mark.parametrize("kind", GRIDS)
def test_queries_match_single_calls_and_the_brute_force(kind):
    rng = np.random.default_rng(11)
    grid, oracle, _, _ = filled(GRIDS[kind], rng)
    queries = np.hstack([rng.uniform(-50, 50, (40, 3)), rng.choice([0.0, 1.0, 9.0, 80.0], (40, 3))])
    offsets, ids = grid.query_boxes(queries, exact=True)
    for k, row in enumerate(queries.tolist()):
        single = grid.query_box(*row, exact=True)
        assert sorted(ids[offsets[k]:offsets[k + 1]].tolist()) == sorted(single)
        assert sorted(single) == sorted(oracle.query_range(row))
        nearby = set(grid.query_nearby(*row))
        assert set(single) <= nearby
        assert sorted(grid.query_point(*row[:3])) == sorted(oracle.query_point(row[:3]))
        assert sorted(grid.query_radius(*row[:3], row[3])) == \
            sorted(oracle.query_radius(row[:3], row[3]))
    points = rng.uniform(-60, 60, (30, 3))
    offsets, ids, distances = grid.query_nearest_many(points, 5)
    for j, p in enumerate(points.tolist()):
        expected = oracle.query_nearest(p, 5, tie_order=lambda o: o)
        assert ids[offsets[j]:offsets[j + 1]].tolist() == expected == grid.query_nearest(*p, 5)
        assert distances[offsets[j]:offsets[j + 1]].tolist() == \
            [distance_to(*oracle.shape(i), *p) for i in expected]
    rays = np.hstack([rng.uniform(-60, 60, (30, 3)), rng.uniform(-60, 60, (30, 3))])
    offsets, ids, fractions, hit_points, normals = grid.raycast_many(rays, all_hits=True)
    for j, ray in enumerate(rays.tolist()):
        expected = oracle.raycast_all(ray[:3], ray[3:], tie_order=lambda o: o)
        assert grid.raycast_all(*ray) == expected
        got = [(i, f, tuple(p), tuple(nv)) for i, f, p, nv in zip(
            ids[offsets[j]:offsets[j + 1]].tolist(), fractions[offsets[j]:offsets[j + 1]].tolist(),
            hit_points[offsets[j]:offsets[j + 1]].tolist(), normals[offsets[j]:offsets[j + 1]].tolist())]
        assert got == expected
        for hit in expected:
            assert math.isclose(sum(v * v for v in hit[3]), 1.0) or hit[1] == 0.0


@pytest.mark.parametrize("kind", GRIDS)
def test_layers_events_and_copies(kind):
    rng = np.random.default_rng(3)
    grid, oracle, box_ids, sphere_ids = filled(GRIDS[kind], rng, n=80)
    layers = rng.choice([1, 2, 4, 3], size=len(box_ids))
    masks = rng.choice([1, 2, 0xFFFFFFFF], size=len(box_ids))
    grid.set_filters(box_ids, layers, masks)
    for i, layer, mask in zip(box_ids.tolist(), layers.tolist(), masks.tolist()):
        oracle.set_filter(i, layer, mask)
    assert same_pairs(grid.pair_ids().tolist(), oracle.pairs())
    began, ended = grid.pair_event_ids()
    assert same_pairs(began.tolist(), oracle.pairs()) and len(ended) == 0
    grid.remove_many(sphere_ids[:10])
    for i in sphere_ids[:10].tolist():
        oracle.remove(i)
    _, ended = grid.pair_event_ids()
    assert all(a in sphere_ids[:10] or b in sphere_ids[:10] for a, b in ended.tolist())
    for target in (UniformGrid3D(2.0), HierarchicalGrid3D()):
        grid.copy_into(target)
        target.validate()
        assert same_pairs(target.pair_ids().tolist(), oracle.pairs())
        assert target.stats()["objects"] == len(oracle)
    assert grid.stats()["objects"] == len(oracle)


def test_uniform_cells_match_the_cell_arithmetic():
    grid = UniformGrid3D(2.0, origin=(1.0, -1.0, 0.5))
    i = grid.insert_box(1.0, -1.0, 0.5, 2.0, 0.0, 4.5)
    assert grid.cells_of(i) == (0, 0, 0, 1, 0, 2)
    assert grid.cell_of(-0.5, 3.0, 0.5) == (-1, 2, 0)
    assert grid.cell_counts() == {(0, 0, 0): 1, (1, 0, 0): 1, (0, 0, 1): 1, (1, 0, 1): 1,
                                  (0, 0, 2): 1, (1, 0, 2): 1}
    stats = grid.stats()
    assert (stats["objects"], stats["active_cells"], stats["memberships"]) == (1, 6, 6)


@pytest.mark.parametrize("far", [1e3, 1e7])
def test_cell_counts_of_far_apart_objects(far):
    """cell_counts and stats count rows of three cell coordinates: near objects'
    rows are packed into one number each, and objects more than 2**21 cells
    apart are sorted row by row; both give every covered cell once, in order."""
    grid = UniformGrid3D(1.0)
    corners = [(0.5, 0.5, 0.5), (far, -far, 2.5), (-far, far, far), (0.25, 0.25, 0.75)]
    for x, y, z in corners:
        grid.insert_box(x, y, z, 1.0, 0.5, 0.0)     # corner, then sizes
    expected = {}
    for x, y, z in corners:
        for cx in range(math.floor(x), math.floor(x + 1.0) + 1):
            for cy in range(math.floor(y), math.floor(y + 0.5) + 1):
                cell = (cx, cy, math.floor(z))
                expected[cell] = expected.get(cell, 0) + 1
    counts = grid.cell_counts()
    assert counts == expected
    assert list(counts) == sorted(expected)
    stats = grid.stats()
    assert (stats["active_cells"], stats["memberships"], stats["max_objects_per_cell"]) == (
        len(expected), sum(expected.values()), max(expected.values()))
