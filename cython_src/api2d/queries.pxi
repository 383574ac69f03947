# The queries of the 2D index whose arguments are its axes: what Python
# sees; queries.pxi does the work.


def query_nearby(SpatialIndexD self, double x, double y, double width, double height,
                 mask=0xFFFFFFFF):
    """List of the handles of every object sharing a cell with the box from
    (x, y) to (x + width, y + height), in world units: the broad phase's
    candidates, a superset of the exact overlaps, in no set order. Every
    query takes a `mask` (a 32-bit unsigned int, default all bits) and
    returns only the objects on one of its layers (see set_filter). Raises
    ValueError for a bad number or mask (in a UniformGrid, also a box out of
    range), or RuntimeError if another thread's call holds the index."""
    cdef double at[D]
    cdef double size[D]
    return _box_query(self, Q_CELLS, axes_of(at, x, y), axes_of(size, width, height), mask)


def query_nearby_at(SpatialIndexD self, pos, size=(0.0, 0.0), mask=0xFFFFFFFF):
    """query_nearby with the GDScript arguments: the box's corner `pos` and its
    `size`, each an (x, y) pair or a Vector2, in world units. Raises TypeError
    if either is neither, otherwise as query_nearby does."""
    return nearby_at(self, pos, size, mask)


def query_rect(SpatialIndexD self, double x, double y, double width, double height,
               bint exact=False, mask=0xFFFFFFFF):
    """Like query_nearby; with exact=True, only the handles of the objects that
    overlap the box. Raises as query_nearby does."""
    cdef double at[D]
    cdef double size[D]
    return _box_query(self, Q_BOX if exact else Q_CELLS, axes_of(at, x, y),
                      axes_of(size, width, height), mask)


def query_point(SpatialIndexD self, double x, double y, mask=0xFFFFFFFF):
    """List of the handles of the objects containing the point (x, y), in world
    units, boundary included. Raises as query_nearby does."""
    cdef double at[D]
    cdef double size[D]
    return _box_query(self, Q_BOX, axes_of(at, x, y), axes_of(size, 0.0, 0.0, 0.0), mask)


def query_radius(SpatialIndexD self, double x, double y, double radius, mask=0xFFFFFFFF):
    """List of the handles of the objects overlapping the disc of centre (x, y)
    and radius `radius`, in world units. Raises ValueError for a bad number
    or mask (in a UniformGrid, also a disc out of range), or RuntimeError if
    another thread's call holds the index."""
    cdef double center[D]
    return radius_query(self, axes_of(center, x, y), radius, mask)


def query_swept(SpatialIndexD self, double x0, double y0, double x1, double y1,
                double width, double height, mask=0xFFFFFFFF):
    """List of the handles of the objects whose box the width x height box
    touches anywhere on its way from corner (x0, y0) to corner (x1, y1), in
    world units: every cell it crosses is visited. Raises ValueError for a bad
    number or mask or a path whose length overflows (in a UniformGrid, also
    a path out of range), or RuntimeError if another thread's call holds the
    index."""
    cdef double start[D]
    cdef double stop[D]
    cdef double size[D]
    return swept_query(self, axes_of(start, x0, y0), axes_of(stop, x1, y1),
                       axes_of(size, width, height), mask)


def query_nearest(SpatialIndexD self, double x, double y, k=1, double max_distance=INFINITY,
                  mask=0xFFFFFFFF):
    """List of the handles of the k objects nearest to the point (x, y), nearest
    first by the exact distance (world units) to their circle or box, 0 for
    those containing the point, ties in id order; none farther than
    max_distance, so fewer than k where fewer lie that near; only objects on
    a layer of `mask`. Raises ValueError for a bad number or mask, a k that
    is not an int >= 0 or a max_distance that is negative or NaN;
    MemoryError; or RuntimeError if another thread's call holds the index."""
    cdef double point[D]
    return nearest_query(self, axes_of(point, x, y), k, max_distance, mask)


def raycast(SpatialIndexD self, double x0, double y0, double x1, double y1, mask=0xFFFFFFFF):
    """The first object the segment from (x0, y0) to (x1, y1) meets, in world
    units: (handle, fraction of the way, (x, y) of the hit, (nx, ny) the unit
    surface normal there), or None. An object containing the start is met
    at fraction 0 with normal (0, 0); objects met at the same fraction come
    in id order; only objects on a layer of `mask`. Raises ValueError for a
    bad number or mask or a ray whose length overflows (in a UniformGrid,
    also one out of range), MemoryError, or RuntimeError if another thread's
    call holds the index."""
    cdef double start[D]
    cdef double end[D]
    return first_hit(self, axes_of(start, x0, y0), axes_of(end, x1, y1), mask)


def raycast_all(SpatialIndexD self, double x0, double y0, double x1, double y1, mask=0xFFFFFFFF):
    """Every object the segment meets, as raycast's tuples, earliest first.
    Raises as raycast does."""
    cdef double start[D]
    cdef double end[D]
    return every_hit(self, axes_of(start, x0, y0), axes_of(end, x1, y1), mask)


def query_rects(SpatialIndexD self, rects, bint exact=False, mask=0xFFFFFFFF):
    """Many box queries at once: `rects` is an (m, 4) array of
    (x, y, width, height) rows in world units; exact as in
    query_rect. Returns (offsets, ids): offsets an (m + 1,) int64 array,
    ids an int32 array of object ids (not handles), the ids of query k
    being ids[offsets[k]:offsets[k + 1]]. Only objects on a layer of
    `mask`. Raises ValueError for a wrong shape, a bad number (naming
    rects[k]; in a UniformGrid, also a box out of range) or a bad
    mask, MemoryError, or RuntimeError if another thread's call holds the
    index."""
    return box_queries(self, rects, exact, mask)
