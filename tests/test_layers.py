"""Collision layers and masks: Godot's rule for pairs, query masks, batches,
events on a change of layer, and bad layers refused without a change, on both
grids, against brute force."""
import numpy as np
import pytest

from oracle import same_pairs
from spatial_hash import BruteForce, HierarchicalGrid, UniformGrid
from spatial_hash._core import ALL_LAYERS

GRIDS = [lambda: UniformGrid(4.0), lambda: UniformGrid(1.0, large_threshold=1),
         lambda: HierarchicalGrid(), lambda: HierarchicalGrid(threads=2)]
IDS = ["uniform", "uniform-large", "hierarchical", "hierarchical-2-threads"]
BITS = [0, 1, 2, 3, 4, 6, 0x80000000, ALL_LAYERS]


@pytest.fixture(params=GRIDS, ids=IDS)
def grid(request):
    return request.param()


def scene(grid, n=300, seed=3):
    """n boxes and discs with random layers and masks, in the grid and in brute force."""
    rng = np.random.default_rng(seed)
    rects = np.c_[rng.uniform(0, 60, (n, 2)), rng.uniform(0, 6, (n, 2))]
    layers, masks = rng.choice(BITS, n).astype(np.int64), rng.choice(BITS, n).astype(np.int64)
    ids = grid.insert_rects(rects[: n // 2], layers=layers[: n // 2], masks=masks[: n // 2])
    ids = np.concatenate([ids, grid.insert_circles(rects[n // 2:, :2], rects[n // 2:, 2],
                                                   layers=layers[n // 2:], masks=masks[n // 2:])])
    brute = BruteForce()
    for k, i in enumerate(ids.tolist()):
        if k < n // 2:
            brute.insert(i, tuple(rects[k]))
        else:
            brute.insert_circle(i, tuple(rects[k, :2]), rects[k, 2])
        brute.set_filter(i, int(layers[k]), int(masks[k]))
    return ids, brute, rng


def test_new_objects_are_on_layer_1_and_look_for_every_layer(grid):
    a = grid.insert_rect(0, 0, 1, 1)
    b = grid.insert_circle(0, 0, 1)
    assert grid.filter_of(a) == grid.filter_of(b) == (1, ALL_LAYERS)
    assert grid.filter_of(grid.insert_rect(0, 0, 1, 1, layer=6, mask=0)) == (6, 0)


@pytest.mark.parametrize("layer_a, mask_a, layer_b, mask_b, reported", [
    (1, 1, 1, 1, True),
    (2, 2, 1, 1, False),            # neither looks for the other's layer
    (2, 1, 1, 0, True),             # a looks for b's layer: one side is enough
    (1, 0, 2, 1, True),             # b looks for a's layer
    (0, ALL_LAYERS, 0, ALL_LAYERS, False),   # on no layer: nothing sees them
    (0, ALL_LAYERS, 1, 0, True),    # a sees b although nothing sees a
    (0x80000000, 0, 4, 0x80000000, True),    # the top bit
    (6, 1, 2, 8, False),            # layers share a bit, masks see neither
])
def test_a_pair_is_reported_when_either_mask_has_a_bit_of_the_others_layer(
        grid, layer_a, mask_a, layer_b, mask_b, reported):
    a = grid.insert_rect(0, 0, 2, 2, "a", layer_a, mask_a)
    b = grid.insert_circle(1, 1, 1, "b", layer=layer_b, mask=mask_b)
    assert (grid.pairs() == [("a", "b")]) is reported
    assert grid.is_colliding(a, b) is reported
    assert (len(grid.candidate_ids()) == 1) is reported


def test_pairs_match_brute_force_across_moves_and_filter_changes(grid):
    ids, brute, rng = scene(grid)
    for frame in range(6):
        assert same_pairs(grid.pairs(), brute.pairs())
        assert grid.narrow_phase_checks == len(grid.candidate_ids())
        grid.validate()
        changed = rng.choice(ids, 40, replace=False)
        layers, masks = rng.choice(BITS, 40), rng.choice(BITS, 40)
        grid.set_filters(changed, layers, masks)
        for i, layer, mask in zip(changed.tolist(), layers.tolist(), masks.tolist()):
            brute.set_filter(i, layer, mask)
            assert grid.filter_of(i) == (layer, mask)
        moved = rng.choice(ids[:150], 50, replace=False)
        rects = np.c_[rng.uniform(0, 60, (50, 2)), rng.uniform(0, 6, (50, 2))]
        grid.update_rects(moved, rects)
        for i, rect in zip(moved.tolist(), rects):
            brute.update(i, tuple(rect))


def test_every_query_takes_only_objects_on_a_layer_of_its_mask(grid):
    ids, brute, rng = scene(grid)
    order = lambda i: i
    for mask in (ALL_LAYERS, 0, 1, 2, 6, 0x80000000):
        for x, y in rng.uniform(-5, 65, (8, 2)).tolist():
            box = (x, y, 9.0, 7.0)
            assert sorted(grid.query_rect(*box, exact=True, mask=mask)) == \
                sorted(brute.query_range(box, mask))
            assert set(brute.query_range(box, mask)) <= set(grid.query_nearby(*box, mask=mask)) \
                <= {i for i in ids.tolist() if brute.filter_of(i)[0] & mask}
            assert sorted(grid.query_point(x, y, mask)) == sorted(brute.query_point((x, y), mask))
            assert sorted(grid.query_radius(x, y, 5.0, mask)) == \
                sorted(brute.query_radius((x, y), 5.0, mask))
            assert sorted(grid.query_swept(x, y, x + 20, y - 9, 1, 2, mask)) == \
                sorted(brute.query_along_path((x, y), (x + 20, y - 9), (1, 2), mask))
            assert grid.query_nearest(x, y, 4, mask=mask) == \
                brute.query_nearest((x, y), 4, tie_order=order, mask=mask)
            assert grid.raycast_all(x, y, 60 - x, 30.0, mask) == \
                brute.raycast_all((x, y), (60 - x, 30.0), tie_order=order, mask=mask)


def test_batch_queries_take_the_mask_as_the_single_calls_do(grid):
    _, _, rng = scene(grid)
    boxes = np.c_[rng.uniform(0, 60, (10, 2)), rng.uniform(0, 9, (10, 2))]
    rays = rng.uniform(0, 60, (10, 4))
    for mask in (ALL_LAYERS, 0, 2, 6):
        offsets, ids = grid.query_rects(boxes, True, mask)
        for k, box in enumerate(boxes.tolist()):
            assert sorted(ids[offsets[k]:offsets[k + 1]].tolist()) == \
                sorted(grid.query_rect(*box, exact=True, mask=mask))
        offsets, ids, _ = grid.query_nearest_many(boxes[:, :2], 3, mask=mask)
        for k, (x, y) in enumerate(boxes[:, :2].tolist()):
            assert ids[offsets[k]:offsets[k + 1]].tolist() == grid.query_nearest(x, y, 3, mask=mask)
        offsets, ids, *_ = grid.raycast_many(rays, True, mask)
        for k, ray in enumerate(rays.tolist()):
            assert ids[offsets[k]:offsets[k + 1]].tolist() == \
                [hit[0] for hit in grid.raycast_all(*ray, mask)]


def test_a_query_mask_of_all_bits_skips_objects_on_no_layer(grid):
    grid.insert_rect(0, 0, 1, 1, "seen")
    grid.insert_rect(0, 0, 1, 1, "hidden", layer=0)
    assert grid.query_point(0.5, 0.5) == ["seen"]
    assert grid.query_nearest(5, 5, 2) == ["seen"]
    assert [hit[0] for hit in grid.raycast_all(-1, 0.5, 2, 0.5)] == ["seen"]
    assert grid.query_nearest(5, 5, 2, mask=0) == []


def test_changing_layers_ends_and_begins_pairs_once(grid):
    a = grid.insert_rect(0, 0, 2, 2, "a")
    b = grid.insert_rect(1, 1, 2, 2, "b")
    assert grid.pair_events() == ([("a", "b")], [])
    grid.set_filter(a, 2, 2)
    assert grid.pair_events() == ([], [])            # b still looks for every layer
    grid.set_filter(b, 1, 1)
    assert grid.pair_events() == ([], [("a", "b")])
    assert grid.pair_events() == ([], [])
    grid.set_filters(np.array([b]), 1, 3)
    assert grid.pair_events() == ([("a", "b")], [])


def test_a_removed_objects_id_comes_back_with_the_default_filter(grid):
    a = grid.insert_rect(0, 0, 1, 1, layer=4, mask=0)
    grid.remove(a)
    assert grid.insert_rect(0, 0, 1, 1) == a and grid.filter_of(a) == (1, ALL_LAYERS)
    ids = grid.insert_rects(np.ones((3, 4)), layers=[1, 2, 4], masks=0)
    grid.remove_many(ids)
    again = grid.insert_rects(np.ones((3, 4)))
    assert sorted(again.tolist()) == sorted(ids.tolist())
    assert {grid.filter_of(i) for i in again.tolist()} == {(1, ALL_LAYERS)}
    grid.clear()
    grid.validate()
    assert grid.filter_of(grid.insert_rect(0, 0, 1, 1)) == (1, ALL_LAYERS)


def test_copy_into_keeps_the_filters(grid):
    ids, brute, _ = scene(grid, n=120)
    for target in (UniformGrid(2.0), HierarchicalGrid()):
        grid.copy_into(target)
        target.validate()
        assert all(target.filter_of(i) == grid.filter_of(i) for i in ids.tolist())
        assert same_pairs(target.pairs(), brute.pairs())



@pytest.mark.parametrize("given_by", ["set_filter", "set_filters", "insert_rect", "insert_rects"])
def test_objects_that_keep_the_default_filter_answer_every_mask_until_one_gets_another(
        grid, given_by):
    # An index keeps no array of filters until an object is given one other
    # than the default: every query, search and pair reads the default then.
    rng = np.random.default_rng(11)
    rects = np.c_[rng.uniform(0, 60, (150, 2)), rng.uniform(0, 6, (150, 2))]
    ids = grid.insert_rects(rects)
    brute = BruteForce()
    for i, rect in zip(ids.tolist(), rects.tolist()):
        brute.insert(i, tuple(rect))
    order = lambda i: i

    def check():
        grid.validate()
        assert same_pairs(grid.pairs(), brute.pairs())
        for mask in (ALL_LAYERS, 0, 1, 2, 3):
            for x, y in rng.uniform(-5, 65, (4, 2)).tolist():
                box = (x, y, 9.0, 7.0)
                assert sorted(grid.query_rect(*box, exact=True, mask=mask)) == \
                    sorted(brute.query_range(box, mask))
                assert grid.query_nearest(x, y, 4, mask=mask) == \
                    brute.query_nearest((x, y), 4, tie_order=order, mask=mask)
                assert grid.raycast_all(x, y, 60 - x, 30.0, mask) == \
                    brute.raycast_all((x, y), (60 - x, 30.0), tie_order=order, mask=mask)
            offsets, got, _ = grid.query_nearest_many(rects[:5, :2], 3, mask=mask)
            for k, (x, y) in enumerate(rects[:5, :2].tolist()):
                assert got[offsets[k]:offsets[k + 1]].tolist() == \
                    brute.query_nearest((x, y), 3, tie_order=order, mask=mask)

    check()
    assert grid.filter_of(int(ids[0])) == (1, ALL_LAYERS)
    assert grid.is_colliding(int(ids[0]), int(ids[0])) is False
    grid.set_filter(int(ids[1]), 1, ALL_LAYERS)       # the default again: nothing to keep
    check()
    if given_by == "set_filter":
        changed = {int(ids[0]): (2, 2)}
        grid.set_filter(int(ids[0]), 2, 2)
    elif given_by == "set_filters":
        changed = {int(ids[0]): (2, 2), int(ids[1]): (1, 2)}
        grid.set_filters(ids[:2], [2, 1], 2)
    elif given_by == "insert_rect":
        changed = {grid.insert_rect(1.0, 1.0, 3.0, 3.0, layer=2, mask=2): (2, 2)}
    else:
        new = grid.insert_rects(np.array([[1.0, 1.0, 3.0, 3.0], [2.0, 2.0, 3.0, 3.0]]),
                                layers=[2, 1], masks=[2, ALL_LAYERS])
        changed = {int(new[0]): (2, 2), int(new[1]): (1, ALL_LAYERS)}
    for i, (layer, mask) in changed.items():
        if i not in ids:
            brute.insert(i, grid.bounds(i))
        brute.set_filter(i, layer, mask)
        assert grid.filter_of(i) == (layer, mask)
    check()
    for target in (UniformGrid(2.0), HierarchicalGrid()):
        target.insert_rect(0.0, 0.0, 1.0, 1.0, layer=4)     # a target that keeps filters
        target.clear()
        grid.copy_into(target)
        target.validate()
        assert all(target.filter_of(i) == grid.filter_of(i) for i in grid.ids())
        assert same_pairs(target.pairs(), brute.pairs())


BAD_BITS = [(-1, "-1"), (2 ** 32, "4294967296"), (1.5, "1.5"), (True, "True"), ("1", "'1'"),
            (None, "None")]


@pytest.mark.parametrize("value, shown", BAD_BITS)
def test_bad_layers_and_masks_are_refused_naming_the_value_and_change_nothing(grid, value, shown):
    a = grid.insert_rect(0, 0, 2, 2, "a", layer=2, mask=5)
    grid.insert_rect(1, 1, 2, 2, "b")
    before = (grid.pairs(), grid.filter_of(a), len(grid))
    for name, call in [
            ("layer", lambda: grid.insert_rect(0, 0, 1, 1, layer=value)),
            ("mask", lambda: grid.insert_circle(0, 0, 1, mask=value)),
            ("layer", lambda: grid.set_filter(a, value, 1)),
            ("mask", lambda: grid.set_filter(a, 1, value)),
            ("mask", lambda: grid.query_rect(0, 0, 1, 1, mask=value)),
            ("mask", lambda: grid.query_nearby(0, 0, 1, 1, value)),
            ("mask", lambda: grid.query_point(0, 0, value)),
            ("mask", lambda: grid.query_radius(0, 0, 1, value)),
            ("mask", lambda: grid.query_swept(0, 0, 1, 1, 1, 1, value)),
            ("mask", lambda: grid.query_nearest(0, 0, 1, mask=value)),
            ("mask", lambda: grid.raycast(0, 0, 1, 1, value)),
            ("mask", lambda: grid.raycast_all(0, 0, 1, 1, value)),
            ("mask", lambda: grid.query_rects(np.ones((1, 4)), mask=value)),
            ("mask", lambda: grid.query_nearest_many(np.ones((1, 2)), mask=value)),
            ("mask", lambda: grid.raycast_many(np.ones((1, 4)), mask=value))]:
        with pytest.raises(ValueError, match=f"{name} must be an int from 0 to 2\\*\\*32 - 1, "
                                             f"got {shown}"):
            call()
    assert (grid.pairs(), grid.filter_of(a), len(grid)) == before
    grid.validate()


def test_bad_layer_and_mask_arrays_are_refused_naming_the_row_and_change_nothing(grid):
    a = grid.insert_rect(0, 0, 2, 2, "a", layer=2, mask=5)
    ids = grid.insert_rects(np.ones((3, 4)))
    layers = np.array([1, 2, -4])
    with pytest.raises(ValueError, match=r"layers\[2\] must be an int from 0 to 2\*\*32 - 1, got -4"):
        grid.insert_rects(np.ones((3, 4)), layers=layers)
    with pytest.raises(ValueError, match=r"masks\[1\] must be .* got 4294967296"):
        grid.insert_circles(np.ones((3, 2)), 1.0, masks=np.array([0, 2 ** 32, 1]))
    with pytest.raises(ValueError, match=r"layers must be one int or 3 ints, got float64"):
        grid.set_filters(ids, np.array([1.0, 2.0, 3.0]), 1)
    with pytest.raises(ValueError, match=r"masks must be one int or 3 ints, got int64 with shape \(2,\)"):
        grid.set_filters(ids, 1, [1, 2])
    with pytest.raises(ValueError, match=r"masks\[0\] must be"):
        grid.set_filters(ids, 1, [-1, 2, 3])
    with pytest.raises(KeyError):
        grid.set_filters(np.array([ids[0], 999]), 4, 4)
    with pytest.raises(ValueError, match="duplicates"):
        grid.set_filters(np.array([ids[0], ids[0]]), 4, 4)
    assert layers.tolist() == [1, 2, -4]                      # the caller's array untouched
    assert len(grid) == 4 and grid.filter_of(a) == (2, 5)
    assert {grid.filter_of(i) for i in ids.tolist()} == {(1, ALL_LAYERS)}
    grid.validate()
