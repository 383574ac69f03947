# The ray casts of the 3D index, whose arguments are its axes: what Python
# sees; ray_casts.pxi does the work.


def raycast(SpatialIndexD self, double x0, double y0, double z0, double x1, double y1, double z1,
            mask=0xFFFFFFFF):
    """The first object a segment meets.

    An object containing the start is met at fraction 0 with normal (0, 0, 0);
    objects met at the same fraction come in id order.

    Parameters
    ----------
    x0, y0, z0 : float
        The segment's start, in world units.
    x1, y1, z1 : float
        Its end.
    mask : int, optional
        Only objects on one of these collision layers (a 32-bit unsigned int;
        default all).

    Returns
    -------
    tuple or None
        (handle, fraction of the way from 0 to 1, (x, y, z) of the hit point,
        (nx, ny, nz) the unit surface normal there), or None if nothing is met.

    Raises
    ------
    ValueError
        For a bad number or mask or a ray whose length overflows (in a
        UniformGrid3D, also one out of range).
    MemoryError
        If memory runs out.
    RuntimeError
        If another thread's call holds the index.

    Examples
    --------
    >>> from spatial_hash import UniformGrid3D
    >>> grid = UniformGrid3D(cell_size=10.0)
    >>> grid.insert_box(10, -5, -5, 4, 10, 10, handle="wall")
    0
    >>> grid.raycast(0, 0, 0, 20, 0, 0)
    ('wall', 0.5, (10.0, 0.0, 0.0), (-1.0, 0.0, 0.0))
    """
    cdef double start[D]
    cdef double end[D]
    return first_hit(self, axes_of(start, x0, y0, z0), axes_of(end, x1, y1, z1), mask)


def raycast_all(SpatialIndexD self, double x0, double y0, double z0, double x1, double y1, double z1,
                mask=0xFFFFFFFF):
    """Every object a segment meets, earliest first.

    Parameters
    ----------
    x0, y0, z0 : float
        The segment's start, in world units.
    x1, y1, z1 : float
        Its end.
    mask : int, optional
        Only objects on one of these collision layers (a 32-bit unsigned int;
        default all).

    Returns
    -------
    list of tuple
        A `raycast` tuple per object met, earliest first (ties in id order).

    Raises
    ------
    ValueError
        As `raycast`.
    MemoryError
        If memory runs out.
    RuntimeError
        If another thread's call holds the index.
    """
    cdef double start[D]
    cdef double end[D]
    return every_hit(self, axes_of(start, x0, y0, z0), axes_of(end, x1, y1, z1), mask)
