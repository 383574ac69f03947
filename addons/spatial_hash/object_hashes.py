"""Object-keyed spatial hashes mirroring well-known GDScript spatial-hash classes.

Objects are any hashable Python values; the compiled grid stores them as handles
and hands them back from queries. Positions and sizes are (x, y) pairs or
anything with .x/.y (Godot Vector2); bounds are (x, y, width, height) or anything
with .position/.size (Godot Rect2). Boxes are closed: touching counts as overlap.
The classes ending in 3D are the same in three dimensions: (x, y, z) or a
Vector3, bounds (x, y, z, width, height, depth) or an AABB, spheres for circles.

Collision layers follow Godot's areas: each object is on the layers of its
32-bit `layer` (default 1) and looks for those of its `mask` (default all), and
a pair is reported when either one's mask has a bit of the other's layer. Every
query takes a `mask` and returns only the objects on one of its layers.

Static objects (a level's tiles and walls: `static=True` when inserted, or
`set_static`) never pair with each other, as static bodies never collide in
Box2D or Godot. Objects that nothing inserted, moved or removed since the last
pair pass are resting: the pass tests only what changed against what is near
it, so a frame costs what moved.
"""
import math
import warnings

from spatial_hash._core import ALL_LAYERS, HierarchicalGrid, UniformGrid, read_rect, read_vec2
from spatial_hash._core3d import HierarchicalGrid3D, UniformGrid3D, read_box, read_vec3
from spatial_hash.registry import ObjectRegistry


def _check_static(static):
    """The core's check of a `static` argument, for a call that moves an object
    before it sets the flag (so a bad flag changes nothing)."""
    if static not in (True, False):
        raise ValueError(f"static must be True or False, got {static!r}")


