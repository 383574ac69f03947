# The hierarchical grid's hooks (see hooks.pxi): an object enters the level
# that fits it and leaves it when it outgrows it, a batch move settles it in
# place, a query visits every list of each level's window; its pair pass is
# hierarchical_pairs.pxi.


cdef int hierarchical_grow_objects(HierarchicalGridD self, Py_ssize_t old_cap, Py_ssize_t new_cap) noexcept nogil:
    if grow_to(<void**>&self.hierarchy.level_of, old_cap, new_cap, sizeof(int32_t)) < 0:
        return -1
    return _grow_lists(self, old_cap, new_cap)


cdef int hierarchical_check_placement(HierarchicalGridD self, const Box* b) noexcept nogil:
    if hierarchical_need(self, b) > LARGEST_CELL or farthest(b) > FARTHEST:
        return OUT_OF_RANGE
    return INPUT_OK


cdef double hierarchical_safe_magnitude(HierarchicalGridD self) noexcept nogil:
    # A box of such numbers reaches at most twice this far and is at most twice
    # this long: a quarter of each limit leaves room for rounding.
    cdef double sizes = LARGEST_CELL / (4.0 * self.hierarchy.sqrt_factor)
    return sizes if sizes < FARTHEST / 4.0 else FARTHEST / 4.0


cdef int hierarchical_attach(HierarchicalGridD self, int32_t i) noexcept nogil:
    cdef int32_t level
    cdef double need
    cdef Box box
    self.state.changes += 1
    shape_box(&self.state.body[i], &box)
    if not self.hierarchy.has_base:
        need = hierarchical_need(self, &box)
        # Nudged up, so objects a rounding error larger than the first still fit.
        self.hierarchy.log_base = log(need * (1.0 + 1.8189894035458565e-12)) if need > 0.0 else 0.0
        self.hierarchy.has_base = True
    level = hierarchical_level_index(self, hierarchical_exponent_for(self, &box))
    if level < 0 or _reserve_member(self, &self.hierarchy.levels[level]) < 0:
        return -1
    hierarchical_enter_level(self, level, i)
    return 0


cdef void hierarchical_changed(HierarchicalGridD self) noexcept nogil:
    if self.hierarchy.spacing_due:
        respace(self)


cdef inline bint hierarchical_fits(HierarchicalGridD self, const Level* L, const Box* box) noexcept nogil:
    """Is L the level an object with this box belongs to?"""
    cdef double need = hierarchical_need(self, box)
    if need == 0.0 and self.hierarchy.has_point_level:
        return L.exponent == hierarchical_exponent_for(self, box)
    return L.cell >= need and farthest(box) * L.inv < PRECISE_CELLS \
        and (need == 0.0 or L.cell / self.hierarchy_factor < need)


cdef int hierarchical_move(HierarchicalGridD self, int32_t i, const Shape* b) noexcept nogil:
    """Re-inserts only when the object's level or cell changes."""
    cdef int32_t level = self.hierarchy.level_of[i], target, cell
    cdef Level* L = &self.hierarchy.levels[level]
    cdef Box box
    self.state.changes += 1
    shape_box(b, &box)
    if hierarchical_fits(self, L, &box):
        if longest_side(&box) > L.reach:
            L.reach = longest_side(&box)
        self.state.body[i] = b[0]
        _move_cell(self, L, i, hierarchical_cell_index(self, L, &box))
        return 0
    target = hierarchical_level_index(self, hierarchical_exponent_for(self, &box))
    if target < 0 or _reserve_member(self, &self.hierarchy.levels[target]) < 0:
        return -1
    hierarchical_leave_level(self, i)
    self.state.body[i] = b[0]
    hierarchical_enter_level(self, target, i)
    return 0


cdef int32_t hierarchical_settle(HierarchicalGridD self, int32_t i, const Shape* b) noexcept nogil:
    """If the object keeps its level and stays within the level's reach
    (safe to decide for many objects at once), give it shape b and return its
    new cell; otherwise change nothing and return -1."""
    cdef const Level* L = &self.hierarchy.levels[self.hierarchy.level_of[i]]
    cdef Box box
    shape_box(b, &box)
    if longest_side(&box) <= L.reach and hierarchical_fits(self, L, &box):
        self.state.body[i] = b[0]
        return hierarchical_cell_index(self, L, &box)
    return -1


cdef int hierarchical_move_rows(HierarchicalGridD self, const int64_t[::1] ids, const Rows* batch) noexcept nogil:
    self.state.changes += 1
    return move_rows[HierarchicalGridD](self, ids, batch)


cdef Level* hierarchical_level_of(HierarchicalGridD self, int32_t i) noexcept nogil:
    return &self.hierarchy.levels[self.hierarchy.level_of[i]]


cdef void hierarchical_detach(HierarchicalGridD self, int32_t i) noexcept nogil:
    self.state.changes += 1
    hierarchical_leave_level(self, i)


cdef void hierarchical_reset(HierarchicalGridD self) noexcept nogil:
    cdef Py_ssize_t k
    self.state.changes += 1
    self.hierarchy.has_point_level = self.hierarchy.spacing_due = False
    for k in range(self.hierarchy.n_levels):
        level_empty(&self.hierarchy.levels[k])
        self.hierarchy.levels[k].reach = 0.0


# ------------------------------------------------------------- queries


cdef inline void hierarchical_prefetch_list(HierarchicalGridD self, int32_t i) noexcept nogil:
    prefetch(&self.state.body[i])
    prefetch(&self.state.next[i])


cdef inline void hierarchical_visit_list(HierarchicalGridD self, const Query* q, int32_t i) noexcept nogil:
    """Offer every object of the list starting at i."""
    while i >= 0:
        _take(self, q, i)
        i = self.state.next[i]


cdef inline void hierarchical_visit_lists(HierarchicalGridD self, const Query* q, const int32_t* first,
                                          Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t k
    for k in range(n):
        hierarchical_visit_list(self, q, first[k])

