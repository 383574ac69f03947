# The pair pass as the caller sees it: all overlapping pairs (or the candidates
# the broad phase tests), and the pairs that began and ended since the last call.


cdef int key_order(const void* a, const void* b) noexcept nogil:
    cdef int64_t p = (<const Touch*>a).key, q = (<const Touch*>b).key
    return (p > q) - (p < q)


cdef int check_pair_out(object out) except -1:
    """`out` of pair_ids and candidate_ids: None or an (m, 2) int32 C-contiguous array."""
    if out is not None and not (isinstance(out, np.ndarray) and out.dtype == np.int32
                                and out.ndim == 2 and out.shape[1] == 2
                                and out.flags.c_contiguous):
        raise ValueError("out must be an (m, 2) int32 C-contiguous array, got " + (
            f"{out.dtype} with shape {out.shape}" if isinstance(out, np.ndarray)
            else type(out).__name__))
    return 0


cdef int _depart(SpatialIndexD self, Py_ssize_t i) except -1:
    """Keep the handle of live object i, about to be removed, while a pair it
    may be in awaits its end event."""
    if self.state.n_touching:
        self.departed[(i, self.state.generation[i])] = handle_of(self.handles, <int32_t>i)
    return 0


cdef int _counted(SpatialIndexD self) except -1:
    """_resolve_broad_phase, holding the claim while it runs."""
    cdef Claim claim
    _claim(self, claim)
    _resolve_broad_phase(self)
    return 0


# -------------------------------------------------------------------- pairs

cdef int _pairs_now(SpatialIndexD self) except -1:
    """The pair pass into `found` (changed_pairs.pxi picks its way); the
    caller holds the claim."""
    cdef int failed
    cdef double started = now_ms()
    with nogil:
        failed = _pair_pass(self)
    self.state.phase_ms[PHASE_PAIRS] = now_ms() - started
    if failed:
        raise MemoryError()
    return 0


cdef object _candidates_now(SpatialIndexD self, object out):
    """Every pair a full pass tests, as candidate_ids returns them, found in
    memory of their own: the last pairs and the counters stay as they were.
    The caller holds the claim."""
    cdef PairList candidates
    cdef Py_ssize_t met, checks
    _resolve_broad_phase(self)     # before the pass replaces what it counts from
    met, checks = self.state.broad_phase_count, self.state.narrow_phase_count
    self.state.keep_candidates = True
    try:
        full_pass_aside(self, &candidates)
    finally:
        self.state.keep_candidates = False
        self.state.broad_phase_count, self.state.narrow_phase_count = met, checks
        self.state.broad_phase_pending = False
    try:
        return _pair_array(&candidates, out)
    finally:
        free(candidates.ids)


cdef object _pair_array(const PairList* pairs, object out):
    cdef int32_t[:, ::1] dest
    cdef Py_ssize_t n = pairs.n
    if out is None or out.shape[0] < n:
        out = np.empty((n, 2), dtype=np.int32)
    dest = out
    if n:
        memcpy(&dest[0, 0], pairs.ids, n * 2 * sizeof(int32_t))
    return out[:n]


def pairs(SpatialIndexD self):
    """Every overlapping pair, once.

    Two objects pair when they overlap (touching counts), their collision
    filters let them (see `set_filter`) and they are not both static. Updates
    `broad_phase_pairs`, `narrow_phase_checks` and `hits`.

    Returns
    -------
    list of tuple
        (handle_a, handle_b) per pair, the smaller id's handle first, pairs in
        no set order.

    Raises
    ------
    MemoryError
        If memory runs out.
    RuntimeError
        If another thread's call holds the index.

    See Also
    --------
    pair_ids : The same pairs as an array of ids.
    pair_events : The pairs that began and ended since the last call.
    """
    cdef Py_ssize_t k
    cdef list handles = self.handles
    cdef Claim claim
    _claim(self, claim)
    _pairs_now(self)
    return [(handle_of(handles, self.state.found.ids[2 * k]),
             handle_of(handles, self.state.found.ids[2 * k + 1])) for k in range(self.state.found.n)]


