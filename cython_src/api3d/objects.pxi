# The calls on one object of the 3D index whose arguments are its axes: what
# Python sees; objects.pxi does the work.


def insert_box(SpatialIndexD self, double x, double y, double z, double width, double height, double depth,
               handle=None, layer=1, mask=0xFFFFFFFF, static=False):
    """Add the box from (x, y, z) to (x + width, y + height, z + depth), in world units;
    returns its id (int). The handle (default, or None: the id) is what queries return.
    `layer` and `mask` are its collision layers and the layers it looks for
    (see set_filter); `static` marks it static (see set_static: two static
    objects never pair). Raises ValueError for a bad number, a box out of
    range, a layer or mask that is not a 32-bit unsigned int or a `static`
    that is not a bool, MemoryError, or RuntimeError if another thread's
    call holds the index."""
    cdef double at[D]
    cdef double size[D]
    return insert_box_at(self, axes_of(at, x, y, z), axes_of(size, width, height, depth), handle, layer, mask, static)


def insert_sphere(SpatialIndexD self, double x, double y, double z, double radius, handle=None,
                  layer=1, mask=0xFFFFFFFF, static=False):
    """Add the sphere of centre (x, y, z) and radius `radius`, in world units;
    returns its id (int). handle, layer, mask and static as in insert_box. Raises as
    insert_box does."""
    cdef double center[D]
    return insert_circle_at(self, axes_of(center, x, y, z), radius, handle, layer, mask, static)


def update_box(SpatialIndexD self, object_id, double x, double y, double z,
               double width, double height, double depth):
    """Move/resize object `object_id` to the box from (x, y, z) to
    (x + width, y + height, z + depth), in world units; cheap if it stays in its cells.
    Raises KeyError for an unknown id, ValueError for a bad number or a box out
    of range, MemoryError (the object then stays as it was), or RuntimeError if
    another thread's call holds the index."""
    cdef double at[D]
    cdef double size[D]
    _update_box(self, object_id, axes_of(at, x, y, z), axes_of(size, width, height, depth))


def update_sphere(SpatialIndexD self, object_id, double x, double y, double z, double radius):
    """Move/resize object `object_id` to the sphere of centre (x, y, z) and radius
    `radius`, in world units. Raises as update_box does."""
    cdef double center[D]
    update_circle_at(self, object_id, axes_of(center, x, y, z), radius)


def sphere_of(SpatialIndexD self, object_id):
    """(x, y, z, radius) of a sphere in world units, None for a box. Raises KeyError
    for an unknown id, RuntimeError if another thread's call holds the index."""
    return circle_tuple(self, object_id)
