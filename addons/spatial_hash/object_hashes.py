"""Object-keyed spatial hashes mirroring well-known GDScript spatial-hash classes.

Objects are any hashable Python values; the compiled grid stores them as handles
and hands them back from queries. Positions and sizes are (x, y) pairs or
anything with .x/.y (Godot Vector2); bounds are (x, y, width, height) or anything
with .position/.size (Godot Rect2). Boxes are closed: touching counts as overlap.

Collision layers follow Godot's areas: each object is on the layers of its
32-bit `layer` (default 1) and looks for those of its `mask` (default all), and
a pair is reported when either one's mask has a bit of the other's layer. Every
query takes a `mask` and returns only the objects on one of its layers.
"""
import math
import warnings

from spatial_hash._core import ALL_LAYERS, HierarchicalGrid, UniformGrid, read_rect, read_vec2
from spatial_hash.registry import ObjectRegistry


class _ObjectIndex:
    """Queries shared by every object-keyed index; subclasses decide how objects
    get in (their insert/update signatures follow the GDScript class they mirror)."""

    def __init__(self, grid):
        self._grid = grid
        self._objects = ObjectRegistry()
        self._ids = self._objects.ids

    @property
    def grid(self):
        """The compiled index underneath (integer ids; batch methods)."""
        return self._grid

    def __len__(self):
        return len(self._objects)

    def __contains__(self, obj):
        return self._objects.id_of(obj) is not None

    def __iter__(self):
        return iter(self._objects)

    def id_of(self, obj):
        """The id of obj in `grid` (for its batch methods); KeyError if absent."""
        return self._objects.require(obj)

    def _put_rect(self, obj, x, y, width, height):
        object_id = self._objects.id_of(obj)
        if object_id is None:
            self._objects.add(obj, lambda: self._grid.insert_rect(x, y, width, height, obj))
        else:
            self._grid.update_rect(object_id, x, y, width, height)

    def insert_circle(self, obj, center, radius):
        """Add (or move) a disc; the pair pass and exact queries use the circle."""
        x, y = read_vec2(center, "center")
        object_id = self._objects.id_of(obj)
        if object_id is None:
            self._objects.add(obj, lambda: self._grid.insert_circle(x, y, radius, obj))
        else:
            self._grid.update_circle(object_id, x, y, radius)

    def remove(self, obj, *_ignored):
        """Remove an object; False if it was not there. Extra arguments (the GDScript original's
        pos and size) are accepted and ignored: the hash tracks each object's cells."""
        try:
            object_id = self._objects.drop(obj)
        except TypeError:
            return False
        return object_id is not None and self._grid.remove(object_id)

    def clear(self):
        self._grid.clear()
        self._objects.clear()

    def bounds(self, obj):
        """(x, y, width, height) stored for an object."""
        return self._grid.bounds(self.id_of(obj))

    def set_filter(self, obj, layer, mask):
        """Put obj on the collision layers `layer` and have it look for those of
        `mask` (32-bit unsigned ints); it keeps them when it moves."""
        self._grid.set_filter(self.id_of(obj), layer, mask)

    def filter_of(self, obj):
        """(layer, mask) of obj."""
        return self._grid.filter_of(self.id_of(obj))

    def query_nearby(self, pos, size=(0.0, 0.0), mask=ALL_LAYERS):
        """Every object sharing a cell with the box at pos of the given size: the
        GDScript original's broad-phase candidates (a superset of the exact overlaps)."""
        return self._grid.query_nearby_at(pos, size, mask)

    def query_range(self, bounds, exact=False, mask=ALL_LAYERS):
        """Objects in the cells the bounds cover; exact=True keeps only overlaps."""
        x, y, w, h = read_rect(bounds)
        return self._grid.query_rect(x, y, w, h, exact, mask)

    def query_point(self, point, mask=ALL_LAYERS):
        """Objects containing the point."""
        x, y = read_vec2(point, "point")
        return self._grid.query_point(x, y, mask)

    def query_radius(self, center, radius, mask=ALL_LAYERS):
        """Objects overlapping the disc."""
        x, y = read_vec2(center, "center")
        return self._grid.query_radius(x, y, radius, mask)

    def query_along_path(self, start, end, size=(0.0, 0.0), mask=ALL_LAYERS):
        """Objects a box of `size` touches while moving from `start` to `end` (its
        top-left corner's path), found by visiting every cell the swept box crosses,
        so fast movers cannot tunnel through anything."""
        x0, y0 = read_vec2(start, "start")
        x1, y1 = read_vec2(end, "end")
        w, h = read_vec2(size, "size")
        return self._grid.query_swept(x0, y0, x1, y1, w, h, mask)

    def query_nearest(self, point, k=1, max_distance=math.inf, mask=ALL_LAYERS):
        """The k objects nearest to `point`, nearest first by the exact distance to
        their circle or box (0 for those containing it; ties in id order), none
        farther than max_distance (world units)."""
        x, y = read_vec2(point, "point")
        return self._grid.query_nearest(x, y, k, max_distance, mask)

    def raycast(self, start, end, mask=ALL_LAYERS):
        """The first object the segment from `start` to `end` meets, as (obj,
        fraction of the way, hit point, unit surface normal), or None; an object
        containing the start is met at fraction 0 with normal (0, 0)."""
        return self._grid.raycast(*read_vec2(start, "start"), *read_vec2(end, "end"), mask)

    def raycast_all(self, start, end, mask=ALL_LAYERS):
        """Every object the segment meets, as raycast's tuples, earliest first
        (ties in id order)."""
        return self._grid.raycast_all(*read_vec2(start, "start"), *read_vec2(end, "end"), mask)

    def pairs(self):
        """Every overlapping pair (a, b) exactly once."""
        return self._grid.pairs()

    def pair_events(self):
        """(began, ended): the pairs (a, b) that began and ended being reported
        since the last call, each once: by overlapping, or by a change of layer
        or mask; removing an object ends its pairs (putting it back begins new
        ones)."""
        return self._grid.pair_events()

    def is_colliding(self, a, b):
        """Do a and b overlap, with filters that pass? Agrees with pairs()."""
        return self._grid.is_colliding(self._objects.require(a, "a"), self._objects.require(b, "b"))

    def stats(self):
        """Occupancy and the counters of the last pairs() call (see UniformGrid.stats)."""
        return self._grid.stats()

    def check_hash_distribution(self, max_chain=20):
        """Warn (RuntimeWarning) when a cell holds more than max_chain objects, like
        the GDScript original's check; returns the longest chain. Cells are counted by their
        full coordinates here, so a long chain means crowding: the cell size is too large for
        the scene."""
        longest = self._grid.stats()["max_objects_per_cell"]
        if longest > max_chain:
            warnings.warn(f"Poor hash distribution, max chain: {longest}", RuntimeWarning,
                          stacklevel=2)
        return longest


