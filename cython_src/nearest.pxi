# Nearest-object searches: the order of their answers, keeping the k nearest of
# a search's candidates, and the order a batch of searches is run in.

cdef int nearer_first(const void* a, const void* b) noexcept nogil:
    """qsort's order for Nearby: by distance, then by id."""
    cdef const Nearby* p = <const Nearby*>a
    cdef const Nearby* q = <const Nearby*>b
    if p.distance != q.distance:
        return -1 if p.distance < q.distance else 1
    return (p.id > q.id) - (p.id < q.id)


cdef enum:
    # Up to this many nearest objects are kept by insertion, past it by sorting.
    INSERTED_NEAREST = 16


cdef Py_ssize_t nearest_first(Nearby* found, Py_ssize_t n, double reach, Py_ssize_t k) noexcept nogil:
    """Move the k (or fewer) nearest of the n candidates in `found` that lie
    within `reach` to its front, in nearer_first's order; returns how many.
    For a few, each candidate is inserted into the sorted front (which never
    passes the one being read), so only those that beat the k-th are moved."""
    cdef Py_ssize_t j, pos, kept = 0
    cdef Nearby item
    if k > INSERTED_NEAREST:
        for j in range(n):
            if found[j].distance <= reach:
                found[kept] = found[j]
                kept += 1
        qsort(found, kept, sizeof(Nearby), nearer_first)
        return kept if kept < k else k
    for j in range(n):
        item = found[j]
        if not item.distance <= reach:
            continue
        if kept < k:
            pos = kept
            kept += 1
        elif nearer_first(&item, &found[k - 1]) < 0:
            pos = k - 1
        else:
            continue
        while pos > 0 and nearer_first(&item, &found[pos - 1]) < 0:
            found[pos] = found[pos - 1]
            pos -= 1
        found[pos] = item
    return kept


cdef enum:
    # A batch of nearest searches for at most this many objects each is run in
    # visiting order, its answers put back in the caller's.
    VISITED_NEAREST = 64
    VISIT_BANDS = 4096      # at most this many bands of rows for the visiting order


cdef void visiting_order(const double[:, ::1] points, Py_ssize_t m, int32_t* order,
                         int32_t* bands) noexcept nogil:
    """The indices of the m points (x, y) by band of y (a counting sort into
    `order`; `bands` has room for min(m, VISIT_BANDS) + 1 counts): searches for
    neighbouring points in turn find each other's cells still in the cache."""
    cdef Py_ssize_t j, b, n_bands = m if m < VISIT_BANDS else VISIT_BANDS
    cdef double lo = INFINITY, hi = -INFINITY, scale
    cdef int32_t total = 0, count
    for j in range(m):
        lo = fmin(lo, points[j, 1])
        hi = fmax(hi, points[j, 1])
    scale = (n_bands - 1) / (hi - lo) if hi > lo else 0.0
    memset(bands, 0, (n_bands + 1) * sizeof(int32_t))
    for j in range(m):
        bands[<Py_ssize_t>((points[j, 1] - lo) * scale) + 1] += 1
    for b in range(n_bands + 1):
        count = bands[b]
        bands[b] = total
        total += count
    for j in range(m):
        b = <Py_ssize_t>((points[j, 1] - lo) * scale)
        order[bands[b + 1]] = <int32_t>j
        bands[b + 1] += 1


cdef int check_nearest_arguments(object k, double max_distance) except -1:
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise ValueError(f"k must be an int >= 0 (how many objects), got {k!r}")
    if not max_distance >= 0.0:
        raise ValueError(f"max_distance must be a number >= 0 (world units), got {max_distance!r}")
    return 0
