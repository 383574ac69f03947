"""3D: bad input raises an error naming the value (and the axis or size it is)
and leaves the structure as it was, in both grids and through every call."""
import math
import re

import numpy as np
import pytest

from spatial_hash import (HierarchicalGrid3D, HierarchicalSpatialHash3D, OptimizedSpatialHash3D,
                          SpatialHash3D, UniformGrid3D)

NAN, INF = math.nan, math.inf


def snapshot(h):
    h.grid.validate()
    return (sorted((repr(o), h.bounds(o)) for o in h), sorted(map(repr, h.pairs())),
            h.stats()["active_cells"], len(h))


@pytest.fixture(params=["uniform", "hierarchical"])
def populated(request):
    h = OptimizedSpatialHash3D(10.0) if request.param == "uniform" else HierarchicalSpatialHash3D()
    for i in range(20):
        h.insert(i, (i * 3.0, -i * 2.0, i * 1.5, 5.0, 5.0, 5.0))
    h.insert_sphere("s", (4, 4, 4), 6)
    h.insert("big", (-500, -500, -500, 1000, 1000, 1000))
    return h


BAD_BOUNDS = [
    ((NAN, 0, 0, 1, 1, 1), "x must be", "nan"),
    ((0, INF, 0, 1, 1, 1), "y must be", "inf"),
    ((0, 0, NAN, 1, 1, 1), "z must be", "nan"),
    ((0, 0, 0, -1, 1, 1), "width", "-1.0"),
    ((0, 0, 0, 1, -0.5, 1), "height", "-0.5"),
    ((0, 0, 0, 1, 1, -2.0), "depth", "-2.0"),
    ((0, 0, 0, 1, 1, INF), "depth", "inf"),
    ((0, 0, 1.5e308, 1, 1, 1.5e308), "depth", "1.5e+308"),     # z + depth overflows
]


@pytest.mark.parametrize("bounds,what,named", BAD_BOUNDS)
def test_insert_and_update_reject_bad_bounds(populated, bounds, what, named):
    before = snapshot(populated)
    for call in (lambda: populated.insert("new", bounds), lambda: populated.insert(3, bounds),
                 lambda: populated.update("big", bounds),
                 lambda: populated.grid.insert_boxes([bounds]),
                 lambda: populated.grid.update_boxes([0], [bounds]),
                 lambda: populated.query_range(bounds)):
        with pytest.raises(ValueError, match=re.escape(what) + ".*" + re.escape(named)):
            call()
    assert snapshot(populated) == before
    assert "new" not in populated


def test_batch_rows_are_named(populated):
    before = snapshot(populated)
    good = (0.0, 0.0, 0.0, 1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match=re.escape("boxes[1]")):
        populated.grid.insert_boxes([good, (0, 0, NAN, 1, 1, 1)])
    with pytest.raises(ValueError, match=re.escape("spheres[2]")):
        populated.grid.insert_spheres([(0, 0, 0), (1, 1, 1), (0, 0, INF)], 1.0)
    with pytest.raises(ValueError, match=re.escape("spheres[0]")):
        populated.grid.update_spheres([0], [(0, 0, 0)], [-1.0])
    corners = np.zeros((2, 3), np.float32)
    sizes = np.ones((2, 3), np.float32)
    sizes[1, 2] = -1.0
    with pytest.raises(ValueError, match=re.escape("boxes[1]")):
        populated.grid.update_packed(np.array([0, 1]), corners, sizes)
    with pytest.raises(ValueError, match=re.escape("boxes[0]")):
        populated.grid.query_boxes([(0, 0, 0, 1, 1, NAN)])
    with pytest.raises(ValueError, match=re.escape("points[1]")):
        populated.grid.query_nearest_many([(0, 0, 0), (0, 0, NAN)])
    with pytest.raises(ValueError, match=re.escape("rays[0]")):
        populated.grid.raycast_many([(0, 0, 0, 1, 1, INF)])
    with pytest.raises(ValueError, match=r"\(n, 6\)"):
        populated.grid.insert_boxes(np.zeros((2, 4)))
    with pytest.raises(ValueError, match=r"\(n, 3\)"):
        populated.grid.insert_spheres(np.zeros((2, 2)), 1.0)
    assert snapshot(populated) == before