class _ObjectIndex:
    """Queries shared by every object-keyed index; subclasses decide how objects
    get in (their insert/update signatures follow the GDScript class they mirror).
    What differs between 2D and 3D is data: the grids, the readers of vectors
    and bounds, and the core's names for a box and a round shape."""

    _uniform_grid = UniformGrid
    _hierarchical_grid = HierarchicalGrid
    _read_vector = staticmethod(read_vec2)
    _read_bounds = staticmethod(read_rect)
    # The grid's calls on one box and one round shape, under this dimension's names.
    _grid_calls = {"_insert_box": "insert_rect", "_update_box": "update_rect", "_query_box": "query_rect",
                   "_insert_round": "insert_circle", "_update_round": "update_circle"}
    _zero = (0.0, 0.0)

    def __init__(self, grid):
        self._grid = grid
        self._objects = ObjectRegistry()
        self._ids = self._objects.ids
        for ours, grids in self._grid_calls.items():
            setattr(self, ours, getattr(grid, grids))

    @property
    def grid(self):
        """The compiled index underneath: `UniformGrid` or `HierarchicalGrid` (3D:
        `UniformGrid3D` or `HierarchicalGrid3D`), keyed by the integer ids of
        `id_of`, with the batch methods on numpy arrays."""
        return self._grid

    def __len__(self):
        return len(self._objects)

    def __contains__(self, obj):
        return self._objects.id_of(obj) is not None

    def __iter__(self):
        return iter(self._objects)

    def id_of(self, obj):
        """The id of `obj` in `grid`, for its batch methods.

        Parameters
        ----------
        obj : hashable
            An object in the index.

        Returns
        -------
        int
            The object's id (a non-negative int, reused after removal).

        Raises
        ------
        KeyError
            If `obj` is not in the index.
        TypeError
            If `obj` is not hashable.
        """
        return self._objects.require(obj)

    def _put_box(self, obj, numbers, static):
        """Add (or move) obj as the box of `numbers`: its corner, then its size."""
        object_id = self._objects.id_of(obj)
        if object_id is None:
            self._objects.add(obj, lambda: self._insert_box(*numbers, obj, static=static))
        else:
            _check_static(static)
            self._update_box(object_id, *numbers)
            self._grid.set_static(object_id, static)

    def _put_round(self, obj, center, radius, static):
        center = self._read_vector(center, "center")
        object_id = self._objects.id_of(obj)
        if object_id is None:
            self._objects.add(obj, lambda: self._insert_round(*center, radius, obj, static=static))
        else:
            _check_static(static)
            self._update_round(object_id, *center, radius)
            self._grid.set_static(object_id, static)

    def set_static(self, obj, static=True):
        """Mark an object static, or not. Two static objects never pair (not in
        `pairs`, `pair_events` or the counters), as static bodies never collide
        in Box2D or Godot; a static object pairs with every other object,
        answers queries and may be moved as before.

        Parameters
        ----------
        obj : hashable
            An object in the index.
        static : bool, optional
            True (the default) to make it static, False to make it move again.

        Raises
        ------
        KeyError
            If `obj` is not in the index.
        TypeError
            If `obj` is not hashable.
        ValueError
            If `static` is not a bool.
        """
        self._grid.set_static(self.id_of(obj), static)

    def is_static(self, obj):
        """Whether an object is static (see `set_static`).

        Parameters
        ----------
        obj : hashable
            An object in the index.

        Returns
        -------
        bool
            True if it is static.

        Raises
        ------
        KeyError
            If `obj` is not in the index.
        TypeError
            If `obj` is not hashable.
        """
        return self._grid.is_static(self.id_of(obj))

    def remove(self, obj, *_ignored):
        """Remove an object; its pairs end (see `pair_events`).

        Parameters
        ----------
        obj : hashable
            The object to remove.
        *_ignored
            The `pos` and `size` that `remove` takes in the GDScript design
            (:ref:`gdscript-design`), accepted and ignored: the index tracks
            each object's cells itself.

        Returns
        -------
        bool
            True if it was removed, False if it was not there (an unhashable
            `obj` is never there: False, no error).
        """
        try:
            object_id = self._objects.drop(obj)
        except TypeError:
            return False
        return object_id is not None and self._grid.remove(object_id)

    def clear(self):
        """Remove every object (their pairs end: see `pair_events`)."""
        self._grid.clear()
        self._objects.clear()

    def bounds(self, obj):
        """The box stored for an object (a circle's or sphere's bounding box).

        Parameters
        ----------
        obj : hashable
            An object in the index.

        Returns
        -------
        tuple of float
            ``(x, y, width, height)``, min corner and size in world units; 3D:
            ``(x, y, z, width, height, depth)``.

        Raises
        ------
        KeyError
            If `obj` is not in the index.
        TypeError
            If `obj` is not hashable.
        """
        return self._grid.bounds(self.id_of(obj))

    def set_filter(self, obj, layer, mask):
        """Put an object on collision layers and set the layers it looks for; it
        keeps them when it moves. A changed filter begins or ends pairs in
        `pair_events`.

        Parameters
        ----------
        obj : hashable
            An object in the index.
        layer : int
            The layers it is on, one bit each (0 to 2**32 - 1; default 1).
        mask : int
            The layers it looks for (0 to 2**32 - 1; default all).

        Raises
        ------
        KeyError
            If `obj` is not in the index.
        TypeError
            If `obj` is not hashable.
        ValueError
            For a `layer` or `mask` that is not an int from 0 to 2**32 - 1, naming it.
        """
        self._grid.set_filter(self.id_of(obj), layer, mask)

    def filter_of(self, obj):
        """An object's collision layers and mask.

        Parameters
        ----------
        obj : hashable
            An object in the index.

        Returns
        -------
        tuple of int
            ``(layer, mask)``.

        Raises
        ------
        KeyError
            If `obj` is not in the index.
        TypeError
            If `obj` is not hashable.
        """
        return self._grid.filter_of(self.id_of(obj))

    def _size(self, size):
        """The numbers of a size argument; None is no extent."""
        return self._zero if size is None else self._read_vector(size, "size")

    def query_nearby(self, pos, size=None, mask=ALL_LAYERS):
        """Every object sharing a cell with a box: broad-phase candidates.

        A superset of the objects overlapping the box, as `query_nearby` of
        the GDScript design (:ref:`gdscript-design`) answers.

        Parameters
        ----------
        pos : (x, y) or Vector2; 3D: (x, y, z) or Vector3
            The box's min corner, in world units.
        size : (width, height) or Vector2, optional
            Its size in world units (>= 0; 3D: width, height, depth); None is a point.
        mask : int, optional
            Only objects on one of these layers (0 to 2**32 - 1).

        Returns
        -------
        list
            The objects, each once.

        Raises
        ------
        TypeError
            For a vector of the wrong length or kind, naming it.
        ValueError
            For a non-finite coordinate, a negative size or a bad mask, naming it.
        """
        return self._grid.query_nearby_at(pos, self._size(size), mask)

    def query_range(self, bounds, exact=False, mask=ALL_LAYERS):
        """The objects in the cells a box covers.

        Parameters
        ----------
        bounds : (x, y, width, height) or Rect2; 3D: (x, y, z, width, height, depth) or AABB
            The box, in world units; sizes >= 0.
        exact : bool, optional
            Keep only the objects whose shape overlaps the box (touching counts).
        mask : int, optional
            Only objects on one of these layers.

        Returns
        -------
        list
            The objects, each once.

        Raises
        ------
        TypeError
            For bounds of the wrong length or kind.
        ValueError
            For a non-finite number, a negative size or a bad mask, naming it.
        """
        return self._query_box(*self._read_bounds(bounds), exact, mask)

    def query_point(self, point, mask=ALL_LAYERS):
        """The objects whose shape contains a point (its edge included).

        Parameters
        ----------
        point : (x, y) or Vector2; 3D: (x, y, z) or Vector3
            In world units.
        mask : int, optional
            Only objects on one of these layers (0 to 2**32 - 1).

        Returns
        -------
        list
            The objects, each once.

        Raises
        ------
        TypeError
            For a point of the wrong length or kind.
        ValueError
            For a non-finite coordinate or a bad mask, naming it.
        """
        return self._grid.query_point(*self._read_vector(point, "point"), mask)

    def query_radius(self, center, radius, mask=ALL_LAYERS):
        """The objects whose shape overlaps a disc (3D: a sphere); touching counts.

        Parameters
        ----------
        center : (x, y) or Vector2; 3D: (x, y, z) or Vector3
            In world units.
        radius : float
            In world units, finite and >= 0.
        mask : int, optional
            Only objects on one of these layers (0 to 2**32 - 1).

        Returns
        -------
        list
            The objects, each once.

        Raises
        ------
        TypeError
            For a centre of the wrong length or kind, or a radius that is not a number.
        ValueError
            For a non-finite coordinate, a negative or non-finite radius or a
            bad mask, naming it.
        """
        return self._grid.query_radius(*self._read_vector(center, "center"), radius, mask)

    def query_along_path(self, start, end, size=None, mask=ALL_LAYERS):
        """The objects a moving box touches on its way: every cell the swept
        box crosses is visited, so a fast mover cannot tunnel through anything.

        Parameters
        ----------
        start, end : (x, y) or Vector2; 3D: (x, y, z) or Vector3
            The box's min corner before and after the move, in world units.
        size : (width, height) or Vector2, optional
            The box's size (>= 0; 3D: width, height, depth); None is a point.
        mask : int, optional
            Only objects on one of these layers (0 to 2**32 - 1).

        Returns
        -------
        list
            The objects whose box the swept box touches, each once.

        Raises
        ------
        TypeError
            For a vector of the wrong length or kind, naming it.
        ValueError
            For a non-finite coordinate, a negative size or a bad mask, naming it.
        """
        return self._grid.query_swept(*self._read_vector(start, "start"),
                                      *self._read_vector(end, "end"), *self._size(size), mask)

    def query_nearest(self, point, k=1, max_distance=math.inf, mask=ALL_LAYERS):
        """The `k` objects nearest to a point, nearest first.

        Distances are exact, to each object's circle (sphere) or box, 0 for the
        objects containing the point; objects at equal distances come in id
        order.

        Parameters
        ----------
        point : (x, y) or Vector2; 3D: (x, y, z) or Vector3
            In world units.
        k : int, optional
            How many objects (>= 0).
        max_distance : float, optional
            Leave out objects farther than this (world units, >= 0).
        mask : int, optional
            Only objects on one of these layers.

        Returns
        -------
        list
            At most `k` objects.

        Raises
        ------
        TypeError
            For a point of the wrong length or kind.
        ValueError
            For a `k` that is not an int >= 0, a negative or NaN `max_distance`,
            a non-finite point or a bad mask, naming it.
        """
        return self._grid.query_nearest(*self._read_vector(point, "point"), k, max_distance, mask)

    def raycast(self, start, end, mask=ALL_LAYERS):
        """The first object the segment from `start` to `end` meets.

        Parameters
        ----------
        start, end : (x, y) or Vector2; 3D: (x, y, z) or Vector3
            The segment's ends, in world units.
        mask : int, optional
            Only objects on one of these layers.

        Returns
        -------
        tuple or None
            ``(obj, fraction, point, normal)``: the fraction of the way (0 to 1),
            the hit point and the unit surface normal there, as tuples; an
            object containing `start` is met at fraction 0 with a zero normal.
            None if nothing is met.

        Raises
        ------
        TypeError
            For an end of the wrong length or kind, naming it.
        ValueError
            For a non-finite coordinate or a bad mask, naming it.
        """
        return self._grid.raycast(*self._read_vector(start, "start"),
                                  *self._read_vector(end, "end"), mask)

    def raycast_all(self, start, end, mask=ALL_LAYERS):
        """Every object the segment from `start` to `end` meets, earliest first.

        Parameters
        ----------
        start, end : (x, y) or Vector2; 3D: (x, y, z) or Vector3
            The segment's ends, in world units.
        mask : int, optional
            Only objects on one of these layers (0 to 2**32 - 1).

        Returns
        -------
        list of tuple
            `raycast`'s ``(obj, fraction, point, normal)`` for each object met,
            by fraction (ties in id order); empty if nothing is met.

        Raises
        ------
        TypeError
            For an end of the wrong length or kind, naming it.
        ValueError
            For a non-finite coordinate or a bad mask, naming it.
        """
        return self._grid.raycast_all(*self._read_vector(start, "start"),
                                      *self._read_vector(end, "end"), mask)

    def pairs(self):
        """Every overlapping pair, exactly once.

        Returns
        -------
        list of tuple
            ``(a, b)`` pairs of objects whose shapes overlap (touching counts)
            and whose layers and masks let them collide.
        """
        return self._grid.pairs()

    def pair_events(self):
        """The pairs that began and ended being reported since the last call.

        A pair begins or ends by starting or ceasing to overlap, or by a change
        of layer or mask; removing an object ends its pairs (putting it back
        begins new ones). The first call compares with an empty index.

        Returns
        -------
        tuple of (list of tuple, list of tuple)
            ``(began, ended)``, each a list of ``(a, b)`` pairs of objects,
            each pair once.
        """
        return self._grid.pair_events()

    def is_colliding(self, a, b):
        """Whether two objects collide, as `pairs` would report them.

        Parameters
        ----------
        a, b : hashable
            Objects in the index.

        Returns
        -------
        bool
            True if their shapes overlap (touching counts) and their layers and
            masks let them collide; False for an object with itself.

        Raises
        ------
        KeyError
            If `a` or `b` is not in the index, naming it.
        TypeError
            If `a` or `b` is not hashable.
        """
        return self._grid.is_colliding(self._objects.require(a, "a"), self._objects.require(b, "b"))

    def stats(self):
        """Occupancy and the counters of the last `pairs()` call.

        Returns
        -------
        dict
            The same keys for every index (``objects``, ``active_cells``,
            ``max_objects_per_cell``, ``broad_phase_pairs``, ...);
            `UniformGrid.stats` says what each holds.
        """
        return self._grid.stats()

    def check_hash_distribution(self, max_chain=20):
        """Warn when a cell holds too many objects, as the GDScript design's check does.

        Cells are counted by their full coordinates here, so a long chain means
        crowding: the cell size is too large for the scene.

        Parameters
        ----------
        max_chain : int, optional
            The most objects one cell may hold without a warning.

        Returns
        -------
        int
            The most objects any cell holds.

        Warns
        -----
        RuntimeWarning
            "Poor hash distribution, max chain: N" when N > `max_chain`.
        """
        longest = self._grid.stats()["max_objects_per_cell"]
        if longest > max_chain:
            warnings.warn(f"Poor hash distribution, max chain: {longest}", RuntimeWarning,
                          stacklevel=2)
        return longest


