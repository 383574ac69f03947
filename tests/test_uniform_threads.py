"""The uniform grid's pair pass on several threads: the same pairs in the same
order, and the same counters, as on one, each checked against brute force; a
table whose edges objects straddle; bad thread counts refused; the
object-keyed uniform classes' threads."""
import re

import numpy as np
import pytest

from spatial_hash import (OptimizedSpatialHash, OptimizedSpatialHash3D, SpatialHash, SpatialHash3D,
                          UniformGrid, UniformGrid3D)
from spatial_hash.bench import peers, scenes

GRIDS = {2: UniformGrid, 3: UniformGrid3D}
BALLS = {2: ("insert_circles", "update_circles"), 3: ("insert_spheres", "update_spheres")}


def counters(grid):
    return grid.narrow_phase_checks, grid.hits, grid.broad_phase_pairs


@pytest.mark.parametrize("cell", [1.0, 0.4], ids=["tuned cells", "objects over 2 cells a side"])
@pytest.mark.parametrize("dim", [2, 3])
def test_threads_give_the_pairs_of_one_thread_in_the_same_order(dim, cell):
    """20,000 objects, enough for the pass to take a second thread: every
    thread count returns one thread's array exactly, and brute force's pairs;
    with the tuned cells (each cell's forward half neighbourhood) and with
    cells small enough that objects cover more (each object's window)."""
    scene = scenes.uniform(20_000, seed=5, dim=dim)
    insert, update = BALLS[dim]
    grids = [GRIDS[dim](scene.cell_size * cell, large_threshold=8, threads=threads) for threads in (1, 2, 3, 8)]
    ids = [getattr(grid, insert)(scene.pos, scene.extent) for grid in grids]
    for frame in range(2):
        if frame:
            for _ in range(10):
                scene.step()
            for grid, grid_ids in zip(grids, ids):
                getattr(grid, update)(grid_ids, scene.pos, scene.extent)
        found = [grid.pair_ids() for grid in grids]
        for pairs in found[1:]:
            assert np.array_equal(pairs, found[0])
        assert len({counters(grid) for grid in grids}) == 1
        candidates = [grid.candidate_ids() for grid in grids]
        for pairs in candidates[1:]:
            assert np.array_equal(pairs, candidates[0])
        assert len(candidates[0]) == grids[0].narrow_phase_checks > len(found[0]) > 1000
        expected = peers.canonical_array(peers.NaiveAllPairs().frame(scene))
        assert np.array_equal(peers.canonical_array(ids[0][found[0]]), expected)


def test_filters_and_mixed_shapes_on_threads_match_one_thread():
    """Circles and boxes with collision layers: the filtered, mixed pass on
    threads keeps what one thread keeps."""
    rng = np.random.default_rng(11)
    n = 24_000
    pos = rng.uniform(0.0, 600.0, (n, 2))
    size = rng.uniform(0.5, 3.5, (n, 2))
    circles = rng.random(n) < 0.5
    layers = rng.choice([1, 2, 4], n)
    masks = rng.choice([1, 3, 0xFFFFFFFF], n)
    results = []
    for threads in (1, 2):
        grid = UniformGrid(4.0, threads=threads)
        grid.insert_circles(pos[circles], size[circles, 0] / 2, layers=layers[circles],
                            masks=masks[circles])
        grid.insert_rects(np.hstack([pos[~circles], size[~circles]]), layers=layers[~circles],
                          masks=masks[~circles])
        results.append((grid.pair_ids().tolist(), counters(grid), grid.candidate_ids().tolist()))
    assert results[0] == results[1]
    assert len(results[0][0]) > 1000


