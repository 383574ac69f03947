"""What differs between the 2D and the 3D node: the core's classes and the
names of its methods and values. Everything else in `spatial_hash.node` is
written once over these."""
from spatial_hash import _core, _core3d


class Dimension:
    """The core of one dimension (2 or 3) and its words. A box is D corner
    coordinates then D sizes; a circle (a sphere in 3D) D centre coordinates
    then its radius."""

    def __init__(self, d, core, words):
        self.d = d
        self.axes = "xyz"[:d]
        self.uniform = getattr(core, "UniformGrid" + words["suffix"])
        self.hierarchical = getattr(core, "HierarchicalGrid" + words["suffix"])
        self.rows_into = getattr(core, words["rect"] + "_rows_into")
        self.read_vec = getattr(core, "read_vec%d" % d)
        self.vector = "Vector%d" % d
        self.node = "SpatialHash%dD" % d
        self.monitor_prefix = words["monitors"]
        self.words = words

    def argument(self, name):
        """The face's name of an argument, in 2D's words: "bounds" (update's)
        and "rect" (query_range's) are "aabb" in 3D."""
        return self.words["range" if name == "rect" else name]

    def method(self, grid, kind):
        """The grid's method for `kind`, in 2D's words: "insert_rect" is
        insert_box in 3D, "update_circles" update_spheres."""
        w = self.words
        return getattr(grid, kind.replace("rects", w["rects"]).replace("rect", w["rect"])
                       .replace("circles", w["circles"]).replace("circle", w["circle"]))

    def __repr__(self):
        return "Dimension(%d)" % self.d


DIMENSIONS = {
    2: Dimension(2, _core, {"suffix": "", "rect": "rect", "rects": "rects", "circle": "circle",
                            "circles": "circles", "monitors": "spatial_hash", "bounds": "bounds",
                            "range": "rect"}),
    3: Dimension(3, _core3d, {"suffix": "3D", "rect": "box", "rects": "boxes", "circle": "sphere",
                              "circles": "spheres", "monitors": "spatial_hash_3d", "bounds": "aabb",
                              "range": "aabb"}),
}