class _Plane:
    """What the 2D classes have that the 3D ones name otherwise."""

    def insert_circle(self, obj, center, radius, static=False):
        """Add a disc, or move an object already present to it (it then becomes a disc).

        The pair pass and exact queries use the circle; the grid files its
        bounding box.

        Parameters
        ----------
        obj : hashable
            The object, handed back by queries.
        center : (x, y) or Vector2
            In world units.
        radius : float
            In world units, finite and >= 0.
        static : bool
            Whether it is static (see `set_static`); given for an object already
            present, it sets that too.

        Raises
        ------
        TypeError
            For an unhashable `obj`, a centre of the wrong length or kind, or a
            radius that is not a number.
        ValueError
            For a non-finite coordinate or a negative or non-finite radius,
            naming it; the index is left as it was. Also for a `static` that is
            not a bool.
        """
        self._put_round(obj, center, radius, static)


class _Space:
    """The 3D classes' data (see _ObjectIndex) and their round shape, the sphere."""

    _uniform_grid = UniformGrid3D
    _hierarchical_grid = HierarchicalGrid3D
    _read_vector = staticmethod(read_vec3)
    _read_bounds = staticmethod(read_box)
    _grid_calls = {"_insert_box": "insert_box", "_update_box": "update_box", "_query_box": "query_box",
                   "_insert_round": "insert_sphere", "_update_round": "update_sphere"}
    _zero = (0.0, 0.0, 0.0)

    def insert_sphere(self, obj, center, radius, static=False):
        """Add a sphere, or move an object already present to it (it then becomes a sphere).

        The pair pass and exact queries use the sphere; the grid files its
        bounding box.

        Parameters
        ----------
        obj : hashable
            The object, handed back by queries.
        center : (x, y, z) or Vector3
            In world units.
        radius : float
            In world units, finite and >= 0.
        static : bool
            Whether it is static (see `set_static`); given for an object already
            present, it sets that too.

        Raises
        ------
        TypeError
            For an unhashable `obj`, a centre of the wrong length or kind, or a
            radius that is not a number.
        ValueError
            For a non-finite coordinate or a negative or non-finite radius,
            naming it; the index is left as it was. Also for a `static` that is
            not a bool.
        """
        self._put_round(obj, center, radius, static)