class SpatialHash(_ObjectIndex):
    """The basic GDScript-style SpatialHash: insert(obj, pos, size), remove, query_nearby, clear.

    Inserting an object that is already present moves it to the new box.
    """

    def __init__(self, cell_size=64.0, origin=(0.0, 0.0), large_threshold=4):
        super().__init__(UniformGrid(cell_size, origin, large_threshold))

    @property
    def cell_size(self):
        return self._grid.cell_size

    def insert(self, obj, pos, size):
        x, y = read_vec2(pos, "pos")
        w, h = read_vec2(size, "size")
        self._put_rect(obj, x, y, w, h)


class _BoundsIndex(_ObjectIndex):
    """insert(obj, bounds) / update(obj, new_bounds), as in OptimizedSpatialHash.

    Inserting an object that is already present updates it; update() of an object
    that is not present raises KeyError (it is almost always a bug).
    """

    def insert(self, obj, bounds):
        x, y, w, h = read_rect(bounds)
        self._put_rect(obj, x, y, w, h)

    def update(self, obj, new_bounds):
        try:
            object_id = self._ids[obj]
        except (KeyError, TypeError):
            object_id = self._objects.require(obj)      # raises, naming obj
        self._grid.update_bounds(object_id, new_bounds, "new_bounds")


class OptimizedSpatialHash(_BoundsIndex):
    """The GDScript-style OptimizedSpatialHash: insert(obj, bounds), remove(obj),
    update(obj, new_bounds), query_range(bounds), with each object stored once, in
    the cell of its min corner, so an update that keeps that cell costs no relink."""

    def __init__(self, cell_size=64.0, origin=(0.0, 0.0), large_threshold=4):
        super().__init__(UniformGrid(cell_size, origin, large_threshold))

    @property
    def cell_size(self):
        return self._grid.cell_size


class HierarchicalSpatialHash(_BoundsIndex):
    """The hierarchical spatial hash grid, with the same methods as
    OptimizedSpatialHash: no cell size to tune, for scenes that mix sizes.

    Levels are created from the objects' own sizes (cells sqrt(hierarchy_factor)
    times an object's longest side, levels `hierarchy_factor` apart); each object
    lives in one cell; a level's table grows when objects per cell pass `density`.
    query_nearby/query_range without exact=True return the objects in the cells
    visited on every level: candidates, a superset of the exact overlaps.
    `threads` > 1 runs the pair search on that many threads (where the core was
    built with OpenMP); the pairs and their order do not depend on it.
    """

    def __init__(self, hierarchy_factor=2.0, density=0.125, threads=1):
        super().__init__(HierarchicalGrid(hierarchy_factor, density, threads))
