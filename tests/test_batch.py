"""The batch API against the per-object API and brute force."""
import math
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from oracle import Oracle, same_pairs
from spatial_hash import HierarchicalGrid, HierarchicalGrid3D, UniformGrid, UniformGrid3D
from spatial_hash.brute_force import distance_to

ROWS = st.integers(0, 60).flatmap(lambda n: st.tuples(
    arrays(np.float64, (n, 2), elements=st.floats(-40, 40)),
    arrays(np.float64, (n, 2), elements=st.floats(0, 12)),
    arrays(np.float64, (n,), elements=st.floats(0, 6))))


def oracle_pairs(grid, ids):
    """Brute force over the shapes the grid holds for `ids`, with a uniform grid's
    cells (the hierarchical grid has none, and its checks use none)."""
    oracle = Oracle(getattr(grid, "cell_size", 1.0))
    for i in ids.tolist():
        circle = grid.circle_of(i)
        if circle is None:
            oracle.insert(i, grid.bounds(i))
        else:
            oracle.insert_circle(i, circle[:2], circle[2])
    return oracle


@settings(max_examples=60, deadline=None)
@given(rows=ROWS, cell=st.sampled_from([0.7, 3.0, 16.0]), moves=st.integers(0, 2))
def test_batch_pairs_equal_per_object_and_brute_force(rows, cell, moves):
    pos, size, radii = rows
    n = len(pos)
    half = n // 2
    batch = UniformGrid(cell, large_threshold=3)
    single = UniformGrid(cell, large_threshold=3)
    rects = np.hstack([pos[:half], size[:half]])
    box_ids = batch.insert_rects(rects)
    circle_ids = batch.insert_circles(pos[half:], radii[half:])
    for x, y, w, h in rects.tolist():
        single.insert_rect(x, y, w, h)
    for (x, y), r in zip(pos[half:].tolist(), radii[half:].tolist()):
        single.insert_circle(x, y, r)
    assert box_ids.tolist() == list(range(half)) and circle_ids.tolist() == list(range(half, n))
    rng = np.random.default_rng(n)
    for _ in range(moves):
        shift = rng.uniform(-cell, cell, size=(n, 2))
        rects[:, :2] += shift[:half]
        batch.update_rects(box_ids, rects)
        batch.update_circles(circle_ids, pos[half:] + shift[half:], radii[half:])
        for i, (x, y, w, h) in enumerate(rects.tolist()):
            single.update_rect(i, x, y, w, h)
        for i, ((x, y), r) in enumerate(zip((pos[half:] + shift[half:]).tolist(), radii[half:].tolist())):
            single.update_circle(half + i, x, y, r)
    got = batch.pair_ids()
    assert got.dtype == np.int32 and got.shape[1] == 2
    assert np.all(got[:, 0] < got[:, 1])
    expected = oracle_pairs(batch, np.arange(n)).pairs()
    assert same_pairs(got.tolist(), expected)
    assert same_pairs(single.pair_ids().tolist(), expected)
    assert single.stats() == batch.stats()


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("seed", range(4))
def test_hierarchical_batch_moves_across_levels_equal_one_by_one(threads, seed):
    """Batch moves that resize objects into other levels, growing those levels'
    tables part-way through the batch, while the other rows only move."""
    rng = np.random.default_rng(seed)
    n = 400
    centers = rng.uniform(0, 60, (n, 2))
    radii = rng.choice([0.3, 0.3, 0.3, 2.0, 6.0], n)
    batch, single = HierarchicalGrid(threads=threads), HierarchicalGrid()
    ids = batch.insert_circles(centers, radii)
    for (x, y), r in zip(centers.tolist(), radii.tolist()):
        single.insert_circle(x, y, r)
    for _ in range(4):
        centers += rng.uniform(-1.5, 1.5, (n, 2))
        resized = rng.random(n) < 0.15
        radii[resized] = rng.choice([0.3, 2.0, 6.0, 20.0], int(resized.sum()))
        order = rng.permutation(n)
        batch.update_circles(ids[order], centers[order], radii[order])
        for k in order.tolist():
            single.update_circle(k, centers[k, 0], centers[k, 1], radii[k])
        expected = oracle_pairs(batch, ids).pairs()
        assert same_pairs(batch.pair_ids().tolist(), expected)
        assert same_pairs(single.pair_ids().tolist(), expected)
        assert batch.stats() == single.stats()
        for k in range(0, n, 7):
            box = (centers[k, 0] - 3, centers[k, 1] - 3, 6, 6)
            assert sorted(batch.query_rect(*box, exact=True)) == sorted(single.query_rect(*box, exact=True))


def test_a_level_growing_in_a_batch_move_relinks_the_rest_correctly():
    """Rows that only move are placed before the batch's level changes are made;
    when those changes grow a level's table, the rows after them must be placed
    in the grown table."""
    grid = HierarchicalGrid()
    big = grid.insert_circles(np.column_stack([np.arange(20) * 30.0, np.zeros(20)]), 4.0)
    small = grid.insert_circles(np.column_stack([np.arange(40) * 30.0, np.full(40, 100.0)]), 0.5)
    cells_before = grid.stats()["levels"][1]["grid"]
    # The small objects grow into the big objects' level (pushing its density over
    # the threshold), then the big ones move by almost a cell.
    ids = np.concatenate([small, big])
    centers = np.vstack([np.column_stack([np.arange(40) * 30.0, np.full(40, 100.0)]),
                         np.column_stack([np.arange(20) * 30.0 + 11.0, np.full(20, 11.0)])])
    grid.update_circles(ids, centers, np.concatenate([np.full(40, 4.0), np.full(20, 4.0)]))
    assert grid.stats()["levels"][1]["grid"] > cells_before
    oracle = oracle_pairs(grid, ids)
    assert same_pairs(grid.pair_ids().tolist(), oracle.pairs())
    for k, i in enumerate(ids.tolist()):
        x, y = centers[k]
        assert i in grid.query_rect(x - 0.1, y - 0.1, 0.2, 0.2, True)


