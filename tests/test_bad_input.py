"""Bad input raises an error naming the value and leaves the structure as it was."""
import math

import pytest

from spatial_hash import OptimizedSpatialHash, SpatialHash, SpatialHashCollisionSystem, \
    CollisionObject, UniformGrid

NAN, INF = math.nan, math.inf


def snapshot(h):
    return (sorted((repr(o), h.bounds(o)) for o in h), sorted(map(repr, h.pairs())),
            h.stats()["active_cells"], h.stats()["memberships"], len(h))


@pytest.fixture
def populated():
    h = OptimizedSpatialHash(10.0)
    for i in range(20):
        h.insert(i, (i * 3.0, -i * 2.0, 5.0, 5.0))
    h.insert_circle("c", (4, 4), 6)
    h.insert("big", (-500, -500, 1000, 1000))
    return h


BAD_BOUNDS = [
    ((NAN, 0, 1, 1), "nan"),
    ((0, INF, 1, 1), "inf"),
    ((0, 0, -1, 1), "-1.0"),
    ((0, 0, 1, -0.5), "-0.5"),
    ((0, 0, NAN, 1), "nan"),
    ((0, 0, INF, 1), "inf"),
    ((1e300, 0, 1, 1), "1e+300"),
    ((0, -1e300, 1, 1), "-1e+300"),
    ((1.5e308, 0, 1.5e308, 1), "1.5e+308"),     # x + width overflows
]


@pytest.mark.parametrize("bounds,named", BAD_BOUNDS)
def test_insert_and_update_reject_bad_bounds(populated, bounds, named):
    before = snapshot(populated)
    with pytest.raises(ValueError, match=re_escape(named)):
        populated.insert("new", bounds)
    with pytest.raises(ValueError, match=re_escape(named)):
        populated.insert(3, bounds)                 # existing object: an update
    with pytest.raises(ValueError, match=re_escape(named)):
        populated.update("big", bounds)
    assert snapshot(populated) == before
    assert "new" not in populated


@pytest.mark.parametrize("center,radius,named", [
    ((NAN, 0), 1, "nan"), ((0, -INF), 1, "-inf"), ((0, 0), -2, "-2"), ((0, 0), NAN, "nan"),
    ((1e308, 0), 1e308, "1e+308"),
])
def test_circles_reject_bad_values(populated, center, radius, named):
    before = snapshot(populated)
    with pytest.raises(ValueError, match=re_escape(named)):
        populated.insert_circle("c", center, radius)
    with pytest.raises(ValueError, match=re_escape(named)):
        populated.query_radius(center, radius)
    assert snapshot(populated) == before


@pytest.mark.parametrize("call", [
    lambda h: h.query_range((0, 0, -1, 1)),
    lambda h: h.query_nearby((NAN, 0), (1, 1)),
    lambda h: h.query_point((0, INF)),
    lambda h: h.query_along_path((0, 0), (NAN, 0), (1, 1)),
    lambda h: h.query_along_path((0, 0), (5, 5), (-1, 1)),
    lambda h: h.query_along_path((-1e300, 0), (1e300, 0), (1, 1)),
])
def test_queries_reject_bad_values(populated, call):
    before = snapshot(populated)
    with pytest.raises(ValueError):
        call(populated)
    assert snapshot(populated) == before


@pytest.mark.parametrize("point,k,max_distance,named", [
    ((NAN, 0), 1, INF, "nan"), ((0, -INF), 1, INF, "-inf"),
    ((0, 0), -1, INF, "-1"), ((0, 0), 1.5, INF, "1.5"), ((0, 0), True, INF, "True"),
    ((0, 0), "2", INF, "'2'"), ((0, 0), 1, -0.5, "-0.5"), ((0, 0), 1, NAN, "nan"),
])
def test_nearest_queries_reject_bad_values(populated, point, k, max_distance, named):
    before = snapshot(populated)
    with pytest.raises(ValueError, match=re_escape(named)):
        populated.query_nearest(point, k, max_distance)
    with pytest.raises(ValueError, match=re_escape(named) if math.isfinite(point[0] + point[1])
                       else r"points\[1\]"):
        populated.grid.query_nearest_many([(0.0, 0.0), point], k, max_distance)
    assert snapshot(populated) == before


