# The uniform grid's pair pass, as functions over the grid (typed as
# UniformGridD, so what they call on it is a direct call): the kernel of
# cell_pairs.hpp finds the table's pairs, then each large object meets what
# shares its cells.


cdef int table_pairs(UniformGridD g) noexcept nogil:
    """The table's pairs into `found` (all candidates, if keep_candidates);
    -1 if out of memory. The kernel of cell_pairs.hpp finds them and makes
    the spans exact where they were wide; where it leaves the count of its
    candidates' meetings, that waits until asked."""
    cdef Level* L = &g.cells.table
    cdef TableInput table
    cdef Py_ssize_t meetings
    table.body = g.state.body[0].p
    table.range = g.cells.range
    table.filter = g.state.filter if g.state.n_filtered else NULL
    table.home = g.state.home
    table.members = L.members
    table.n = L.n
    table.membership = g.cells.membership
    table.wbits = L.wbits
    table.span = g.cells.span
    table.keep_all = g.state.keep_candidates
    table.threads = g.state.threads
    if g.cells.cell_pairs.run(table) < 0 or pair_room(&g.state.found, g.cells.cell_pairs.n_pairs()) < 0:
        return -1
    g.state.found.n = g.cells.cell_pairs.n_pairs()
    g.cells.cell_pairs.write_pairs(g.state.found.ids)
    memcpy(g.cells.span, g.cells.cell_pairs.spans(), sizeof(g.cells.span))
    meetings = g.cells.cell_pairs.meetings()
    if meetings >= 0:
        g.state.narrow_phase_count = meetings
    elif g.state.keep_candidates:
        g.state.narrow_phase_count = g.state.found.n
    else:
        g.cells.meetings_pending = True
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
    g.state.found.n = g.state.broad_phase_count = g.state.narrow_phase_count = 0
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
    """Finish the last pass's counters; the caller holds the claim. The
    ranges of the shapes the kernel packed (what the pass saw, whatever
    moved since) are placed again and the kernel counts over its candidates:
    their meetings, into narrow_phase_count where it left them, and the
    cells the table's meeting pairs share, into broad_phase_count."""
    cdef Py_ssize_t k, n, meetings, shared
    cdef Shape shape
    if not (g.cells.meetings_pending or g.state.broad_phase_pending):
        return 0
    n = g.cells.cell_pairs.packed_n()
    if grow_array(<void**>&g.cells.packed_range, &g.cells.packed_range_cap, n, sizeof(CellRange)) < 0:
        raise MemoryError()
    for k in range(n):
        g.cells.cell_pairs.packed_shape(k, shape.p)
        uniform_placed_range(g, &shape, &g.cells.packed_range[k])
    g.cells.cell_pairs.count_candidates(g.cells.packed_range, meetings, shared)
    if g.cells.meetings_pending:
        g.state.narrow_phase_count += meetings
        g.cells.meetings_pending = False
    if g.state.broad_phase_pending:
        g.state.broad_phase_count += shared
        g.state.broad_phase_pending = False
    return 0
