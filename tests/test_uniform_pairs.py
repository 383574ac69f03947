"""The uniform grid's pair pass on scenes chosen for each of its ways through
the table: small ranges (the cell-list kernel's forward half neighbourhoods),
wider ranges and windows that wrap around the table's side met object by
object, worlds wider than the table (homes alias), collision filters, and
circles, boxes and both. Every pass is checked against brute force: the pairs, the candidates
(pairs whose cell ranges meet and whose filters pass) and the counters."""
import numpy as np
import pytest

from oracle import ranges_meet
from spatial_hash import UniformGrid
from spatial_hash.brute_force import filters_pass


def expected(grid, ids, kinds, shapes, filters):
    """(pairs, candidates, shared cells) by testing every pair i < j of objects."""
    cells = [grid.cells_of(int(i)) for i in ids]
    large = [grid.is_large(int(i)) for i in ids]
    pairs, candidates, shared = set(), set(), 0
    for a in range(len(ids)):
        for b in range(a + 1, len(ids)):
            if not ranges_meet(cells[a], cells[b]):
                continue
            if large[a] or large[b]:
                shared += 1             # a large object meets each object once
            else:
                shared += ((min(cells[a][2], cells[b][2]) - max(cells[a][0], cells[b][0]) + 1)
                           * (min(cells[a][3], cells[b][3]) - max(cells[a][1], cells[b][1]) + 1))
            if not filters_pass(filters[a], filters[b]):
                continue
            key = (min(ids[a], ids[b]), max(ids[a], ids[b]))
            candidates.add(key)
            if touching(kinds[a], shapes[a], kinds[b], shapes[b]):
                pairs.add(key)
    return pairs, candidates, shared


def box_of(kind, s):
    return (s[0] - s[2], s[1] - s[2], s[0] + s[2], s[1] + s[2]) if kind == "circle" else \
        (s[0], s[1], s[0] + s[2], s[1] + s[3])


def touching(ka, a, kb, b):
    """The narrow phase as documented: closed boxes meet, then circles exactly."""
    ba, bb = box_of(ka, a), box_of(kb, b)
    if not (ba[0] <= bb[2] and bb[0] <= ba[2] and ba[1] <= bb[3] and bb[1] <= ba[3]):
        return False
    if ka == kb == "circle":
        dx, dy, rr = a[0] - b[0], a[1] - b[1], a[2] + b[2]
        return dx * dx + dy * dy <= rr * rr
    if "circle" in (ka, kb):
        (cx, cy, r), box = (a[:3], bb) if ka == "circle" else (b[:3], ba)
        px, py = min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3])
        return (cx - px) ** 2 + (cy - py) ** 2 <= r * r
    return True


def as_set(pairs):
    return {(int(a), int(b)) for a, b in pairs.tolist()}


SCENES = {
    # name: (cell, world half-width, sizes in cells (low, high), large_threshold)
    "small ranges": (4.0, 60.0, (0.1, 0.9), 4),
    "wide ranges": (4.0, 60.0, (0.5, 2.9), 4),
    "some large": (4.0, 60.0, (0.1, 5.0), 3),
    "ranges of up to 30 cells": (1.0, 60.0, (2.0, 30.0), 64),
    "world wider than the table": (1.0, 3000.0, (0.1, 0.9), 4),
    "dense cells": (16.0, 40.0, (0.05, 0.5), 4),
}


