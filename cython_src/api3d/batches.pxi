# The batch calls of the 3D index, whose names and docstrings say its axes:
# what Python sees; batch_calls.pxi does the work.


def insert_boxes(SpatialIndexD self, boxes, handles=None, layers=None, masks=None, static=False):
    """Add many boxes at once; returns their ids.

    Every row is checked before any is added.

    Parameters
    ----------
    boxes : array_like, shape (n, 6)
        Rows (x, y, z, width, height, depth) in world units (converted to
        float64 unless it already is).
    handles : sequence of object, optional
        n handles (default, and for a None: the ids).
    layers : array_like of int, shape (n,), or int, optional
        Their collision layers, or one for all (default 1; see `set_filter`).
    masks : array_like of int, shape (n,), or int, optional
        The layers they look for, or one for all (default all).
    static : array_like of bool, shape (n,), or bool, optional
        Whether each is static, or one for all (default False).

    Returns
    -------
    numpy.ndarray of int64, shape (n,)
        Their ids, in row order.

    Raises
    ------
    ValueError
        For a wrong shape, a bad number (naming boxes[k]), a box out of range,
        a `handles` of another length, or a bad layer, mask or static value
        (naming layers[k], masks[k] or static[k]).
    MemoryError
        If memory runs out.
    RuntimeError
        If another thread's call holds the index.

    Examples
    --------
    >>> import numpy as np
    >>> from spatial_hash import UniformGrid3D
    >>> grid = UniformGrid3D(cell_size=16.0)
    >>> boxes = np.array([[0, 0, 0, 4, 4, 4], [3, 3, 3, 4, 4, 4], [40, 0, 0, 4, 4, 4]], dtype=float)
    >>> grid.insert_boxes(boxes, handles=["a", "b", "c"])
    array([0, 1, 2])
    >>> grid.pairs()
    [('a', 'b')]
    """
    return insert_box_rows(self, boxes, handles, layers, masks, static)


def insert_spheres(SpatialIndexD self, centers, radii, handles=None, layers=None, masks=None, static=False):
    """Add many spheres at once; returns their ids.

    Parameters
    ----------
    centers : array_like, shape (n, 3)
        Rows (x, y, z), in world units.
    radii : array_like, shape (n,), or float
        Their radii, or one for all, in world units.
    handles : sequence of object, optional
        As in `insert_boxes`.
    layers : array_like of int, shape (n,), or int, optional
        As in `insert_boxes`.
    masks : array_like of int, shape (n,), or int, optional
        As in `insert_boxes`.
    static : array_like of bool, shape (n,), or bool, optional
        As in `insert_boxes`.

    Returns
    -------
    numpy.ndarray of int64, shape (n,)
        Their ids, in row order.

    Raises
    ------
    ValueError
        As `insert_boxes` (naming spheres[k]).
    MemoryError
        If memory runs out.
    RuntimeError
        If another thread's call holds the index.
    """
    return insert_circle_rows(self, centers, radii, handles, layers, masks, static)


def update_boxes(SpatialIndexD self, ids, boxes):
    """Move (and resize) many objects at once, to boxes.

    Everything is checked before anything moves. The fastest way to move a
    frame's objects: pass the same arrays every frame.

    Parameters
    ----------
    ids : array_like of int, shape (n,)
        Distinct live ids (a 1-D integer array).
    boxes : array_like, shape (n, 6)
        Their new rows (x, y, z, width, height, depth), in world units.

    Raises
    ------
    TypeError
        If `ids` is not a 1-D integer array.
    KeyError
        For an unknown id.
    ValueError
        For a repeated id, n ids for another number of rows, a wrong shape, a
        bad number (naming boxes[k]) or a box out of range.
    MemoryError
        If memory runs out.
    RuntimeError
        If another thread's call holds the index.

    Examples
    --------
    >>> import numpy as np
    >>> from spatial_hash import UniformGrid3D
    >>> grid = UniformGrid3D(cell_size=16.0)
    >>> boxes = np.array([[0, 0, 0, 4, 4, 4], [40, 0, 0, 4, 4, 4]], dtype=float)
    >>> ids = grid.insert_boxes(boxes)
    >>> grid.pairs()
    []
    >>> boxes[1, 0] = 2.0                  # the second box moves onto the first
    >>> grid.update_boxes(ids, boxes)
    >>> grid.pairs()
    [(0, 1)]
    """
    update_box_rows(self, ids, boxes)


def update_packed(SpatialIndexD self, ids, const float[:, ::1] corners, const float[:, ::1] sizes):
    """`update_boxes` from min corners and sizes, as Godot's packed arrays hold them.

    The arrays are read where they are: no rows are made.

    Parameters
    ----------
    ids : array_like of int, shape (n,)
        Distinct live ids (a 1-D integer array).
    corners : numpy.ndarray of float32, shape (n, 3)
        C-contiguous rows (x, y, z): the boxes' min corners (a
        PackedVector3Array's memory).
    sizes : numpy.ndarray of float32, shape (n, 3)
        C-contiguous rows (width, height, depth).

    Raises
    ------
    TypeError
        If `ids` is not a 1-D integer array.
    KeyError
        For an unknown id.
    ValueError
        As `update_boxes`, naming the row as boxes[k].
    MemoryError
        If memory runs out.
    RuntimeError
        If another thread's call holds the index.
    """
    update_packed_boxes(self, ids, corners, sizes)


def update_aabbs(SpatialIndexD self, ids, corners, sizes):
    """Deprecated name of `update_packed`, which it calls after a DeprecationWarning.

    Parameters
    ----------
    ids : array_like of int, shape (n,)
        As `update_packed`.
    corners : numpy.ndarray of float32, shape (n, 3)
        As `update_packed`.
    sizes : numpy.ndarray of float32, shape (n, 3)
        As `update_packed`.
    """
    warn_renamed("update_aabbs", "update_packed")
    self.update_packed(ids, corners, sizes)


def update_spheres(SpatialIndexD self, ids, centers, radii):
    """Move (and resize) many objects at once, to spheres.

    Parameters
    ----------
    ids : array_like of int, shape (n,)
        Distinct live ids (a 1-D integer array).
    centers : array_like, shape (n, 3)
        Their new centres (x, y, z), in world units.
    radii : array_like, shape (n,), or float
        Their new radii, or one for all, in world units.

    Raises
    ------
    TypeError
        If `ids` is not a 1-D integer array.
    KeyError
        For an unknown id.
    ValueError
        As `update_boxes` (naming spheres[k]).
    MemoryError
        If memory runs out.
    RuntimeError
        If another thread's call holds the index.
    """
    update_circle_rows(self, ids, centers, radii)
