"""SpatialHashCollisionSystem and CollisionObject, as in the GDScript design they
mirror, and their 3D versions."""
from spatial_hash.object_hashes import OptimizedSpatialHash, OptimizedSpatialHash3D


class CollisionObject:
    """A box with an id, a velocity and an optional collision callback.

    The system reads `position` and `size` when the object is added, and
    `update_object_position` sets `position`; `velocity` is the game's to use.

    Parameters
    ----------
    id : object
        Any value naming the object (shown by repr; the system keys on the
        object itself).
    position : (x, y) or Vector2
        The box's min corner, in world units.
    size : (width, height) or Vector2
        Its size in world units (finite and >= 0, checked when it is added).

    Attributes
    ----------
    velocity : tuple of float
        (0.0, 0.0) until the game sets it.
    on_collision : callable or None
        Called as ``on_collision(other)`` by `SpatialHashCollisionSystem.check_collisions`.
    """

    _still = (0.0, 0.0)

    def __init__(self, id, position, size):
        self.id = id
        self.position = position
        self.size = size
        self.velocity = self._still
        self.on_collision = None

    def __repr__(self):
        return f"{type(self).__name__}({self.id!r}, {self.position!r}, {self.size!r})"


class CollisionObject3D(CollisionObject):
    """CollisionObject in 3D; `velocity` starts at (0.0, 0.0, 0.0).

    Parameters
    ----------
    id : object
        Any value naming the object.
    position : (x, y, z) or Vector3
        The box's min corner, in world units.
    size : (width, height, depth) or Vector3
        Its size in world units.
    """

    _still = (0.0, 0.0, 0.0)


class SpatialHashCollisionSystem:
    """Keeps CollisionObjects in an OptimizedSpatialHash and reports overlapping pairs.

    Parameters
    ----------
    cell_size : float, optional
        The side of a cell in world units (positive and finite).
    origin : (x, y) or Vector2, optional
        Where cell (0, 0) starts; (0, 0) by default.
    large_threshold : int, optional
        Objects spanning more cells than this on a side (1 to 64) go to the
        large-object list.

    Raises
    ------
    TypeError, ValueError
        As `OptimizedSpatialHash` raises them for the same arguments.

    Examples
    --------
    >>> from spatial_hash import CollisionObject, SpatialHashCollisionSystem
    >>> system = SpatialHashCollisionSystem(cell_size=64.0)
    >>> bullet = CollisionObject(1, (0, 0), (4, 4))
    >>> boss = CollisionObject(2, (2, 2), (40, 40))
    >>> bullet.on_collision = lambda other: print("bullet hit", other.id)
    >>> system.add_object(bullet)
    >>> system.add_object(boss)
    >>> system.check_collisions()
    bullet hit 2
    [(CollisionObject(1, (0, 0), (4, 4)), CollisionObject(2, (2, 2), (40, 40)))]
    """

    _hash_class = OptimizedSpatialHash

    def __init__(self, cell_size=64.0, origin=None, large_threshold=4):
        self._hash = self._hash_class(cell_size, origin, large_threshold)

    @property
    def spatial_hash(self):
        """The `OptimizedSpatialHash` (3D: `OptimizedSpatialHash3D`) holding the
        objects, for its queries."""
        return self._hash

    @property
    def objects(self):
        """The objects in the system, in the order added (a new list)."""
        return list(self._hash)

    def add_object(self, obj, static=False):
        """Add an object at its `position` and `size`, or move one already present there.

        Parameters
        ----------
        obj : CollisionObject
            Hashable, with `position` and `size`.
        static : bool, optional
            Whether it is static: two static objects (a level's walls) are
            never reported as a pair, as in Box2D and Godot (see
            `OptimizedSpatialHash.set_static`).

        Raises
        ------
        AttributeError
            If `obj` has no `position` or `size`.
        TypeError
            For a position or size of the wrong length or kind, naming it.
        ValueError
            For a non-finite coordinate, a negative size or a `static` that is
            not a bool, naming it; the system is left as it was.
        """
        self._hash.insert(obj, self._bounds(obj.position, obj.size), static)

    def set_static(self, obj, static=True):
        """Mark an object of the system static, or not (see `add_object`).

        Parameters
        ----------
        obj : CollisionObject
            An object in the system.
        static : bool, optional
            True (the default) to make it static, False to make it move again.

        Raises
        ------
        KeyError
            If `obj` is not in the system.
        ValueError
            If `static` is not a bool.
        """
        self._hash.set_static(obj, static)

    def remove_object(self, obj):
        """Remove an object.

        Parameters
        ----------
        obj : CollisionObject
            The object to remove.

        Returns
        -------
        bool
            True if it was removed, False if it was not in the system.
        """
        return self._hash.remove(obj)

    def update_object_position(self, obj, new_pos):
        """Move an object of the system and set its `position`.

        Parameters
        ----------
        obj : CollisionObject
            An object in the system; it keeps its `size`.
        new_pos : (x, y) or Vector2; 3D: (x, y, z) or Vector3
            The box's new min corner, in world units.

        Raises
        ------
        KeyError
            If `obj` is not in the system.
        TypeError
            For a position of the wrong length or kind, naming it.
        ValueError
            For a non-finite coordinate, naming it; neither the system nor
            `obj.position` changes.
        """
        # Validate through the hash first, so a rejected position changes nothing.
        self._hash.update(obj, self._bounds(new_pos, obj.size))
        obj.position = new_pos

    def check_collisions(self):
        """Report every overlapping pair to both objects' callbacks.

        Calls ``a.on_collision(b)`` and ``b.on_collision(a)`` (where set) for
        each overlapping pair, once per pair, touching included.

        Returns
        -------
        list of tuple
            The ``(a, b)`` pairs of objects, as `OptimizedSpatialHash.pairs` gives them.
        """
        pairs = self._hash.pairs()
        for a, b in pairs:
            if a.on_collision is not None:
                a.on_collision(b)
            if b.on_collision is not None:
                b.on_collision(a)
        return pairs

    def _bounds(self, position, size):
        read = self._hash._read_vector
        return read(position, "position") + read(size, "size")


class SpatialHashCollisionSystem3D(SpatialHashCollisionSystem):
    """SpatialHashCollisionSystem in 3D, for CollisionObject3Ds, over an
    OptimizedSpatialHash3D.

    Parameters
    ----------
    cell_size : float, optional
        The side of a cell in world units (positive and finite).
    origin : (x, y, z) or Vector3, optional
        Where cell (0, 0, 0) starts; (0, 0, 0) by default.
    large_threshold : int, optional
        As in SpatialHashCollisionSystem.
    """

    _hash_class = OptimizedSpatialHash3D
