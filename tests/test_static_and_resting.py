"""Static objects never pair with each other; a pair pass over what changed
(the other objects resting) gives a full pass's answer. Checked against a
numpy brute force and against a full pass of a fresh copy, frame after frame,
in 2D and 3D, on both grids and the brute-force index."""
import numpy as np
import pytest

from spatial_hash import BruteForce, OptimizedSpatialHash
from spatial_hash._core import HierarchicalGrid, SpatialIndex, UniformGrid
from spatial_hash._core3d import HierarchicalGrid3D, UniformGrid3D

GRIDS = {
    "uniform": (lambda threads=1: UniformGrid(2.0, (0.0, 0.0), 4, threads), 2),
    "hierarchical": (lambda threads=1: HierarchicalGrid(2.0, 0.125, threads), 2),
    "brute": (lambda threads=1: SpatialIndex(), 2),
    "uniform3d": (lambda threads=1: UniformGrid3D(2.0, (0.0, 0.0, 0.0), 4, threads), 3),
    "hierarchical3d": (lambda threads=1: HierarchicalGrid3D(2.0, 0.125, threads), 3),
}


def circles(grid, dim):
    return (grid.insert_circles, grid.update_circles) if dim == 2 else \
        (grid.insert_spheres, grid.update_spheres)


def expected_pairs(pos, radii, static, layers=None, masks=None):
    """Every pair i < j of touching circles (spheres) that the pair rule lets
    through, by brute force."""
    d = pos[:, None, :] - pos[None, :, :]
    touch = (d * d).sum(axis=2) <= (radii[:, None] + radii[None, :]) ** 2
    touch &= ~(static[:, None] & static[None, :])
    if layers is not None:
        touch &= ((masks[:, None] & layers[None, :]) | (masks[None, :] & layers[:, None])) != 0
    i, j = np.nonzero(np.triu(touch, 1))
    return {(a, b) for a, b in zip(i.tolist(), j.tolist())}


def as_set(pairs):
    rows = [tuple(p) for p in pairs.tolist()]
    assert len(set(rows)) == len(rows) and all(a < b for a, b in rows)
    return set(rows)


def fresh_full_pass(grid, make):
    """The pairs and counters of a full pass over the same objects: a copy
    has passed over nothing yet."""
    copy = make()
    grid.copy_into(copy)
    pairs = as_set(copy.pair_ids())
    assert copy.last_pair_pass() == "full"
    return pairs, (copy.broad_phase_pairs, copy.narrow_phase_checks, copy.hits)


@pytest.mark.parametrize("kind", GRIDS)
def test_frames_moving_a_few_or_most_objects_give_a_full_pass_answer(kind):
    make, dim = GRIDS[kind]
    rng = np.random.default_rng(3)
    n = 600
    pos = rng.uniform(0.0, 40.0, (n, dim))
    radii = rng.uniform(0.2, 1.5, n)
    static = rng.random(n) < 0.5
    grid = make()
    insert, update = circles(grid, dim)
    ids = insert(pos, radii, static=static)
    assert np.array_equal(ids, np.arange(n))
    seen = set()
    for frame, share in enumerate([0.01, 0.05, 0.5, 1.0, 0.0, 0.02, 0.2, 0.0, 0.03]):
        moved = np.sort(rng.choice(n, int(share * n), replace=False))
        pos[moved] += rng.uniform(-2.0, 2.0, (len(moved), dim))
        update(moved, pos[moved], radii[moved])
        if frame == 4:      # a static flag changed counts as a change
            flip = rng.choice(n, 5, replace=False)
            static[flip] = ~static[flip]
            grid.set_statics(flip, static[flip])
        got = as_set(grid.pair_ids())
        seen.add(grid.last_pair_pass())
        assert got == expected_pairs(pos, radii, static), (frame, grid.last_pair_pass())
        full, counters = fresh_full_pass(grid, make)
        assert got == full
        assert (grid.broad_phase_pairs, grid.narrow_phase_checks, grid.hits) == counters
        grid.validate()
    assert seen == {"changed", "full", "unchanged"}


