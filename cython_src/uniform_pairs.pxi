# The uniform grid's pair pass, as functions over the grid (typed as
# UniformGridD, so what they call on it is a direct call). While no object of
# the table covers more than two cells a side, the kernel of cell_pairs.hpp
# finds the table's pairs; otherwise its objects are packed in cell order with
# their cell ranges, the pairs whose ranges meet are listed without a branch
# per candidate (meeting_pairs), and the narrow phase keeps those that touch
# (touching_pairs). Then each large object meets what shares its cells.


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
    the other one ends left of u's or (in 3D, in a later layer) before its
    first row. No branch depends on the data."""
    # Locals, not reads through the pointers: the candidates written below are
    # int32s too, so the compiler would otherwise read them again after each.
    cdef int32_t first[D]
    cdef int32_t last[D]
    cdef const CellRange* r
    cdef bint meet
    cdef int a
    for a in range(D):
        first[a] = cells.lo[a]
        last[a] = cells.hi[a]
    if exact_homes:
        while v < end:
            out[2 * n] = u
            out[2 * n + 1] = <int32_t>v
            if D == 2:
                n += ranges[v].hi[0] >= first[0]
            else:
                n += (ranges[v].hi[0] >= first[0]) & (ranges[v].hi[1] >= first[1])
            v += 1
    else:
        while v < end:
            r = &ranges[v]
            meet = True
            for a in range(D):
                meet &= (first[a] <= r.hi[a]) & (r.lo[a] <= last[a])
            if own != NULL:
                meet = meet & filters_pass(own, &L.packed_filter[v])
            out[2 * n] = u
            out[2 * n + 1] = <int32_t>v
            n += meet
            v += 1
    return n


cdef int pack_ranges(UniformGridD g) noexcept nogil:
    """Note the packed objects' ranges, in the packed order (they stay, for
    the pass's shared cells, until the next pass), make the spans exact
    again and say whether homes are exact; -1 if out of memory."""
    cdef const Level* L = &g.cells.table
    cdef Py_ssize_t k
    cdef int32_t low[D]         # the homes' least and greatest cell on each axis
    cdef int32_t high[D]
    cdef int32_t span[D]
    cdef const CellRange* r
    cdef int a
    if grow_array(<void**>&g.cells.packed_range, &g.cells.packed_range_cap, L.n, sizeof(CellRange)) < 0:
        return -1
    for a in range(D):
        low[a] = high[a] = g.cells.range[L.packed_id[0]].lo[a] if L.n else 0
        span[a] = 0
    for k in range(L.n):
        if k + PACK_LOOKAHEAD < L.n:
            prefetch_item(&g.cells.range[L.packed_id[k + PACK_LOOKAHEAD]], sizeof(CellRange))
        r = &g.cells.range[L.packed_id[k]]
        g.cells.packed_range[k] = r[0]
        for a in range(D):
            span[a] = r.hi[a] - r.lo[a] if r.hi[a] - r.lo[a] > span[a] else span[a]
            low[a] = r.lo[a] if r.lo[a] < low[a] else low[a]
            high[a] = r.lo[a] if r.lo[a] > high[a] else high[a]
    g.cells.packed_n = L.n
    # Homes that differ by less than the table's side, less the reach of a
    # window of the pair pass along that axis (its span, and a cell to spare),
    # cannot meet in one after wrapping: then a wrapped window holds just the
    # homes it names in the world.
    g.cells.exact_homes = True
    for a in range(D):
        g.cells.span[a] = span[a]
        g.cells.exact_homes &= <int64_t>high[a] - low[a] + span[a] + 1 <= L.mask
    return 0


cdef inline int meeting_room(UniformGridD g, Py_ssize_t n, Py_ssize_t more) noexcept nogil:
    """Make room in `meeting` for n + more pairs; -1 if out of memory."""
    if 2 * (n + more) > g.cells.meeting_cap:
        return grow_array(<void**>&g.cells.meeting, &g.cells.meeting_cap, 2 * (n + more),
                          sizeof(int32_t))
    return 0


cdef Py_ssize_t meeting_pairs(UniformGridD g) noexcept nogil:
    """The broad phase of the table's pairs, after _pack and pack_ranges:
    into `meeting`, each pair (u, v) of packed objects whose ranges meet
    and whose filters pass, once; returns how many, -1 if out of memory.
    Each object u meets the rest of its home cell and the objects at home
    in the other cells of its range's first row; then, in each later row of
    its range's first layer, those at home from span[0] cells left of its
    range to its end; then, in 3D, in each later layer of its range, those at
    home from span[0] cells left of and span[1] rows before its range to its
    end (object_meetings). Of two objects whose ranges meet, the later home is
    in the earlier one's window and not the other way round, and no window
    holds a table cell twice (none is wider than the table), so the pair
    comes once, wrapped or not."""
    # A copy: the candidates written are int32s, as some of the table's
    # fields are, so the compiler would read those again after each write.
    cdef Level table = g.cells.table
    cdef const Level* L = &table
    cdef Py_ssize_t nth, u, end, n = 0
    for nth in range(L.word_rank[occupancy_words(L.wbits)]):
        end = L.cell_start[nth + 1]
        for u in range(L.cell_start[nth], end):
            n = object_meetings(g, L, u, end, n)
            if n < 0:
                return -1
    return n


cdef inline Py_ssize_t runs_meetings(UniformGridD g, const Level* L, Py_ssize_t u,
                                     const CellRange* cells, const Filter* own,
                                     const Py_ssize_t* runs, int n_runs,
                                     Py_ssize_t n) noexcept nogil:
    """meeting_run over the one or two runs row_runs wrote for packed object
    u (its range `cells`, its filter `own`); the new n, -1 if out of memory."""
    cdef bint exact = g.cells.exact_homes and not g.state.n_filtered
    cdef Py_ssize_t more = runs[1] - runs[0] + (runs[3] - runs[2] if n_runs == 4 else 0)
    if meeting_room(g, n, more) < 0:
        return -1
    n = meeting_run(exact, cells, <int32_t>u, own, L, g.cells.packed_range, runs[0], runs[1],
                    g.cells.meeting, n)
    if n_runs == 4:
        n = meeting_run(exact, cells, <int32_t>u, own, L, g.cells.packed_range, runs[2], runs[3],
                        g.cells.meeting, n)
    return n


cdef Py_ssize_t object_meetings(UniformGridD g, const Level* L, Py_ssize_t u,
                                Py_ssize_t end, Py_ssize_t n) noexcept nogil:
    """meeting_pairs for packed object u (its home cell's objects end at
    `end`), each of its rows' runs looked up; the new n, -1 if out of memory."""
    cdef CellRange cells = g.cells.packed_range[u]
    cdef const Filter* own = _own_filter(g, L, u)
    cdef int64_t y, z, left = <int64_t>cells.lo[0] - g.cells.span[0]
    cdef int64_t z0 = cells.lo[D - 1] if D == 3 else 0     # 2D: one layer
    cdef int64_t z1 = cells.hi[D - 1] if D == 3 else 0
    cdef Py_ssize_t runs[4]
    cdef int n_runs
    # Its first row: from the object after it to the end of its range, one
    # run unless the row wraps there.
    if cells.hi[0] == cells.lo[0]:
        runs[1] = end
        n_runs = 2
    else:
        n_runs = row_runs(L, wrapped_cell(L, 0, cells.lo[1], z0), cells.lo[0], cells.hi[0], runs)
    runs[0] = u + 1
    n = runs_meetings(g, L, u, &cells, own, runs, n_runs, n)
    for y in range(<int64_t>cells.lo[1] + 1, <int64_t>cells.hi[1] + 1):
        if n < 0:
            return -1
        n_runs = row_runs(L, wrapped_cell(L, 0, y, z0), left, cells.hi[0], runs)
        n = runs_meetings(g, L, u, &cells, own, runs, n_runs, n)
    for z in range(z0 + 1, z1 + 1):
        for y in range(<int64_t>cells.lo[1] - g.cells.span[1], <int64_t>cells.hi[1] + 1):
            if n < 0:
                return -1
            n_runs = row_runs(L, wrapped_cell(L, 0, y, z), left, cells.hi[0], runs)
            n = runs_meetings(g, L, u, &cells, own, runs, n_runs, n)
    return n


