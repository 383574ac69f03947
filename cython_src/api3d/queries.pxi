# The queries of the 3D index whose arguments are its axes: what Python
# sees; queries.pxi does the work.


def query_nearby(SpatialIndexD self, double x, double y, double z, double width, double height, double depth,
                 mask=0xFFFFFFFF):
    """Every object sharing a cell with a box: the broad phase's candidates.

    A superset of the objects overlapping the box from (x, y, z) to
    (x + width, y + height, z + depth), as a hash of cells answers.

    Parameters
    ----------
    x, y, z : float
        The box's min corner, in world units.
    width, height, depth : float
        Its size, in world units, finite and >= 0.
    mask : int, optional
        Only objects on one of these collision layers (a 32-bit unsigned int;
        default all).

    Returns
    -------
    list of object
        Their handles, in no set order.

    Raises
    ------
    ValueError
        For a bad number or mask (in a UniformGrid3D, also a box out of range).
    RuntimeError
        If another thread's call holds the index.

    See Also
    --------
    query_box : With ``exact=True``, only the objects overlapping the box.

    Examples
    --------
    >>> from spatial_hash import UniformGrid3D
    >>> grid = UniformGrid3D(cell_size=10.0)
    >>> grid.insert_box(1, 1, 1, 2, 2, 2, handle="near")
    0
    >>> grid.insert_box(8, 8, 8, 1, 1, 1, handle="same cell")
    1
    >>> sorted(grid.query_nearby(0, 0, 0, 4, 4, 4))
    ['near', 'same cell']
    """
    cdef double at[D]
    cdef double size[D]
    return _box_query(self, Q_CELLS, axes_of(at, x, y, z), axes_of(size, width, height, depth), mask)


def query_nearby_at(SpatialIndexD self, pos, size=(0.0, 0.0, 0.0), mask=0xFFFFFFFF):
    """`query_nearby` with GDScript's arguments: a corner and a size, as vectors.

    Parameters
    ----------
    pos : sequence of 3 float or Vector3
        The box's min corner, (x, y, z), in world units.
    size : sequence of 3 float or Vector3, optional
        Its size, (width, height, depth), in world units (default (0, 0, 0):
        a point).
    mask : int, optional
        Only objects on one of these collision layers (a 32-bit unsigned int;
        default all).

    Returns
    -------
    list of object
        The handles of the objects sharing a cell with the box.

    Raises
    ------
    TypeError
        If `pos` or `size` is neither an (x, y, z) triple nor a Vector3.
    ValueError
        As `query_nearby`.
    RuntimeError
        If another thread's call holds the index.
    """
    return nearby_at(self, pos, size, mask)


def query_box(SpatialIndexD self, double x, double y, double z, double width, double height, double depth,
              bint exact=False, mask=0xFFFFFFFF):
    """The objects in or near a box, or (``exact=True``) those overlapping it.

    Parameters
    ----------
    x, y, z : float
        The box's min corner, in world units.
    width, height, depth : float
        Its size, in world units, finite and >= 0.
    exact : bool, optional
        Only the objects that overlap the box (touching counts), by their
        exact shapes (True), or every object sharing a cell with it, as
        `query_nearby` (False, the default).
    mask : int, optional
        Only objects on one of these collision layers (a 32-bit unsigned int;
        default all).

    Returns
    -------
    list of object
        Their handles, in no set order.

    Raises
    ------
    ValueError
        As `query_nearby`.
    RuntimeError
        If another thread's call holds the index.

    See Also
    --------
    query_boxes : Many boxes at once, on ids.

    Examples
    --------
    >>> from spatial_hash import UniformGrid3D
    >>> grid = UniformGrid3D(cell_size=10.0)
    >>> grid.insert_box(1, 1, 1, 2, 2, 2, handle="inside")
    0
    >>> grid.insert_sphere(8, 8, 8, 1, handle="outside")
    1
    >>> grid.query_box(0, 0, 0, 5, 5, 5, exact=True)
    ['inside']
    """
    cdef double at[D]
    cdef double size[D]
    return _box_query(self, Q_BOX if exact else Q_CELLS, axes_of(at, x, y, z),
                      axes_of(size, width, height, depth), mask)


def query_point(SpatialIndexD self, double x, double y, double z, mask=0xFFFFFFFF):
    """The objects containing a point, boundary included.

    Parameters
    ----------
    x, y, z : float
        The point, in world units.
    mask : int, optional
        Only objects on one of these collision layers (a 32-bit unsigned int;
        default all).

    Returns
    -------
    list of object
        Their handles, in no set order.

    Raises
    ------
    ValueError
        As `query_nearby`.
    RuntimeError
        If another thread's call holds the index.
    """
    cdef double at[D]
    cdef double size[D]
    return _box_query(self, Q_BOX, axes_of(at, x, y, z), axes_of(size, 0.0, 0.0, 0.0), mask)


