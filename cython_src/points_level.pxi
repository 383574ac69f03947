# The level the hierarchical grid gives points (objects of no extent, which fit
# any level): the coarsest in whose cells most of them are alone, so that
# searches around them do not cross rings of empty cells.

# The points' level is the coarsest in whose cells this share of them are alone:
# for scattered points, about one point a cell.
cdef double ALONE_SHARE = 0.6


cdef inline uint64_t axis_hash(int a) noexcept nogil:
    """The odd multiplier that mixes axis a's coordinate into a cell's hash."""
    return 0x9E3779B97F4A7C15 if a == 0 else (0xC2B2AE3D27D4EB4F if a == 1 else 0x165667B19E3779F9)


cdef Py_ssize_t distinct_cells(const int64_t* corners, Py_ssize_t n, int32_t shift) noexcept nogil:
    """How many distinct cells (x >> shift, y >> shift[, z >> shift]) the n
    points (x, y[, z]) in `corners` name (an open-addressing count); -1 if out
    of memory."""
    cdef Py_ssize_t k, slots = 16, count = 0
    cdef uint64_t h, mask
    cdef int64_t cell[D]
    cdef int a
    cdef bint same
    cdef int64_t* keys
    cdef uint8_t* used
    while slots < 2 * n:
        slots *= 2
    mask = <uint64_t>(slots - 1)
    keys = <int64_t*>malloc(D * slots * sizeof(int64_t))
    used = <uint8_t*>calloc(slots, 1)
    if keys == NULL or used == NULL:
        free(keys)
        free(used)
        return -1
    for k in range(n):
        h = 0
        for a in range(D):
            cell[a] = corners[D * k + a] >> shift
            h ^= <uint64_t>cell[a] * axis_hash(a)
        h >>= 20
        while True:
            h &= mask
            if not used[h]:
                used[h] = 1
                for a in range(D):
                    keys[D * h + a] = cell[a]
                count += 1
                break
            same = True
            for a in range(D):
                same &= keys[D * h + a] == cell[a]
            if same:
                break
            h += 1
    free(keys)
    free(used)
    return count


cdef double alone_share(HierarchicalGridD g, const double* corners, Py_ssize_t n, int32_t exponent,
                        int64_t* cells) noexcept nogil:
    """The share of the n points in `corners` (D numbers each) that would be
    alone in the cells of level `exponent`, -1 if out of memory; `cells` has
    room for D numbers per point."""
    cdef double inv = 1.0 / hierarchical_cell_of_exponent(g, exponent)
    cdef Py_ssize_t k, distinct
    for k in range(D * n):
        cells[k] = floor_int(corners[k] * inv)
    distinct = distinct_cells(cells, n, 0)
    return <double>distinct / <double>n if distinct >= 0 else -1.0


cdef void respace(HierarchicalGridD g) noexcept nogil:
    """Give the points (objects of no extent, which fit any level) the level
    whose cells suit their spacing: the coarsest in which ALONE_SHARE of
    them are still alone (counting the distinct cells they fall in), found
    one level at a time from where they are; then move the points that live
    elsewhere. Without it they would share the finest level there is,
    however far apart, and searches around them would cross rings of empty
    cells. Runs after a call that grew a table (see _changed), so its cost
    is spread over the objects that made it grow. Out of memory, nothing
    changes that matters: points moved so far are in cells that fit them."""
    cdef Py_ssize_t i, m = 0
    cdef int32_t start, exponent = 0, target
    cdef double share = 0.0
    cdef double* corners
    cdef int64_t* cells
    cdef Box box
    g.hierarchy.spacing_due = False
    if g.state.n_live < SPACING_SAMPLE:
        return
    corners = <double*>malloc(D * g.state.n_live * sizeof(double))
    cells = <int64_t*>malloc(D * g.state.n_live * sizeof(int64_t))
    if corners != NULL and cells != NULL:
        for i in range(g.state.obj_hi):
            if g.state.live[i]:
                shape_box(&g.state.body[i], &box)
                if hierarchical_need(g, &box) == 0.0:
                    memcpy(corners + D * m, box.lo, sizeof(box.lo))
                    m += 1
    if m >= SPACING_SAMPLE:
        start = exponent = g.hierarchy.point_exponent if g.hierarchy.has_point_level else \
            (g.hierarchy.levels[g.hierarchy.order[0]].exponent if g.hierarchy.n_levels else 0)
        share = alone_share(g, corners, m, exponent, cells)
        if share >= ALONE_SHARE:
            while exponent - start < 64 and hierarchical_cell_of_exponent(g, exponent + 1) <= LARGEST_CELL:
                share = alone_share(g, corners, m, exponent + 1, cells)
                if share < ALONE_SHARE:
                    break
                exponent += 1
        elif share >= 0.0:
            # Finer, but only as far as makes them alone: points stacked on one
            # another are never alone, and keep the level they have.
            while start - exponent < 64 and hierarchical_cell_of_exponent(g, exponent - 1) >= SMALLEST_CELL:
                exponent -= 1
                share = alone_share(g, corners, m, exponent, cells)
                if share >= ALONE_SHARE or share < 0.0:
                    break
            if not share >= ALONE_SHARE:
                exponent = start
    free(corners)
    free(cells)
    if m < SPACING_SAMPLE or share < 0.0 or (g.hierarchy.has_point_level
                                             and exponent == g.hierarchy.point_exponent):
        return
    g.hierarchy.point_exponent = exponent
    g.hierarchy.has_point_level = True
    for i in range(g.state.obj_hi):
        if not g.state.live[i]:
            continue
        shape_box(&g.state.body[i], &box)
        if hierarchical_need(g, &box) > 0.0 \
                or hierarchical_fits(g, &g.hierarchy.levels[g.hierarchy.level_of[i]], &box):
            continue
        target = hierarchical_level_index(g, hierarchical_exponent_for(g, &box))
        if target < 0 or _reserve_member(g, &g.hierarchy.levels[target]) < 0:
            return
        hierarchical_leave_level(g, <int32_t>i)
        hierarchical_enter_level(g, target, <int32_t>i)
