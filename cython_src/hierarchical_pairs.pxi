# The hierarchical grid's pair pass: the kernel of hierarchy_pairs.hpp finds
# the pairs, level by level and upward, on the grid's threads.


cdef int hierarchical_pair_pass(HierarchicalGridD g) noexcept nogil:
    """Every overlapping pair once (every pair tested, if keep_candidates)
    into `found`, with the counters; -1 if out of memory. The kernel reads
    the levels by ascending cell size."""
    cdef HierarchyInput hierarchy
    cdef PairLevel* P
    cdef const Level* L
    cdef Py_ssize_t r, n
    if grow_array(<void**>&g.hierarchy.pair_levels, &g.hierarchy.pair_levels_cap, g.hierarchy.n_levels,
                  sizeof(PairLevel)) < 0:
        return -1
    for r in range(g.hierarchy.n_levels):
        L = &g.hierarchy.levels[g.hierarchy.order[r]]
        P = &g.hierarchy.pair_levels[r]
        P.head = L.head
        P.occupied = L.occupied
        P.n = L.n
        P.wbits = L.wbits
        P.inv = L.inv
        P.reach = L.reach
    hierarchy.body = NULL           # no shapes before the first object
    if g.state.body != NULL:
        hierarchy.body = g.state.body[0].p
    hierarchy.next = g.state.next
    hierarchy.filter = g.state.filter if g.state.n_filtered else NULL
    hierarchy.levels = g.hierarchy.pair_levels
    hierarchy.n_levels = <int>g.hierarchy.n_levels
    hierarchy.keep_all = g.state.keep_candidates
    hierarchy.threads = g.state.threads     # the kernel takes one for few objects
    g.state.found.n = 0
    if g.hierarchy.pairs.run(hierarchy) < 0 or pair_room(&g.state.found, g.hierarchy.pairs.n_pairs()) < 0:
        return -1
    n = g.hierarchy.pairs.n_pairs()
    g.hierarchy.pairs.write_pairs(g.state.found.ids)
    g.state.found.n = n
    g.state.broad_phase_count = g.hierarchy.pairs.tested()
    g.state.narrow_phase_count = g.hierarchy.pairs.tested() - g.hierarchy.pairs.filtered_out()
    g.hits = n
    return 0
