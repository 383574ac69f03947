# A batch's rows and ids as the batch calls take them: the one-pass checks
# that let a valid batch skip the row-by-row ones, each row's shape, and the
# check that its ids name live objects, none twice.


cdef bint rows_within(const double* values, Py_ssize_t rows, Py_ssize_t width,
                      double bound) noexcept nogil:
    """Are all numbers of a batch within +-bound, with the size columns (the
    last D of box rows, the only column of radii) not negative? False for NaN.
    One branch-free pass; the row-by-row check then runs only when this fails."""
    cdef Py_ssize_t k, row, n = rows * width
    cdef int ok = 1, a
    if width == 2 * D:
        for row in range(rows):
            k = row * 2 * D
            for a in range(D):
                ok &= (fabs(values[k + a]) <= bound) & (values[k + D + a] >= 0.0) \
                    & (values[k + D + a] <= bound)
    elif width == D:
        for k in range(n):
            ok &= fabs(values[k]) <= bound
    else:
        for k in range(n):
            ok &= (values[k] >= 0.0) & (values[k] <= bound)
    return ok


cdef bint boxes_within(const float* corners, const float* sizes, Py_ssize_t n,
                       double bound) noexcept nogil:
    """rows_within for boxes as 32-bit corners and sizes."""
    cdef Py_ssize_t row, k
    cdef int ok = 1, a
    for row in range(n):
        k = row * D
        for a in range(D):
            ok &= (fabs(corners[k + a]) <= bound) & (sizes[k + a] >= 0.0) & (sizes[k + a] <= bound)
    return ok


cdef inline Rows rows_of(const double[:, ::1] rows, const double[::1] radii) noexcept nogil:
    cdef Rows batch
    batch.values = &rows[0, 0] if rows.shape[0] else NULL
    batch.width = rows.shape[1]
    batch.radii = &radii[0] if radii.shape[0] else NULL
    batch.corners = batch.sizes = NULL
    return batch


cdef inline Rows boxes_of(const float[:, ::1] corners, const float[:, ::1] sizes) noexcept nogil:
    cdef Rows batch
    batch.values = batch.radii = NULL
    batch.width = 2 * D
    batch.corners = &corners[0, 0] if corners.shape[0] else NULL
    batch.sizes = &sizes[0, 0] if sizes.shape[0] else NULL
    return batch


cdef inline void shape_of_row(const Rows* batch, Py_ssize_t k, Shape* s) noexcept nogil:
    """The shape of row k of a batch its validation accepted."""
    cdef const double* row = batch.values + k * batch.width
    cdef double at[D]
    cdef double size[D]
    cdef int a
    if batch.corners != NULL:
        for a in range(D):
            at[a] = batch.corners[D * k + a]
            size[a] = batch.sizes[D * k + a]
        rect_shape(at, size, s)
    elif batch.radii != NULL:
        circle_shape(row, batch.radii[k], s)
    else:
        rect_shape(row, row + D, s)


cdef bint ids_live_and_increasing(const int64_t* ids, Py_ssize_t n, const uint8_t* live,
                                  Py_ssize_t limit) noexcept nogil:
    """Is each of the n ids below `limit`, live, and greater than the one
    before it? One branch-free pass."""
    cdef Py_ssize_t k
    cdef int64_t before = -1, i
    cdef int ok = 1
    if limit == 0:      # no objects, and perhaps no `live` array yet
        return n == 0
    for k in range(n):
        i = ids[k]
        ok &= (i > before) & (<uint64_t>i < <uint64_t>limit)
        ok &= live[i if <uint64_t>i < <uint64_t>limit else 0]
        before = i
    return ok != 0


cdef int check_ids(SpatialIndexD index, const int64_t[::1] ids) except -1:
    """Every id of a batch names a live object of the index, none twice (a
    batch is one simultaneous change, so a repeated id would be ambiguous)."""
    cdef Py_ssize_t k, n = ids.shape[0], bad = -1, old_cap = index.state.named_cap
    cdef bint repeated = False
    cdef int64_t i
    cdef bint settled
    # Ids in increasing order (as a batch usually comes) are distinct:
    # then one pass settles it.
    with nogil:
        settled = ids_live_and_increasing(&ids[0] if n else NULL, n, index.state.live, index.state.obj_hi)
    if settled:
        return 0
    if grow_array(<void**>&index.state.named, &index.state.named_cap, (index.state.obj_hi >> 6) + 1,
                  sizeof(uint64_t)) < 0:
        raise MemoryError()
    memset(index.state.named + old_cap, 0, (index.state.named_cap - old_cap) * sizeof(uint64_t))
    with nogil:
        for k in range(n):
            i = ids[k]
            if not (0 <= i < index.state.obj_hi and index.state.live[i]):
                bad = k
                break
            if index.state.named[i >> 6] >> (i & 63) & 1:
                bad = k
                repeated = True
                break
            index.state.named[i >> 6] |= (<uint64_t>1) << (i & 63)
        # The bits set are those of the ids before the first bad one.
        for k in range(n if bad < 0 else bad):
            index.state.named[ids[k] >> 6] = 0
    if repeated:
        raise ValueError(f"ids contains duplicates: ids[{bad}] repeats id {ids[bad]}")
    if bad >= 0:
        raise KeyError(f"ids[{bad}]: no object with id {ids[bad]} in this index")
    return 0
