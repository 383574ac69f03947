# The uniform grid's pair pass, as functions over the grid (typed as the final
# UniformGrid, so what they call on it is a direct call): the table's objects
# are packed in cell order with their cell ranges, the pairs whose ranges meet
# are listed without a branch per candidate (meeting_pairs), the narrow phase
# keeps those that touch (touching_pairs), and each large object meets what
# shares its cells.


cdef inline Py_ssize_t meeting_run(bint exact_homes, const CellRange* cells, int32_t u,
                                   const Filter* own, const Level* L, const CellRange* ranges,
                                   Py_ssize_t v, Py_ssize_t end, int32_t* out,
                                   Py_ssize_t n) noexcept nogil:
    """Write (u, v) at out[2 * n] for each of L's packed objects v .. end-1
    (their ranges in `ranges`) whose range meets `cells`, the range of packed
    object u, and whose filter passes with u's `own` (NULL: every object has
    the default); returns the new n. out must have room for end - v more.
    With exact_homes (the packed objects are at home in u's window in the
    world, not only in the wrapped table; no filters), ranges meet unless
    the other one ends left of u's. No branch depends on the data."""
    # Locals, not reads through the pointers: the candidates written below are
    # int32s too, so the compiler would otherwise read them again after each.
    cdef int32_t x0 = cells.x0, y0 = cells.y0, x1 = cells.x1, y1 = cells.y1
    cdef const CellRange* r
    cdef bint meet
    if exact_homes:
        while v < end:
            out[2 * n] = u
            out[2 * n + 1] = <int32_t>v
            n += ranges[v].x1 >= x0
            v += 1
    else:
        while v < end:
            r = &ranges[v]
            meet = (x0 <= r.x1) & (r.x0 <= x1) & (y0 <= r.y1) & (r.y0 <= y1)
            if own != NULL:
                meet = meet & filters_pass(own, &L.packed_filter[v])
            out[2 * n] = u
            out[2 * n + 1] = <int32_t>v
            n += meet
            v += 1
    return n


cdef inline int64_t cell_key(int32_t cx, int32_t cy) noexcept nogil:
    return (<int64_t>cx << 32) | <int64_t>(<uint32_t>cy)


cdef inline Py_ssize_t cell_meetings(const CellRange* ranges, Py_ssize_t start, Py_ssize_t end,
                                     Py_ssize_t right_end, Py_ssize_t below_begin,
                                     Py_ssize_t below_end, Py_ssize_t below_wide_end,
                                     int32_t* out, Py_ssize_t n) noexcept nogil:
    """The meeting pairs (u, v) of the packed objects start .. end-1 of one
    cell, at out[2 * n] (which has room for all), where no range is over two
    cells a side and homes are exact: an object's range meets every object
    after it in its cell and, if it is two cells wide, in the cell to the
    right (whose objects end at right_end); if it is two cells tall, those in
    the row below from the cell to the left (from below_begin) through its own
    column (to below_end) or the next (to below_wide_end) whose ranges reach
    its column. Returns the new n. Each object's two runs are walked as one,
    and which runs it takes is chosen by arithmetic: whether a range is two
    cells wide or tall is a coin toss that a branch would mispredict."""
    cdef Py_ssize_t u, v, t, first, more
    cdef int32_t x0
    cdef bint wide, tall
    for u in range(start, end):
        x0 = ranges[u].x0
        wide = ranges[u].x1 > x0
        tall = ranges[u].y1 > ranges[u].y0
        first = end + wide * (right_end - end) - u - 1
        more = first + tall * (below_end - below_begin + wide * (below_wide_end - below_end))
        for t in range(more):
            v = u + 1 + t + (t >= first) * (below_begin - u - 1 - first)
            out[2 * n] = <int32_t>u
            out[2 * n + 1] = <int32_t>v
            n += (t < first) | (ranges[v].x1 >= x0)
    return n