@pytest.mark.parametrize("kinds", ["circles", "boxes", "both"])
@pytest.mark.parametrize("layered", [False, True], ids=["no filters", "filters"])
@pytest.mark.parametrize("scene", sorted(SCENES))
def test_pairs_candidates_and_counters_equal_brute_force(scene, layered, kinds):
    cell, half, (lo, hi), threshold = SCENES[scene]
    rng = np.random.default_rng(len(scene) * 7 + layered)
    n = 300
    grid = UniformGrid(cell, origin=(-3.3, 1.7), large_threshold=threshold)
    pos = rng.uniform(-half, half, (n, 2))
    size = rng.uniform(lo * cell, hi * cell, (n, 2))
    kind = np.array({"circles": ["circle"] * n, "boxes": ["box"] * n,
                     "both": rng.choice(["circle", "box"], n).tolist()}[kinds])
    layers = rng.choice([1, 2, 3], n) if layered else np.ones(n, dtype=int)
    masks = rng.choice([1, 2, 0xFFFFFFFF], n) if layered else np.full(n, 0xFFFFFFFF)
    ids = np.empty(n, dtype=np.int64)
    circles = kind == "circle"
    ids[circles] = grid.insert_circles(pos[circles], size[circles, 0] / 2,
                                       layers=layers[circles], masks=masks[circles])
    ids[~circles] = grid.insert_rects(np.hstack([pos[~circles], size[~circles]]),
                                      layers=layers[~circles], masks=masks[~circles])
    filters = [(int(a), int(b)) for a, b in zip(layers, masks)]
    for frame in range(3):
        if frame:
            pos += rng.uniform(-cell, cell, (n, 2))
            order = rng.permutation(n) if frame == 2 else np.arange(n)
            grid.update_circles(ids[order][circles[order]], pos[order][circles[order]],
                                size[order][circles[order], 0] / 2)
            grid.update_rects(ids[order][~circles[order]],
                              np.hstack([pos[order], size[order]])[~circles[order]])
        shapes = [(x, y, w / 2) if k == "circle" else (x, y, w, h)
                  for (x, y), (w, h), k in zip(pos.tolist(), size.tolist(), kind)]
        want_pairs, want_candidates, want_shared = expected(grid, ids.tolist(), kind, shapes, filters)
        assert as_set(grid.pair_ids()) == want_pairs
        assert grid.narrow_phase_checks == len(want_candidates)
        assert grid.hits == len(want_pairs)
        assert grid.broad_phase_pairs == want_shared
        assert as_set(grid.candidate_ids()) == want_candidates
        grid.validate()


@pytest.mark.parametrize("boxes_by_frame", [[[], [7], [7, 50, 51], [], []], [[3], [], [3]]],
                         ids=["circles first", "a box first"])
def test_each_pass_lays_out_its_shapes_as_they_are_now(boxes_by_frame):
    """The cell-list kernel packs a pass's shapes as it packed the last pass's
    (circles alone as centre and radius while every shape was one) and packs
    them again when they changed kind: pass after pass, as circles turn into
    boxes and back, the pairs and counters equal brute force."""
    rng = np.random.default_rng(11)
    n = 200
    grid = UniformGrid(4.0)
    pos = rng.uniform(-40.0, 40.0, (n, 2))
    size = rng.uniform(0.4, 3.6, (n, 2))      # at most two cells a side: the kernel's pass
    ids = grid.insert_circles(pos, size[:, 0] / 2)
    everyone = [(1, 0xFFFFFFFF)] * n
    for boxes in boxes_by_frame:
        kind = np.array(["circle"] * n)
        kind[boxes] = "box"
        circles = kind == "circle"
        grid.update_circles(ids[circles], pos[circles], size[circles, 0] / 2)
        if boxes:
            grid.update_rects(ids[~circles], np.hstack([pos, size])[~circles])
        shapes = [(x, y, w / 2) if k == "circle" else (x, y, w, h)
                  for (x, y), (w, h), k in zip(pos.tolist(), size.tolist(), kind)]
        want_pairs, want_candidates, want_shared = expected(grid, ids.tolist(), kind, shapes, everyone)
        assert as_set(grid.pair_ids()) == want_pairs
        assert (grid.narrow_phase_checks, grid.hits, grid.broad_phase_pairs) == \
            (len(want_candidates), len(want_pairs), want_shared)
        grid.validate()
        pos += rng.uniform(-1.0, 1.0, (n, 2))


