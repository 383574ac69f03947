"""What differs between the 2D and the 3D node: the core's classes and the
names of its methods and values. Everything else in `spatial_hash.node` is
written once over these."""
from spatial_hash import _core, _core3d


class Dimension:
    """The core of one dimension (2 or 3) and its words. A box is D corner
    coordinates then D sizes; a circle (a sphere in 3D) D centre coordinates
    then its radius. `calls` names the grid's method for each call the node
    makes, by its 2D name."""

    def __init__(self, d, uniform, hierarchical, rows_into, read_vec, calls, words):
        self.d = d
        self.axes = "xyz"[:d]
        self.uniform = uniform
        self.hierarchical = hierarchical
        self.rows_into = rows_into
        self.read_vec = read_vec
        self.calls = calls
        self.vector = "Vector%d" % d
        self.node = "SpatialHash%dD" % d
        self.monitor_prefix = words["monitors"]
        self.words = words

    def argument(self, name):
        """The face's name of an argument, in 2D's words: "bounds" (update's)
        and "rect" (query_range's) are "aabb" in 3D."""
        return self.words["range" if name == "rect" else name]

    def method(self, grid, call):
        """The grid's method for `call`, in 2D's words: "insert_rect" is
        insert_box in 3D, "update_circles" update_spheres."""
        return getattr(grid, self.calls[call])

    def __repr__(self):
        return "Dimension(%d)" % self.d


CALLS_2D = ("insert_rect", "update_rect", "insert_circle", "update_circle", "insert_rects", "update_rects",
            "update_circles", "query_rect", "query_rects")

DIMENSIONS = {
    2: Dimension(2, _core.UniformGrid, _core.HierarchicalGrid, _core.rect_rows_into, _core.read_vec2,
                 {call: call for call in CALLS_2D},
                 {"monitors": "spatial_hash", "bounds": "bounds", "range": "rect"}),
    3: Dimension(3, _core3d.UniformGrid3D, _core3d.HierarchicalGrid3D, _core3d.box_rows_into, _core3d.read_vec3,
                 {"insert_rect": "insert_box", "update_rect": "update_box", "insert_circle": "insert_sphere",
                  "update_circle": "update_sphere", "insert_rects": "insert_boxes", "update_rects": "update_boxes",
                  "update_circles": "update_spheres", "query_rect": "query_box", "query_rects": "query_boxes"},
                 {"monitors": "spatial_hash_3d", "bounds": "aabb", "range": "aabb"}),
}