cdef object covered_cells(const CellRange* ranges, const int32_t* members, Py_ssize_t n):
    """(keys, counts): every cell covered by the ranges ranges[members[k]] for
    k < n (ranges[k] if members is NULL), as cx << 32 | (cy mod 2**32) in
    ascending order, and how many of them cover it."""
    cdef Py_ssize_t k, m = 0
    cdef int32_t cx, cy
    cdef const CellRange* r
    for k in range(n):
        r = &ranges[members[k] if members != NULL else k]
        m += (<Py_ssize_t>r.x1 - r.x0 + 1) * (r.y1 - r.y0 + 1)
    keys = np.empty(m, dtype=np.int64)
    cdef int64_t[::1] out = keys
    m = 0
    for k in range(n):
        r = &ranges[members[k] if members != NULL else k]
        for cy in range(r.y0, r.y1 + 1):
            for cx in range(r.x0, r.x1 + 1):
                out[m] = cell_key(cx, cy)
                m += 1
    return np.unique(keys, return_counts=True)


cdef int pack_ranges(UniformGrid g) noexcept nogil:
    """Note the packed objects' ranges, in the packed order (they stay, for
    the pass's shared cells, until the next pass), make the spans exact
    again and say whether homes are exact; -1 if out of memory."""
    cdef const Level* L = &g.table
    cdef Py_ssize_t k
    cdef int32_t x_lo = 0, x_hi = 0, y_lo = 0, y_hi = 0, span_x = 0, span_y = 0
    cdef const CellRange* r
    if grow_array(<void**>&g.packed_range, &g.packed_range_cap, L.n, sizeof(CellRange)) < 0:
        return -1
    if L.n:
        x_lo = x_hi = g.range[L.packed_id[0]].x0
        y_lo = y_hi = g.range[L.packed_id[0]].y0
    for k in range(L.n):
        if k + PACK_LOOKAHEAD < L.n:
            prefetch(&g.range[L.packed_id[k + PACK_LOOKAHEAD]])
        r = &g.range[L.packed_id[k]]
        g.packed_range[k] = r[0]
        span_x = r.x1 - r.x0 if r.x1 - r.x0 > span_x else span_x
        span_y = r.y1 - r.y0 if r.y1 - r.y0 > span_y else span_y
        x_lo = r.x0 if r.x0 < x_lo else x_lo
        x_hi = r.x0 if r.x0 > x_hi else x_hi
        y_lo = r.y0 if r.y0 < y_lo else y_lo
        y_hi = r.y0 if r.y0 > y_hi else y_hi
    g.span_x, g.span_y = span_x, span_y
    g.packed_n = L.n
    # Homes that differ by less than the table's side, less the reach of a
    # window of the pair pass (span_x, and one cell for a cell's own windows,
    # cell_meetings), cannot meet in one after wrapping: then a wrapped window
    # holds just the homes it names in the world.
    g.exact_homes = <int64_t>x_hi - x_lo + span_x + 1 <= L.mask \
        and <int64_t>y_hi - y_lo + span_y + 1 <= L.mask
    return 0


cdef inline int meeting_room(UniformGrid g, Py_ssize_t n, Py_ssize_t more) noexcept nogil:
    """Make room in `meeting` for n + more pairs; -1 if out of memory."""
    if 2 * (n + more) > g.meeting_cap:
        return grow_array(<void**>&g.meeting, &g.meeting_cap, 2 * (n + more),
                          sizeof(int32_t))
    return 0


