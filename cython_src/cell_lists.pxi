# Cells as linked lists in a wrapped table: the storage both grids share. A
# Level is a power-of-two square (cube) table addressed by wrapped cell
# coordinates (cx mod W, cy mod W, in 3D cz mod W), x fastest, so the cells of a
# row (a run along x) are neighbours in memory. Each object has one home cell
# and sits on that cell's doubly linked list, so moving it is two constant-time
# list operations; an occupancy bit per cell says whether its list holds
# anything, and the hierarchical grid's pair pass packs its objects in cell order
# first (the uniform grid's kernel orders its own, kernels/cell_order.hpp).


cdef enum:
    INITIAL_WBITS = 4       # 16 cells a side to start with
    LARGEST_WBITS = 30 // D     # at most 2**30 cells (4 GB of list heads)
    PACK_LOOKAHEAD = 24     # bodies prefetched ahead while packing
    MOVE_LOOKAHEAD = 8      # list heads prefetched ahead while relinking
    # Rows are handed out this many at a time, to whichever thread is running:
    # a thread the system has not scheduled yet leaves its share to the others.
    PARALLEL_CHUNK = 2048


cdef inline void prefetch_item(const void* item, size_t size) noexcept nogil:
    """Ask for both cache lines of an item: a 48-byte Shape or a 24-byte
    CellRange in an array straddles two lines as often as not."""
    prefetch(item)
    prefetch(<const char*>item + size - 1)


ctypedef struct Packing:
    # What pack_shapes reads: the index's bodies and the level being packed.
    const Shape* body
    Level* level


cdef Py_ssize_t pack_shapes(void* context, Py_ssize_t first, Py_ssize_t end) noexcept nogil:
    """Packed objects first .. end-1 of the level take their shapes (its ids
    are packed); returns how many of them are circles."""
    cdef const Shape* body = (<Packing*>context).body
    cdef Level* L = (<Packing*>context).level
    cdef Py_ssize_t k, circles = 0
    for k in range(first, end):
        if k + PACK_LOOKAHEAD < L.n:
            prefetch_item(&body[L.packed_id[k + PACK_LOOKAHEAD]], sizeof(Shape))
        L.packed[k] = body[L.packed_id[k]]
        circles += shape_is_circle(&L.packed[k])
    return circles


cdef inline Py_ssize_t occupancy_words(int32_t wbits) noexcept nogil:
    return ((<Py_ssize_t>1) << (D * wbits)) >> 6


cdef inline uint64_t* new_occupancy(int32_t wbits) noexcept nogil:
    # One more word than the cells need, always zero, so run_begin works for the
    # cell one past the last.
    return <uint64_t*>calloc(occupancy_words(wbits) + 1, sizeof(uint64_t))


cdef inline bint is_occupied(const Level* L, int64_t c) noexcept nogil:
    return (L.occupied[c >> 6] >> (c & 63)) & 1


cdef inline int32_t wrapped_cell(const Level* L, int64_t cx, int64_t cy, int64_t cz=0) noexcept nogil:
    """The table index of world cell (cx, cy), in 3D (cx, cy, cz)."""
    if D == 2:
        return <int32_t>(((cy & L.mask) << L.wbits) | (cx & L.mask))
    return <int32_t>(((((cz & L.mask) << L.wbits) | (cy & L.mask)) << L.wbits) | (cx & L.mask))


cdef inline int32_t home_cell(const Level* L, const CellRange* cells) noexcept nogil:
    """The table index of the cell of a range's min corner."""
    return wrapped_cell(L, cells.lo[0], cells.lo[1], cells.lo[D - 1])


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
    cdef Py_ssize_t cells = (<Py_ssize_t>1) << (D * wbits)
    cdef int32_t* head = <int32_t*>(large_block(cells * sizeof(int32_t))
                                    if cells * sizeof(int32_t) >= LARGE_ARRAY
                                    else malloc(cells * sizeof(int32_t)))
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
    memset(L.head, 0xFF, ((<Py_ssize_t>1) << (D * L.wbits)) * sizeof(int32_t))
    memset(L.occupied, 0, occupancy_words(L.wbits) * sizeof(uint64_t))
    L.n = 0


cdef inline bint ranges_meet(const CellRange* a, const CellRange* b) noexcept nogil:
    """Do two ranges of cells share a cell?"""
    cdef int k
    cdef bint meet = True
    for k in range(D):
        meet &= (a.lo[k] <= b.hi[k]) & (b.lo[k] <= a.hi[k])
    return meet