class _UniformIndex(_ObjectIndex):
    """An object-keyed index over a uniform grid of the caller's cell size."""

    def __init__(self, cell_size=64.0, origin=None, large_threshold=4, threads=1):
        super().__init__(self._uniform_grid(cell_size, self._zero if origin is None else origin,
                                            large_threshold, threads))

    @property
    def cell_size(self):
        """The side of a cell, in world units (float)."""
        return self._grid.cell_size


class _SpatialHash(_UniformIndex):
    """insert(obj, pos, size), as in the GDScript SpatialHash."""

    def insert(self, obj, pos, size, static=False):
        """Add a box, or move an object already present to it.

        Parameters
        ----------
        obj : hashable
            The object, handed back by queries.
        pos : (x, y) or Vector2; 3D: (x, y, z) or Vector3
            The box's min corner, in world units.
        size : (width, height) or Vector2; 3D: (width, height, depth) or Vector3
            Its size in world units, finite and >= 0.
        static : bool
            Whether it is static (see `set_static`); given for an object already
            present, it sets that too.

        Raises
        ------
        TypeError
            For an unhashable `obj`, or a vector of the wrong length or kind, naming it.
        ValueError
            For a non-finite coordinate or a negative size, naming it; the index
            is left as it was. Also for a `static` that is
            not a bool.
        """
        self._put_box(obj, self._read_vector(pos, "pos") + self._read_vector(size, "size"), static)