@pytest.mark.parametrize("dim", [2, 3])
def test_objects_straddling_the_tables_edges_match_brute_force(dim):
    """Cells of 1 and objects packed around cell 0 on every axis: cell -1 is
    the table's last column (row, layer), so the pass walks rows across the
    table's edge there; more objects around the table's side (16 or 32
    cells) add homes that wrap onto theirs."""
    rng = np.random.default_rng(dim)
    grid = GRIDS[dim](1.0)
    n = 600
    pos = rng.uniform(-2.5, 2.5, (n, dim))
    pos[: n // 3] += rng.choice([16.0, 32.0], (n // 3, dim))
    radii = rng.uniform(0.05, 0.45, n)
    insert, _ = BALLS[dim]
    ids = getattr(grid, insert)(pos, radii)
    assert grid.stats()["levels"][0]["grid"] in (16, 32)
    got = {(int(a), int(b)) for a, b in ids[grid.pair_ids()].tolist()}
    want = set()
    for i in range(n):
        reach = radii[i] + radii[i + 1:]
        delta = pos[i + 1:] - pos[i]
        boxes = (np.abs(delta) <= reach[:, None]).all(axis=1)
        close = (delta ** 2).sum(axis=1) <= reach ** 2
        want |= {(int(ids[i]), int(ids[i + 1 + j])) for j in np.flatnonzero(boxes & close)}
    assert {tuple(sorted(p)) for p in got} == want and len(want) > 100
    grid.validate()


@pytest.mark.parametrize("threads", [0, -1, 257, 1.5, True, "2", None])
@pytest.mark.parametrize("dim", [2, 3])
def test_bad_thread_counts_are_refused_by_name(dim, threads):
    with pytest.raises(ValueError, match=re.escape(f"threads must be an int from 1 to 256, got {threads!r}")):
        GRIDS[dim](1.0, threads=threads)


def test_threads_are_read_only_and_in_the_repr():
    grid = UniformGrid(2.0, threads=3)
    assert grid.threads == 3 and "threads=3" in repr(grid)
    with pytest.raises(AttributeError):
        grid.threads = 1
    assert UniformGrid3D(2.0).threads == 1



@pytest.mark.parametrize("index_class", [SpatialHash, OptimizedSpatialHash, SpatialHash3D,
                                         OptimizedSpatialHash3D])
def test_the_object_keyed_uniform_classes_take_threads(index_class):
    """Enough objects for the pair pass to take a second thread: the pairs of
    two threads are those of one, in the same order, before and after some
    move; a bad count is refused by name."""
    dim = 3 if index_class.__name__.endswith("3D") else 2
    put = "insert_sphere" if dim == 3 else "insert_circle"
    rng = np.random.default_rng(7)
    centers = rng.uniform(0.0, 260.0 if dim == 2 else 45.0, (20_000, dim)).tolist()
    pairs = []
    for threads in (1, 2):
        index = index_class(2.0, threads=threads)
        for k, center in enumerate(centers):
            getattr(index, put)(k, center, 0.5)
        first = index.pairs()
        for k in range(0, 20_000, 3):
            getattr(index, put)(k, [v + 0.3 for v in centers[k]], 0.5)
        pairs.append((first, index.pairs()))
    assert pairs[0] == pairs[1] and len(pairs[0][0]) > 1000 and pairs[0][0] != pairs[0][1]
    with pytest.raises(ValueError, match="threads must be an int from 1 to 256, got 0"):
        index_class(2.0, threads=0)


@pytest.mark.parametrize("threads", [2, 8])
def test_a_threaded_batch_move_that_grows_objects_keeps_the_spans(threads):
    """Rows of one batch grow their objects to different widths at once on
    several threads; the table's spans (how far a query looks back for homes)
    must end at the widest, as validate() checks, and the pairs be one
    thread's."""
    rng = np.random.default_rng(9)
    n = 40_000
    centers = rng.uniform(0.0, 800.0, (n, 2))
    grids = [UniformGrid(2.0, large_threshold=8, threads=t) for t in (1, threads)]
    ids = [grid.insert_circles(centers, 0.4) for grid in grids]
    radii = np.full(n, 0.4)
    for step in range(1, 4):
        grown = rng.random(n) < 0.3
        radii[grown] = rng.choice([0.4, 1.1 * step, 2.1 * step], int(grown.sum()))
        for grid, own in zip(grids, ids):
            grid.update_circles(own, centers, radii)
            grid.validate()
        assert grids[0].pair_ids().tolist() == grids[1].pair_ids().tolist()