@pytest.mark.parametrize("center,radius,named", [
    ((NAN, 0, 0), 1, "nan"), ((0, 0, -INF), 1, "-inf"), ((0, 0, 0), -2, "-2"),
    ((0, 0, 0), NAN, "nan"), ((0, 0, 1e308), 1e308, "1e+308"),
])
def test_spheres_reject_bad_values(populated, center, radius, named):
    before = snapshot(populated)
    with pytest.raises(ValueError, match=re.escape(named)):
        populated.insert_sphere("s", center, radius)
    with pytest.raises(ValueError, match=re.escape(named)):
        populated.query_radius(center, radius)
    assert snapshot(populated) == before


@pytest.mark.parametrize("call", [
    lambda h: h.query_nearby((0, 0, NAN), (1, 1, 1)),
    lambda h: h.query_point((0, 0, INF)),
    lambda h: h.query_along_path((0, 0, 0), (0, 0, NAN), (1, 1, 1)),
    lambda h: h.query_along_path((0, 0, 0), (5, 5, 5), (1, 1, -1)),
    lambda h: h.query_along_path((0, 0, -1e308), (0, 0, 1.7e308), (1, 1, 1)),   # too long
    lambda h: h.query_nearest((0, 0, NAN)),
    lambda h: h.query_nearest((0, 0, 0), -1),
    lambda h: h.raycast((0, 0, 0), (0, 0, NAN)),
    lambda h: h.raycast_all((0, 0, -1e308), (0, 0, 1e308)),
])
def test_queries_reject_bad_values(populated, call):
    before = snapshot(populated)
    with pytest.raises(ValueError):
        call(populated)
    assert snapshot(populated) == before


@pytest.mark.parametrize("value", ["1,2,3", None, (1, 2, 3), (1, 2, 3, 4), 5, {"x": 1}])
def test_wrong_shapes_are_type_errors_naming_the_value(populated, value):
    before = snapshot(populated)
    with pytest.raises(TypeError, match=re.escape(repr(value))):
        populated.insert("new", value)
    with pytest.raises(TypeError):
        populated.query_nearby((0, 0), (1, 1, 1))
    assert snapshot(populated) == before


def test_far_cells_name_the_axis():
    grid = UniformGrid3D(1.0)
    with pytest.raises(ValueError, match="z=.*too far"):
        grid.insert_box(0.0, 0.0, 2e9, 1.0, 1.0, 1.0)
    assert len(grid) == 0
    grid.validate()


@pytest.mark.parametrize("make", [
    lambda: UniformGrid3D(0), lambda: UniformGrid3D(8.0, origin=(0, 0, NAN)),
    lambda: UniformGrid3D(8.0, large_threshold=65), lambda: HierarchicalGrid3D(1.0),
    lambda: HierarchicalGrid3D(2.0, density=0), lambda: SpatialHash3D(-1),
])
def test_bad_constructor_arguments(make):
    with pytest.raises(ValueError):
        make()


def test_origin_must_have_three_coordinates():
    with pytest.raises(TypeError, match="origin"):
        UniformGrid3D(8.0, origin=(0.0, 0.0))


def test_unknown_objects(populated):
    assert populated.remove("ghost") is False
    with pytest.raises(KeyError, match="ghost"):
        populated.update("ghost", (0, 0, 0, 1, 1, 1))
    grid = UniformGrid3D(8.0)
    with pytest.raises(KeyError, match="7"):
        grid.update_box(7, 0, 0, 0, 1, 1, 1)
    with pytest.raises(KeyError, match="7"):
        grid.update_sphere(7, 0, 0, 0, 1)