cdef int touching_pairs(UniformGridD g, Py_ssize_t n) noexcept nogil:
    """The narrow phase of the table's pairs: of the n meeting pairs, those
    whose shapes touch (all, if keep_candidates) into `found`, as ids; -1
    if out of memory. A loop of its own for tables of circles only and of
    boxes only, whose tests take no branch."""
    cdef const Level* L = &g.cells.table
    cdef const int32_t* ids = L.packed_id
    cdef const Shape* packed = L.packed
    cdef const int32_t* meeting = g.cells.meeting
    cdef bint keep_all = g.state.keep_candidates
    cdef Py_ssize_t k, kept = 0
    cdef int32_t u, v
    cdef int32_t* pairs
    cdef Box box
    if pair_room(&g.state.found, n) < 0:
        return -1
    pairs = g.state.found.ids
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
    g.state.found.n = kept
    return 0


cdef int table_pairs(UniformGridD g) noexcept nogil:
    """The table's pairs into `found` (all candidates, if keep_candidates);
    -1 if out of memory. While no object of the table covers more than two
    cells a side, the kernel of cell_pairs.hpp finds them, and their count
    of meetings waits until asked; otherwise the table's objects are packed
    in cell order, its pairs whose ranges meet found (meeting_pairs) and
    then those that touch (touching_pairs)."""
    cdef Level* L = &g.cells.table
    cdef TableInput table
    cdef Py_ssize_t meeting
    cdef bint narrow = True     # no object of the table covers more than two cells a side
    cdef int a
    for a in range(D):
        narrow &= g.cells.span[a] <= 1
    if narrow:
        table.body = g.state.body[0].p
        table.range = <const CellSpan*>g.cells.range
        table.filter = <const LayerFilter*>g.state.filter if g.state.n_filtered else NULL
        table.home = g.state.home
        table.members = L.members
        table.n = L.n
        table.membership = g.cells.membership
        table.wbits = L.wbits
        table.keep_all = g.state.keep_candidates
        table.threads = g.state.threads
        if g.cells.cell_pairs.run(table) < 0 or pair_room(&g.state.found, g.cells.cell_pairs.n_pairs()) < 0:
            return -1
        g.state.found.n = g.cells.cell_pairs.n_pairs()
        g.cells.cell_pairs.write_pairs(g.state.found.ids)
        if g.state.keep_candidates:
            g.state.narrow_phase_count = g.state.found.n
        else:
            g.cells.meetings_pending = True
        return 0
    if _pack(g, L, 1) < 0 or pack_ranges(g) < 0:
        return -1
    meeting = meeting_pairs(g)
    if meeting < 0 or touching_pairs(g, meeting) < 0:
        return -1
    g.state.narrow_phase_count = meeting
    return 0