class _BoundsIndex(_ObjectIndex):
    """insert(obj, bounds) / update(obj, new_bounds), as in OptimizedSpatialHash.

    Inserting an object that is already present updates it; update() of an object
    that is not present raises KeyError (it is almost always a bug).
    """

    def insert(self, obj, bounds, static=False):
        """Add a box, or move an object already present to it.

        Parameters
        ----------
        obj : hashable
            The object, handed back by queries.
        bounds : (x, y, width, height) or Rect2; 3D: (x, y, z, width, height, depth) or AABB
            Min corner and size in world units; sizes finite and >= 0.
        static : bool
            Whether it is static (see `set_static`); given for an object already
            present, it sets that too.

        Raises
        ------
        TypeError
            For an unhashable `obj`, or bounds of the wrong length or kind.
        ValueError
            For a non-finite number or a negative size, naming it; the index is
            left as it was. Also for a `static` that is
            not a bool.
        """
        self._put_box(obj, self._read_bounds(bounds), static)

    def update(self, obj, new_bounds):
        """Move an object that is in the index to a box (a disc or sphere becomes a box).

        Cheaper than `remove` and `insert`: an object whose min corner stays
        in its cell is not relinked.

        Parameters
        ----------
        obj : hashable
            An object in the index.
        new_bounds : (x, y, width, height) or Rect2; 3D: (x, y, z, width, height, depth) or AABB
            Min corner and size in world units; sizes finite and >= 0.

        Raises
        ------
        KeyError
            If `obj` is not in the index (updating an absent object is almost
            always a bug; `insert` adds or moves).
        TypeError
            For an unhashable `obj`, or bounds of the wrong length or kind.
        ValueError
            For a non-finite number or a negative size, naming it; the object
            stays where it was.
        """
        try:
            object_id = self._ids[obj]
        except (KeyError, TypeError):
            object_id = self._objects.require(obj)      # raises, naming obj
        self._grid.update_bounds(object_id, new_bounds, "new_bounds")