@pytest.mark.parametrize("kind", ["uniform", "hierarchical", "uniform3d", "hierarchical3d"])
def test_the_pair_order_is_the_same_on_any_number_of_threads(kind):
    make, dim = GRIDS[kind]
    answers = []
    for threads in (1, 2, 3):
        rng = np.random.default_rng(11)
        n = 3000
        pos = rng.uniform(0.0, 80.0, (n, dim))
        radii = rng.uniform(0.2, 1.0, n)
        grid = make(threads)
        insert, update = circles(grid, dim)
        ids = insert(pos, radii, static=rng.random(n) < 0.7)
        frames = []
        for share in (1.0, 0.01, 0.1, 0.0, 0.6, 0.02):
            moved = np.sort(rng.choice(ids, int(share * n), replace=False))
            pos[moved] += rng.uniform(-1.0, 1.0, (len(moved), dim))
            update(moved, pos[moved], radii[moved])
            frames.append(grid.pair_ids().copy())
        answers.append(frames)
    for frames in answers[1:]:
        assert all(np.array_equal(a, b) for a, b in zip(answers[0], frames))


@pytest.mark.parametrize("kind", GRIDS)
def test_layers_removals_and_inserts_between_passes(kind):
    make, dim = GRIDS[kind]
    rng = np.random.default_rng(5)
    n = 300
    pos = rng.uniform(0.0, 20.0, (n, dim))
    radii = rng.uniform(0.3, 1.5, n)
    static = rng.random(n) < 0.3
    layers = rng.choice([1, 2, 3], n).astype(np.uint32)
    masks = rng.choice([1, 2, 0xFFFFFFFF], n).astype(np.uint32)
    grid = make()
    insert, update = circles(grid, dim)
    insert(pos, radii, layers=layers, masks=masks, static=static)
    live = np.ones(n, bool)
    for frame in range(12):
        grid.pair_ids()
        k = rng.integers(0, n)
        if live[k]:
            grid.remove(int(k))
            live[k] = False
        else:       # the id comes back as another object
            one = grid.insert_circle if dim == 2 else grid.insert_sphere
            assert one(*pos[k], radii[k], None, int(layers[k]), int(masks[k]), bool(static[k])) == k
            live[k] = True
        j = int(rng.choice(np.flatnonzero(live)))
        layers[j] = rng.choice([1, 2, 4])
        grid.set_filter(j, int(layers[j]), int(masks[j]))
        assert grid.is_static(j) == static[j]       # a new filter keeps the flag
        keep = np.flatnonzero(live)
        expected = {(keep[a], keep[b]) for a, b in
                    expected_pairs(pos[keep], radii[keep], static[keep], layers[keep], masks[keep])}
        assert as_set(grid.pair_ids()) == expected
        grid.validate()


@pytest.mark.parametrize("kind", ["uniform", "hierarchical", "brute"])
def test_static_pairs_are_no_candidates_and_no_events(kind):
    make, _ = GRIDS[kind]
    grid = make()
    wall = grid.insert_rect(0.0, 0.0, 4.0, 1.0, static=True)
    floor = grid.insert_rect(0.0, 0.5, 4.0, 1.0, static=True)
    ball = grid.insert_circle(1.0, 1.0, 0.5)
    assert as_set(grid.pair_ids()) == {(wall, ball), (floor, ball)}
    assert (wall, floor) not in as_set(grid.candidate_ids())
    assert grid.narrow_phase_checks == 2 and not grid.is_colliding(wall, floor)
    began, ended = grid.pair_event_ids()
    assert as_set(began) == {(wall, ball), (floor, ball)} and len(ended) == 0
    grid.set_static(floor, False)           # now it pairs with the wall
    began, ended = grid.pair_event_ids()
    assert as_set(began) == {(wall, floor)} and len(ended) == 0
    grid.set_static(ball, True)
    grid.set_static(floor, True)
    began, ended = grid.pair_event_ids()
    assert len(began) == 0 and as_set(ended) == {(wall, floor), (wall, ball), (floor, ball)}
    assert grid.is_static(ball) and grid.filter_of(ball) == (1, 0xFFFFFFFF)