cdef int _grow_lists(SpatialIndexD self, Py_ssize_t old_cap, Py_ssize_t new_cap) noexcept nogil:
    if grow_to(<void**>&self.state.next, old_cap, new_cap, sizeof(int32_t)) < 0 \
            or grow_to(<void**>&self.state.prev, old_cap, new_cap, sizeof(int32_t)) < 0 \
            or grow_to(<void**>&self.state.home, old_cap, new_cap, sizeof(int32_t)) < 0 \
            or grow_to(<void**>&self.state.slot, old_cap, new_cap, sizeof(int32_t)) < 0:
        return -1
    return 0


cdef inline void _push_cell(SpatialIndexD self, Level* L, int32_t i, int32_t cell) noexcept nogil:
    cdef int32_t first = L.head[cell]
    self.state.next[i] = first
    self.state.prev[i] = -1
    if first >= 0:
        self.state.prev[first] = i
    else:
        L.occupied[cell >> 6] |= (<uint64_t>1) << (cell & 63)
    L.head[cell] = i
    self.state.home[i] = cell


cdef inline void _pop_cell(SpatialIndexD self, Level* L, int32_t i) noexcept nogil:
    cdef int32_t before = self.state.prev[i], after = self.state.next[i]
    if before >= 0:
        self.state.next[before] = after
    else:
        L.head[self.state.home[i]] = after
        if after < 0:
            L.occupied[self.state.home[i] >> 6] &= ~((<uint64_t>1) << (self.state.home[i] & 63))
    if after >= 0:
        self.state.prev[after] = before


cdef inline void _move_cell(SpatialIndexD self, Level* L, int32_t i, int32_t cell) noexcept nogil:
    if cell != self.state.home[i]:
        _pop_cell(self, L, i)
        _push_cell(self, L, i, cell)


cdef int _reserve_member(SpatialIndexD self, Level* L) noexcept nogil:
    return grow_array(<void**>&L.members, &L.cap, L.n + 1, sizeof(int32_t))


cdef inline void _add_member(SpatialIndexD self, Level* L, int32_t i) noexcept nogil:
    """Room must have been reserved; the caller puts i on a cell's list."""
    L.members[L.n] = i
    self.state.slot[i] = <int32_t>L.n
    L.n += 1


cdef inline void _drop_member(SpatialIndexD self, Level* L, int32_t i) noexcept nogil:
    """Take i off its cell's list and out of L's members."""
    cdef int32_t slot = self.state.slot[i], last
    _pop_cell(self, L, i)
    L.n -= 1
    last = L.members[L.n]
    L.members[slot] = last
    self.state.slot[last] = slot


cdef int _resize(SpatialIndexD self, Level* L, int32_t bits) noexcept nogil:
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
        _push_cell(self, L, L.members[k], _home(self, L, L.members[k]))
    self.state.growths += 1
    return 0


cdef inline bint _serial(SpatialIndexD self, Py_ssize_t work) noexcept nogil:
    """Does a loop over `work` objects run on this thread alone?"""
    return self.state.threads <= 1 or work < PARALLEL_WORK


cdef int _pack(SpatialIndexD self, Level* L, int threads) noexcept nogil:
    """Lay the level's shapes and ids out in cell order (on `threads`
    threads), noting where each occupied cell's run starts."""
    cdef Py_ssize_t w, k = 0, count = 0, cap
    cdef Packing packing
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
    if self.state.n_filtered and grow_array(<void**>&L.packed_filter, &L.packed_filter_cap, L.n,
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
                a = self.state.next[a]
    L.word_rank[occupancy_words(L.wbits)] = <uint32_t>count
    L.cell_start[count] = <int32_t>k
    packing.body = self.state.body
    packing.level = L
    L.circles = for_each_chunk(1 if L.n < PARALLEL_WORK else threads, L.n, PARALLEL_CHUNK,
                               pack_shapes, &packing)
    if self.state.n_filtered:
        for k in range(L.n):
            L.packed_filter[k] = self.state.filter[L.packed_id[k]]
    return 0


cdef inline const Filter* _own_filter(SpatialIndexD self, const Level* L, Py_ssize_t u) noexcept nogil:
    """The filter of L's packed object u for the pair tests, NULL while every
    object has the default one (then every pair passes)."""
    return &L.packed_filter[u] if self.state.n_filtered else NULL
