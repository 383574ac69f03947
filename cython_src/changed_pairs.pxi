# A pair pass that costs what changed. Every object inserted, moved, removed or
# given another filter since the last pass is marked CHANGED (an id once, in
# the order marked); the others rest, and the pairs between resting objects
# cannot have changed. So the pass keeps the last pairs whose objects both
# rest, and tests each changed object against everything near it: the same
# pairs as a full pass, as a set. When too many objects changed for that to
# pay (changed_limit), the next pass is a full one.
#
# `found` is laid out for it: its first n_kept pairs are kept pairs (both
# objects resting at the last pass), the rest the pairs that pass found for
# its changed objects. An object marked KEPT may be in a kept pair, and every
# object of a kept pair is marked KEPT: while no changed object is, the kept
# pairs stand without being read.


cdef inline Py_ssize_t changed_limit(SpatialIndexD self) noexcept nogil:
    """How many changed objects the pass tests one by one; past it, a full
    pass is cheaper. Measured (bench/level.py, crossover_costs): a changed
    object tested against its neighbours costs what 6-16 objects cost a full
    pass, depending on how crowded they are."""
    return self.state.n_live // 8


cdef inline void mark_changed(SpatialIndexD self, int32_t i) noexcept nogil:
    """Note that object i (or id i) changed since the last pair pass."""
    if self.state.too_many_changed or self.state.marks[i] & CHANGED:
        return
    self.state.marks[i] |= CHANGED
    self.state.changed[self.state.n_changed] = i
    self.state.n_changed += 1
    if self.state.n_changed > changed_limit(self):
        self.state.too_many_changed = True


cdef void mark_rows_changed(SpatialIndexD self, const int64_t[::1] ids) noexcept nogil:
    """mark_changed for a batch's ids (distinct); a batch that alone passes
    the limit (every object moving, say) marks none: the next pass is full."""
    cdef Py_ssize_t k
    if self.state.n_changed + ids.shape[0] > changed_limit(self):
        self.state.too_many_changed = True
    for k in range(ids.shape[0]):
        if self.state.too_many_changed:
            return
        mark_changed(self, <int32_t>ids[k])


cdef void forget_pairs(SpatialIndexD self) noexcept nogil:
    """The index was emptied: no pairs, nothing marked, the next pass a full one."""
    self.state.found.n = self.state.n_kept = self.state.n_changed = 0
    self.state.pairs_fresh = self.state.too_many_changed = False
    clear_bytes(self.state.marks, self.state.obj_cap)


cdef int _pair_pass(SpatialIndexD self) noexcept nogil:
    """Every overlapping pair once into `found`, by the cheaper way: the
    last pairs where nothing changed, a pass over what changed, or a full
    one; -1 if out of memory (the next pass is then a full one)."""
    cdef int failed
    if self.state.pairs_fresh and not self.state.too_many_changed:
        if self.state.n_changed == 0:
            self.state.last_pass = PASS_UNCHANGED
            return 0
        self.state.last_pass = PASS_CHANGED
        failed = changed_pair_pass(self)
    else:
        self.state.last_pass = PASS_FULL
        failed = _find_pairs(self)
        if not failed:
            self.state.n_kept = 0
            self.state.counts_stale = False
            clear_bytes(self.state.marks, self.state.obj_hi)
    self.state.pairs_fresh = not failed
    self.state.n_changed = 0
    self.state.too_many_changed = False
    return failed


cdef int changed_pair_pass(SpatialIndexD self) noexcept nogil:
    """_pair_pass's way when few objects changed: drop the pairs of changed
    objects, keep the others, then test each changed live object against the
    objects its query of cells returns (the grid's candidates for it), a
    pair of two changed objects from the smaller id's side."""
    cdef int32_t* ids = self.state.found.ids
    cdef uint8_t* marks = self.state.marks
    cdef Py_ssize_t k, p, kept = self.state.n_kept
    cdef int32_t a, b, c, o
    cdef bint drop
    cdef Query q
    # The kept pairs, read only if one of their objects changed.
    for k in range(self.state.n_changed):
        if marks[self.state.changed[k]] & KEPT:
            kept = 0
            for p in range(self.state.n_kept):
                a, b = ids[2 * p], ids[2 * p + 1]
                ids[2 * kept], ids[2 * kept + 1] = a, b
                kept += not ((marks[a] | marks[b]) & CHANGED)
            break
    # The last pass's own pairs join the kept ones where neither object changed.
    for p in range(self.state.n_kept, self.state.found.n):
        a, b = ids[2 * p], ids[2 * p + 1]
        drop = (marks[a] | marks[b]) & CHANGED
        if not drop:
            ids[2 * kept], ids[2 * kept + 1] = a, b
            marks[a] |= KEPT
            marks[b] |= KEPT
            kept += 1
    self.state.n_kept = self.state.found.n = kept
    _aim(self, &q, Q_CELLS, EVERY_LAYER)
    q.check_layers = False      # the pair rule is tested per pair below
    for k in range(self.state.n_changed):
        c = self.state.changed[k]
        marks[c] &= ~KEPT       # its kept pairs are gone
        if not self.state.live[c]:
            continue
        _near_query(self, c, &q)
        _collect(self, &q)
        if pair_room(&self.state.found, self.state.out_n) < 0:
            return -1
        ids = self.state.found.ids
        for p in range(self.state.out_n):
            o = self.state.out[p]
            if o == c or (o < c and marks[o] & CHANGED):
                continue
            if self.state.n_filtered and not filters_pass(&self.state.filter[c], &self.state.filter[o]):
                continue
            put_pair(ids + 2 * self.state.found.n, c, o)
            self.state.found.n += shapes_meet(&self.state.body[c], &self.state.body[o])
    for k in range(self.state.n_changed):
        marks[self.state.changed[k]] &= ~CHANGED
    self.hits = self.state.found.n
    self.state.counts_stale = True
    return 0


cdef int full_pass_aside(SpatialIndexD self, PairList* aside) except -1:
    """A full pair pass into memory of its own, `aside` (the caller frees its
    ids): `found` and hits stay as they were, the counters are the pass's."""
    cdef PairList kept = self.state.found
    cdef Py_ssize_t hits = self.hits
    cdef int failed
    self.state.found.ids = NULL
    self.state.found.n = self.state.found.cap = 0
    with nogil:
        failed = _find_pairs(self)
    aside[0] = self.state.found
    self.state.found = kept
    self.hits = hits
    if failed:
        free(aside.ids)
        aside.ids = NULL
        raise MemoryError()
    return 0


cdef int recount(SpatialIndexD self) except -1:
    """The counters a full pass gives, for a pair list that a pass over what
    changed made (full_pass_aside)."""
    cdef PairList aside
    full_pass_aside(self, &aside)
    free(aside.ids)
    self.state.counts_stale = False
    return 0


def last_pair_pass(SpatialIndexD self):
    """Which way the last pair pass went.

    Each way gives the same pairs; the index picks the cheaper.

    Returns
    -------
    str
        "full" (every object tested), "changed" (only what was inserted, moved,
        removed or refiltered since the pass before, against everything near
        it, the other pairs kept), "unchanged" (nothing changed: the last pairs
        stand) or "none" before the first pass.
    """
    return ("none", "full", "changed", "unchanged")[self.state.last_pass]
