# Cells as linked lists in a wrapped table: the storage both grids share. A
# Level is a power-of-two square table addressed by wrapped cell coordinates
# (cx mod W, cy mod W), so neighbouring cells are neighbours in memory. Each
# object has one home cell and sits on that cell's doubly linked list, so moving
# it is two constant-time list operations; an occupancy bit per cell says
# whether its list holds anything, and the pair passes pack the objects in cell
# order first.


cdef enum:
    INITIAL_WBITS = 4       # 16 x 16 cells to start with
    LARGEST_WBITS = 15      # at most 32768 x 32768 cells (4 GB of list heads)
    PACK_LOOKAHEAD = 24     # bodies prefetched ahead while packing
    MOVE_LOOKAHEAD = 8      # list heads prefetched ahead while relinking
    # Fewer objects than this in a loop and it runs on one thread: waking another
    # costs more than it would take over.
    PARALLEL_WORK = 16384
    # Rows are handed out this many at a time, to whichever thread is running:
    # a thread the system has not scheduled yet leaves its share to the others.
    PARALLEL_CHUNK = 2048


cdef inline Py_ssize_t occupancy_words(int32_t wbits) noexcept nogil:
    return ((<Py_ssize_t>1) << (2 * wbits)) >> 6


cdef inline uint64_t* new_occupancy(int32_t wbits) noexcept nogil:
    # One more word than the cells need, always zero, so run_begin works for the
    # cell one past the last.
    return <uint64_t*>calloc(occupancy_words(wbits) + 1, sizeof(uint64_t))


cdef inline bint is_occupied(const Level* L, int64_t c) noexcept nogil:
    return (L.occupied[c >> 6] >> (c & 63)) & 1


cdef inline int32_t wrapped_cell(const Level* L, int64_t cx, int64_t cy) noexcept nogil:
    """The table index of world cell (cx, cy)."""
    return <int32_t>(((cy & L.mask) << L.wbits) | (cx & L.mask))


cdef inline int32_t cell_rank(const Level* L, int64_t c) noexcept nogil:
    """How many occupied cells come before cell c (valid once word_rank is)."""
    return <int32_t>(L.word_rank[c >> 6]
                     + count_ones(L.occupied[c >> 6] & (((<uint64_t>1) << (c & 63)) - 1)))


cdef inline Py_ssize_t run_begin(const Level* L, int64_t c) noexcept nogil:
    """Where cell c's objects start in L.packed (valid after _pack, for any c from
    0 to the number of cells): cell_start at the count of occupied cells before c."""
    return L.cell_start[cell_rank(L, c)]


cdef inline int row_runs(const Level* L, int64_t row, int64_t x0, int64_t x1,
                         Py_ssize_t* runs) noexcept nogil:
    """The packed runs of cells x0 .. x1 (fewer than the table's side, wrapped)
    of the table row starting at cell `row`, as begin, end pairs into `runs`:
    one run, or two where the window wraps. Returns how many numbers it wrote."""
    cdef int64_t lo = x0 & L.mask, hi = x1 & L.mask
    runs[0] = run_begin(L, row | lo)
    if lo <= hi:
        runs[1] = run_begin(L, (row | hi) + 1)
        return 2
    runs[1] = run_begin(L, row + L.mask + 1)
    runs[2] = run_begin(L, row)
    runs[3] = run_begin(L, (row | hi) + 1)
    return 4


cdef int level_init(Level* L, int32_t wbits) noexcept nogil:
    """An empty level of 1 << wbits cells a side with no members (every other
    field zero); -1, leaving L untouched, if out of memory."""
    cdef Py_ssize_t cells = (<Py_ssize_t>1) << (2 * wbits)
    cdef int32_t* head = <int32_t*>malloc(cells * sizeof(int32_t))
    cdef uint64_t* occupied = new_occupancy(wbits)
    if head == NULL or occupied == NULL:
        free(head)
        free(occupied)
        return -1
    memset(head, 0xFF, cells * sizeof(int32_t))
    memset(L, 0, sizeof(Level))
    L.head = head
    L.occupied = occupied
    L.wbits = wbits
    L.mask = (1 << wbits) - 1
    return 0


cdef void level_free(Level* L) noexcept nogil:
    free(L.head)
    free(L.members)
    free(L.occupied)
    free(L.cell_start)
    free(L.word_rank)
    free(L.packed)
    free(L.packed_id)
    free(L.packed_filter)
    free(L.cover)


cdef void level_empty(Level* L) noexcept nogil:
    memset(L.head, 0xFF, ((<Py_ssize_t>1) << (2 * L.wbits)) * sizeof(int32_t))
    memset(L.occupied, 0, occupancy_words(L.wbits) * sizeof(uint64_t))
    L.n = 0


