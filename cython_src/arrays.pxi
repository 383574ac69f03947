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


# The "no radii" marker of the shared batch loops: rows are rects, not circles.
cdef const double[::1] NO_RADII = np.empty(0, dtype=np.float64)


ctypedef fused position_float:
    float
    double

ctypedef fused size_float:
    float
    double


@cython.boundscheck(False)
@cython.wraparound(False)
def rect_rows_into(const position_float[:, ::1] positions, const size_float[:, ::1] sizes,
                   double[:, ::1] rows):
    """Write rows[k] = (x, y, width, height) from the (n, 2) arrays `positions`
    and `sizes` (C-contiguous float32 or float64; `rows` (n, 4) float64) in one
    pass. Returns the first k whose numbers are not all finite or whose size is
    negative, or -1 when every row is good; rows from k on are then unwritten."""
    cdef Py_ssize_t n = positions.shape[0], k, bad = -1
    cdef double x, y, w, h
    if positions.shape[1] != 2 or sizes.shape[1] != 2 or sizes.shape[0] != n \
            or rows.shape[0] != n or rows.shape[1] != 4:
        raise ValueError(f"positions and sizes must be (n, 2) and rows (n, 4), got "
                         f"{positions.shape[0]}x{positions.shape[1]}, "
                         f"{sizes.shape[0]}x{sizes.shape[1]} and {rows.shape[0]}x{rows.shape[1]}")
    with nogil:
        for k in range(n):
            x = positions[k, 0]
            y = positions[k, 1]
            w = sizes[k, 0]
            h = sizes[k, 1]
            if not (isfinite(x) and isfinite(y) and isfinite(w) and isfinite(h)
                    and w >= 0.0 and h >= 0.0):
                bad = k
                break
            rows[k, 0] = x
            rows[k, 1] = y
            rows[k, 2] = w
            rows[k, 3] = h
    return bad
