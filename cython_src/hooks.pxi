# The hooks: what each grid does its own way (where objects live, which cells a
# query visits, the pair pass), called from the code all indexes share. Each
# hook is a function that hands the call to the grid the index is (its
# `kind`), or does what SpatialIndex itself does: it keeps no cells, so its
# queries and pair pass test every live object. The grids' own calls to their
# hooks name them directly (uniform_move, hierarchical_home), and the code
# compiled once per grid (windows.pxi, batch_moves.pxi) picks its grid's when it
# is compiled: a batch move's per-object hooks (settle, level_of) have no
# dispatch of their own.


cdef int _grow_objects(SpatialIndexD self, Py_ssize_t old_cap, Py_ssize_t new_cap) noexcept nogil:
    """Grow the grid's own per-object arrays to new_cap; -1 if out of memory."""
    if self.state.kind == UNIFORM_GRID:
        return uniform_grow_objects(<UniformGridD>self, old_cap, new_cap)
    if self.state.kind == HIERARCHICAL_GRID:
        return hierarchical_grow_objects(<HierarchicalGridD>self, old_cap, new_cap)
    return 0


cdef int _check_placement(SpatialIndexD self, const Box* b) noexcept nogil:
    """INPUT_OK, or the InputCheck code that says why b cannot be placed in this index."""
    if self.state.kind == UNIFORM_GRID:
        return uniform_check_placement(<UniformGridD>self, b)
    if self.state.kind == HIERARCHICAL_GRID:
        return hierarchical_check_placement(<HierarchicalGridD>self, b)
    return INPUT_OK


cdef double _safe_magnitude(SpatialIndexD self) noexcept nogil:
    """A bound such that any box or circle whose numbers are all within it in
    magnitude (sizes not negative) passes _check_placement: lets a batch skip
    checking row by row."""
    if self.state.kind == UNIFORM_GRID:
        return uniform_safe_magnitude(<UniformGridD>self)
    if self.state.kind == HIERARCHICAL_GRID:
        return hierarchical_safe_magnitude(<HierarchicalGridD>self)
    return 0.0


cdef double _cell_hint(SpatialIndexD self):
    """The cell size named in 'too far from the origin' messages."""
    if self.state.kind == UNIFORM_GRID:
        return uniform_cell_hint(<UniformGridD>self)
    return 0.0


cdef int _attach(SpatialIndexD self, int32_t i) noexcept nogil:
    """Place new object i (its body is set). All or nothing; -1 if out of memory."""
    if self.state.kind == UNIFORM_GRID:
        return uniform_attach(<UniformGridD>self, i)
    if self.state.kind == HIERARCHICAL_GRID:
        return hierarchical_attach(<HierarchicalGridD>self, i)
    return 0


cdef int _move(SpatialIndexD self, int32_t i, const Shape* b) noexcept nogil:
    """Give live object i a new body, re-placing it if needed. All or nothing."""
    if self.state.kind == UNIFORM_GRID:
        return uniform_move(<UniformGridD>self, i, b)
    if self.state.kind == HIERARCHICAL_GRID:
        return hierarchical_move(<HierarchicalGridD>self, i, b)
    self.state.body[i] = b[0]
    return 0


cdef void _detach(SpatialIndexD self, int32_t i) noexcept nogil:
    """Live object i is being removed: forget where it is kept."""
    if self.state.kind == UNIFORM_GRID:
        uniform_detach(<UniformGridD>self, i)
        return
    if self.state.kind == HIERARCHICAL_GRID:
        hierarchical_detach(<HierarchicalGridD>self, i)


cdef void _reset(SpatialIndexD self) noexcept nogil:
    """Every object is being removed: forget where they are kept."""
    if self.state.kind == UNIFORM_GRID:
        uniform_reset(<UniformGridD>self)
        return
    if self.state.kind == HIERARCHICAL_GRID:
        hierarchical_reset(<HierarchicalGridD>self)


cdef void _changed(SpatialIndexD self) noexcept nogil:
    """Called once a call that added or moved objects is done (they are live,
    the index consistent): a grid may reorganise here."""
    if self.state.kind == HIERARCHICAL_GRID:
        hierarchical_changed(<HierarchicalGridD>self)


cdef int _prepare_query(SpatialIndexD self, Query* q) noexcept nogil:
    """Fill what _collect needs beyond q's shape; INPUT_OK or the InputCheck code
    that says why q's box cannot be searched."""
    if self.state.kind == UNIFORM_GRID:
        return uniform_prepare_query(<UniformGridD>self, q)
    if self.state.kind == BRUTE_FORCE and q.kind == Q_CELLS:
        q.kind = Q_BOX      # no cells: a box's candidates are the objects it meets
    return INPUT_OK


