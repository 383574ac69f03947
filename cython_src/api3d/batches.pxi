# The batch calls of the 3D index, whose names and docstrings say its axes:
# what Python sees; index.pxi does the work.


def insert_boxes(SpatialIndexD self, boxes, handles=None, layers=None, masks=None, static=False):
    """Add n boxes from `boxes`, an (n, 6) array of (x, y, z, width, height, depth) rows
    in world units (converted to float64 unless it already is); returns their
    ids as an (n,) int64 array. `handles`, if given, is a sequence of n
    handles (default, and for a None: the ids); `layers` and `masks` their collision layers
    and masks (see set_filter): n ints, or one for all (default: layer 1,
    mask all bits); `static` one bool for all or n bools (see set_static).
    Every row is checked before any is added. Raises
    ValueError for a wrong shape, a bad number (naming boxes[k]), a box out
    of range, a `handles` of another length or a bad layer, mask or static value (naming
    layers[k], masks[k] or static[k]); MemoryError; or RuntimeError if another thread's
    call holds the index."""
    return insert_box_rows(self, boxes, handles, layers, masks, static)


def insert_spheres(SpatialIndexD self, centers, radii, handles=None, layers=None, masks=None, static=False):
    """Add n spheres from `centers`, an (n, 3) array of (x, y, z) rows, and `radii`,
    n radii or one for all, in world units; returns their ids as an (n,) int64
    array. `handles`, `layers`, `masks` and `static` as in insert_boxes. Raises as
    insert_boxes does (naming spheres[k])."""
    return insert_circle_rows(self, centers, radii, handles, layers, masks, static)


def update_boxes(SpatialIndexD self, ids, boxes):
    """Move/resize the objects `ids` (a 1-D integer array of n distinct live
    ids) to the boxes of `boxes`, an (n, 6) array of (x, y, z, width, height, depth)
    rows in world units. Everything is checked before anything moves. Raises
    TypeError if `ids` is not a 1-D integer array; KeyError for an unknown id;
    ValueError for a repeated id, n ids for another number of rows, a wrong
    shape, a bad number (naming boxes[k]) or a box out of range; MemoryError;
    or RuntimeError if another thread's call holds the index."""
    update_box_rows(self, ids, boxes)


def update_aabbs(SpatialIndexD self, ids, const float[:, ::1] corners, const float[:, ::1] sizes):
    """update_boxes from boxes as two (n, 3) C-contiguous float32 arrays, the
    (x, y, z) minimum corners and the (width, height, depth) sizes (Godot's packed
    Vector3 arrays, read where they are: no rows are made). Raises as
    update_boxes does, naming the row as boxes[k]."""
    update_packed_boxes(self, ids, corners, sizes)


def update_spheres(SpatialIndexD self, ids, centers, radii):
    """Move/resize the objects `ids` (n distinct live ids) to spheres: `centers`
    an (n, 3) array of (x, y, z) rows and `radii` n radii or one for all, in world
    units. Raises as update_boxes does (naming spheres[k])."""
    update_circle_rows(self, ids, centers, radii)
