"""validate() passes on every index the other tests build (the state machines
call it after each step) and fails on each kind of planted damage. The damage
is planted by a helper compiled against the core's declared interface: the
release build has no hook for it."""
import numpy as np
import pytest

from damage.build import build
from spatial_hash import HierarchicalGrid, HierarchicalGrid3D, UniformGrid, UniformGrid3D

GRIDS = {2: (UniformGrid, HierarchicalGrid), 3: (UniformGrid3D, HierarchicalGrid3D)}
SHAPE_NAMES = {2: ("rect", "rects", "circle", "circles"), 3: ("box", "boxes", "sphere", "spheres")}

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


@pytest.fixture(scope="module", params=sorted(GRIDS), ids=lambda d: f"{d}D")
def dimension(request):
    return request.param


@pytest.fixture(scope="module")
def plant(tmp_path_factory, dimension):
    return build(tmp_path_factory.mktemp("damage"), dimension)


def populated(grid):
    """Boxes of several sizes and discs (spheres in 3D), one object large enough
    for the uniform grid's large list, and some removed (free ids, emptied cells)."""
    d = 3 if isinstance(grid, GRIDS[3]) else 2
    box, boxes, ball, balls = SHAPE_NAMES[d]
    rng = np.random.default_rng(5)
    rows = np.c_[rng.uniform(-300, 300, (200, d)), rng.uniform(0, 40, (200, d))]
    ids = getattr(grid, "insert_" + boxes)(rows)
    getattr(grid, "insert_" + balls)(rng.uniform(-300, 300, (40, d)), rng.uniform(0, 12, 40))
    getattr(grid, "insert_" + box)(*[-100.0] * d, *[500.0] * d)
    getattr(grid, "insert_" + ball)(12.5, -7.0, *[3.0] * (d - 2), 0.0)
    grid.remove_many(ids[::9])
    getattr(grid, "update_" + boxes)(ids[1::9], rows[1::9] + 37.0)
    grid.set_filters(ids[2::9], 2, 5)
    grid.validate()
    return grid


@pytest.mark.parametrize("kind", sorted(UNIFORM_CORRUPTIONS))
def test_each_uniform_corruption_is_caught(plant, dimension, kind):
    uniform = GRIDS[dimension][0]
    grid = populated(uniform(16.0, large_threshold=4))
    plant.damage(grid, kind)
    with pytest.raises(AssertionError, match=f"{uniform.__name__} invariant broken") as caught:
        grid.validate()
    assert UNIFORM_CORRUPTIONS[kind] in str(caught.value)


@pytest.mark.parametrize("kind", sorted(HIERARCHICAL_CORRUPTIONS))
def test_each_hierarchical_corruption_is_caught(plant, dimension, kind):
    hierarchical = GRIDS[dimension][1]
    grid = populated(hierarchical())
    plant.damage(grid, kind)
    with pytest.raises(AssertionError, match=f"{hierarchical.__name__} invariant broken") as caught:
        grid.validate()
    assert HIERARCHICAL_CORRUPTIONS[kind] in str(caught.value)


def test_validate_holds_through_clear_and_reuse(dimension):
    uniform, hierarchical = GRIDS[dimension]
    for grid in (uniform(4.0, large_threshold=2), hierarchical(threads=2)):
        populated(grid)
        grid.clear()
        grid.validate()
        populated(grid)
        grid.pair_ids()
        grid.validate()


def test_unknown_damage_is_refused(plant, dimension):
    with pytest.raises(ValueError, match="cannot damage 'nothing'"):
        plant.damage(GRIDS[dimension][0](), "nothing")


def test_the_release_build_has_no_damage_hooks():
    for grid in GRIDS[2] + GRIDS[3]:
        assert not [name for name in dir(grid) if "corrupt" in name or "damage" in name]


def test_batch_queries_leave_the_pair_list_alone(plant, dimension):
    """Batch queries keep their results in a buffer of their own: the last pair
    pass's pairs are still there after each."""
    uniform, hierarchical = GRIDS[dimension]
    d = dimension
    for grid in (uniform(16.0), hierarchical()):
        populated(grid)
        held = len(grid.pair_ids())
        assert held > 0 and plant.pairs_held(grid) == held
        getattr(grid, "query_" + SHAPE_NAMES[d][1])([(-300.0,) * d + (600.0,) * d] * 3)
        grid.query_nearest_many([(0.0,) * d, (50.0,) * d], k=5)
        grid.raycast_many([(-400.0,) + (0.0,) * (d - 1) + (400.0,) + (0.0,) * (d - 1)], all_hits=True)
        assert plant.pairs_held(grid) == held
        grid.validate()