@pytest.mark.parametrize("cell_size", [0, -1, NAN, INF, "big", None])
def test_bad_cell_size(cell_size):
    with pytest.raises(ValueError, match="cell_size"):
        UniformGrid(cell_size)
    with pytest.raises(ValueError, match="cell_size"):
        SpatialHash(cell_size)


@pytest.mark.parametrize("threshold", [0, -3, 65, 2.5, "4"])
def test_bad_large_threshold(threshold):
    with pytest.raises(ValueError, match="large_threshold"):
        UniformGrid(8.0, large_threshold=threshold)


def test_bad_origin():
    with pytest.raises(ValueError, match="origin"):
        UniformGrid(8.0, origin=(NAN, 0))
    with pytest.raises(TypeError, match="origin"):
        UniformGrid(8.0, origin="here")


@pytest.mark.parametrize("value", ["1,2", None, (1, 2, 3), 5, {"x": 1}])
def test_wrong_shapes_are_type_errors_naming_the_value(populated, value):
    before = snapshot(populated)
    with pytest.raises(TypeError, match=re_escape(repr(value))):
        populated.insert("new", value)
    with pytest.raises(TypeError):
        populated.query_nearby(value, (1, 1))
    assert snapshot(populated) == before


def test_unknown_objects(populated):
    assert populated.remove("ghost") is False
    assert populated.remove([1, 2]) is False          # unhashable: simply absent
    with pytest.raises(KeyError, match="ghost"):
        populated.update("ghost", (0, 0, 1, 1))
    with pytest.raises(KeyError, match="ghost"):
        populated.is_colliding("ghost", 1)
    grid = UniformGrid(8.0)
    with pytest.raises(KeyError, match="7"):
        grid.update_rect(7, 0, 0, 1, 1)
    assert grid.remove(7) is False and grid.remove(-1) is False and grid.remove("x") is False


def test_collision_system_keeps_position_on_rejected_move():
    system = SpatialHashCollisionSystem(16.0)
    obj = CollisionObject(1, (5.0, 5.0), (4.0, 4.0))
    system.add_object(obj)
    with pytest.raises(ValueError, match="nan"):
        system.update_object_position(obj, (NAN, 3.0))
    assert obj.position == (5.0, 5.0)
    assert system.spatial_hash.bounds(obj) == (5.0, 5.0, 4.0, 4.0)


def re_escape(text):
    import re
    return re.escape(text)


@pytest.mark.parametrize("call,message", [
    (lambda g: g.insert_rect(0.0, NAN, 1.0, 1.0), "y must be a finite number, got nan"),
    (lambda g: g.insert_rect(0.0, 0.0, 1.0, -2.0),
     "height must be a finite number >= 0 (with y + height finite), got -2.0"),
    (lambda g: g.insert_circle(0.0, 1e308, 1e308),
     "radius must be a finite number >= 0 (with x, y ± radius finite), got 1e+308"),
    (lambda g: g.insert_rect(0.0, 3e9, 1.0, 1.0),
     "y=3000000000.0 lies too far from the origin for cell_size=1.0"),
    (lambda g: g.query_swept(0.0, 0.0, 0.0, NAN, 1.0, 1.0), "path end y must be a finite number"),
    (lambda g: g.raycast(0.0, 0.0, 3e9, 0.0), "ray x=3000000000.0 lies too far"),
])
def test_the_core_names_the_axis_and_the_value(call, message):
    """Each axis's check is written once for both dimensions: the message names
    the axis (and its size) that failed, and the grid is left as it was."""
    grid = UniformGrid(1.0)
    grid.insert_rect(1.0, 1.0, 2.0, 2.0)
    with pytest.raises(ValueError, match=re_escape(message)):
        call(grid)
    assert grid.ids() == [0] and grid.bounds(0) == (1.0, 1.0, 2.0, 2.0)
