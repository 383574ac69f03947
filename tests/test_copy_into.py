"""copy_into: an index rebuilt with other settings or of the other kind keeps
every id, handle and shape, hands out the same next ids, and refuses what the
target cannot hold without changing it."""
import numpy as np
import pytest

from oracle import same_pairs
from spatial_hash import BruteForce, HierarchicalGrid, UniformGrid

TARGETS = [lambda: UniformGrid(3.0, (5.0, -2.0), 2), lambda: UniformGrid(250.0),
           lambda: HierarchicalGrid(4.0, 1.0), lambda: HierarchicalGrid(threads=2)]
SOURCES = [lambda: UniformGrid(10.0), lambda: HierarchicalGrid()]


def filled(grid, seed):
    """Rects and discs with handles, a few removed (holes in the ids), a brute-force
    twin keyed by id."""
    rng = np.random.default_rng(seed)
    rects = np.c_[rng.uniform(-400, 400, (150, 2)), rng.uniform(0, 60, (150, 2))]
    ids = grid.insert_rects(rects, [f"box{k}" for k in range(150)])
    centers, radii = rng.uniform(-400, 400, (50, 2)), rng.uniform(0, 30, 50)
    ids = np.r_[ids, grid.insert_circles(centers, radii)]
    gone = ids[rng.choice(len(ids), 30, replace=False)]
    grid.remove_many(gone)
    twin = BruteForce()
    for i in grid.ids():
        circle = grid.circle_of(i)
        if circle:
            twin.insert_circle(i, circle[:2], circle[2])
        else:
            twin.insert(i, grid.bounds(i))
    return twin


@pytest.mark.parametrize("make_target", TARGETS)
@pytest.mark.parametrize("make_source", SOURCES)
def test_every_object_keeps_its_id_handle_and_shape(make_source, make_target):
    source, target = make_source(), make_target()
    twin = filled(source, 7)
    source.copy_into(target)
    target.validate()
    assert target.ids() == source.ids() and len(target) == len(source)
    for i in source.ids():
        assert target.handle(i) == source.handle(i)
        assert target.bounds(i) == source.bounds(i)
        assert target.circle_of(i) == source.circle_of(i)
    assert same_pairs(target.pair_ids().tolist(), twin.pairs())
    box = (-50.0, -80.0, 300.0, 120.0)
    assert sorted(target.query_rect(*box, exact=True), key=str) == \
        sorted((source.handle(i) for i in twin.query_range(box)), key=str)
    # The freed ids come back in the same order from both.
    assert [target.insert_rect(0, 0, 1, 1) for _ in range(35)] == \
        [source.insert_rect(0, 0, 1, 1) for _ in range(35)]
    target.validate()


def test_a_refused_copy_leaves_the_target_as_it_was():
    source = UniformGrid(10.0)
    source.insert_rect(0.0, 0.0, 5.0, 5.0)
    far = source.insert_rect(3e8, 0.0, 5.0, 5.0)
    target = UniformGrid(0.01)
    spare = target.insert_rect(1.0, 1.0, 1.0, 1.0)
    target.remove(spare)
    with pytest.raises(ValueError, match=f"id {far}: x=300000005.0 lies too far .* cell_size=0.01"):
        source.copy_into(target)
    assert len(target) == 0 and target.insert_rect(2.0, 2.0, 1.0, 1.0) == spare
    target.validate()
    with pytest.raises(ValueError, match="target must be empty, it holds 1 objects"):
        source.copy_into(target)
    assert target.ids() == [spare] and target.bounds(spare) == (2.0, 2.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="target must be another index"):
        source.copy_into(source)
    with pytest.raises(TypeError):
        source.copy_into(None)
    assert source.ids() == [0, far]
    source.validate()


def test_an_empty_index_copies_to_an_empty_index():
    source, target = HierarchicalGrid(), UniformGrid()
    source.copy_into(target)
    assert len(target) == 0 and target.insert_rect(0, 0, 1, 1) == 0
