# Nearest-object searches (the search itself is nearest.hpp's): the order a
# batch of searches is run in, and their arguments.

cdef enum:
    # A batch of nearest searches for at most this many objects each is run in
    # visiting order, its answers put back in the caller's.
    VISITED_NEAREST = 64
    VISIT_BANDS = 4096      # at most this many bands of rows for the visiting order


cdef void visiting_order(const double[:, ::1] points, Py_ssize_t m, int32_t* order,
                         int32_t* bands) noexcept nogil:
    """The indices of the m points (rows of D numbers) by band of y (a counting sort into
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


# Each index's cells as the search reads them (its _nearest_levels).


cdef int loose_nearest_levels(SpatialIndexD index, NearestInput* search) noexcept nogil:
    """An index with no storage of its own (the bare SpatialIndex): every live
    object loose, listed in `out`."""
    cdef Py_ssize_t i
    index.state.out_n = 0
    for i in range(index.state.obj_hi):
        if index.state.live[i]:
            index.state.out[index.state.out_n] = <int32_t>i
            index.state.out_n += 1
    search.levels = NULL
    search.n_levels = 0
    search.loose = index.state.out
    search.n_loose = index.state.out_n
    search.next = NULL
    return 0


cdef int uniform_nearest_levels(UniformGridD grid, NearestInput* search) noexcept nogil:
    """The table, and the large objects beside it."""
    cdef NearestLevel* L = &grid.cells.nearest_table
    L.head = grid.cells.table.head
    L.members = grid.cells.table.members
    L.n = grid.cells.table.n
    memcpy(L.origin, grid.cells.origin, sizeof(L.origin))
    memcpy(L.span, grid.cells.span, sizeof(L.span))
    L.cell = grid.cell_size
    L.inv = grid.cells.inv_cell
    L.divide = not grid.cells.exact_inverse
    L.wbits = grid.cells.table.wbits
    search.levels = L
    search.n_levels = 1
    search.loose = grid.cells.large
    search.n_loose = grid.cells.n_large
    search.next = grid.state.next
    return 0


cdef int hierarchical_nearest_levels(HierarchicalGridD grid, NearestInput* search) noexcept nogil:
    """The levels finest first. An object reaches at most one cell past its
    home, as collect_hierarchical has it; a level of points alone, none."""
    cdef Py_ssize_t r
    cdef const Level* L
    cdef NearestLevel* N
    cdef int a
    if grow_array(<void**>&grid.hierarchy.nearest_levels, &grid.hierarchy.nearest_levels_cap, grid.hierarchy.n_levels,
                  sizeof(NearestLevel)) < 0:
        return -1
    for r in range(grid.hierarchy.n_levels):
        L = &grid.hierarchy.levels[grid.hierarchy.order[r]]
        N = &grid.hierarchy.nearest_levels[r]
        N.head = L.head
        N.members = L.members
        N.n = L.n
        N.cell = L.cell
        N.inv = L.inv
        N.divide = False
        for a in range(D):
            N.origin[a] = 0.0
            N.span[a] = 0 if L.reach == 0.0 else 1
        N.wbits = L.wbits
    search.levels = grid.hierarchy.nearest_levels
    search.n_levels = <int>grid.hierarchy.n_levels
    search.loose = NULL
    search.n_loose = 0
    search.next = grid.state.next
    return 0


# A batch's answers, in its rows' order (query_nearest_many).


cdef Py_ssize_t nearest_in_order(SpatialIndexD index, const NearestInput* search,
                                 const double[:, ::1] rows, Py_ssize_t want,
                                 double max_distance, int64_t[::1] off) noexcept nogil:
    """Each row's answer, in row order, one after another in batch_results;
    off gets the offsets. Returns the total, -1 if out of memory."""
    cdef Py_ssize_t j, n, total = 0
    cdef Nearby* kept
    off[0] = 0
    for j in range(rows.shape[0]):
        n = nearest_objects(search[0], &rows[j, 0], want, max_distance, index.state.nearby)
        kept = <Nearby*>_batch_room(index, (total + n) * sizeof(Nearby))
        if kept == NULL:
            return -1
        copy_bytes(kept + total, index.state.nearby, n * sizeof(Nearby))
        total += n
        off[j + 1] = total
    return total


cdef Py_ssize_t nearest_in_visiting_order(SpatialIndexD index, const NearestInput* search,
                                          const double[:, ::1] rows, Py_ssize_t want,
                                          double max_distance, int64_t[::1] off) noexcept nogil:
    """Each row's answer, searched in visiting order, at row j * want of
    batch_results; off gets the offsets. Returns the total, -1 if out of
    memory."""
    cdef Py_ssize_t j, t, m = rows.shape[0]
    cdef Py_ssize_t answers = m * want * sizeof(Nearby)
    # The answers, then a count per row, the visiting order and its bands.
    cdef char* room = <char*>_batch_room(index, answers + (2 * m + VISIT_BANDS + 1) * sizeof(int32_t))
    cdef int32_t* counts
    cdef int32_t* order
    if room == NULL:
        return -1
    counts = <int32_t*>(room + answers)
    order = counts + m
    visiting_order(rows, m, order, order + m)
    for t in range(m):
        j = order[t]
        counts[j] = <int32_t>nearest_objects(search[0], &rows[j, 0], want, max_distance,
                                             <Nearby*>room + j * want)
    off[0] = 0
    for j in range(m):
        off[j + 1] = off[j] + counts[j]
    return off[m]
