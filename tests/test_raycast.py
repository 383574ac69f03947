"""Ray casts: exact expected values for the cases the state machines reach only
by chance (edges, corners, zero-length rays, starts inside, ties), on both grids."""
import math

import pytest

from spatial_hash import BruteForce, HierarchicalSpatialHash, OptimizedSpatialHash

INDEXES = [lambda: OptimizedSpatialHash(4.0), lambda: OptimizedSpatialHash(1.0, large_threshold=1),
           HierarchicalSpatialHash]


@pytest.fixture(params=INDEXES, ids=["uniform", "uniform-large", "hierarchical"])
def index(request):
    return request.param()


def test_faces_give_their_outward_normals(index):
    index.insert("box", (-12, -8, 4, 4))              # -12..-8 by -8..-4
    assert index.raycast((-20, -6), (0, -6)) == ("box", 0.4, (-12.0, -6.0), (-1.0, 0.0))
    assert index.raycast((0, -6), (-20, -6)) == ("box", 0.4, (-8.0, -6.0), (1.0, 0.0))
    assert index.raycast((-10, -20), (-10, 0)) == ("box", 0.6, (-10.0, -8.0), (0.0, -1.0))
    assert index.raycast((-10, 10), (-10, -10)) == ("box", 0.7, (-10.0, -4.0), (0.0, 1.0))
    assert index.raycast((-20, -6), (-13, -6)) is None         # stops short
    assert index.raycast((-20, -6), (-12, -6))[1] == 1.0       # ends on the face


def test_rays_along_an_edge_and_through_a_corner(index):
    index.insert("box", (0, 0, 4, 4))
    # Along the top edge (y = 0): the closed box is met where the edge starts.
    assert index.raycast((-4, 0), (8, 0)) == ("box", 1 / 3, (0.0, 0.0), (-1.0, 0.0))
    # Through the corner (0, 0) on the diagonal: both slabs entered at once; x wins.
    assert index.raycast((-2, -2), (2, 2)) == ("box", 0.5, (0.0, 0.0), (-1.0, 0.0))
    # Grazing the corner from outside the other way: the corner point itself.
    assert index.raycast((-1, 1), (1, -1)) == ("box", 0.5, (0.0, 0.0), (-1.0, 0.0))
    assert index.raycast((-1, -0.5), (0.5, -2)) is None


def test_circles_give_radial_normals_and_points_meet_head_on(index):
    index.insert_circle("disc", (10, 0), 2)
    assert index.raycast((0, 0), (20, 0)) == ("disc", 0.4, (8.0, 0.0), (-1.0, 0.0))
    assert index.raycast((10, 10), (10, -10)) == ("disc", 0.4, (10.0, 2.0), (0.0, 1.0))
    assert index.raycast((0, 2), (20, 2)) == ("disc", 0.5, (10.0, 2.0), (0.0, 1.0))     # tangent
    assert index.raycast((0, 2.001), (20, 2.001)) is None
    index.insert_circle("point", (-10, 0), 0)
    assert index.raycast((0, 0), (-20, 0)) == ("point", 0.5, (-10.0, 0.0), (1.0, 0.0))


def test_starting_inside_meets_at_zero_with_no_normal(index):
    index.insert("box", (0, 0, 10, 10))
    index.insert_circle("disc", (5, 5), 1)
    hits = index.raycast_all((5, 5), (30, 5))
    assert hits == [("box", 0.0, (5.0, 5.0), (0.0, 0.0)), ("disc", 0.0, (5.0, 5.0), (0.0, 0.0))]


def test_zero_length_rays_meet_only_what_holds_their_point(index):
    index.insert("box", (0, 0, 2, 2))
    index.insert("dot", (5, 5, 0, 0))
    assert index.raycast((1, 1), (1, 1)) == ("box", 0.0, (1.0, 1.0), (0.0, 0.0))
    assert index.raycast((5, 5), (5, 5)) == ("dot", 0.0, (5.0, 5.0), (0.0, 0.0))
    assert index.raycast((3, 3), (3, 3)) is None


def test_ties_come_in_id_order_and_every_hit_once(index):
    for name in ("c", "a", "b"):
        index.insert(name, (10, -1, 2, 2))               # three equal boxes
    hits = index.raycast_all((0, 0), (40, 0))
    assert [h[0] for h in hits] == sorted("cab", key=index.id_of)
    assert all(h[1:] == (0.25, (10.0, 0.0), (-1.0, 0.0)) for h in hits)


def test_long_rays_over_huge_and_far_objects_match_brute_force(index):
    brute = BruteForce()
    shapes = [("wall", (-1000, 50, 2000, 10)), ("far", (9000, 9000, 1, 1)), ("speck", (300, 0, 0, 0)),
              ("neg", (-520, -7, 3, 3))]
    for name, b in shapes:
        index.insert(name, b)
        brute.insert(name, b)
    index.insert_circle("big", (0, -3000), 2500)
    brute.insert_circle("big", (0, -3000), 2500)
    for start, end in [((-900, 0), (900, 0)), ((300, -1), (300, 100)), ((-600, -5), (9500, 9500)),
                       ((0, 0), (0, -9000)), ((-2000, 55), (2000, 55))]:
        assert index.raycast_all(start, end) == brute.raycast_all(start, end, tie_order=index.id_of)


@pytest.mark.parametrize("start,end,named", [
    ((math.nan, 0), (1, 1), "nan"), ((0, 0), (math.inf, 1), "inf"), ((0, -math.inf), (1, 1), "-inf"),
])
def test_bad_rays_are_refused_naming_the_value(index, start, end, named):
    index.insert("box", (0, 0, 1, 1))
    with pytest.raises(ValueError, match=named):
        index.raycast(start, end)
    with pytest.raises(ValueError, match=named):
        index.raycast_all(start, end)
    assert index.raycast((-1, 0.5), (2, 0.5))[0] == "box" and len(index) == 1


def test_a_ray_out_of_a_uniform_grid_s_range_is_refused():
    index = OptimizedSpatialHash(1.0)
    with pytest.raises(ValueError, match="too far"):
        index.raycast((0, 0), (1e300, 0))
