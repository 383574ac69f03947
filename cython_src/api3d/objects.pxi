# The calls on one object of the 3D index whose arguments are its axes: what
# Python sees; objects.pxi does the work.


def insert_box(SpatialIndexD self, double x, double y, double z, double width, double height, double depth,
               handle=None, layer=1, mask=0xFFFFFFFF, static=False):
    """Add a box, from (x, y, z) to (x + width, y + height, z + depth); returns its id.

    Parameters
    ----------
    x, y, z : float
        Its min corner, in world units.
    width, height, depth : float
        Its size, in world units, finite and >= 0.
    handle : object, optional
        What queries and `pairs` return for it (default, or None: its id).
    layer : int, optional
        The collision layers it is on (default 1; see `set_filter`).
    mask : int, optional
        The layers it looks for (default all).
    static : bool, optional
        Whether it is static (default False; see `set_static`: two static
        objects never pair).

    Returns
    -------
    int
        Its id: a non-negative int, reused after the object is removed.

    Raises
    ------
    ValueError
        For a bad number or a box out of range, naming it, a layer or mask that
        is not a 32-bit unsigned int, or a `static` that is not a bool.
    MemoryError
        If memory runs out.
    RuntimeError
        If another thread's call holds the index.

    See Also
    --------
    insert_boxes : Many boxes at once, from a numpy array.

    Examples
    --------
    >>> from spatial_hash import UniformGrid3D
    >>> grid = UniformGrid3D(cell_size=16.0)
    >>> grid.insert_box(0, 0, 0, 10, 10, 10, handle="crate")
    0
    >>> grid.insert_box(8, 8, 8, 4, 4, 4)      # no handle: queries return its id
    1
    >>> grid.pairs()
    [('crate', 1)]
    """
    cdef double at[D]
    cdef double size[D]
    return insert_box_at(self, axes_of(at, x, y, z), axes_of(size, width, height, depth), handle, layer, mask, static)


def insert_sphere(SpatialIndexD self, double x, double y, double z, double radius, handle=None,
                  layer=1, mask=0xFFFFFFFF, static=False):
    """Add a sphere of centre (x, y, z); returns its id.

    The pair pass and the exact queries test the sphere itself; the grid
    files its bounding box.

    Parameters
    ----------
    x, y, z : float
        Its centre, in world units.
    radius : float
        Its radius, in world units, finite and >= 0.
    handle : object, optional
        What queries and `pairs` return for it (default, or None: its id).
    layer : int, optional
        The collision layers it is on (default 1; see `set_filter`).
    mask : int, optional
        The layers it looks for (default all).
    static : bool, optional
        Whether it is static (default False; see `set_static`).

    Returns
    -------
    int
        Its id.

    Raises
    ------
    ValueError
        As `insert_box`, for a bad number, a sphere out of range, layer, mask
        or `static`.
    MemoryError
        If memory runs out.
    RuntimeError
        If another thread's call holds the index.

    Examples
    --------
    >>> from spatial_hash import UniformGrid3D
    >>> grid = UniformGrid3D(cell_size=16.0)
    >>> grid.insert_sphere(0, 0, 0, 5, handle="mine")
    0
    >>> grid.insert_box(3, 3, 3, 2, 2, 2, handle="corner")   # its box is outside the sphere
    1
    >>> grid.pairs()
    []
    """
    cdef double center[D]
    return insert_circle_at(self, axes_of(center, x, y, z), radius, handle, layer, mask, static)


def update_box(SpatialIndexD self, object_id, double x, double y, double z,
               double width, double height, double depth):
    """Move (and resize) an object to the box from (x, y, z) to (x + width, y + height, z + depth).

    Cheap if it stays in its cells. A sphere becomes a box.

    Parameters
    ----------
    object_id : int
        The object's id.
    x, y, z : float
        The new min corner, in world units.
    width, height, depth : float
        The new size, in world units, finite and >= 0.

    Raises
    ------
    KeyError
        For an unknown id.
    ValueError
        For a bad number or a box out of range, naming it.
    MemoryError
        The object then stays as it was.
    RuntimeError
        If another thread's call holds the index.

    See Also
    --------
    update_boxes : Many objects at once, from numpy arrays.

    Examples
    --------
    >>> from spatial_hash import UniformGrid3D
    >>> grid = UniformGrid3D(cell_size=16.0)
    >>> ship = grid.insert_box(0, 0, 0, 4, 4, 4, handle="ship")
    >>> grid.update_box(ship, 100, 0, 0, 4, 4, 4)
    >>> grid.bounds(ship)
    (100.0, 0.0, 0.0, 4.0, 4.0, 4.0)
    >>> grid.query_point(101, 1, 1)
    ['ship']
    """
    cdef double at[D]
    cdef double size[D]
    _update_box(self, object_id, axes_of(at, x, y, z), axes_of(size, width, height, depth))


def update_sphere(SpatialIndexD self, object_id, double x, double y, double z, double radius):
    """Move (and resize) an object to the sphere of centre (x, y, z); a box becomes a sphere.

    Parameters
    ----------
    object_id : int
        The object's id.
    x, y, z : float
        The new centre, in world units.
    radius : float
        The new radius, in world units, finite and >= 0.

    Raises
    ------
    KeyError
        For an unknown id.
    ValueError
        For a bad number or a sphere out of range, naming it.
    MemoryError
        The object then stays as it was.
    RuntimeError
        If another thread's call holds the index.
    """
    cdef double center[D]
    update_circle_at(self, object_id, axes_of(center, x, y, z), radius)


def sphere_of(SpatialIndexD self, object_id):
    """An object's sphere, or None for a box.

    Parameters
    ----------
    object_id : int
        The object's id.

    Returns
    -------
    tuple of float or None
        (x, y, z, radius), in world units.

    Raises
    ------
    KeyError
        For an unknown id.
    RuntimeError
        If another thread's call holds the index.
    """
    return circle_tuple(self, object_id)
