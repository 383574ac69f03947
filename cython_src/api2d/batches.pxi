# The batch calls of the 2D index, whose names and docstrings say its axes:
# what Python sees; index.pxi does the work.


def insert_rects(SpatialIndexD self, rects, handles=None, layers=None, masks=None, static=False):
    """Add n boxes from `rects`, an (n, 4) array of (x, y, width, height) rows
    in world units (converted to float64 unless it already is); returns their
    ids as an (n,) int64 array. `handles`, if given, is a sequence of n
    handles (default, and for a None: the ids); `layers` and `masks` their collision layers
    and masks (see set_filter): n ints, or one for all (default: layer 1,
    mask all bits); `static` one bool for all or n bools (see set_static).
    Every row is checked before any is added. Raises
    ValueError for a wrong shape, a bad number (naming rects[k]), a box out
    of range, a `handles` of another length or a bad layer, mask or static value (naming
    layers[k], masks[k] or static[k]); MemoryError; or RuntimeError if another thread's
    call holds the index."""
    return insert_box_rows(self, rects, handles, layers, masks, static)


def insert_circles(SpatialIndexD self, centers, radii, handles=None, layers=None, masks=None, static=False):
    """Add n discs from `centers`, an (n, 2) array of (x, y) rows, and `radii`,
    n radii or one for all, in world units; returns their ids as an (n,) int64
    array. `handles`, `layers`, `masks` and `static` as in insert_rects. Raises as
    insert_rects does (naming circles[k])."""
    return insert_circle_rows(self, centers, radii, handles, layers, masks, static)


def update_rects(SpatialIndexD self, ids, rects):
    """Move/resize the objects `ids` (a 1-D integer array of n distinct live
    ids) to the boxes of `rects`, an (n, 4) array of (x, y, width, height)
    rows in world units. Everything is checked before anything moves. Raises
    TypeError if `ids` is not a 1-D integer array; KeyError for an unknown id;
    ValueError for a repeated id, n ids for another number of rows, a wrong
    shape, a bad number (naming rects[k]) or a box out of range; MemoryError;
    or RuntimeError if another thread's call holds the index."""
    update_box_rows(self, ids, rects)


def update_boxes(SpatialIndexD self, ids, const float[:, ::1] corners, const float[:, ::1] sizes):
    """update_rects from boxes as two (n, 2) C-contiguous float32 arrays, the
    (x, y) top-left corners and the (width, height) sizes (Godot's packed
    Vector2 arrays, read where they are: no rows are made). Raises as
    update_rects does, naming the row as rects[k]."""
    update_packed_boxes(self, ids, corners, sizes)


def update_circles(SpatialIndexD self, ids, centers, radii):
    """Move/resize the objects `ids` (n distinct live ids) to discs: `centers`
    an (n, 2) array of (x, y) rows and `radii` n radii or one for all, in world
    units. Raises as update_rects does (naming circles[k])."""
    update_circle_rows(self, ids, centers, radii)
