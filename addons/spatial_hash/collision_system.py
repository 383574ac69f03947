"""SpatialHashCollisionSystem and CollisionObject, as in the GDScript design they
mirror, and their 3D versions."""
from spatial_hash.object_hashes import OptimizedSpatialHash, OptimizedSpatialHash3D


class CollisionObject:
    """A box with an id, a velocity and an optional on_collision(other) callback."""

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
    """CollisionObject in 3D: position and size (x, y, z) or Vector3s."""

    _still = (0.0, 0.0, 0.0)


class SpatialHashCollisionSystem:
    """Keeps CollisionObjects in a spatial hash and reports overlapping pairs.
    origin (where cell (0, 0) starts) defaults to (0, 0)."""

    _hash_class = OptimizedSpatialHash

    def __init__(self, cell_size=64.0, origin=None, large_threshold=4):
        self._hash = self._hash_class(cell_size, origin, large_threshold)

    @property
    def spatial_hash(self):
        return self._hash

    @property
    def objects(self):
        return list(self._hash)

    def add_object(self, obj):
        self._hash.insert(obj, self._bounds(obj.position, obj.size))

    def remove_object(self, obj):
        """False if the object was not in the system."""
        return self._hash.remove(obj)

    def update_object_position(self, obj, new_pos):
        # Validate through the hash first, so a rejected position changes nothing.
        self._hash.update(obj, self._bounds(new_pos, obj.size))
        obj.position = new_pos

    def check_collisions(self):
        """Call a.on_collision(b) and b.on_collision(a) for every overlapping pair
        (each pair once, touching included); returns the list of pairs."""
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
    """SpatialHashCollisionSystem in 3D, for CollisionObject3Ds; origin defaults
    to (0, 0, 0)."""

    _hash_class = OptimizedSpatialHash3D
