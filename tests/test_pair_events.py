"""Pair events: which pairs began and ended overlapping between two calls, each
once, against brute force; removals end pairs even when an id comes back."""
import numpy as np
import pytest

from oracle import Oracle
from spatial_hash import HierarchicalGrid, OptimizedSpatialHash, UniformGrid

GRIDS = [lambda: UniformGrid(4.0), lambda: UniformGrid(1.0, large_threshold=1),
         lambda: HierarchicalGrid(), lambda: HierarchicalGrid(threads=2)]
IDS = ["uniform", "uniform-large", "hierarchical", "hierarchical-2-threads"]


@pytest.fixture(params=GRIDS, ids=IDS)
def grid(request):
    return request.param()


def test_pairs_begin_once_and_end_once(grid):
    a = grid.insert_rect(0, 0, 2, 2, "a")
    b = grid.insert_rect(1, 1, 2, 2, "b")
    c = grid.insert_rect(10, 10, 1, 1, "c")
    assert grid.pair_events() == ([("a", "b")], [])
    assert grid.pair_events() == ([], [])
    grid.update_rect(c, 1.5, 1.5, 1, 1)
    began, ended = grid.pair_events()
    assert sorted(began) == [("a", "c"), ("b", "c")] and ended == []
    grid.update_rect(b, 50, 50, 1, 1)
    assert grid.pair_event_ids()[1].tolist() == [[a, b], [b, c]]
    assert grid.pair_events() == ([], [])


def test_removing_ends_pairs_even_when_the_id_comes_back(grid):
    a = grid.insert_rect(0, 0, 2, 2, "a")
    grid.insert_rect(1, 1, 2, 2, "b")
    grid.pair_events()
    grid.remove(a)
    d = grid.insert_rect(0, 0, 2, 2, "d")          # the same id, another object, same place
    assert d == a
    assert grid.pair_events() == ([("d", "b")], [("a", "b")])
    grid.remove(d)
    e = grid.insert_rect(0, 0, 2, 2, "e")
    grid.remove(e)
    assert grid.pair_events() == ([], [("d", "b")])  # e began and ended unseen: nothing


def test_clearing_ends_every_pair(grid):
    grid.insert_rects(np.array([[0, 0, 2, 2], [1, 1, 2, 2], [1.5, 0, 1, 1]]), ["a", "b", "c"])
    began, _ = grid.pair_events()
    grid.clear()
    began_after, ended = grid.pair_events()
    assert began_after == [] and sorted(ended) == sorted(began) and len(ended) == 3


def test_remove_many_ends_the_pairs_of_every_object_removed(grid):
    ids = grid.insert_rects(np.array([[0, 0, 2, 2], [1, 1, 2, 2], [1.5, 0, 1, 1], [9, 9, 1, 1]]),
                            ["a", "b", "c", "d"])
    grid.pair_events()
    grid.remove_many(ids[:2])
    assert sorted(grid.pair_events()[1]) == [("a", "b"), ("a", "c"), ("b", "c")]


@pytest.mark.parametrize("seed", range(3))
def test_frames_of_moves_match_brute_force_differences(grid, seed):
    rng = np.random.default_rng(seed)
    n = 300
    centers = rng.uniform(0, 40, (n, 2))
    radii = rng.choice([0.3, 1.0, 3.0], n)
    ids = grid.insert_circles(centers, radii)
    before = set()
    for frame in range(6):
        centers += rng.uniform(-1.0, 1.0, (n, 2))
        grid.update_circles(ids, centers, radii)
        gone = rng.choice(n, 5, replace=False) if frame == 3 else []
        for k in gone:
            grid.remove(int(ids[k]))
            ids[k] = grid.insert_circle(*centers[k], radii[k])     # back, as another object
        oracle = Oracle(1.0)
        for k, i in enumerate(ids.tolist()):
            oracle.insert_circle(i, centers[k], radii[k])
        renewed = {int(ids[k]) for k in gone}
        now = {frozenset(p) for p in oracle.pairs()}
        began, ended = (set(map(frozenset, a.tolist())) for a in grid.pair_event_ids())
        assert began == (now - before) | {p for p in now if p & renewed}
        assert ended == (before - now) | {p for p in before if p & renewed}
        before = now


def test_the_object_keyed_index_reports_objects():
    index = OptimizedSpatialHash(8.0)
    index.insert("ship", (0, 0, 4, 4))
    index.insert("rock", (3, 3, 4, 4))
    assert index.pair_events() == ([("ship", "rock")], [])
    index.remove("rock")
    assert index.pair_events() == ([], [("ship", "rock")])


@pytest.mark.parametrize("target", [lambda: UniformGrid(0.5), lambda: HierarchicalGrid()],
                         ids=["to-uniform", "to-hierarchical"])
def test_a_rebuild_by_copy_into_carries_the_events_on(grid, target):
    a = grid.insert_rect(0, 0, 2, 2, "a")
    b = grid.insert_rect(1, 1, 2, 2, "b")
    grid.insert_rect(1, 1, 1, 1, "c")
    grid.pair_events()
    grid.remove(a)
    grid.insert_rect(0, 0, 2, 2, "d")      # a's id, another object
    grid.update_rect(b, 50, 50, 1, 1)
    rebuilt = target()
    grid.copy_into(rebuilt)
    began, ended = rebuilt.pair_events()
    assert sorted(began) == [("d", "c")]
    assert sorted(ended) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert rebuilt.pair_events() == ([], [])


def test_end_pairs_of_ends_an_objects_reported_pairs_now_and_once(grid):
    a = grid.insert_rect(0, 0, 2, 2, "a")
    b = grid.insert_rect(1, 1, 2, 2, "b")
    c = grid.insert_rect(1, 1, 1, 1, "c")
    grid.insert_rect(1.5, 1.5, 1, 1, "late")        # not reported yet: not ended
    grid.remove(c)
    grid.insert_rect(9, 9, 1, 1, "e")               # c's id, another object
    assert grid.end_pairs_of(c) == []
    grid.pair_events()
    grid.remove(a)
    assert grid.end_pairs_of(b) == [("a", "b"), ("b", "late")]
    assert grid.end_pairs_of(b) == []
    began, ended = grid.pair_events()
    assert began == [("b", "late")] and ended == [("a", "late")]
    grid.remove(b)                                   # a removed object's pairs, until its id comes back
    assert grid.end_pairs_of(b) == [("b", "late")]
    assert grid.pair_events() == ([], [])
    with pytest.raises(KeyError, match="no object ever had the id 99"):
        grid.end_pairs_of(99)
