# The calls on whole arrays of objects at once, each array validated before
# anything changes.


# Whole arrays in one call: every row is validated before anything changes,
# then the loop runs without the GIL. Arrays are used in place when they are
# already C-contiguous float64 (int64 for ids); anything else is converted once.
cdef int _validate_rects(SpatialIndexD self, const double[:, ::1] rows) except -1:
    cdef Py_ssize_t k, bad = 0
    cdef int code = 0
    cdef Box b
    with nogil:
        if rows_within(&rows[0, 0] if rows.shape[0] else NULL, rows.shape[0], 2 * D,
                       _safe_magnitude(self)):
            return 0
        for k in range(rows.shape[0]):
            code = box_from_rect(&rows[k, 0], &rows[k, D], &b) or _check_placement(self, &b)
            if code:
                bad = k
                break
    if code:
        raise input_error(code, f"{RECTS}[{bad}]: ", &rows[bad, 0], &rows[bad, D],
                          _cell_hint(self))
    return 0


cdef int _validate_circles(SpatialIndexD self, const double[:, ::1] centers,
                           const double[::1] radii) except -1:
    cdef Py_ssize_t k, bad = 0
    cdef int code = 0
    cdef Box b
    cdef Circle c
    cdef double safe
    cdef double size[D]
    with nogil:
        safe = _safe_magnitude(self)
        if rows_within(&centers[0, 0] if centers.shape[0] else NULL, centers.shape[0], D, safe) \
                and rows_within(&radii[0] if radii.shape[0] else NULL, radii.shape[0], 1, safe):
            return 0
        for k in range(centers.shape[0]):
            code = box_from_circle(&centers[k, 0], radii[k], &c, &b) or _check_placement(self, &b)
            if code:
                bad = k
                break
    if code:
        raise input_error(code, f"{CIRCLES}[{bad}]: ", &centers[bad, 0],
                          axes_of(size, radii[bad], 0.0, 0.0), _cell_hint(self))
    return 0


cdef object _new_ids(SpatialIndexD self, Py_ssize_t n, object handles):
    """Reserve n ids (recycled first); returns them as an int64 array."""
    cdef Py_ssize_t k
    if handles is not None and len(handles) != n:
        raise ValueError(f"handles has {len(handles)} items for {n} objects")
    if reserve_objects(self, self.state.obj_hi + n) < 0:
        raise MemoryError()
    ids = np.empty(n, dtype=np.int64)
    cdef int64_t[::1] out = ids
    for k in range(n):
        if self.state.n_free:
            self.state.n_free -= 1
            out[k] = self.state.free_ids[self.state.n_free]
        else:
            out[k] = self.state.obj_hi
            self.state.obj_hi += 1
    if handles is not None:
        handle_room(self.handles, self.state.obj_hi)
    return ids


cdef int _commit_new(SpatialIndexD self, const int64_t[::1] ids, Py_ssize_t placed, object handles,
                     const uint32_t[::1] layers, const uint32_t[::1] masks,
                     const uint8_t[::1] statics) except -1:
    """Give the first `placed` new ids their handles and filters; return the
    rest unused."""
    cdef Py_ssize_t k, n = ids.shape[0]
    cdef list store = self.handles
    cdef Filter f
    for k in range(placed):
        if handles is not None:
            store[ids[k]] = handles[k]
        self.state.live[ids[k]] = 1
        f.layer, f.mask, f.is_static = layers[k], masks[k], statics[k]
        _set_filter(self, <int32_t>ids[k], &f)
    for k in range(n - 1, placed - 1, -1):
        self.state.free_ids[self.state.n_free] = <int32_t>ids[k]
        self.state.n_free += 1
    self.state.n_live += placed
    if placed < n:
        raise MemoryError()
    return 0


cdef Py_ssize_t _attach_rows(SpatialIndexD self, const int64_t[::1] ids, const double[:, ::1] rows,
                             const double[::1] radii) noexcept nogil:
    """Place new objects from box rows (radii empty) or circle (sphere)
    centers; returns
    how many were placed before memory ran out (all of them, normally)."""
    cdef Py_ssize_t k
    cdef int32_t i
    cdef Rows batch = rows_of(rows, radii)
    for k in range(ids.shape[0]):
        i = <int32_t>ids[k]
        shape_of_row(&batch, k, &self.state.body[i])
        if _attach(self, i) < 0:
            return k
    return ids.shape[0]