cdef inline void _near_query(SpatialIndexD self, int32_t i, Query* q) noexcept nogil:
    """Aim q, a query of cells, at live object i's own cells: _collect then
    returns every object whose box can meet i's (and i itself)."""
    if self.state.kind == UNIFORM_GRID:
        q.cells = (<UniformGridD>self).cells.range[i]
    else:
        shape_box(&self.state.body[i], &q.box)


cdef void _collect(SpatialIndexD self, Query* q) noexcept nogil:
    """Fill `out` with the ids q selects, each once."""
    if self.state.kind == UNIFORM_GRID:
        collect_uniform(<UniformGridD>self, q)
        return
    if self.state.kind == HIERARCHICAL_GRID:
        collect_hierarchical(<HierarchicalGridD>self, q)
        return
    cdef int32_t i
    self.state.out_n = 0
    for i in range(<int32_t>self.state.obj_hi):
        if self.state.live[i]:
            _take(self, q, i)


cdef int _nearest_levels(SpatialIndexD self, NearestInput* search) noexcept nogil:
    """Fill search's levels, loose objects and `next`; -1 if out of memory."""
    if self.state.kind == UNIFORM_GRID:
        return uniform_nearest_levels(<UniformGridD>self, search)
    if self.state.kind == HIERARCHICAL_GRID:
        return hierarchical_nearest_levels(<HierarchicalGridD>self, search)
    return loose_nearest_levels(self, search)


cdef int _find_pairs(SpatialIndexD self) noexcept nogil:
    """Every overlapping pair once into `found` (every pair tested, if
    keep_candidates), setting the counters."""
    if self.state.kind == UNIFORM_GRID:
        return uniform_pair_pass(<UniformGridD>self)
    if self.state.kind == HIERARCHICAL_GRID:
        return hierarchical_pair_pass(<HierarchicalGridD>self)
    return all_pairs(self)


cdef int all_pairs(SpatialIndexD self) noexcept nogil:
    """SpatialIndex's pair pass: every two live objects are candidates."""
    cdef Py_ssize_t a, b, tested = 0, passed = 0
    self.state.found.n = 0
    for a in range(self.state.obj_hi):
        if not self.state.live[a]:
            continue
        if pair_room(&self.state.found, self.state.obj_hi - a) < 0:
            return -1
        for b in range(a + 1, self.state.obj_hi):
            if not self.state.live[b]:
                continue
            tested += 1
            if self.state.n_filtered and not filters_pass(&self.state.filter[a], &self.state.filter[b]):
                continue
            passed += 1
            put_pair(self.state.found.ids + 2 * self.state.found.n, <int32_t>a, <int32_t>b)
            self.state.found.n += self.state.keep_candidates \
                or shapes_meet(&self.state.body[a], &self.state.body[b])
    self.state.broad_phase_count = tested
    self.state.narrow_phase_count = passed
    self.hits = self.state.found.n
    return 0


cdef int _resolve_broad_phase(SpatialIndexD self) except -1:
    """Finish broad_phase_count and narrow_phase_count if the last pair pass left
    part of them to count when asked, or was a pass over what changed (whose
    counters are a full pass's, counted now); the caller holds the claim."""
    if self.state.counts_stale:
        recount(self)
    if self.state.kind == UNIFORM_GRID:
        return uniform_broad_phase(<UniformGridD>self)
    return 0


cdef int _move_rows(SpatialIndexD self, const int64_t[::1] ids, const Rows* batch) noexcept nogil:
    """Give live objects ids[k] the bodies of the batch's rows, each move all or
    nothing; -1 if out of memory. Grids that re-place objects in two halves
    time them with _phase_times."""
    if self.state.kind == UNIFORM_GRID:
        return uniform_move_rows(<UniformGridD>self, ids, batch)
    if self.state.kind == HIERARCHICAL_GRID:
        return hierarchical_move_rows(<HierarchicalGridD>self, ids, batch)
    cdef Py_ssize_t k
    cdef Shape b
    for k in range(ids.shape[0]):
        shape_of_row(batch, k, &b)
        if _move(self, <int32_t>ids[k], &b) < 0:
            return -1
    return 0


cdef int _validate_placement(SpatialIndexD self) except -1:
    """Where each live object is kept agrees with its body."""
    if self.state.kind == UNIFORM_GRID:
        return validate_uniform(<UniformGridD>self)
    if self.state.kind == HIERARCHICAL_GRID:
        return validate_hierarchical(<HierarchicalGridD>self)
    return 0


cdef int32_t _home(SpatialIndexD self, const Level* L, int32_t i) noexcept nogil:
    """The table index of the cell of L where object i belongs now."""
    if self.state.kind == UNIFORM_GRID:
        return uniform_home(<UniformGridD>self, L, i)
    if self.state.kind == HIERARCHICAL_GRID:
        return hierarchical_home(<HierarchicalGridD>self, L, i)
    return 0
