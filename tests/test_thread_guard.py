"""Two threads on one index: whatever the interleaving, a call that meets another
thread's call inside the index raises RuntimeError; the index is never broken
(no id handed out twice, len() equal to the live ids, validate() passing, pairs
equal to brute force)."""
import sys
import threading

import numpy as np
import pytest

from spatial_hash import (BruteForce, BruteForce3D, HierarchicalGrid, HierarchicalGrid3D,
                          UniformGrid, UniformGrid3D)

ROUNDS = 6
N = 60_000
# The single-object thread inserts at most this many objects, however long the
# batches take, so that the check against the brute force stays small; past it
# it only queries, still meeting the batches.
SINGLES = 1500


def retry(call, refused):
    while True:
        try:
            return call()
        except RuntimeError:
            refused.append(1)


@pytest.mark.parametrize("make,d", [(lambda: UniformGrid(4.0), 2), (lambda: HierarchicalGrid(), 2),
                                    (lambda: UniformGrid3D(4.0), 3), (lambda: HierarchicalGrid3D(), 3)],
                         ids=["uniform", "hierarchical", "uniform3d", "hierarchical3d"])
def test_a_busy_index_refuses_and_stays_whole(make, d):
    box, boxes = ("rect", "rects") if d == 2 else ("box", "boxes")
    switch_interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)     # switch threads as often as the interpreter can
    try:
        grid = make()
        insert_boxes, update_boxes = getattr(grid, "insert_" + boxes), getattr(grid, "update_" + boxes)
        query_boxes, insert_box = getattr(grid, "query_" + boxes), getattr(grid, "insert_" + box)
        query_box = getattr(grid, "query_" + box)
        rng = np.random.default_rng(5)
        rects = np.column_stack([rng.uniform(0, 3000, (N, d)), np.full((N, d), 2.0)])
        nudge = [1.0] + [0.0] * (2 * d - 1)
        batch_refused, single_refused, singles, problems = [], [], {}, []
        done = threading.Event()

        def batches():
            try:
                for k in range(ROUNDS):
                    ids = retry(lambda: insert_boxes(rects), batch_refused)
                    retry(lambda: update_boxes(ids, rects + nudge), batch_refused)
                    retry(grid.pair_ids, batch_refused)
                    retry(grid.candidate_ids, batch_refused)
                    retry(grid.validate, batch_refused)
                    retry(lambda: grid.copy_into(make()), batch_refused)
                    retry(lambda: query_boxes(rects[:500], True), batch_refused)
                    retry(lambda: grid.remove_many(ids), batch_refused)
            except Exception as error:      # anything but the guard's refusal is a failure
                problems.append(repr(error))
            finally:
                done.set()

        def singles_loop():
            k = 0
            while not done.is_set():
                if k >= SINGLES:
                    try:
                        query_box(*[-60.0] * d, *[20.0] * d)
                    except RuntimeError:
                        single_refused.append(1)
                    continue
                k += 1
                try:
                    i = insert_box(-50.0 - k, *[-50.0] * (d - 1), *[1.0] * d, ("single", k))
                    if i in singles:
                        problems.append(f"id {i} handed out twice")
                    singles[i] = k
                    query_box(*[-60.0] * d, *[20.0] * d)
                    if k % 3 == 0:
                        grid.remove(i)
                        del singles[i]
                except RuntimeError:
                    single_refused.append(1)

        threads = [threading.Thread(target=batches), threading.Thread(target=singles_loop)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert not any(t.is_alive() for t in threads)
    finally:
        sys.setswitchinterval(switch_interval)
    assert problems == []
    grid.validate()
    assert single_refused, "the single calls never met a batch in progress"
    live = list(grid.ids())
    assert len(grid) == len(live) == len(singles) and sorted(live) == sorted(singles)
    oracle = BruteForce() if d == 2 else BruteForce3D()
    for i in live:
        assert grid.handle(i) == ("single", singles[i])
        oracle.insert(i, grid.bounds(i))
    assert sorted(map(tuple, grid.pair_ids().tolist())) == sorted(oracle.pairs())