def test_broad_phase_pairs_count_the_last_pass_not_the_moves_after_it():
    """Shared cells are counted when asked, from what the pass packed: moves,
    candidate passes and removals after it leave them as the pass found them."""
    grid = UniformGrid(10.0)
    a = grid.insert_rect(5, 5, 10, 10)          # cells (0, 0) .. (1, 1)
    b = grid.insert_rect(6, 6, 10, 10)          # the same four
    c = grid.insert_rect(12, 2, 2, 2)           # cell (1, 0)
    grid.pair_ids()
    grid.update_rect(b, 100, 100, 1, 1)         # gone from every cell it shared
    grid.candidate_ids()
    grid.remove(c)
    # a and b share 4 cells, a and c one, b and c one: as the pass saw them.
    assert grid.broad_phase_pairs == 6
    assert grid.stats()["broad_phase_pairs"] == 6
    grid.pair_ids()
    assert grid.broad_phase_pairs == 0
    assert (grid.narrow_phase_checks, grid.hits) == (0, 0)


def test_increasing_batch_ids_naming_a_removed_object_are_refused_by_position():
    """Ids in increasing order are checked without stamps; a dead one among them
    is still named by its position, and nothing moves."""
    grid = UniformGrid(1.0)
    ids = grid.insert_rects(np.array([[k, 0, 0.5, 0.5] for k in range(5)], float))
    grid.remove(int(ids[3]))
    before = [grid.bounds(int(i)) for i in ids[[0, 1, 2, 4]]]
    with pytest.raises(KeyError, match=r"ids\[3\]"):
        grid.update_rects(ids, np.zeros((5, 4)))
    assert [grid.bounds(int(i)) for i in ids[[0, 1, 2, 4]]] == before
    with pytest.raises(ValueError, match="duplicates"):
        grid.update_rects(np.array([0, 1, 1]), np.zeros((3, 4)))


def test_homes_one_cell_short_of_the_table_side_apart_are_no_candidates():
    """Homes 15 cells apart in a table 16 cells wide wrap into neighbouring
    cells; the pass must not take them for neighbours (an earlier one did: a
    candidate pair whose ranges do not meet)."""
    grid = UniformGrid(1.0)
    assert grid.stats()["levels"][0]["grid"] == 16
    grid.insert_rect(-9.0, 7.0, 0.0, 1.0)
    grid.insert_circle(6.0, 8.0, 0.0)
    grid.insert_rect(-8.5, 7.5, 0.0, 0.0)       # shares the first one's cell: a real candidate
    assert grid.candidate_ids().tolist() == [[0, 2]]
    assert grid.pair_ids().tolist() == [] and grid.narrow_phase_checks == 1


@pytest.mark.parametrize("swap", ["remove and insert", "to and from the large list"])
def test_a_table_that_changed_objects_but_not_their_count_gets_new_pairs(swap):
    """The pass sorts the table in the last pass's order while the table holds
    the same objects: one leaving and another entering between passes (its
    count unchanged) must be seen."""
    grid = UniformGrid(2.0, large_threshold=2)
    a = grid.insert_circle(0.0, 0.0, 0.5)
    b = grid.insert_circle(0.5, 0.0, 0.5)
    far = grid.insert_circle(50.0, 50.0, 0.5)
    assert grid.pair_ids().tolist() == [[a, b]]
    if swap == "remove and insert":
        grid.remove(far)
        c = grid.insert_circle(0.0, 0.5, 0.5)
    else:
        grid.update_circle(far, 50.0, 50.0, 20.0)          # onto the large list
        c = grid.insert_circle(0.0, 0.5, 0.5)
        grid.update_circle(a, 30.0, 0.0, 20.0)             # a leaves the table, far from all
        grid.update_circle(far, 0.0, 0.0, 0.5)             # and far comes back, onto a
    pairs = sorted(map(tuple, grid.pair_ids().tolist()))
    if swap == "remove and insert":
        assert pairs == [(a, b), (a, c), (b, c)]
    else:
        assert pairs == sorted(tuple(sorted(p)) for p in [(b, c), (b, far), (c, far)])
    grid.validate()