cdef Py_ssize_t meeting_pairs(UniformGrid g) noexcept nogil:
    """The broad phase of the table's pairs, after _pack and pack_ranges:
    into `meeting`, each pair (u, v) of packed objects whose ranges meet
    and whose filters pass, once; returns how many, -1 if out of memory.
    Each object u meets the rest of its home cell and the objects at home
    in the other cells of its range's first row, then, in each later row of
    its range, those at home from span_x cells left of its range to its end.
    While no range is over two cells a side and homes are exact without
    filters, each cell works out those runs once for all its objects, from
    the occupancy bits next to it (cell_meetings); otherwise, and in the
    columns where windows wrap around the table, each object looks up its
    own (object_meetings)."""
    # A copy: the candidates written are int32s, as some of the table's
    # fields are, so the compiler would read those again after each write.
    cdef Level table = g.table
    cdef const Level* L = &table
    cdef bint by_cell = g.exact_homes and not g.n_filtered \
        and g.span_x <= 1 and g.span_y <= 1
    cdef int64_t c, cx, below, step = L.mask + 1, last_cell = step * step - 1
    cdef Py_ssize_t w, nth = 0, u, start, end, rank, n = 0
    cdef Py_ssize_t right_end, below_begin, below_end, below_wide_end
    cdef uint64_t word
    for w in range(occupancy_words(L.wbits)):
        word = L.occupied[w]
        while word:
            c = (w << 6) | count_trailing_zeros(word)
            word &= word - 1
            start = L.cell_start[nth]
            end = L.cell_start[nth + 1]
            cx = c & L.mask
            if by_cell and 1 <= cx < L.mask:
                # This cell's runs: through the cell to its right; in the row
                # below, from the cell to the left through this cell's column
                # and through the next.
                right_end = L.cell_start[nth + 1 + is_occupied(L, c + 1)]
                below = (((c - cx) + step) & last_cell) | (cx - 1)
                rank = cell_rank(L, below)
                below_begin = L.cell_start[rank]
                rank += is_occupied(L, below) + is_occupied(L, below + 1)
                below_end = L.cell_start[rank]
                below_wide_end = L.cell_start[rank + is_occupied(L, below + 2)]
                if meeting_room(g, n, (end - start) * (right_end - start + below_wide_end
                                                          - below_begin)) < 0:
                    return -1
                n = cell_meetings(g.packed_range, start, end, right_end, below_begin,
                                  below_end, below_wide_end, g.meeting, n)
            else:
                for u in range(start, end):
                    n = object_meetings(g, L, u, end, n)
                    if n < 0:
                        return -1
            nth += 1
    return n


cdef Py_ssize_t object_meetings(UniformGrid g, const Level* L, Py_ssize_t u, Py_ssize_t end,
                                Py_ssize_t n) noexcept nogil:
    """meeting_pairs for packed object u (its home cell's objects end at
    `end`), each of its rows' runs looked up; the new n, -1 if out of memory."""
    cdef const CellRange* ranges = g.packed_range
    cdef bint exact = g.exact_homes and not g.n_filtered
    cdef CellRange cells = ranges[u]
    cdef const Filter* own = g._own_filter(L, u)
    cdef int64_t row = (cells.y0 & L.mask) << L.wbits, step = L.mask + 1
    cdef int32_t y = cells.y0
    cdef Py_ssize_t more
    cdef Py_ssize_t runs[4]
    cdef int n_runs
    # Its first row: from the object after it to the end of its range, one
    # run unless the row wraps there.
    if cells.x1 == cells.x0:
        runs[1] = end
        n_runs = 2
    else:
        n_runs = row_runs(L, row, cells.x0, cells.x1, runs)
    runs[0] = u + 1
    while True:
        more = runs[1] - runs[0] + (runs[3] - runs[2] if n_runs == 4 else 0)
        if meeting_room(g, n, more) < 0:
            return -1
        n = meeting_run(exact, &cells, <int32_t>u, own, L, ranges, runs[0], runs[1],
                        g.meeting, n)
        if n_runs == 4:
            n = meeting_run(exact, &cells, <int32_t>u, own, L, ranges, runs[2], runs[3],
                            g.meeting, n)
        if y == cells.y1:
            return n
        y += 1
        row = (row + step) & (step * step - 1)
        n_runs = row_runs(L, row, cells.x0 - g.span_x, cells.x1, runs)