cdef int uniform_pair_pass(UniformGridD g) noexcept nogil:
    """Every overlapping pair once (every pair tested, if keep_candidates)
    into `found`; -1 if out of memory. First the table's pairs
    (table_pairs), then each large object meets what shares its cells. The
    cells the table's meeting pairs share are counted only when
    broad_phase_pairs is read (uniform_broad_phase)."""
    cdef Py_ssize_t j, li, kept, shared = 0
    cdef int32_t other, big
    cdef bint touch, keep_all = g.state.keep_candidates
    cdef int32_t* pairs
    cdef Query q
    g.state.found.n = g.cells.packed_n = g.state.broad_phase_count = g.state.narrow_phase_count = 0
    g.state.broad_phase_pending = g.cells.meetings_pending = False
    if g.cells.table.n and table_pairs(g) < 0:
        return -1
    kept = g.state.found.n
    # Large objects: test each against what shares its cells, and against the
    # large objects after it on the list.
    _aim(g, &q, Q_CELLS, EVERY_LAYER)
    q.check_layers = False      # the pair rule is tested per pair below
    for li in range(g.cells.n_large):
        big = g.cells.large[li]
        q.cells = g.cells.range[big]
        collect_uniform(g, &q)
        g.state.found.n = kept
        if pair_room(&g.state.found, g.state.out_n) < 0:
            return -1
        pairs = g.state.found.ids
        for j in range(g.state.out_n):
            other = g.state.out[j]
            if other == big or (g.state.home[other] < 0 and g.state.slot[other] <= li):
                continue
            shared += 1
            if g.state.n_filtered and not filters_pass(&g.state.filter[big], &g.state.filter[other]):
                continue
            g.state.narrow_phase_count += 1
            touch = shapes_meet(&g.state.body[big], &g.state.body[other])
            put_pair(pairs + 2 * kept, big, other)
            kept += touch | keep_all
    g.state.found.n = kept
    g.state.broad_phase_count = shared
    g.state.broad_phase_pending = g.cells.table.n > 0
    g.hits = kept
    return 0


cdef int uniform_broad_phase(UniformGridD g) except -1:
    """Finish the last pass's counters; the caller holds the claim. Where
    the kernel found the table's pairs, the ranges of the shapes it packed
    (what the pass saw, whatever moved since) are placed again and its
    candidates' meetings counted into narrow_phase_count. Then the cells
    shared by the table's meeting pairs go into broad_phase_count: over
    every cell, the pairs of the ranges that cover it."""
    cdef Py_ssize_t k, n
    cdef Shape shape
    if g.cells.meetings_pending:
        n = g.cells.cell_pairs.packed_n()
        if grow_array(<void**>&g.cells.packed_range, &g.cells.packed_range_cap, n, sizeof(CellRange)) < 0:
            raise MemoryError()
        for k in range(n):
            g.cells.cell_pairs.packed_shape(k, shape.p)
            uniform_placed_range(g, &shape, &g.cells.packed_range[k])
        g.cells.packed_n = n
        g.state.narrow_phase_count += g.cells.cell_pairs.count_meetings(<const CellSpan*>g.cells.packed_range)
        g.cells.meetings_pending = False
    if g.state.broad_phase_pending:
        keys, counts = covered_cells(g.cells.packed_range, NULL, g.cells.packed_n)
        g.state.broad_phase_count += int((counts * (counts - 1) // 2).sum())
        g.state.broad_phase_pending = False
    return 0
