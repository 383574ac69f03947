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