cdef int touching_pairs(UniformGrid g, Py_ssize_t n) noexcept nogil:
    """The narrow phase of the table's pairs: of the n meeting pairs, those
    whose shapes touch (all, if keep_candidates) into `found`, as ids; -1
    if out of memory. A loop of its own for tables of circles only and of
    boxes only, whose tests take no branch."""
    cdef const Level* L = &g.table
    cdef const int32_t* ids = L.packed_id
    cdef const Shape* packed = L.packed
    cdef const int32_t* meeting = g.meeting
    cdef bint keep_all = g.keep_candidates
    cdef Py_ssize_t k, kept = 0
    cdef int32_t u, v
    cdef int32_t* pairs
    cdef Box box
    if pair_room(&g.found, n) < 0:
        return -1
    pairs = g.found.ids
    if L.circles == L.n:
        for k in range(n):
            u = meeting[2 * k]
            v = meeting[2 * k + 1]
            put_pair(pairs + 2 * kept, ids[u], ids[v])
            kept += circles_touch(&packed[u], &packed[v]) | keep_all
    elif L.circles == 0:
        for k in range(n):
            u = meeting[2 * k]
            v = meeting[2 * k + 1]
            put_pair(pairs + 2 * kept, ids[u], ids[v])
            kept += boxes_touch(&packed[u], &packed[v]) | keep_all
    else:
        for k in range(n):
            u = meeting[2 * k]
            v = meeting[2 * k + 1]
            shape_box(&packed[u], &box)
            put_pair(pairs + 2 * kept, ids[u], ids[v])
            kept += shapes_touch(&packed[u], &box, &packed[v]) | keep_all
    g.found.n = kept
    return 0


cdef int uniform_pair_pass(UniformGrid g) noexcept nogil:
    """Every overlapping pair once (every pair tested, if keep_candidates)
    into `found`; -1 if out of memory. The table's objects are packed in
    cell order, its pairs whose ranges meet found (meeting_pairs) and
    then those that touch (touching_pairs); then each large object meets
    what shares its cells. The cells the table's meeting pairs share are
    counted only when broad_phase_pairs is read (uniform_broad_phase)."""
    cdef Level* L = &g.table
    cdef Py_ssize_t j, li, kept, meeting = 0, shared = 0
    cdef int32_t other, big
    cdef bint touch, keep_all = g.keep_candidates
    cdef int32_t* pairs
    cdef Query q
    g.found.n = g.packed_n = g.broad_phase_count = 0
    g.broad_phase_pending = False
    if L.n:
        if g._pack(L, 1) < 0 or pack_ranges(g) < 0:
            return -1
        meeting = meeting_pairs(g)
        if meeting < 0 or touching_pairs(g, meeting) < 0:
            return -1
    g.narrow_phase_checks = meeting
    kept = g.found.n
    # Large objects: test each against what shares its cells, and against the
    # large objects after it on the list.
    g._aim(&q, Q_CELLS, EVERY_LAYER)
    q.check_layers = False      # the pair rule is tested per pair below
    for li in range(g.n_large):
        big = g.large[li]
        q.cells = g.range[big]
        g._collect(&q)
        g.found.n = kept
        if pair_room(&g.found, g.out_n) < 0:
            return -1
        pairs = g.found.ids
        for j in range(g.out_n):
            other = g.out[j]
            if other == big or (g.home[other] < 0 and g.slot[other] <= li):
                continue
            shared += 1
            if not filters_pass(&g.filter[big], &g.filter[other]):
                continue
            g.narrow_phase_checks += 1
            touch = shapes_meet(&g.body[big], &g.body[other])
            put_pair(pairs + 2 * kept, big, other)
            kept += touch | keep_all
    g.found.n = kept
    g.broad_phase_count = shared
    g.broad_phase_pending = g.packed_n > 0
    g.hits = kept
    return 0


cdef int uniform_broad_phase(UniformGrid g) except -1:
    """Count the cells shared by the last pass's meeting pairs of the table
    into broad_phase_count: over every cell, the pairs of the ranges that
    cover it, from the ranges the pass packed. The caller holds the claim."""
    cdef Py_ssize_t shared = 0
    if g.broad_phase_pending:
        keys, counts = covered_cells(g.packed_range, NULL, g.packed_n)
        shared = int((counts * (counts - 1) // 2).sum())
        g.broad_phase_count += shared
        g.broad_phase_pending = False
    return 0
