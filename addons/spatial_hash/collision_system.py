"""SpatialHashCollisionSystem and CollisionObject, as in the GDScript design they mirror."""
from spatial_hash._core import read_vec2
from spatial_hash.object_hashes import OptimizedSpatialHash


class CollisionObject:
    """A box with an id, a velocity and an optional on_collision(other) callback."""

    def __init__(self, id, position, size):
        self.id = id
        self.position = position
        self.size = size
        self.velocity = (0.0, 0.0)
        self.on_collision = None

    def __repr__(self):
        return f"CollisionObject({self.id!r}, {self.position!r}, {self.size!r})"


class SpatialHashCollisionSystem:
    """Keeps CollisionObjects in a spatial hash and reports overlapping pairs."""

    def __init__(self, cell_size=64.0, origin=(0.0, 0.0), large_threshold=4):
        self._hash = OptimizedSpatialHash(cell_size, origin, large_threshold)

    @property
    def spatial_hash(self):
        return self._hash

    @property
    def objects(self):
        return list(self._hash)

    def add_object(self, obj):
        self._hash.insert(obj, _bounds(obj.position, obj.size))

    def remove_object(self, obj):
        """False if the object was not in the system."""
        return self._hash.remove(obj)

    def update_object_position(self, obj, new_pos):
        # Validate through the hash first, so a rejected position changes nothing.
        self._hash.update(obj, _bounds(new_pos, obj.size))
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


def _bounds(position, size):
    return read_vec2(position, "position") + read_vec2(size, "size")