class _OptimizedSpatialHash(_BoundsIndex, _UniformIndex):
    pass


class _HierarchicalSpatialHash(_BoundsIndex):
    def __init__(self, hierarchy_factor=2.0, density=0.125, threads=1):
        super().__init__(self._hierarchical_grid(hierarchy_factor, density, threads))



# The constructors' Parameters and Raises, said once: the uniform grids' per
# dimension (the origin's form differs), the hierarchical grids' for both.
_UNIFORM_2D = """\
    Parameters
    ----------
    cell_size : float, optional
        The side of a cell in world units (positive and finite): about 2x the
        typical object's diameter in 2D, 1x in 3D (`spatial_hash.tuning.suggest`).
    origin : (x, y) or Vector2, optional
        Where cell (0, 0) starts, in world units; (0, 0) by default.
    large_threshold : int, optional
        Objects spanning more cells than this on a side (1 to 64) go to a list
        of large objects that the pair pass walks cell by cell.
    threads : int, optional
        Threads of the pair pass and batch moves (1 to 256). The pairs and
        their order do not depend on it.

    Raises
    ------
    TypeError
        For an origin of the wrong length or kind.
    ValueError
        For a cell size that is not positive and finite, a non-finite origin,
        a threshold outside 1 to 64 or a thread count outside 1 to 256, naming
        it.
"""
_UNIFORM_3D = _UNIFORM_2D.replace("(x, y) or Vector2", "(x, y, z) or Vector3").replace("(0, 0)", "(0, 0, 0)")
_HIERARCHICAL = """\
    Parameters
    ----------
    hierarchy_factor : float, optional
        The ratio of one level's cell size to the next's (1.1 to 1e6).
    density : float, optional
        Objects per cell (in (0, 64]) past which a level's table grows.
    threads : int, optional
        Threads of the pair search and batch moves (1 to 256). The pairs and
        their order do not depend on it.

    Raises
    ------
    ValueError
        For a parameter out of its range, naming it.
"""


def _with_parameters(block):
    """A class decorator: `block` goes into the class's docstring before its
    Examples (at its end where it has none)."""
    def document(cls):
        summary, heading, examples = cls.__doc__.partition("\n    Examples\n")
        cls.__doc__ = summary.rstrip() + "\n\n" + block + (heading + examples if heading else "    ")
        return cls
    return document


