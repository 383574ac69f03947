# Cells as linked lists in a wrapped table: the storage both grids share. A
# Level is a power-of-two square (cube) table addressed by wrapped cell
# coordinates (cx mod W, cy mod W, in 3D cz mod W), x fastest, so the cells of a
# row (a run along x) are neighbours in memory. Each object has one home cell
# and sits on that cell's doubly linked list, so moving it is two constant-time
# list operations; an occupancy bit per cell says whether its list holds
# anything. The pair passes lay the objects out in cell order themselves
# (kernels/cell_order.hpp, kernels/hierarchy_pairs.hpp).


cdef enum:
    INITIAL_WBITS = 4       # 16 cells a side to start with
    LARGEST_WBITS = 30 // D     # at most 2**30 cells (4 GB of list heads)
    MOVE_LOOKAHEAD = 8      # list heads prefetched ahead while relinking
    # Rows are handed out this many at a time, to whichever thread is running:
    # a thread the system has not scheduled yet leaves its share to the others.
    PARALLEL_CHUNK = 2048


cdef inline Py_ssize_t occupancy_words(int32_t wbits) noexcept nogil:
    return ((<Py_ssize_t>1) << (D * wbits)) >> 6


cdef inline uint64_t* new_occupancy(int32_t wbits) noexcept nogil:
    # One more word than the cells need, always zero, so that the hierarchical
    # pair pass can count the occupied cells before the cell one past the last.
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
