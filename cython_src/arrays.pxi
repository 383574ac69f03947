# Coercion of array arguments for the batch calls: zero-copy when the caller's
# array already has the right dtype and layout.

cdef object as_rows(object a, int columns, str name):
    arr = np.ascontiguousarray(a, dtype=np.float64)
    if arr.ndim == 1 and arr.shape[0] == 0:
        arr = arr.reshape(0, columns)
    if arr.ndim != 2 or arr.shape[1] != columns:
        raise ValueError(f"{name} must be an (n, {columns}) array, got shape {arr.shape}")
    return arr


cdef object as_radii(object radii, Py_ssize_t n):
    arr = np.asarray(radii, dtype=np.float64)
    if arr.ndim == 0:
        return np.full(n, float(arr))
    if arr.shape != (n,):
        raise ValueError(f"radii must be one number or {n} numbers, got shape {arr.shape}")
    return np.ascontiguousarray(arr)


cdef object as_ids(object ids):
    arr = np.asarray(ids)
    if arr.size == 0:
        return np.empty(0, dtype=np.int64)
    if arr.dtype.kind not in "iu" or arr.ndim != 1:
        raise TypeError(f"ids must be a 1-D integer array, got {arr.dtype} with shape {arr.shape}")
    return np.ascontiguousarray(arr, dtype=np.int64)


# The "no radii" marker of the shared batch loops: rows are boxes, not circles
# (spheres).
cdef const double[::1] NO_RADII = np.empty(0, dtype=np.float64)


ctypedef fused position_float:
    float
    double

ctypedef fused size_float:
    float
    double


@cython.boundscheck(False)
@cython.wraparound(False)
cdef Py_ssize_t rows_into(const position_float[:, ::1] positions, const size_float[:, ::1] sizes,
                          double[:, ::1] rows) except -2:
    """Write rows[k] = (corner, sizes) from the (n, D) arrays `positions` and
    `sizes` (C-contiguous float32 or float64; `rows` (n, 2 * D) float64) in one
    pass. Returns the first k whose numbers are not all finite or whose size is
    negative, or -1 when every row is good; rows from k on are then unwritten."""
    cdef Py_ssize_t n = positions.shape[0], k, bad = -1
    cdef double row[2 * D]
    cdef int a
    cdef bint good
    if positions.shape[1] != D or sizes.shape[1] != D or sizes.shape[0] != n \
            or rows.shape[0] != n or rows.shape[1] != 2 * D:
        raise ValueError(f"positions and sizes must be (n, {D}) and rows (n, {2 * D}), got "
                         f"{positions.shape[0]}x{positions.shape[1]}, "
                         f"{sizes.shape[0]}x{sizes.shape[1]} and {rows.shape[0]}x{rows.shape[1]}")
    with nogil:
        for k in range(n):
            good = True
            for a in range(D):
                row[a] = positions[k, a]
                row[D + a] = sizes[k, a]
                good = good and isfinite(row[a]) and isfinite(row[D + a]) and row[D + a] >= 0.0
            if not good:
                bad = k
                break
            for a in range(2 * D):
                rows[k, a] = row[a]
    return bad
