# The queries of the 3D index whose arguments are its axes: what Python
# sees; queries.pxi does the work.


def query_nearby(SpatialIndexD self, double x, double y, double z, double width, double height, double depth,
                 mask=0xFFFFFFFF):
    """List of the handles of every object sharing a cell with the box from
    (x, y, z) to (x + width, y + height, z + depth), in world units: the broad phase's
    candidates, a superset of the exact overlaps, in no set order. Every
    query takes a `mask` (a 32-bit unsigned int, default all bits) and
    returns only the objects on one of its layers (see set_filter). Raises
    ValueError for a bad number or mask (in a UniformGrid3D, also a box out of
    range), or RuntimeError if another thread's call holds the index."""
    cdef double at[D]
    cdef double size[D]
    return _box_query(self, Q_CELLS, axes_of(at, x, y, z), axes_of(size, width, height, depth), mask)


def query_nearby_at(SpatialIndexD self, pos, size=(0.0, 0.0, 0.0), mask=0xFFFFFFFF):
    """query_nearby with the GDScript arguments: the box's corner `pos` and its
    `size`, each an (x, y, z) triple or a Vector3, in world units. Raises TypeError
    if either is neither, otherwise as query_nearby does."""
    return nearby_at(self, pos, size, mask)


def query_box(SpatialIndexD self, double x, double y, double z, double width, double height, double depth,
              bint exact=False, mask=0xFFFFFFFF):
    """Like query_nearby; with exact=True, only the handles of the objects that
    overlap the box. Raises as query_nearby does."""
    cdef double at[D]
    cdef double size[D]
    return _box_query(self, Q_BOX if exact else Q_CELLS, axes_of(at, x, y, z),
                      axes_of(size, width, height, depth), mask)


def query_point(SpatialIndexD self, double x, double y, double z, mask=0xFFFFFFFF):
    """List of the handles of the objects containing the point (x, y, z), in world
    units, boundary included. Raises as query_nearby does."""
    cdef double at[D]
    cdef double size[D]
    return _box_query(self, Q_BOX, axes_of(at, x, y, z), axes_of(size, 0.0, 0.0, 0.0), mask)


def query_radius(SpatialIndexD self, double x, double y, double z, double radius, mask=0xFFFFFFFF):
    """List of the handles of the objects overlapping the sphere of centre (x, y, z)
    and radius `radius`, in world units. Raises ValueError for a bad number
    or mask (in a UniformGrid3D, also a sphere out of range), or RuntimeError if
    another thread's call holds the index."""
    cdef double center[D]
    return radius_query(self, axes_of(center, x, y, z), radius, mask)


def query_swept(SpatialIndexD self, double x0, double y0, double z0, double x1, double y1, double z1,
                double width, double height, double depth, mask=0xFFFFFFFF):
    """List of the handles of the objects whose box the width x height x depth box
    touches anywhere on its way from corner (x0, y0, z0) to corner (x1, y1, z1), in
    world units: every cell it crosses is visited. Raises ValueError for a bad
    number or mask or a path whose length overflows (in a UniformGrid3D, also
    a path out of range), or RuntimeError if another thread's call holds the
    index."""
    cdef double start[D]
    cdef double stop[D]
    cdef double size[D]
    return swept_query(self, axes_of(start, x0, y0, z0), axes_of(stop, x1, y1, z1),
                       axes_of(size, width, height, depth), mask)


def query_nearest(SpatialIndexD self, double x, double y, double z, k=1, double max_distance=INFINITY,
                  mask=0xFFFFFFFF):
    """List of the handles of the k objects nearest to the point (x, y, z), nearest
    first by the exact distance (world units) to their sphere or box, 0 for
    those containing the point, ties in id order; none farther than
    max_distance, so fewer than k where fewer lie that near; only objects on
    a layer of `mask`. Raises ValueError for a bad number or mask, a k that
    is not an int >= 0 or a max_distance that is negative or NaN;
    MemoryError; or RuntimeError if another thread's call holds the index."""
    cdef double point[D]
    return nearest_query(self, axes_of(point, x, y, z), k, max_distance, mask)


def raycast(SpatialIndexD self, double x0, double y0, double z0, double x1, double y1, double z1,
            mask=0xFFFFFFFF):
    """The first object the segment from (x0, y0, z0) to (x1, y1, z1) meets, in world
    units: (handle, fraction of the way, (x, y, z) of the hit, (nx, ny, nz) the unit
    surface normal there), or None. An object containing the start is met
    at fraction 0 with normal (0, 0, 0); objects met at the same fraction come
    in id order; only objects on a layer of `mask`. Raises ValueError for a
    bad number or mask or a ray whose length overflows (in a UniformGrid3D,
    also one out of range), MemoryError, or RuntimeError if another thread's
    call holds the index."""
    cdef double start[D]
    cdef double end[D]
    return first_hit(self, axes_of(start, x0, y0, z0), axes_of(end, x1, y1, z1), mask)


def raycast_all(SpatialIndexD self, double x0, double y0, double z0, double x1, double y1, double z1,
                mask=0xFFFFFFFF):
    """Every object the segment meets, as raycast's tuples, earliest first.
    Raises as raycast does."""
    cdef double start[D]
    cdef double end[D]
    return every_hit(self, axes_of(start, x0, y0, z0), axes_of(end, x1, y1, z1), mask)


def query_boxes(SpatialIndexD self, boxes, bint exact=False, mask=0xFFFFFFFF):
    """Many box queries at once: `boxes` is an (m, 6) array of
    (x, y, z, width, height, depth) rows in world units; exact as in
    query_box. Returns (offsets, ids): offsets an (m + 1,) int64 array,
    ids an int32 array of object ids (not handles), the ids of query k
    being ids[offsets[k]:offsets[k + 1]]. Only objects on a layer of
    `mask`. Raises ValueError for a wrong shape, a bad number (naming
    boxes[k]; in a UniformGrid3D, also a box out of range) or a bad
    mask, MemoryError, or RuntimeError if another thread's call holds the
    index."""
    return box_queries(self, boxes, exact, mask)