def pair_ids(SpatialIndexD self, out=None):
    """Every overlapping pair once, as an array of ids.

    The same pairs as `pairs`; updates the counters as it does.

    Parameters
    ----------
    out : numpy.ndarray of int32, shape (m, 2), optional
        A C-contiguous array to reuse: with m >= k the result is out[:k],
        otherwise a new array.

    Returns
    -------
    numpy.ndarray of int32, shape (k, 2)
        A row of ids per pair, the smaller first, rows in no set order.

    Raises
    ------
    ValueError
        If `out` is not such an array.
    MemoryError
        If memory runs out.
    RuntimeError
        If another thread's call holds the index.
    """
    check_pair_out(out)
    cdef Claim claim
    _claim(self, claim)
    _pairs_now(self)
    return _pair_array(&self.state.found, out)


cdef object _pair_changes(SpatialIndexD self):
    """The pair pass, then its pairs against the last call's: (began, ended,
    ended_generations) arrays of (k, 2) int32 ids, (m, 2) int32 ids and their
    (m, 2) uint32 generations then. A pair whose object was removed (even if
    its id now names another object) has ended. The caller holds the claim."""
    cdef Py_ssize_t j, n, p = 0, c = 0, n_began = 0, n_ended = 0
    cdef bint old, new, same
    cdef Touch* swap
    cdef int32_t[:, ::1] began_v, ended_v
    cdef uint32_t[:, ::1] gens_v
    _pairs_now(self)
    n = self.state.found.n
    if grow_array(<void**>&self.state.seen, &self.state.seen_cap, n, sizeof(Touch)) < 0:
        raise MemoryError()
    for j in range(n):
        self.state.seen[j].key = ((<int64_t>self.state.found.ids[2 * j] << 32)
                                  | self.state.found.ids[2 * j + 1])
        self.state.seen[j].gen_a = self.state.generation[self.state.found.ids[2 * j]]
        self.state.seen[j].gen_b = self.state.generation[self.state.found.ids[2 * j + 1]]
    sort_items(self.state.seen, n, sizeof(Touch), key_order)
    began = np.empty((n, 2), dtype=np.int32)
    ended = np.empty((self.state.n_touching, 2), dtype=np.int32)
    gens = np.empty((self.state.n_touching, 2), dtype=np.uint32)
    began_v, ended_v, gens_v = began, ended, gens
    with nogil:
        while p < self.state.n_touching or c < n:
            # The heads of both lists: a key in one only began or ended; in
            # both, it goes on unless an object was removed in between.
            old = p < self.state.n_touching and (
                c == n or self.state.touching[p].key <= self.state.seen[c].key)
            new = c < n and (
                p == self.state.n_touching or self.state.seen[c].key <= self.state.touching[p].key)
            same = old and new and self.state.seen[c].gen_a == self.state.touching[p].gen_a \
                and self.state.seen[c].gen_b == self.state.touching[p].gen_b
            if old and not same:
                ended_v[n_ended, 0] = <int32_t>(self.state.touching[p].key >> 32)
                ended_v[n_ended, 1] = <int32_t>self.state.touching[p].key
                gens_v[n_ended, 0] = self.state.touching[p].gen_a
                gens_v[n_ended, 1] = self.state.touching[p].gen_b
                n_ended += 1
            if new and not same:
                began_v[n_began, 0] = <int32_t>(self.state.seen[c].key >> 32)
                began_v[n_began, 1] = <int32_t>self.state.seen[c].key
                n_began += 1
            p += old
            c += new
        swap = self.state.touching
        self.state.touching = self.state.seen
        self.state.seen = swap
        self.state.seen_cap, self.state.touching_cap = self.state.touching_cap, self.state.seen_cap
        self.state.n_touching = n
    return began[:n_began], ended[:n_ended], gens[:n_ended]


def pair_event_ids(SpatialIndexD self):
    """The pairs that began and ended overlapping since the last call, as ids.

    Since the last call of this or `pair_events` (before the first: since the
    index was empty), each pair once. A pair ends when its objects part or when
    one is removed (its id may then already name another object). Updates the
    counters as `pairs` does.

    Returns
    -------
    began : numpy.ndarray of int32, shape (k, 2)
        The pairs that began, a row of ids each, the smaller first.
    ended : numpy.ndarray of int32, shape (m, 2)
        The pairs that ended, likewise.

    Raises
    ------
    MemoryError
        If memory runs out.
    RuntimeError
        If another thread's call holds the index.
    """
    cdef Claim claim
    _claim(self, claim)
    began, ended, _ = _pair_changes(self)
    self.departed.clear()
    return began, ended