@_with_parameters(_UNIFORM_2D)
class SpatialHash(_Plane, _SpatialHash):
    """The basic GDScript-style SpatialHash over a uniform grid.

    `insert(obj, pos, size)` adds a box (or moves an object already present);
    `remove`, `query_nearby` and `clear` as in the GDScript design
    (:ref:`gdscript-design`), and every query of the other indexes.

    Examples
    --------
    >>> from spatial_hash import SpatialHash
    >>> index = SpatialHash(cell_size=32.0)
    >>> index.insert("player", (0, 0), (16, 16))
    >>> index.insert("coin", (20, 4), (8, 8))
    >>> sorted(index.query_nearby((0, 0), (16, 16)))
    ['coin', 'player']
    >>> index.query_range((0, 0, 16, 16), exact=True)
    ['player']
    """


@_with_parameters(_UNIFORM_2D)
class OptimizedSpatialHash(_Plane, _OptimizedSpatialHash):
    """The GDScript-style OptimizedSpatialHash over a uniform grid.

    `insert(obj, bounds)`, `remove(obj)`, `update(obj, new_bounds)` and
    `query_range(bounds)`, with each object stored once, in the cell of its
    min corner, so an update that keeps that cell costs no relink.

    Examples
    --------
    >>> from spatial_hash import OptimizedSpatialHash
    >>> index = OptimizedSpatialHash(cell_size=64.0)
    >>> index.insert("ship", (10, 10, 32, 32))
    >>> index.insert_circle("mine", (40, 40), 8)
    >>> index.pairs()
    [('ship', 'mine')]
    """


@_with_parameters(_HIERARCHICAL)
class HierarchicalSpatialHash(_Plane, _HierarchicalSpatialHash):
    """The hierarchical spatial hash grid, with the same methods as
    OptimizedSpatialHash: no cell size to tune, for scenes that mix sizes.

    Levels are created from the objects' own sizes (cells sqrt(hierarchy_factor)
    times an object's longest side, levels `hierarchy_factor` apart); each object
    lives in one cell; a level's table grows when objects per cell pass `density`.
    `query_nearby` and `query_range` without ``exact=True`` return the objects in
    the cells visited on every level: candidates, a superset of the exact overlaps.

    Examples
    --------
    >>> from spatial_hash import HierarchicalSpatialHash
    >>> index = HierarchicalSpatialHash()
    >>> index.insert("castle", (0, 0, 400, 300))
    >>> index.insert("arrow", (390, 290, 2, 2))
    >>> index.insert("bird", (900, 900, 4, 4))
    >>> index.pairs()
    [('castle', 'arrow')]
    """


@_with_parameters(_UNIFORM_3D)
class SpatialHash3D(_Space, _SpatialHash):
    """SpatialHash in 3D, over a UniformGrid3D: `insert(obj, pos, size)` with
    (x, y, z) or Vector3 arguments, spheres by `insert_sphere`.
    """


@_with_parameters(_UNIFORM_3D)
class OptimizedSpatialHash3D(_Space, _OptimizedSpatialHash):
    """OptimizedSpatialHash in 3D, over a UniformGrid3D: bounds are
    (x, y, z, width, height, depth) or an AABB, spheres by `insert_sphere`.

    Examples
    --------
    >>> from spatial_hash import OptimizedSpatialHash3D
    >>> index = OptimizedSpatialHash3D(cell_size=2.0)
    >>> index.insert("crate", (0, 0, 0, 1, 1, 1))
    >>> index.insert_sphere("ball", (1.5, 0.5, 0.5), 0.6)
    >>> index.pairs()
    [('crate', 'ball')]
    """


@_with_parameters(_HIERARCHICAL)
class HierarchicalSpatialHash3D(_Space, _HierarchicalSpatialHash):
    """HierarchicalSpatialHash in 3D, over a HierarchicalGrid3D: cells are
    cubes sqrt(hierarchy_factor) times an object's longest side.
    """
