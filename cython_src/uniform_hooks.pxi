# The uniform grid's hooks (see hooks.pxi): where it keeps each object (its
# home cell's list, its cell range, the large-object list), how a batch move
# settles it, which lists a query visits; its pair pass is uniform_pairs.pxi.


cdef int uniform_grow_objects(UniformGridD self, Py_ssize_t old_cap, Py_ssize_t new_cap) noexcept nogil:
    if grow_to(<void**>&self.cells.range, old_cap, new_cap, sizeof(CellRange)) < 0 \
            or grow_to(<void**>&self.cells.large, old_cap, new_cap, sizeof(int32_t)) < 0:
        return -1
    return _grow_lists(self, old_cap, new_cap)


cdef int32_t uniform_home(UniformGridD self, const Level* L, int32_t i) noexcept nogil:
    return home_cell(L, &self.cells.range[i])


cdef double uniform_cell_hint(UniformGridD self):
    return self.cell_size


cdef int uniform_check_placement(UniformGridD self, const Box* b) noexcept nogil:
    cdef CellRange r
    return range_of(b, self.cells.origin, self.cell_size, &r)


cdef double uniform_safe_magnitude(UniformGridD self) noexcept nogil:
    # A box of such numbers spans at most 2**29 cells each side of the origin,
    # well inside the +-2**30 cell limit whatever the rounding.
    cdef double far = 0.0, bound
    cdef int a
    for a in range(D):
        far = fmax(far, fabs(self.cells.origin[a]))
    bound = (CELL_LIMIT / 4.0) * self.cell_size - far
    return bound if bound > 0.0 else 0.0


cdef inline int32_t uniform_placed_cell(UniformGridD self, double v, double origin) noexcept nogil:
    """floor((v - origin) / cell_size) for a coordinate of a box that
    _check_placement accepted (so no limit to check)."""
    cdef double d = v - origin
    return <int32_t>floor_int(d * self.cells.inv_cell if self.cells.exact_inverse else d / self.cell_size)


cdef inline void uniform_placed_range(UniformGridD self, const Shape* s, CellRange* r) noexcept nogil:
    """range_of for the box of a shape that _check_placement accepted."""
    cdef Box b
    cdef int a
    shape_box(s, &b)
    for a in range(D):
        r.lo[a] = uniform_placed_cell(self, b.lo[a], self.cells.origin[a])
        r.hi[a] = uniform_placed_cell(self, b.hi[a], self.cells.origin[a])


cdef inline bint uniform_is_large_range(UniformGridD self, const CellRange* cells) noexcept nogil:
    cdef int a
    cdef bint large = False
    for a in range(D):
        large |= cells.hi[a] - cells.lo[a] >= self.large_threshold
    return large


cdef inline void uniform_widen_spans(UniformGridD self, const CellRange* cells) noexcept nogil:
    cdef int a
    for a in range(D):
        if cells.hi[a] - cells.lo[a] > self.cells.span[a]:
            self.cells.span[a] = cells.hi[a] - cells.lo[a]


cdef inline bint uniform_within_spans(UniformGridD self, const CellRange* cells) noexcept nogil:
    cdef int a
    cdef bint within = True
    for a in range(D):
        within &= cells.hi[a] - cells.lo[a] <= self.cells.span[a]
    return within


cdef int uniform_link(UniformGridD self, int32_t i) noexcept nogil:
    """Put object i, its range set, in the table or on the large list; -1 if
    out of memory (then nothing changed)."""
    cdef Level* L = &self.cells.table
    if uniform_is_large_range(self, &self.cells.range[i]):
        self.state.slot[i] = <int32_t>self.cells.n_large
        self.state.home[i] = -1
        self.cells.large[self.cells.n_large] = i
        self.cells.n_large += 1
        return 0
    if _reserve_member(self, L) < 0:
        return -1
    # If memory is short for a wider table, the lists just grow longer.
    if TABLE_LOAD_DIVISOR * (L.n + 1) > (<Py_ssize_t>1) << (D * L.wbits) and L.wbits < LARGEST_WBITS:
        _resize(self, L, L.wbits + 1)
    uniform_widen_spans(self, &self.cells.range[i])
    _add_member(self, L, i)
    _push_cell(self, L, i, uniform_home(self, L, i))
    self.cells.membership += 1
    return 0