def test_the_uniform_table_growing_in_a_batch_move_relinks_the_rest_correctly():
    """The uniform grid's twin of the test above: large objects turning small
    early in a batch fill its table past one object a cell, so it grows; the
    rows after them, whose new cells were noted in the smaller table, must be
    placed in the grown one."""
    grid = UniformGrid(1.0, large_threshold=1)
    small_at = np.column_stack([np.arange(200) % 20 * 2.0 + 0.2, np.arange(200) // 20 * 2.0 + 0.2])
    small = grid.insert_rects(np.hstack([small_at, np.full((200, 2), 0.5)]))
    large = grid.insert_rects(np.column_stack([np.arange(100) * 2.0, np.full(100, 40.0),
                                               np.full(100, 3.0), np.full(100, 3.0)]))
    assert all(grid.is_large(i) for i in large.tolist())
    assert not any(grid.is_large(i) for i in small.tolist())
    side_before = grid.stats()["levels"][0]["grid"]
    ids = np.concatenate([large, small])
    rects = np.vstack([np.column_stack([np.arange(100) * 2.0 + 0.1, np.full(100, 40.1),
                                        np.full(100, 0.5), np.full(100, 0.5)]),
                       np.hstack([small_at + 1.0, np.full((200, 2), 0.5)])])
    grid.update_rects(ids, rects)
    assert grid.stats()["levels"][0]["grid"] > side_before
    assert not any(grid.is_large(i) for i in ids.tolist())
    grid.validate()
    assert same_pairs(grid.pair_ids().tolist(), oracle_pairs(grid, ids).pairs())
    for i, (x, y, w, h) in zip(ids.tolist(), rects.tolist()):
        assert i in grid.query_point(x + w / 2, y + h / 2)


@settings(max_examples=60, deadline=None)
@given(rows=ROWS, queries=arrays(np.float64, (7, 4), elements=st.floats(0, 30)),
       exact=st.booleans())
def test_query_rects_csr_matches_single_queries(rows, queries, exact):
    pos, size, radii = rows
    grid = UniformGrid(5.0)
    grid.insert_rects(np.hstack([pos, size]))
    queries[:, :2] -= 15
    offsets, ids = grid.query_rects(queries, exact=exact)
    assert offsets.shape == (8,) and offsets[0] == 0 and offsets[-1] == len(ids)
    assert np.all(np.diff(offsets) >= 0)
    oracle = oracle_pairs(grid, np.arange(len(pos)))
    for k, (x, y, w, h) in enumerate(queries.tolist()):
        got = ids[offsets[k]:offsets[k + 1]].tolist()
        assert sorted(got) == sorted(grid.query_rect(x, y, w, h, exact))
        if exact:
            assert set(got) == set(oracle.query_range((x, y, w, h)))
        else:
            assert set(got) == set(oracle.query_nearby(x, y, w, h))


@settings(max_examples=60, deadline=None)
@given(rows=ROWS, points=arrays(np.float64, (6, 2), elements=st.floats(-20, 50)),
       k=st.integers(0, 5), limit=st.sampled_from([np.inf, 0.0, 3.0, 12.0]),
       hierarchical=st.booleans())
def test_query_nearest_many_matches_brute_force(rows, points, k, limit, hierarchical):
    pos, size, radii = rows
    half = len(pos) // 2
    grid = HierarchicalGrid() if hierarchical else UniformGrid(5.0)
    ids = np.concatenate([grid.insert_rects(np.hstack([pos[:half], size[:half]])),
                          grid.insert_circles(pos[half:], radii[half:])])
    offsets, got, distances = grid.query_nearest_many(points, k, limit)
    assert offsets.shape == (7,) and offsets[0] == 0 and offsets[-1] == len(got) == len(distances)
    oracle = oracle_pairs(grid, ids)
    for j, (x, y) in enumerate(points.tolist()):
        expected = oracle.query_nearest((x, y), k, limit, tie_order=lambda i: i)
        assert got[offsets[j]:offsets[j + 1]].tolist() == expected == grid.query_nearest(x, y, k, limit)
        shapes = [oracle.shape(i) for i in expected]
        assert distances[offsets[j]:offsets[j + 1]].tolist() == [distance_to(*s, x, y) for s in shapes]


@pytest.mark.parametrize("k", [1, 4, 17, 64, 65, 400])
@pytest.mark.parametrize("hierarchical", [False, True])
def test_many_nearest_searches_in_any_order_and_any_k_match_brute_force(k, hierarchical):
    """A few hundred scattered queries (some repeated, rows in no spatial order)
    for few and many objects each: every answer lands at its own row whichever
    order the searches ran in, nearest first with ties in id order."""
    rng = np.random.default_rng(4)
    grid = HierarchicalGrid() if hierarchical else UniformGrid(6.0)
    ids = np.concatenate([
        grid.insert_circles(rng.uniform(-100, 100, (150, 2)), rng.choice([0.0, 1.5], 150)),
        grid.insert_rects(np.hstack([rng.uniform(-100, 100, (150, 2)), rng.uniform(0, 9, (150, 2))]))])
    points = rng.uniform(-130, 130, (240, 2))
    points[200:] = points[:40]
    oracle = oracle_pairs(grid, ids)
    for limit in (np.inf, 20.0):
        offsets, got, distances = grid.query_nearest_many(points, k, limit)
        for j, (x, y) in enumerate(points.tolist()):
            expected = oracle.query_nearest((x, y), k, limit, tie_order=lambda i: i)
            assert got[offsets[j]:offsets[j + 1]].tolist() == expected
            shapes = [oracle.shape(i) for i in expected]
            assert distances[offsets[j]:offsets[j + 1]].tolist() == [distance_to(*s, x, y) for s in shapes]


@pytest.mark.parametrize("hierarchical", [False, True])
def test_nearest_among_overlapping_discs_matches_brute_force_inside_and_out(hierarchical):
    """Discs overlapping so much that most points lie inside several: points
    inside k or more of them and points inside fewer (or none) in any
    sequence, each search starting where the last one's answer suggests;
    ties at distance 0 go in id order."""
    rng = np.random.default_rng(11)
    grid = HierarchicalGrid() if hierarchical else UniformGrid(32.0)
    grid.insert_circles(rng.uniform(0, 200, (1500, 2)), 8.0)   # 7.5 over a point on average
    grid.insert_circles(rng.uniform(300, 320, (5, 2)), 1.0)     # a few apart from the rest
    ids = np.arange(1505)
    points = np.vstack([rng.uniform(0, 200, (120, 2)), rng.uniform(200, 340, (60, 2))])
    rng.shuffle(points)
    oracle = oracle_pairs(grid, ids)
    for k in (1, 4, 9):
        offsets, got, distances = grid.query_nearest_many(points, k)
        inside = 0
        for j, (x, y) in enumerate(points.tolist()):
            expected = oracle.query_nearest((x, y), k, np.inf, tie_order=lambda i: i)
            assert got[offsets[j]:offsets[j + 1]].tolist() == expected == grid.query_nearest(x, y, k)
            inside += distances[offsets[j + 1] - 1] == 0.0
        assert 20 < inside < len(points) - 20      # both kinds of search, interleaved


@pytest.mark.parametrize("hierarchical", [False, True])
def test_nearest_batches_follow_every_change_and_agree_with_single_searches(hierarchical):
    """A batch of searches lays each level out once and keeps the layout until
    the index changes. After each kind of change (a move, a batch update, a
    removal, a batch removal, new layers, inserts, a clear and a refill) the
    same batch answers as brute force and as single searches, which walk the
    grid's own tables, do: for points inside and far outside three clusters
    far apart (single searches cross many empty cells, then scan), with a
    limit, a layer mask, and k kept in order (3) or in a heap (40)."""
    rng = np.random.default_rng(21)
    grid = HierarchicalGrid() if hierarchical else UniformGrid(4.0)
    centers = np.array([[0.0, 0.0], [400.0, -300.0], [-2000.0, 50.0]])
    spots = centers[rng.integers(0, 3, 300)] + rng.normal(0.0, 20.0, (300, 2))
    grid.insert_circles(spots[:200], rng.choice([0.0, 0.5, 3.0], 200))
    grid.insert_rects(np.hstack([spots[200:], rng.uniform(0.0, 6.0, (100, 2))]))
    points = np.vstack([rng.uniform(-2100.0, 500.0, (40, 2)), spots[:20] + 0.25,
                        [[1e7, -1e7], [0.0, 1e12]]])

    def check():
        live = np.array([i for i in range(350) if i in grid], dtype=np.int64)
        oracle = oracle_pairs(grid, live)
        for i in live.tolist():
            oracle.set_filter(i, *grid.filter_of(i))
        for k, limit, mask in [(3, np.inf, 0xFFFFFFFF), (40, np.inf, 0xFFFFFFFF),
                               (3, 25.0, 0xFFFFFFFF), (3, np.inf, 0b10)]:
            offsets, got, distances = grid.query_nearest_many(points, k, limit, mask)
            for j, (x, y) in enumerate(points.tolist()):
                expected = oracle.query_nearest((x, y), k, limit, tie_order=lambda i: i, mask=mask)
                assert got[offsets[j]:offsets[j + 1]].tolist() == expected \
                    == grid.query_nearest(x, y, k, limit, mask)
                assert distances[offsets[j]:offsets[j + 1]].tolist() == \
                    [distance_to(*oracle.shape(i), x, y) for i in expected]

    check()
    grid.update_circle(0, 300.0, 300.0, 2.0)
    grid.update_rect(250, -1000.0, -1000.0, 4.0, 4.0)
    check()
    grid.update_circles(np.arange(1, 100), spots[101:200] + 50.0, np.full(99, 1.0))
    check()
    grid.remove(5)
    grid.remove_many(np.arange(150, 170))
    check()
    some = np.array([i for i in range(0, 300, 3) if i in grid])
    grid.set_filters(some, np.full(len(some), 0b10), np.full(len(some), 0xFFFFFFFF))
    check()
    grid.insert_circles(rng.uniform(-50.0, 50.0, (20, 2)), 1.0)
    check()
    grid.clear()
    grid.insert_rects(np.hstack([spots[:50] * 0.5, np.full((50, 2), 2.0)]))
    check()


def test_nearest_on_the_bare_base_index_answers_from_all_its_objects():
    # SpatialIndex itself keeps no cells: its searches test every live object
    # (they read unset levels and crashed).
    from spatial_hash._core import SpatialIndex
    index = SpatialIndex()
    ids = [index.insert_rect(x, 0.0, 1.0, 1.0) for x in (0.0, 10.0, 20.0, 30.0)]
    index.remove(ids[1])
    assert index.query_nearest(12.0, 0.5, 2) == [ids[2], ids[0]]
    offsets, got, distances = index.query_nearest_many(np.array([[12.0, 0.5], [40.0, 0.0]]), 2)
    assert offsets.tolist() == [0, 2, 4] and got.tolist() == [ids[2], ids[0], ids[3], ids[2]]
    assert distances.tolist() == [8.0, 11.0, 9.0, 19.0]



@pytest.mark.parametrize("dimension", [2, 3])
def test_the_bare_base_index_answers_every_call_by_brute_force(dimension):
    # SpatialIndex itself keeps no cells: its queries and pair pass test every
    # live object (they found nothing, and a ray cast read the ids the last
    # query had left, removed objects among them).
    from spatial_hash.brute_force import BruteForce, BruteForce3D
    if dimension == 2:
        from spatial_hash._core import SpatialIndex
        brute, rects_call, circles_call, box_call = BruteForce(), "insert_rects", "insert_circles", \
            "query_rect"
    else:
        from spatial_hash._core3d import SpatialIndex3D as SpatialIndex
        brute, rects_call, circles_call, box_call = BruteForce3D(), "insert_boxes", \
            "insert_spheres", "query_box"
    rng = np.random.default_rng(5)
    index = SpatialIndex()
    rects = np.c_[rng.uniform(0, 40, (60, dimension)), rng.uniform(0, 5, (60, dimension))]
    centers, radii = rng.uniform(0, 40, (60, dimension)), rng.uniform(0, 3, 60)
    layers = rng.choice([1, 2, 3], 60)
    ids = getattr(index, rects_call)(rects, layers=layers, masks=rng.choice([1, 2, 3], 60))
    more = getattr(index, circles_call)(centers, radii)
    query_box = getattr(index, box_call)
    for k, i in enumerate(ids.tolist()):
        brute.insert(i, tuple(rects[k]))
        brute.set_filter(i, *index.filter_of(i))
    for k, i in enumerate(more.tolist()):
        (brute.insert_circle if dimension == 2 else brute.insert_sphere)(i, tuple(centers[k]), radii[k])
    gone = ids[:10].tolist()
    query_box(*rects[0], exact=True)         # leaves the removed ids in the last results
    index.remove_many(ids[:10])
    for i in gone:
        brute.remove(i)
    index.validate()
    assert same_pairs(index.pair_ids().tolist(), brute.pairs())
    assert index.hits == len(brute.pairs())
    candidates = {tuple(pair) for pair in index.candidate_ids().tolist()}
    assert len(candidates) == index.narrow_phase_checks
    assert {tuple(sorted(pair)) for pair in brute.pairs()} <= candidates
    order = lambda i: i
    for mask in (0xFFFFFFFF, 2):
        for point in rng.uniform(-5, 45, (6, dimension)).tolist():
            box = tuple(point) + (9.0,) * dimension
            assert sorted(query_box(*box, exact=True, mask=mask)) == sorted(brute.query_range(box, mask))
            assert sorted(index.query_nearby(*box, mask=mask)) == sorted(brute.query_range(box, mask))
            assert sorted(index.query_point(*point, mask)) == sorted(brute.query_point(tuple(point), mask))
            assert sorted(index.query_radius(*point, 6.0, mask)) == \
                sorted(brute.query_radius(tuple(point), 6.0, mask))
            end = [40.0 - v for v in point]
            assert index.raycast_all(*point, *end, mask) == \
                brute.raycast_all(tuple(point), tuple(end), tie_order=order, mask=mask)


def test_a_nearest_batch_over_objects_too_far_apart_for_cells_answers():
    # Cells of 1e300 place objects at -1e308 and 1e308, whose extent overflows:
    # a batch cannot lay them out on cells of its own (it hung, doubling a
    # cell size that never fit), so it searches the grid's table as single
    # searches do, and answers as brute force does.
    grid = UniformGrid(1e300)
    ids = grid.insert_circles(np.array([[-1e308, 0.0], [1e308, 0.0], [0.0, 0.0], [5.0, 0.0]]), 1.0)
    points = np.array([[0.0, 0.0], [1e308, 1.0], [-1e308, 0.0], [3.0, 1e300]])
    oracle = oracle_pairs(grid, ids)
    for k in (1, 2, 4):
        offsets, got, _ = grid.query_nearest_many(points, k)
        for j, (x, y) in enumerate(points.tolist()):
            expected = oracle.query_nearest((x, y), k, tie_order=lambda i: i)
            assert got[offsets[j]:offsets[j + 1]].tolist() == expected == grid.query_nearest(x, y, k)


@pytest.mark.parametrize("grid", [UniformGrid(1e-3), HierarchicalGrid()], ids=["uniform", "hierarchical"])
def test_nearest_reaches_an_object_whose_distance_squared_underflows(grid):
    # 2.4e-271 away: its square underflows, so the distance computes as 0 and
    # the object is within a max_distance of 0, as brute force says.
    grid.insert_rect(0.0, 0.0, 0.0, 0.0)
    y = -2.3929336370377736e-271
    assert grid.query_nearest(0.0, y, 1, 0.0) == [0]
    assert grid.query_nearest_many(np.array([[0.0, y]]), 1, 0.0)[1].tolist() == [0]


@settings(max_examples=60, deadline=None)
@given(rows=ROWS, rays=arrays(np.float64, (6, 4), elements=st.floats(-20, 50)),
       all_hits=st.booleans(), hierarchical=st.booleans())
def test_raycast_many_matches_single_casts(rows, rays, all_hits, hierarchical):
    pos, size, radii = rows
    half = len(pos) // 2
    grid = HierarchicalGrid() if hierarchical else UniformGrid(5.0)
    grid.insert_rects(np.hstack([pos[:half], size[:half]]))
    grid.insert_circles(pos[half:], radii[half:])
    rays[1, 2:] = rays[1, :2]                       # a zero-length ray
    offsets, ids, fractions, points, normals = grid.raycast_many(rays, all_hits)
    assert offsets.shape == (7,) and offsets[0] == 0 and offsets[-1] == len(ids)
    assert points.shape == normals.shape == (len(ids), 2) and fractions.shape == (len(ids),)
    for j, (x0, y0, x1, y1) in enumerate(rays.tolist()):
        expected = grid.raycast_all(x0, y0, x1, y1)
        if not all_hits:
            expected = expected[:1]
        got = [(i, f, tuple(p), tuple(n)) for i, f, p, n in zip(
            ids[offsets[j]:offsets[j + 1]].tolist(), fractions[offsets[j]:offsets[j + 1]].tolist(),
            points[offsets[j]:offsets[j + 1]].tolist(), normals[offsets[j]:offsets[j + 1]].tolist())]
        assert got == expected


def test_raycast_many_checks_every_ray_first():
    grid = UniformGrid(1.0)
    grid.insert_rect(0, 0, 1, 1)
    with pytest.raises(ValueError, match=r"rays\[1\]: ray end must be finite, got \(nan, 0.0\)"):
        grid.raycast_many([(0, 0.5, 5, 0.5), (0, 0, np.nan, 0)])
    with pytest.raises(ValueError, match=r"rays\[0\]: ray .*too far"):
        grid.raycast_many([(0, 0, 1e300, 0)])
    with pytest.raises(ValueError, match="rays"):
        grid.raycast_many(np.zeros((2, 3)))
    assert grid.raycast_many(np.empty((0, 4)))[0].tolist() == [0]


@pytest.mark.parametrize("origin", [(0.0, 0.0), (-3e8, 5e8)])
@pytest.mark.parametrize("row", [(2.6e8, 0.0, 1.0, 1.0), (1.07e9, 0.0, 1.0, 1.0), (1.08e9, 0.0, 1.0, 1.0),
                                 (0.0, -1.08e9, 1.0, 1.0), (5e8, 0.0, 6e8, 1.0), (5e8, 0.0, 5.7e8, 1.0)])
def test_uniform_batches_refuse_exactly_what_single_calls_refuse(origin, row):
    """Batches check their rows with a quick bound first; near the cell-index
    limit the verdict must be the single call's."""
    single = UniformGrid(1.0, origin)
    try:
        single.insert_rect(*row)
        refused = False
    except ValueError:
        refused = True
    grid = UniformGrid(1.0, origin)
    grid.insert_rects([(0, 0, 1, 1), (5, 5, 1, 1)])
    if refused:
        with pytest.raises(ValueError, match=r"rects\[1\]"):
            grid.update_rects([0, 1], [(0, 0, 1, 1), row])
        assert grid.bounds(1) == (5.0, 5.0, 1.0, 1.0)
    else:
        grid.update_rects([0, 1], [(0, 0, 1, 1), row])
        assert grid.bounds(1) == row


def test_pair_ids_reuses_the_out_buffer():
    grid = UniformGrid(4.0)
    grid.insert_rects([[0, 0, 2, 2], [1, 1, 2, 2], [10, 10, 1, 1], [10.5, 10, 1, 1]])
    out = np.empty((10, 2), np.int32)
    pairs = grid.pair_ids(out)
    assert pairs.base is out and sorted(map(tuple, pairs.tolist())) == [(0, 1), (2, 3)]
    assert grid.pair_ids(np.empty((1, 2), np.int32)).shape == (2, 2)   # too small: a new array
    for wrong in (np.empty((10, 3), np.int32), np.empty((10, 2), np.int64),
                  np.empty((20, 2), np.int32)[::2], [[0, 0]] * 10):
        with pytest.raises(ValueError, match="out must be an"):
            grid.pair_ids(wrong)


def test_batch_accepts_any_buffer_and_handles():
    grid = UniformGrid(8.0)
    ids = grid.insert_rects([(0, 0, 1, 1), (0.5, 0.5, 1, 1)], handles=["a", "b"])
    assert grid.pairs() == [("a", "b")]
    grid.update_rects(ids.astype(np.int32), np.array([[100, 100, 1, 1], [0, 0, 1, 1]], np.float32))
    assert grid.pairs() == []
    more = grid.insert_circles(np.array([[100.5, 100.5]]), 0.25)
    assert grid.handle(int(more[0])) == int(more[0])
    assert grid.pair_ids().tolist() == [[0, 2]]
    grid.remove_many(ids)
    assert len(grid) == 1 and grid.pair_ids().shape == (0, 2)


def snapshot(grid):
    return ([(i, grid.bounds(i), grid.handle(i)) for i in grid.ids()],
            sorted(map(tuple, grid.pair_ids().tolist())), grid.stats()["memberships"])


@pytest.mark.parametrize("call,error,named", [
    (lambda g: g.insert_rects([[0, 0, 1, 1], [0, 0, -1, 1]]), ValueError, "rects[1]: width"),
    (lambda g: g.insert_rects([[0, 0, 1, 1], [np.nan, 0, 1, 1]]), ValueError, "rects[1]: x"),
    (lambda g: g.insert_rects(np.zeros((3, 3))), ValueError, "(n, 4)"),
    (lambda g: g.insert_rects([[0, 0, 1, 1]], handles=["a", "b"]), ValueError, "handles"),
    (lambda g: g.insert_circles([[0, 0], [1, 1]], [1, -1]), ValueError, "circles[1]: radius"),
    (lambda g: g.insert_circles([[0, 0]], [1, 2]), ValueError, "radii"),
    (lambda g: g.update_rects([0, 1], [[0, 0, 1, 1], [1e300, 0, 1, 1]]), ValueError, "rects[1]"),
    (lambda g: g.update_rects([0, 99], [[0, 0, 1, 1], [0, 0, 1, 1]]), KeyError, "ids[1]"),
    (lambda g: g.update_rects([0], [[0, 0, 1, 1], [0, 0, 1, 1]]), ValueError, "1 ids but 2"),
    (lambda g: g.update_circles([0, 1], [[0, 0], [0, np.inf]], 1.0), ValueError, "circles[1]: y"),
    (lambda g: g.update_rects([0.5], [[0, 0, 1, 1]]), TypeError, "integer"),
    (lambda g: g.update_rects([1, 0, 1], [[0, 0, 1, 1]] * 3), ValueError, "ids[2] repeats id 1"),
    (lambda g: g.remove_many([0, 0]), ValueError, "duplicates"),
    (lambda g: g.remove_many([0, 7]), KeyError, "ids[1]"),
    (lambda g: g.query_rects([[0, 0, 1, 1], [0, 0, 1, -1]]), ValueError, "rects[1]: height"),
])
def test_rejected_batches_change_nothing(call, error, named):
    grid = UniformGrid(4.0)
    grid.insert_rects([[0, 0, 3, 3], [2, 2, 3, 3], [50, 50, 1, 1]], handles=["p", "q", "r"])
    before = snapshot(grid)
    with pytest.raises(error) as info:
        call(grid)
    assert named in str(info.value)
    assert snapshot(grid) == before


@pytest.mark.parametrize("grid_class", [UniformGrid, HierarchicalGrid])
def test_a_batch_of_ids_out_of_order_is_checked_and_forgotten(grid_class):
    """Ids that do not come in increasing order are checked for a repeat one by
    one (over more ids than one word of marks); a rejected batch, whatever
    stopped it, leaves them free to come again in the next."""
    grid = grid_class(4.0) if grid_class is UniformGrid else grid_class()
    ids = grid.insert_rects(np.array([[3.0 * i, 0, 1, 1] for i in range(130)]))
    backwards = ids[::-1].copy()
    moved = np.array([[3.0 * i, 10, 1, 1] for i in backwards.tolist()])
    with pytest.raises(ValueError, match=r"ids\[130\] repeats id 129"):
        grid.update_rects(np.append(backwards, 129), np.vstack([moved, moved[:1]]))
    with pytest.raises(KeyError, match=r"ids\[2\]: no object with id 130"):
        grid.update_rects([70, 3, 130], moved[:3])
    grid.validate()
    assert [grid.bounds(i) for i in (0, 129)] == [(0, 0, 1, 1), (387, 0, 1, 1)]
    grid.update_rects(backwards, moved)
    grid.update_rects(backwards, moved)
    grid.validate()
    assert [grid.bounds(i) for i in ids.tolist()] == [(3.0 * i, 10, 1, 1) for i in range(130)]
    grid.remove_many(backwards[:65])
    grid.validate()
    assert grid.ids() == list(range(65))


def test_benchmark_methods_agree_on_small_scenes():
    """The benchmark's own cross-check on tiny scenes: every peer and both of this
    library's APIs must report identical pairs (behaviour, not timing), in 2D
    and, for the methods that have a 3D form, in 3D."""
    from spatial_hash import bench
    from spatial_hash.bench import peers, scenes
    sizes = {"uniform": [300], "mixed": [300], "clustered": [300], "bullets": [600],
             "uniform3d": [300], "clustered3d": [300], "mixed3d": [300]}
    records, problems = bench.run(sizes, peers.METHODS, frames=1, full=True)
    assert problems == []
    counted = [r for r in records if not r["skipped"]]
    raced = sum(scenes.dimension(name) in m.dims for name in sizes for m in peers.METHODS)
    assert len(counted) == raced == 4 * len(peers.METHODS) + 3 * (len(peers.METHODS) - 3)
    assert all(r["pairs"] > 0 for r in counted)
    text = bench.table(records)
    assert text.count("x slower") == raced - len(sizes)
    assert text.count("best") == len(sizes)


def test_table_ratios_are_against_the_fastest_batch_method():
    from spatial_hash import bench
    records = [{"scene": "s", "n": 10, "method": m, "ms_per_frame": t, "skipped": False}
               for m, t in (("peer", 12.0), (bench.UNIFORM, 6.0), (bench.HIERARCHICAL, 3.0))]
    lines = bench.table(records).splitlines()
    assert lines[1].endswith("4.0x slower") and lines[2].endswith("2.0x slower")
    assert lines[3].endswith("best")


def test_benchmark_reports_disagreement():
    from spatial_hash import bench
    same = np.array([[0, 1], [2, 3]])
    assert bench.check_agreement([("s", 5, "a", same), ("s", 5, "b", same)]) == []
    problems = bench.check_agreement([("s", 5, "a", same[:1]), ("s", 5, "b", same)])
    assert problems == ["s N=5: a reports 1 pairs, b 2"]


def test_plot_and_snapshot_write_pngs(tmp_path):
    from spatial_hash import bench
    records = [{"scene": "uniform", "n": n, "method": m, "ms_per_frame": t, "skipped": False}
               for n, t in ((1000, 1.0), (10000, 9.0)) for m in ("a", "b")]
    bench.plot(records, tmp_path / "scaling.png")
    assert bench.main(["--snapshot", str(tmp_path / "snap.png")]) == 0
    for name in ("scaling.png", "snap.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_scene_step_moves_and_bounces_inside_the_world():
    from spatial_hash.bench import scenes
    for make in (scenes.uniform, scenes.bullets):
        scene = make(2000)
        start, vel = scene.pos.copy(), scene.vel.copy()
        scene.step(0.01)
        kept = (scene.vel == vel).all(axis=1)
        assert kept.sum() > 1900      # few objects are at a wall
        assert np.array_equal(scene.pos[kept], start[kept] + vel[kept] * 0.01)
        hi = np.asarray(scene.world) - (scene.extent if scene.kind == "box" else 0.0)
        for _ in range(300):
            scene.step(0.5)
            assert (scene.pos >= 0).all() and (scene.pos <= hi).all()


@pytest.mark.parametrize("make", [lambda: UniformGrid(4.0), lambda: HierarchicalGrid()])
def test_phase_times_follow_the_calls_that_ran(make):
    grid = make()
    assert grid.last_phase_ms() == {"moves": 0.0, "relinks": 0.0, "pairs": 0.0}
    rng = np.random.default_rng(2)
    centers = rng.uniform(0, 400, (5000, 2))
    ids = grid.insert_circles(centers, 1.0)
    grid.update_circles(ids, centers + 3.0, 1.0)     # every object changes cells
    moved = grid.last_phase_ms()
    assert moved["moves"] >= 0.0 and moved["relinks"] > 0.0 and moved["pairs"] == 0.0
    grid.pair_ids()
    timed = grid.last_phase_ms()
    assert timed["pairs"] > 0.0 and (timed["moves"], timed["relinks"]) == (moved["moves"], moved["relinks"])
    grid.candidate_ids()
    grid.update_rect(0, 1.0, 1.0, 1.0, 1.0)
    assert grid.last_phase_ms() == timed          # neither a candidate pass nor a single call


def test_busy_processes_run_in_the_block_and_always_stop():
    from spatial_hash.bench.busy import busy_processes
    with busy_processes(2) as workers:
        assert len(workers) == 2 and all(w.is_alive() for w in workers)
    assert [w.exitcode for w in workers] == [0, 0]      # stopped by the event, not killed
    for failure in (RuntimeError, KeyboardInterrupt):
        with pytest.raises(failure):
            with busy_processes(2) as workers:
                raise failure("the timed body failed")
        assert not any(w.is_alive() for w in workers)


class PhasedGrid:
    """A uniform grid whose phase split is known: every call's moves one ms
    more than the last."""
    calls = 0

    def __init__(self, cell_size):
        self.grid = UniformGrid(cell_size)

    def __getattr__(self, name):
        return getattr(self.grid, name)

    def last_phase_ms(self):
        PhasedGrid.calls += 1
        return {"moves": float(PhasedGrid.calls), "relinks": 0.5, "pairs": 0.25}


def test_benchmark_records_the_phases_of_indexes_that_report_them(monkeypatch):
    from spatial_hash import bench
    from spatial_hash.bench import peers
    monkeypatch.setattr(peers.BatchAPI, "make_index", lambda self, scene: PhasedGrid(scene.cell_size))
    monkeypatch.setattr(PhasedGrid, "calls", 0)
    records, problems = bench.run({"uniform": [300]}, [peers.BatchAPI, peers.HierarchicalBatchAPI],
                                  frames=3, full=False)
    assert problems == []
    uniform, hierarchical = records
    assert uniform["phases_ms"]["moves"] == {"median": 2.0, "best": 1.0, "frame_ms": [1.0, 2.0, 3.0]}
    assert uniform["phases_ms"]["pairs"]["best"] == 0.25 and set(uniform["phases_ms"]) == {"moves", "relinks", "pairs"}
    assert set(hierarchical["phases_ms"]) == {"moves", "relinks", "pairs"}
    assert all(len(times["frame_ms"]) == 3 and times["best"] >= 0.0
               for times in hierarchical["phases_ms"].values())
    lines = bench.phase_report(records).splitlines()
    assert len(lines) == 2 and bench.UNIFORM in lines[0] and bench.HIERARCHICAL in lines[1]
    assert "moves" in lines[0] and "relinks 0.50 + pairs 0.25 + other" in lines[0]


def quick_bench(monkeypatch):
    """Make a benchmark run's sections after the frames (per-object calls, nearest,
    rays, memory) quick: small sizes, or fixed figures for the per-object calls."""
    from spatial_hash import bench
    monkeypatch.setattr(bench, "per_object_best", lambda: {
        "n": 1, "update_same_cells_us": 0.5, "query_nearby_us": 0.5, "query_nearby_warm_us": 0.5,
        "query_nearby_warm_results": 10, "query_nearby_mean_results": 10.0})
    small_nearest, small_rays = bench.nearest.nearest_costs, bench.rays.ray_costs
    monkeypatch.setattr(bench.nearest, "nearest_costs",
                        lambda radius: small_nearest(n=500, queries=40, radius=radius))
    monkeypatch.setattr(bench.rays, "ray_costs",
                        lambda: small_rays(n=500, rays=40, shapely_rays=30, numpy_rays=20))
    small_memory = bench.memory.memory_costs
    monkeypatch.setattr(bench.memory, "memory_costs", lambda: small_memory(n=2000))


def test_contended_run_writes_both_loads(tmp_path, monkeypatch, capsys):
    import json
    from spatial_hash import bench
    quick_bench(monkeypatch)
    argv = ["--contended", "--scenes", "uniform", "--sizes", "1000", "--frames", "2", "--out", str(tmp_path)]
    assert bench.main(argv) == 0
    results = json.loads((tmp_path / "results.json").read_text())
    assert [costs["radius"] for costs in results["nearest"]] == list(bench.nearest.RADII)
    for costs in results["nearest"]:
        assert costs["agree"] and set(costs["ms"]) == set(costs["first_ms"]) \
            == {"uniform grid", "hierarchical grid", "scipy cKDTree"}
        assert all(costs["first_ms"][m] >= costs["ms"][m] for m in costs["ms"])
    assert results["rays"]["agree"] and set(results["rays"]["us_per_ray"]) == {
        "uniform grid", "hierarchical grid", "numpy brute force", "shapely STRtree"}
    loads = [r["load"] for r in results["records"]]
    assert loads.count("idle") == loads.count("contended") == len(loads) // 2 > 0
    assert results["busy_processes"] == (os.cpu_count() or 1)
    out = capsys.readouterr().out
    if bench.peers.THREADS > 1:      # on one core there is no threaded method to compare
        for grid, goals in bench.THREAD_TARGETS.items():
            for load, goal in goals.items():
                line = next(line for line in out.splitlines() if line.startswith(
                    f"  - {grid} grid, {bench.peers.THREADS} threads vs one thread at uniform N=1,000, {load}: "))
                # 1,000 objects take no second thread: a ratio, but not a target.
                assert line.endswith("no loop takes a second thread below 16,384 objects, so not a target")
        # Where loops take threads, each grid's ratio meets its target or not.
        records = [{"grid": grid, "scene": "uniform", "n": bench.THREADED_FROM, "load": "idle",
                    "frames": 3, "ratio": 0.5, "fastest_ratio": 0.5} for grid in bench.THREAD_TARGETS]
        micro = {"update_same_cells_us": 0.2, "query_nearby_us": 0.5, "query_nearby_mean_results": 10,
                 "query_nearby_warm_us": 0.3, "query_nearby_warm_results": 10}
        lines = bench.targets_report(results["records"], micro, records).splitlines()
        for grid, goals in bench.THREAD_TARGETS.items():
            assert (f"  - {grid} grid, {bench.peers.THREADS} threads vs one thread at uniform N=16,384, idle: "
                    f"0.50x (target at most {goals['idle']:g}x): met (median over 3 frames taken in turn; "
                    f"fastest frames 0.50x)") in lines


def test_nearest_benchmark_checks_every_method_against_ckdtree():
    from spatial_hash.bench import nearest
    costs = nearest.nearest_costs(n=3000, queries=200, k=5, rounds=1)
    assert costs["agree"] and costs["k"] == 5 and all(ms > 0 for ms in costs["ms"].values())
    lines = nearest.report(costs).splitlines()
    assert "same distances from every method: yes" in lines[0] and len(lines) == 4
    costs["agree"] = False
    assert "same distances from every method: NO" in nearest.report(costs)


def test_ray_benchmark_checks_every_method_against_numpy():
    from spatial_hash.bench import rays
    costs = rays.ray_costs(n=3000, rays=150, shapely_rays=100, numpy_rays=60, rounds=1)
    assert costs["agree"] and all(us > 0 for us in costs["us_per_ray"].values())
    lines = rays.report(costs).splitlines()
    assert "same hits from every method: yes" in lines[0] and len(lines) == 5
    segments = np.array([[0.0, 0.5, 10.0, 0.5], [0.0, 5.0, 10.0, 5.0], [3.0, 0.5, 3.0, 0.5]])
    boxes = np.array([[4.0, 0.0, 5.0, 1.0], [2.0, 0.0, 3.0, 1.0], [2.0, 0.0, 3.0, 1.0]])
    hits, fractions = rays.numpy_first_hits(boxes, segments)
    assert hits.tolist() == [1, -1, 1] and fractions.tolist() == [0.2, math.inf, 0.0]
    assert rays.shapely_first_fractions(boxes, segments[:2]).tolist() == [0.2, math.inf]


def test_race_takes_one_frame_of_each_method_in_turn():
    """Each method runs on its own copy of the scene, one frame of each in turn,
    the first to go moving one place on every frame, for at least the frames
    asked; all end on the same frame, so their pairs can be compared."""
    from spatial_hash.bench import peers, scenes
    calls = []

    def named(base, name):
        class Recording(base):
            def frame(self, scene):
                calls.append(name)
                return super().frame(scene)
        return Recording

    methods = [named(peers.HierarchicalBatchAPI, "a"), named(peers.BatchAPI, "b"),
               named(peers.KDTree, "c")]
    times, phases, pairs = peers.race(scenes.uniform(400), methods, frames=4)
    assert calls == ["a", "b", "c"] + ["a", "b", "c", "b", "c", "a", "c", "a", "b", "a", "b", "c"]
    assert [len(t) for t in times] == [4, 4, 4] and all(ms > 0 for t in times for ms in t)
    assert [len(p) for p in phases] == [4, 4, 0]         # cKDTree reports no phases
    assert len(pairs[0]) > 0 and all((p == pairs[0]).all() for p in pairs)


def test_threads_are_timed_against_one_thread_with_frames_in_turn(monkeypatch):
    """A record per grid and scene, its ratio the median of the per-frame
    ratios, and a disagreement between the two reported."""
    from spatial_hash.bench import peers, threads
    records = threads.thread_costs({"uniform": [400], "bullets": [300]}, frames=3, load="idle",
                                   min_seconds=0.0)
    if peers.THREADS < 2:
        assert records == []
        return
    assert [(r["grid"], r["scene"], r["n"], r["load"], r["frames"]) for r in records] == [
        (grid, scene, n, "idle", 3) for grid in ("uniform", "hierarchical")
        for scene, n in (("uniform", 400), ("bullets", 300))]
    for r in records:
        one, many = r["one_thread_frame_ms"], r["threads_frame_ms"]
        assert r["pairs_agree"] and len(one) == len(many) == 3
        assert r["ratio"] == sorted(t / o for o, t in zip(one, many))[1]
        assert r["fastest_ratio"] == min(many) / min(one) and r["one_thread_ms"] == min(one)

    class Wrong(peers.ThreadedHierarchicalBatchAPI):
        def frame(self, scene):
            return super().frame(scene)[:-1]
    monkeypatch.setattr(threads, "PAIRED", {"hierarchical": (peers.HierarchicalBatchAPI, Wrong)})
    assert [r["pairs_agree"] for r in threads.thread_costs({"uniform": [400]}, 2, "idle", 0.0)] == [False]


@pytest.mark.parametrize("make", [lambda: UniformGrid(8.0), lambda: HierarchicalGrid()])
def test_update_packed_moves_like_update_rects_from_32_bit_corners_and_sizes(make):
    rng = np.random.default_rng(9)
    corners = rng.uniform(-500, 500, (300, 2)).astype(np.float32)
    sizes = rng.choice([0.0, 1.0, 7.5, 40.0, 900.0], (300, 2)).astype(np.float32)
    a, b = make(), make()
    ids = a.insert_rects(np.zeros((300, 4))).tolist()
    b.insert_rects(np.zeros((300, 4)))
    a.update_packed(ids, corners, sizes)
    b.update_rects(np.array(ids), np.concatenate([corners, sizes], axis=1).astype(np.float64))
    assert [a.bounds(i) for i in ids] == [b.bounds(i) for i in ids]
    assert a.pair_ids().tolist() == b.pair_ids().tolist()
    a.validate()
    far = corners.copy()
    far[3] = (2e9, -3e9)                # past the safe bound, still placeable: checked row by row
    if isinstance(a, UniformGrid):
        a.update_packed(ids, far, sizes)
        assert a.bounds(ids[3])[:2] == (2e9, -3e9)
    before = [a.bounds(i) for i in ids]
    for bad, message in (((7, 0, np.nan), "rects[7]: x must be a finite number"),
                         ((8, 1, np.inf), "rects[8]: y"),):
        broken = corners.copy()
        broken[bad[0], bad[1]] = bad[2]
        with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
            a.update_packed(ids, broken, sizes)
    negative = sizes.copy()
    negative[5, 0] = -1
    with pytest.raises(ValueError, match=r"rects\[5\]: width"):
        a.update_packed(ids, corners, negative)
    with pytest.raises(ValueError, match="corners and sizes"):
        a.update_packed(ids, corners, sizes[:-1])
    with pytest.raises(ValueError, match="300 ids but 2 rows"):
        a.update_packed(ids, corners[:2], sizes[:2])
    with pytest.raises(ValueError):
        a.update_packed(ids, corners.astype(np.float64), sizes)         # float32 only
    assert [a.bounds(i) for i in ids] == before
    a.validate()


@pytest.mark.parametrize("make, old", [(lambda: UniformGrid(8.0), "update_boxes"),
                                       (lambda: HierarchicalGrid(), "update_boxes"),
                                       (lambda: UniformGrid3D(2.0), "update_aabbs"),
                                       (lambda: HierarchicalGrid3D(), "update_aabbs")])
def test_the_packed_moves_old_names_warn_and_move_alike(make, old):
    """update_boxes (2D) and update_aabbs (3D) were this call's names; in 3D
    update_boxes is the move from float64 rows, so the one name is update_packed."""
    grid = make()
    d = 2 if isinstance(grid, (UniformGrid, HierarchicalGrid)) else 3
    rows = np.zeros((3, 2 * d))
    ids = (grid.insert_rects if d == 2 else grid.insert_boxes)(rows)
    corners = np.arange(3 * d, dtype=np.float32).reshape(3, d)
    sizes = np.ones((3, d), dtype=np.float32)
    with pytest.warns(DeprecationWarning, match=f"{old} is deprecated: it is update_packed") as caught:
        getattr(grid, old)(ids, corners, sizes)
    assert caught[0].filename == __file__
    fresh = make()
    fresh_ids = (fresh.insert_rects if d == 2 else fresh.insert_boxes)(rows)
    fresh.update_packed(fresh_ids, corners, sizes)
    assert [grid.bounds(i) for i in ids.tolist()] == [fresh.bounds(i) for i in fresh_ids.tolist()]
    with pytest.raises(ValueError, match="corners and sizes"), pytest.warns(DeprecationWarning):
        getattr(grid, old)(ids, corners, sizes[:2])