cdef inline void _phase_times(SpatialIndexD self, double started, double settled) noexcept nogil:
    self.state.phase_ms[PHASE_MOVES] = settled - started
    self.state.phase_ms[PHASE_RELINKS] = now_ms() - settled


cdef object _insert_rows(SpatialIndexD self, const double[:, ::1] rows, const double[::1] radii, handles,
                         layers, masks, statics):
    cdef Py_ssize_t placed, n = rows.shape[0]
    cdef const uint32_t[::1] layer_v = as_bits(layers, n, DEFAULT_LAYER, "layers")
    cdef const uint32_t[::1] mask_v = as_bits(masks, n, EVERY_LAYER, "masks")
    cdef const uint8_t[::1] static_v = as_flags(statics, n, "static")
    if not (all_default_filters(layer_v, mask_v) and none_set(static_v)) \
            and own_filters(self, self.state.obj_hi + n) < 0:
        raise MemoryError()
    ids = _new_ids(self, n, handles)
    cdef const int64_t[::1] idv = ids
    with nogil:
        placed = _attach_rows(self, idv, rows, radii)
    _commit_new(self, idv, placed, handles, layer_v, mask_v, static_v)
    with nogil:
        _changed(self)
    return ids


cdef int _update_rows(SpatialIndexD self, ids, Py_ssize_t n, const Rows* batch) except -1:
    cdef const int64_t[::1] idv = as_ids(ids)
    cdef int failed
    if n != idv.shape[0]:
        raise ValueError(f"{idv.shape[0]} ids but {n} rows")
    check_ids(self, idv)
    with nogil:
        mark_rows_changed(self, idv)
        failed = _move_rows(self, idv, batch)
        _changed(self)
    if failed:
        raise MemoryError()
    return 0


cdef object insert_box_rows(SpatialIndexD self, object boxes, object handles, object layers,
                            object masks, object statics):
    """insert_rects (insert_boxes in 3D)."""
    cdef const double[:, ::1] rows = as_rows(boxes, 2 * D, RECTS)
    cdef Claim claim
    _claim(self, claim)
    _validate_rects(self, rows)
    return _insert_rows(self, rows, NO_RADII, handles, layers, masks, statics)


cdef object insert_circle_rows(SpatialIndexD self, object centers, object radii,
                               object handles, object layers, object masks, object statics):
    """insert_circles (insert_spheres in 3D)."""
    cdef const double[:, ::1] xy = as_rows(centers, D, "centers")
    cdef const double[::1] rad = as_radii(radii, xy.shape[0])
    cdef Claim claim
    _claim(self, claim)
    _validate_circles(self, xy, rad)
    return _insert_rows(self, xy, rad, handles, layers, masks, statics)


cdef warn_renamed(str old, str new):
    """A deprecated method name's warning, pointing at the caller's line (the
    core's own calls make no Python frames)."""
    import warnings
    warnings.warn(f"{old} is deprecated: it is {new}, the one name of this call in 2D and 3D",
                  DeprecationWarning, stacklevel=1)


cdef int update_box_rows(SpatialIndexD self, object ids, object boxes) except -1:
    """update_rects (update_boxes in 3D)."""
    cdef const double[:, ::1] rows = as_rows(boxes, 2 * D, RECTS)
    cdef Rows batch = rows_of(rows, NO_RADII)
    cdef Claim claim
    _claim(self, claim)
    _validate_rects(self, rows)
    _update_rows(self, ids, rows.shape[0], &batch)
    return 0


cdef int update_packed_boxes(SpatialIndexD self, object ids, const float[:, ::1] corners,
                             const float[:, ::1] sizes) except -1:
    """update_packed: boxes as packed float32 corners and sizes."""
    cdef Rows batch = boxes_of(corners, sizes)
    if corners.shape[1] != D or sizes.shape[1] != D or sizes.shape[0] != corners.shape[0]:
        raise ValueError(f"corners and sizes must be (n, {D}) arrays of one n, got "
                         f"{corners.shape[0]}x{corners.shape[1]} and {sizes.shape[0]}x{sizes.shape[1]}")
    cdef Claim claim
    _claim(self, claim)
    if not boxes_within(batch.corners, batch.sizes, corners.shape[0], _safe_magnitude(self)):
        _validate_rects(self, np.concatenate([corners, sizes], axis=1).astype(np.float64))
    _update_rows(self, ids, corners.shape[0], &batch)
    return 0