cdef void uniform_unlink(UniformGridD self, int32_t i) noexcept nogil:
    cdef int32_t slot, last
    if self.state.home[i] >= 0:
        _drop_member(self, &self.cells.table, i)
        return
    slot = self.state.slot[i]
    self.cells.n_large -= 1
    last = self.cells.large[self.cells.n_large]
    self.cells.large[slot] = last
    self.state.slot[last] = slot


cdef int uniform_attach(UniformGridD self, int32_t i) noexcept nogil:
    self.state.changes += 1
    uniform_placed_range(self, &self.state.body[i], &self.cells.range[i])
    return uniform_link(self, i)


cdef void uniform_detach(UniformGridD self, int32_t i) noexcept nogil:
    self.state.changes += 1
    uniform_unlink(self, i)


cdef int uniform_move_rows(UniformGridD self, const int64_t[::1] ids, const Rows* batch) noexcept nogil:
    self.state.changes += 1
    return move_rows[UniformGridD](self, ids, batch)


cdef Level* uniform_level_of(UniformGridD self, int32_t i) noexcept nogil:
    return &self.cells.table


cdef inline int32_t uniform_settle(UniformGridD self, int32_t i, const Shape* b) noexcept nogil:
    """An object of the table that stays within the table's spans takes its
    body and range. It writes object i's alone, so threads may settle many
    at once; one that would widen the spans is left to _move."""
    cdef CellRange cells
    uniform_placed_range(self, b, &cells)
    if self.state.home[i] < 0 or not uniform_within_spans(self, &cells):
        return -1
    self.cells.range[i] = cells
    self.state.body[i] = b[0]
    return home_cell(&self.cells.table, &cells)


cdef int uniform_move(UniformGridD self, int32_t i, const Shape* b) noexcept nogil:
    """Relinks only when the min corner changes cell or the object moves to
    or from the large list."""
    cdef CellRange old_cells = self.cells.range[i], new_cells
    self.state.changes += 1
    uniform_placed_range(self, b, &new_cells)
    if self.state.home[i] >= 0 and not uniform_is_large_range(self, &new_cells):
        uniform_widen_spans(self, &new_cells)
        self.cells.range[i] = new_cells
        _move_cell(self, &self.cells.table, i, uniform_home(self, &self.cells.table, i))
    elif self.state.home[i] < 0 and uniform_is_large_range(self, &new_cells):
        self.cells.range[i] = new_cells
    else:
        # Entering the large list cannot fail, so if the table has no room
        # for a formerly large object, it goes back where it was.
        uniform_unlink(self, i)
        self.cells.range[i] = new_cells
        if uniform_link(self, i) < 0:
            self.cells.range[i] = old_cells
            uniform_link(self, i)
            return -1
    self.state.body[i] = b[0]
    return 0


cdef void uniform_reset(UniformGridD self) noexcept nogil:
    self.state.changes += 1
    level_empty(&self.cells.table)
    self.cells.n_large = 0
    memset(self.cells.span, 0, sizeof(self.cells.span))


cdef int uniform_prepare_query(UniformGridD self, Query* q) noexcept nogil:
    cdef Box reach = q.box
    if q.kind == Q_SWEPT:
        swept_reach(q.box.lo, q.along, reach.lo)
    return range_of(&reach, self.cells.origin, self.cell_size, &q.cells)


# ------------------------------------------------------------- queries


cdef inline void uniform_prefetch_list(UniformGridD self, int32_t i) noexcept nogil:
    prefetch(&self.cells.range[i])
    prefetch(&self.state.next[i])


cdef inline void uniform_visit_list(UniformGridD self, const Query* q, int32_t i) noexcept nogil:
    """Offer the objects of the list starting at i whose ranges meet the
    query's."""
    while i >= 0:
        if ranges_meet(&self.cells.range[i], &q.cells):
            _take(self, q, i)
        i = self.state.next[i]


cdef inline void uniform_visit_lists(UniformGridD self, const Query* q, const int32_t* first,
                                     Py_ssize_t n) noexcept nogil:
    """uniform_visit_list for the n lists starting at first[k]; for a query of cells
    alone (no layers to test), each object is taken without a branch."""
    cdef Py_ssize_t k, taken = self.state.out_n
    cdef int32_t i
    cdef int32_t* out = self.state.out
    cdef CellRange cells = q.cells
    if q.kind != Q_CELLS or q.check_layers:
        for k in range(n):
            uniform_visit_list(self, q, first[k])
        return
    for k in range(n):
        i = first[k]
        while i >= 0:
            out[taken] = i
            taken += ranges_meet(&self.cells.range[i], &cells)
            i = self.state.next[i]
    self.state.out_n = taken