def snapshot(grid):
    return (grid.ids(), [grid.bounds(i) for i in grid.ids()], [grid.is_static(i) for i in grid.ids()],
            as_set(grid.pair_ids()))


@pytest.mark.parametrize("kind", ["uniform", "hierarchical", "uniform3d"])
def test_bad_static_values_are_refused_and_change_nothing(kind):
    make, dim = GRIDS[kind]
    grid = make()
    insert, _ = circles(grid, dim)
    centers = np.zeros((3, dim))
    ids = insert(centers, 1.0, static=[True, False, True])
    before = snapshot(grid)
    one = (grid.insert_rect, (0.0, 0.0, 1.0, 1.0)) if dim == 2 else (grid.insert_box, (0.0,) * 3 + (1.0,) * 3)
    with pytest.raises(ValueError, match=r"static must be True or False, got 'yes'"):
        one[0](*one[1], static="yes")
    with pytest.raises(ValueError, match=r"static must be True or False, got 2"):
        grid.set_static(int(ids[0]), 2)
    with pytest.raises(KeyError, match="99"):
        grid.set_static(99, True)
    with pytest.raises(ValueError, match=r"static must be one bool or 2 bools, got bool with shape \(3,\)"):
        insert(np.zeros((2, dim)), 1.0, static=[True, False, True])
    with pytest.raises(ValueError, match=r"static\[1\] must be True or False, got 2"):
        insert(np.zeros((2, dim)), 1.0, static=[0, 2])
    with pytest.raises(ValueError, match="static must be one bool or 2 bools, got <U3"):
        grid.set_statics(ids[:2], ["yes", "no"])
    with pytest.raises(ValueError, match=r"ids\[1\] repeats id 0"):
        grid.set_statics(np.array([ids[0], ids[0]]), False)
    with pytest.raises(KeyError):
        grid.set_statics(np.array([ids[0], 42]), False)
    flags = np.array([True, False])
    grid.set_statics(ids[:0], flags[:0])
    assert snapshot(grid) == before and flags.tolist() == [True, False]
    grid.validate()


def test_the_object_keyed_classes_and_the_brute_force_agree():
    index, reference = OptimizedSpatialHash(2.0), BruteForce()
    for target in (index, reference):
        target.insert("wall", (0, 0, 4, 1), static=True)
        target.insert("floor", (0, 0.5, 4, 1), True)
        target.insert_circle("ball", (1, 1), 0.5)
    assert set(map(frozenset, index.pairs())) == set(map(frozenset, reference.pairs()))
    assert reference.collision_tests == 2
    with pytest.raises(ValueError, match="static must be True or False, got 'no'"):
        index.insert("ball", (9, 9, 1, 1), static="no")
    assert index.bounds("ball") == (0.5, 0.5, 1.0, 1.0) and not index.is_static("ball")
    for target in (index, reference):
        target.insert("ball", (0, 0, 1, 1), static=True)      # moved, and now static
        target.set_static("wall", False)
    assert index.is_static("ball") and reference.is_static("ball") and not index.is_static("wall")
    assert set(map(frozenset, index.pairs())) == set(map(frozenset, reference.pairs())) == {
        frozenset(("wall", "floor")), frozenset(("wall", "ball"))}
    with pytest.raises(KeyError):
        index.set_static("nobody")


def test_the_collision_system_takes_static_objects():
    from spatial_hash import CollisionObject, SpatialHashCollisionSystem
    system = SpatialHashCollisionSystem(cell_size=64.0)
    wall, floor, ball = CollisionObject("wall", (0, 0), (10, 10)), CollisionObject("floor", (5, 5), (10, 10)), \
        CollisionObject("ball", (6, 6), (2, 2))
    system.add_object(wall, static=True)
    system.add_object(floor, True)
    system.add_object(ball)
    assert {frozenset((a.id, b.id)) for a, b in system.check_collisions()} == {
        frozenset(("wall", "ball")), frozenset(("floor", "ball"))}
    with pytest.raises(ValueError, match="static must be True or False, got 'on'"):
        system.add_object(ball, static="on")
    system.set_static(floor, False)
    assert len(system.check_collisions()) == 3
