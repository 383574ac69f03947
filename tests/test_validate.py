"""validate() passes on every index the other tests build (the state machines
call it after each step) and fails on each kind of planted damage. The damage
is planted by a helper compiled against the core's declared interface: the
release build has no hook for it."""
import numpy as np
import pytest

from damage.build import build
from spatial_hash import HierarchicalGrid, UniformGrid

LIST_CORRUPTIONS = {
    "level_members": "member 0 is id", "member_slot": "member 0 is id",
    "cell_of": "lists id", "cell_list": "lists id", "occupied": "occupied bit",
    "level_count": "lists id",
}
UNIFORM_CORRUPTIONS = dict(
    LIST_CORRUPTIONS, live_flag="live flag", free_ids="free_ids[0]", filter_count="n_filtered",
    cell_range="is kept over cells", large_list="large", spans="spans more than the spans",
    table_side="narrower than a window",
)
HIERARCHICAL_CORRUPTIONS = dict(
    LIST_CORRUPTIONS, live_flag="live flag", free_ids="free_ids[0]", filter_count="n_filtered",
    level_order="ascending order", reach="does not fit the cells", level_cell="exponent",
    point_level="not the points' level",
)


@pytest.fixture(scope="module")
def plant(tmp_path_factory):
    return build(tmp_path_factory.mktemp("damage"))


def populated(grid):
    """Boxes of several sizes and discs, one object large enough for the uniform
    grid's large list, and some removed (free ids, emptied cells)."""
    rng = np.random.default_rng(5)
    rects = np.c_[rng.uniform(-300, 300, (200, 2)), rng.uniform(0, 40, (200, 2))]
    ids = grid.insert_rects(rects)
    grid.insert_circles(rng.uniform(-300, 300, (40, 2)), rng.uniform(0, 12, 40))
    grid.insert_rect(-100, -100, 500, 500)
    grid.insert_circle(12.5, -7.0, 0.0)
    grid.remove_many(ids[::9])
    grid.update_rects(ids[1::9], rects[1::9] + 37.0)
    grid.set_filters(ids[2::9], 2, 5)
    grid.validate()
    return grid


@pytest.mark.parametrize("kind", sorted(UNIFORM_CORRUPTIONS))
def test_each_uniform_corruption_is_caught(plant, kind):
    grid = populated(UniformGrid(16.0, large_threshold=4))
    plant.damage(grid, kind)
    with pytest.raises(AssertionError, match="UniformGrid invariant broken") as caught:
        grid.validate()
    assert UNIFORM_CORRUPTIONS[kind] in str(caught.value)


@pytest.mark.parametrize("kind", sorted(HIERARCHICAL_CORRUPTIONS))
def test_each_hierarchical_corruption_is_caught(plant, kind):
    grid = populated(HierarchicalGrid())
    plant.damage(grid, kind)
    with pytest.raises(AssertionError, match="HierarchicalGrid invariant broken") as caught:
        grid.validate()
    assert HIERARCHICAL_CORRUPTIONS[kind] in str(caught.value)


def test_validate_holds_through_clear_and_reuse():
    for grid in (UniformGrid(4.0, large_threshold=2), HierarchicalGrid(threads=2)):
        populated(grid)
        grid.clear()
        grid.validate()
        populated(grid)
        grid.pair_ids()
        grid.validate()


def test_unknown_damage_is_refused(plant):
    with pytest.raises(ValueError, match="cannot damage 'nothing'"):
        plant.damage(UniformGrid(), "nothing")


def test_the_release_build_has_no_damage_hooks():
    for grid in (UniformGrid, HierarchicalGrid):
        assert not [name for name in dir(grid) if "corrupt" in name or "damage" in name]


def test_batch_queries_leave_the_pair_list_alone(plant):
    """Batch queries keep their results in a buffer of their own: the last pair
    pass's pairs are still there after each."""
    for grid in (UniformGrid(16.0), HierarchicalGrid()):
        populated(grid)
        held = len(grid.pair_ids())
        assert held > 0 and plant.pairs_held(grid) == held
        grid.query_rects([(-300.0, -300.0, 600.0, 600.0)] * 3)
        grid.query_nearest_many([(0.0, 0.0), (50.0, 50.0)], k=5)
        grid.raycast_many([(-400.0, 0.0, 400.0, 0.0)], all_hits=True)
        assert plant.pairs_held(grid) == held
        grid.validate()