def pair_events(SpatialIndexD self):
    """The pairs that began and ended overlapping since the last call, as handles.

    `pair_event_ids` with handles; a removed object's pairs end with the handle
    it had.

    Returns
    -------
    began : list of tuple
        (handle_a, handle_b) of each pair that began, the smaller id's handle
        first.
    ended : list of tuple
        Likewise, of each pair that ended.

    Raises
    ------
    MemoryError
        If memory runs out.
    RuntimeError
        If another thread's call holds the index.
    """
    cdef Py_ssize_t j
    cdef Claim claim
    _claim(self, claim)
    began, ended, gens = _pair_changes(self)
    handles = self.handles
    began_handles = [(handle_of(handles, a), handle_of(handles, b)) for a, b in began.tolist()]
    ended_handles = [(_handle_then(self, a, ga), _handle_then(self, b, gb))
                     for (a, b), (ga, gb) in zip(ended.tolist(), gens.tolist())]
    self.departed.clear()
    return began_handles, ended_handles


def end_pairs_of(SpatialIndexD self, object_id):
    """End now the pairs of one object that the pair events last reported as begun.

    For an owner that announces the end of a removed object's pairs at once,
    as Godot's areas do for a node leaving the tree: the next `pair_events`
    (or `pair_event_ids`) does not report them.

    Parameters
    ----------
    object_id : int
        The object's id, or the id it had if it was removed since.

    Returns
    -------
    list of tuple
        Those pairs, (handle_a, handle_b) each, the smaller id's handle first.

    Raises
    ------
    KeyError
        For an id never handed out.
    RuntimeError
        If another thread's call holds the index.
    """
    cdef int32_t i, a, b
    cdef uint32_t generation
    cdef Py_ssize_t p, kept = 0
    cdef Touch t
    cdef list ended = []
    if not isinstance(object_id, int) or not 0 <= object_id < self.state.obj_hi:
        raise KeyError(f"no object ever had the id {object_id!r} in this index")
    i = <int32_t>object_id
    cdef Claim claim
    _claim(self, claim)
    generation = self.state.generation[i] - (not self.state.live[i])
    for p in range(self.state.n_touching):
        t = self.state.touching[p]
        a, b = <int32_t>(t.key >> 32), <int32_t>t.key
        if (a == i and t.gen_a == generation) or (b == i and t.gen_b == generation):
            ended.append((_handle_then(self, a, t.gen_a), _handle_then(self, b, t.gen_b)))
        else:
            self.state.touching[kept] = t
            kept += 1
    self.state.n_touching = kept
    return ended


cdef object _handle_then(SpatialIndexD self, int32_t i, uint32_t generation):
    """The handle id i had in that generation: its own, or a removed object's."""
    if self.state.generation[i] == generation:
        return handle_of(self.handles, i)
    return self.departed[(i, generation)]


def candidate_ids(SpatialIndexD self, out=None):
    """Every pair the broad phase hands to the narrow phase, each once, as ids.

    A superset of `pair_ids`: k is the `narrow_phase_checks` of a pair pass.
    What sharing cells means depends on the grid (a uniform grid: a common cell,
    or a large object's cell range; a hierarchical grid: neighbouring cells
    within a level, or a coarser level's cells that can reach the object). The
    counters and the last pairs are left as the last pair pass set them.

    Parameters
    ----------
    out : numpy.ndarray of int32, shape (m, 2), optional
        As for `pair_ids`.

    Returns
    -------
    numpy.ndarray of int32, shape (k, 2)
        A row of ids per pair, the smaller first.

    Raises
    ------
    ValueError
        For an `out` that is not an (m, 2) C-contiguous int32 array.
    MemoryError
        If memory runs out.
    RuntimeError
        If another thread's call holds the index.
    """
    check_pair_out(out)
    cdef Claim claim
    _claim(self, claim)
    return _candidates_now(self, out)


def last_phase_ms(SpatialIndexD self):
    """Where the last frame's time went, in milliseconds.

    Single-object calls leave these as they are.

    Returns
    -------
    dict of str to float
        "moves": the last batch update's new bodies for objects that stayed in
        their cells; "relinks": its moves of the others between cells;
        "pairs": the last pair pass. 0.0 for what has not run yet.
    """
    return {"moves": self.state.phase_ms[PHASE_MOVES], "relinks": self.state.phase_ms[PHASE_RELINKS],
            "pairs": self.state.phase_ms[PHASE_PAIRS]}