def query_radius(SpatialIndexD self, double x, double y, double z, double radius, mask=0xFFFFFFFF):
    """The objects overlapping a sphere.

    Parameters
    ----------
    x, y, z : float
        The sphere's centre, in world units.
    radius : float
        Its radius, in world units, finite and >= 0.
    mask : int, optional
        Only objects on one of these collision layers (a 32-bit unsigned int;
        default all).

    Returns
    -------
    list of object
        Their handles, in no set order.

    Raises
    ------
    ValueError
        For a bad number or mask (in a UniformGrid3D, also a sphere out of
        range).
    RuntimeError
        If another thread's call holds the index.

    Examples
    --------
    >>> from spatial_hash import UniformGrid3D
    >>> grid = UniformGrid3D(cell_size=10.0)
    >>> grid.insert_sphere(0, 0, 0, 1, handle="coin")
    0
    >>> grid.insert_box(30, 0, 0, 2, 2, 2, handle="rock")
    1
    >>> grid.query_radius(5, 0, 0, 4.5)
    ['coin']
    """
    cdef double center[D]
    return radius_query(self, axes_of(center, x, y, z), radius, mask)


def query_swept(SpatialIndexD self, double x0, double y0, double z0, double x1, double y1, double z1,
                double width, double height, double depth, mask=0xFFFFFFFF):
    """The objects a moving box touches anywhere on its way.

    The box of size width x height x depth goes from corner (x0, y0, z0) to
    corner (x1, y1, z1); every cell it crosses is visited, so a fast mover
    cannot tunnel through a thin object.

    Parameters
    ----------
    x0, y0, z0 : float
        The box's min corner at the start, in world units.
    x1, y1, z1 : float
        Its min corner at the end.
    width, height, depth : float
        Its size, in world units, finite and >= 0.
    mask : int, optional
        Only objects on one of these collision layers (a 32-bit unsigned int;
        default all).

    Returns
    -------
    list of object
        Their handles, in no set order.

    Raises
    ------
    ValueError
        For a bad number or mask, or a path whose length overflows (in a
        UniformGrid3D, also a path out of range).
    RuntimeError
        If another thread's call holds the index.
    """
    cdef double start[D]
    cdef double stop[D]
    cdef double size[D]
    return swept_query(self, axes_of(start, x0, y0, z0), axes_of(stop, x1, y1, z1),
                       axes_of(size, width, height, depth), mask)


def query_nearest(SpatialIndexD self, double x, double y, double z, k=1, double max_distance=INFINITY,
                  mask=0xFFFFFFFF):
    """The k objects nearest to a point.

    By the exact distance to their sphere or box (0 for those containing the
    point), nearest first, ties in id order; none farther than `max_distance`,
    so fewer than k where fewer lie that near.

    Parameters
    ----------
    x, y, z : float
        The point, in world units.
    k : int, optional
        How many to find (default 1; 0 finds none).
    max_distance : float, optional
        None farther than this, in world units (default infinite).
    mask : int, optional
        Only objects on one of these collision layers (a 32-bit unsigned int;
        default all).

    Returns
    -------
    list of object
        Their handles, nearest first.

    Raises
    ------
    ValueError
        For a bad number or mask, a k that is not an int >= 0, or a
        `max_distance` that is negative or NaN.
    MemoryError
        If memory runs out.
    RuntimeError
        If another thread's call holds the index.

    Examples
    --------
    >>> from spatial_hash import UniformGrid3D
    >>> grid = UniformGrid3D(cell_size=10.0)
    >>> for name, x in (("a", 0), ("b", 20), ("c", 50)):
    ...     _ = grid.insert_sphere(x, 0, 0, 1, handle=name)
    >>> grid.query_nearest(24, 0, 0, k=2)
    ['b', 'a']
    >>> grid.query_nearest(24, 0, 0, k=2, max_distance=10)
    ['b']
    """
    cdef double point[D]
    return nearest_query(self, axes_of(point, x, y, z), k, max_distance, mask)


def query_boxes(SpatialIndexD self, boxes, bint exact=False, mask=0xFFFFFFFF):
    """Many box queries at once, on ids.

    Parameters
    ----------
    boxes : array_like, shape (m, 6)
        Rows (x, y, z, width, height, depth) in world units (float64).
    exact : bool, optional
        As in `query_box`: only the objects overlapping each box (True), or
        every object sharing a cell with it (False, the default).
    mask : int, optional
        Only objects on one of these collision layers (a 32-bit unsigned int;
        default all).

    Returns
    -------
    offsets : numpy.ndarray of int64, shape (m + 1,)
        Query k's results are ids[offsets[k]:offsets[k + 1]].
    ids : numpy.ndarray of int32
        Object ids (not handles).

    Raises
    ------
    ValueError
        For a wrong shape, a bad number (naming boxes[k]; in a UniformGrid3D,
        also a box out of range) or a bad mask.
    MemoryError
        If memory runs out.
    RuntimeError
        If another thread's call holds the index.

    Examples
    --------
    >>> import numpy as np
    >>> from spatial_hash import UniformGrid3D
    >>> grid = UniformGrid3D(cell_size=10.0)
    >>> grid.insert_boxes(np.array([[0, 0, 0, 2, 2, 2], [50, 50, 50, 2, 2, 2]]))
    array([0, 1])
    >>> offsets, ids = grid.query_boxes(np.array([[1, 1, 1, 1, 1, 1], [40, 40, 40, 20, 20, 20],
    ...                                           [90, 0, 0, 1, 1, 1]]), exact=True)
    >>> [ids[offsets[k]:offsets[k + 1]].tolist() for k in range(3)]
    [[0], [1], []]
    """
    return box_queries(self, boxes, exact, mask)