cdef int update_circle_rows(SpatialIndexD self, object ids, object centers,
                            object radii) except -1:
    """update_circles (update_spheres in 3D)."""
    cdef const double[:, ::1] xy = as_rows(centers, D, "centers")
    cdef const double[::1] rad = as_radii(radii, xy.shape[0])
    cdef Rows batch = rows_of(xy, rad)
    cdef Claim claim
    _claim(self, claim)
    _validate_circles(self, xy, rad)
    _update_rows(self, ids, xy.shape[0], &batch)
    return 0
def set_filters(SpatialIndexD self, ids, layers, masks):
    """`set_filter` for many objects; everything is checked before anything changes.

    Parameters
    ----------
    ids : array_like of int, shape (n,)
        Distinct live ids (a 1-D integer array).
    layers : array_like of int, shape (n,), or int
        Their layers, or one for all.
    masks : array_like of int, shape (n,), or int
        Their masks, or one for all.

    Raises
    ------
    TypeError
        If `ids` is not a 1-D integer array.
    KeyError
        For an unknown id.
    ValueError
        For a repeated id or a bad layer or mask (naming layers[k] or masks[k]).
    RuntimeError
        If another thread's call holds the index.
    """
    cdef const int64_t[::1] idv = as_ids(ids)
    cdef Py_ssize_t k, n = idv.shape[0]
    cdef const uint32_t[::1] layer_v = as_bits(layers, n, DEFAULT_LAYER, "layers")
    cdef const uint32_t[::1] mask_v = as_bits(masks, n, EVERY_LAYER, "masks")
    cdef Filter f
    cdef Claim claim
    _claim(self, claim)
    check_ids(self, idv)
    if not all_default_filters(layer_v, mask_v) and own_filters(self, self.state.obj_hi) < 0:
        raise MemoryError()
    for k in range(n):
        f.layer, f.mask = layer_v[k], mask_v[k]
        f.is_static = filter_of_id(self, idv[k]).is_static
        _set_filter(self, <int32_t>idv[k], &f)


def set_statics(SpatialIndexD self, ids, statics):
    """`set_static` for many objects; everything is checked before anything changes.

    Parameters
    ----------
    ids : array_like of int, shape (n,)
        Distinct live ids (a 1-D integer array).
    statics : array_like of bool, shape (n,), or bool
        Whether each is static, or one for all.

    Raises
    ------
    TypeError
        If `ids` is not a 1-D integer array.
    KeyError
        For an unknown id.
    ValueError
        For a repeated id or a value that is not a bool (naming static[k]).
    RuntimeError
        If another thread's call holds the index.
    """
    cdef const int64_t[::1] idv = as_ids(ids)
    cdef Py_ssize_t k, n = idv.shape[0]
    cdef const uint8_t[::1] static_v = as_flags(statics, n, "static")
    cdef Filter f
    cdef Claim claim
    _claim(self, claim)
    check_ids(self, idv)
    if self.state.filter == NULL and none_set(static_v):
        return      # no object is static, and none becomes static
    if own_filters(self, self.state.obj_hi) < 0:
        raise MemoryError()
    for k in range(n):
        f = self.state.filter[idv[k]]
        if f.is_static != static_v[k]:
            f.is_static = static_v[k]
            _set_filter(self, <int32_t>idv[k], &f)


def remove_many(SpatialIndexD self, ids):
    """Remove many objects; all are checked before any is removed.

    Parameters
    ----------
    ids : array_like of int, shape (n,)
        Distinct live ids (a 1-D integer array).

    Raises
    ------
    TypeError
        If `ids` is not a 1-D integer array.
    KeyError
        For an unknown id.
    ValueError
        For a repeated id.
    RuntimeError
        If another thread's call holds the index.
    """
    cdef const int64_t[::1] idv = as_ids(ids)
    cdef Py_ssize_t k
    cdef Claim claim
    _claim(self, claim)
    check_ids(self, idv)
    for k in range(idv.shape[0]):
        _depart(self, idv[k])
    with nogil:
        for k in range(idv.shape[0]):
            _release(self, <int32_t>idv[k])
    for k in range(idv.shape[0]):
        drop_handle(self.handles, idv[k])