cdef class _CellLists(SpatialIndex):
    """What both grids share: each object on the list of its home cell in a
    Level, and the level's members in no order. Subclasses say which cell is an
    object's home (_home) and keep their own levels."""

    def __dealloc__(self):
        free(self.next)
        free(self.prev)
        free(self.home)
        free(self.slot)
        free(self.row_state)

    cdef int _grow_lists(self, Py_ssize_t old_cap, Py_ssize_t new_cap) noexcept nogil:
        if grow_to(<void**>&self.next, old_cap, new_cap, sizeof(int32_t)) < 0 \
                or grow_to(<void**>&self.prev, old_cap, new_cap, sizeof(int32_t)) < 0 \
                or grow_to(<void**>&self.home, old_cap, new_cap, sizeof(int32_t)) < 0 \
                or grow_to(<void**>&self.slot, old_cap, new_cap, sizeof(int32_t)) < 0:
            return -1
        return 0

    cdef int32_t _home(self, const Level* L, int32_t i) noexcept nogil:
        """The table index of the cell of L where object i belongs now."""
        return 0

    cdef inline void _push_cell(self, Level* L, int32_t i, int32_t cell) noexcept nogil:
        cdef int32_t first = L.head[cell]
        self.next[i] = first
        self.prev[i] = -1
        if first >= 0:
            self.prev[first] = i
        else:
            L.occupied[cell >> 6] |= (<uint64_t>1) << (cell & 63)
        L.head[cell] = i
        self.home[i] = cell

    cdef inline void _pop_cell(self, Level* L, int32_t i) noexcept nogil:
        cdef int32_t before = self.prev[i], after = self.next[i]
        if before >= 0:
            self.next[before] = after
        else:
            L.head[self.home[i]] = after
            if after < 0:
                L.occupied[self.home[i] >> 6] &= ~((<uint64_t>1) << (self.home[i] & 63))
        if after >= 0:
            self.prev[after] = before

    cdef inline void _move_cell(self, Level* L, int32_t i, int32_t cell) noexcept nogil:
        if cell != self.home[i]:
            self._pop_cell(L, i)
            self._push_cell(L, i, cell)

    cdef int _reserve_member(self, Level* L) noexcept nogil:
        return grow_array(<void**>&L.members, &L.cap, L.n + 1, sizeof(int32_t))

    cdef inline void _add_member(self, Level* L, int32_t i) noexcept nogil:
        """Room must have been reserved; the caller puts i on a cell's list."""
        L.members[L.n] = i
        self.slot[i] = <int32_t>L.n
        L.n += 1

    cdef inline void _drop_member(self, Level* L, int32_t i) noexcept nogil:
        """Take i off its cell's list and out of L's members."""
        cdef int32_t slot = self.slot[i], last
        self._pop_cell(L, i)
        L.n -= 1
        last = L.members[L.n]
        L.members[slot] = last
        self.slot[last] = slot

    cdef int _resize(self, Level* L, int32_t bits) noexcept nogil:
        """Give L a table of 1 << bits cells a side and put every member back on
        its home cell's list; -1, leaving L as it was, if out of memory."""
        cdef Level bigger
        cdef Py_ssize_t k
        if level_init(&bigger, bits) < 0:
            return -1
        free(L.head)
        free(L.occupied)
        L.head = bigger.head
        L.occupied = bigger.occupied
        L.wbits = bits
        L.mask = bigger.mask
        for k in range(L.n):
            self._push_cell(L, L.members[k], self._home(L, L.members[k]))
        self.growths += 1
        return 0

    cdef inline bint _serial(self, Py_ssize_t work) noexcept nogil:
        """Does a loop over `work` objects run on this thread alone?"""
        return self.threads <= 1 or work < PARALLEL_WORK

    cdef Level* _level_of(self, int32_t i) noexcept nogil:
        """The level member i belongs to."""
        return NULL

    cdef int32_t _settle(self, int32_t i, const Shape* b) noexcept nogil:
        """First half of a batch move, safe to run for many objects at once: if
        live object i keeps its level, give it body b and return its new home
        cell (its links are left to the second half); otherwise change nothing
        and return -1."""
        return -1

    cdef int _pack(self, Level* L, int threads) noexcept nogil:
        """Lay the level's shapes and ids out in cell order (on `threads`
        threads), noting where each occupied cell's run starts."""
        cdef Py_ssize_t w, k = 0, count = 0, cap, circles = 0
        cdef int64_t c
        cdef uint64_t bits
        cdef int32_t a
        if grow_array(<void**>&L.word_rank, &L.word_rank_cap, occupancy_words(L.wbits) + 1,
                      sizeof(uint32_t)) < 0 \
                or grow_array(<void**>&L.cell_start, &L.cell_start_cap, L.n + 1, sizeof(int32_t)) < 0:
            return -1
        cap = L.packed_cap
        if grow_array(<void**>&L.packed, &cap, L.n, sizeof(Shape)) < 0:
            return -1
        if grow_array(<void**>&L.packed_id, &L.packed_cap, cap, sizeof(int32_t)) < 0:
            return -1
        if self.n_filtered and grow_array(<void**>&L.packed_filter, &L.packed_filter_cap, L.n,
                                          sizeof(Filter)) < 0:
            return -1
        # Ids first (the lists and `next` are small and cache-resident), then the
        # shapes, whose scattered loads can be prefetched once the order is known.
        for w in range(occupancy_words(L.wbits)):
            L.word_rank[w] = <uint32_t>count
            bits = L.occupied[w]
            while bits:
                c = (w << 6) | count_trailing_zeros(bits)
                bits &= bits - 1
                L.cell_start[count] = <int32_t>k
                count += 1
                a = L.head[c]
                while a >= 0:
                    L.packed_id[k] = a
                    k += 1
                    a = self.next[a]
        L.word_rank[occupancy_words(L.wbits)] = <uint32_t>count
        L.cell_start[count] = <int32_t>k
        if threads == 1 or L.n < PARALLEL_WORK:
            for k in range(L.n):
                if k + PACK_LOOKAHEAD < L.n:
                    prefetch(&self.body[L.packed_id[k + PACK_LOOKAHEAD]])
                L.packed[k] = self.body[L.packed_id[k]]
                circles += shape_is_circle(&L.packed[k])
        else:
            for k in prange(L.n, num_threads=threads, schedule="dynamic", chunksize=PARALLEL_CHUNK):
                if k + PACK_LOOKAHEAD < L.n:
                    prefetch(&self.body[L.packed_id[k + PACK_LOOKAHEAD]])
                L.packed[k] = self.body[L.packed_id[k]]
                circles += shape_is_circle(&L.packed[k])
        L.circles = circles
        if self.n_filtered:
            for k in range(L.n):
                L.packed_filter[k] = self.filter[L.packed_id[k]]
        return 0

    cdef inline const Filter* _own_filter(self, const Level* L, Py_ssize_t u) noexcept nogil:
        """The filter of L's packed object u for the pair tests, NULL while every
        object has the default one (then every pair passes)."""
        return &L.packed_filter[u] if self.n_filtered else NULL

    # ------------------------------------------------------------- validation

    cdef int _check_lists(self, const Level* L, str name) except -1:
        """L's table and members agree with its lists: every member is a live id
        whose slot names it, each cell's occupancy bit says whether its list is
        empty, every list links each of its objects both ways with home naming
        the cell and the object at home there, and the lists hold the members
        exactly once."""
        cdef Py_ssize_t k, c, i, listed = 0
        cdef int32_t before
        if not (INITIAL_WBITS <= L.wbits <= LARGEST_WBITS and L.mask == (1 << L.wbits) - 1) \
                or not 0 <= L.n <= L.cap or L.occupied[occupancy_words(L.wbits)] != 0:
            self._broken(f"{name}: {1 << L.wbits} cells a side (mask {L.mask}), "
                         f"{L.n} members of {L.cap}")
        for k in range(L.n):
            i = L.members[k]
            if not (0 <= i < self.obj_hi and self.live[i]) or self.slot[i] != k:
                self._broken(f"{name} member {k} is id {i}")
        for c in range((<Py_ssize_t>1) << (2 * L.wbits)):
            if is_occupied(L, c) != (L.head[c] >= 0):
                self._broken(f"{name} cell {c}: occupied bit {is_occupied(L, c)}, "
                             f"first object {L.head[c]}")
            i = L.head[c]
            before = -1
            while i >= 0:
                if not (0 <= i < self.obj_hi and self.live[i]) or self.home[i] != c \
                        or self.prev[i] != before or not 0 <= self.slot[i] < L.n \
                        or L.members[self.slot[i]] != i or self._home(L, <int32_t>i) != c:
                    self._broken(f"{name} cell {c} lists id {i} after {before}")
                listed += 1
                if listed > L.n:
                    self._broken(f"{name}: its cells list more than its {L.n} members")
                before = <int32_t>i
                i = self.next[i]
        if listed != L.n:
            self._broken(f"{name}: its cells list {listed} of its {L.n} members")
        return 0
