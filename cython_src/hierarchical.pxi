# The hierarchical spatial hash grid (after Schornbaum's hierarchical
# hash grids): a stack of grids whose cell sizes grow by a hierarchy factor. Each
# object lives in exactly one cell of the one level whose cells fit it, whatever
# the mix of sizes. A level is a power-of-two square table addressed by wrapped
# cell coordinates (cx mod W, cy mod W), so neighbouring cells are neighbours in
# memory; it doubles each side and reinserts its objects when the objects per
# cell pass the density threshold.

ctypedef struct Level:
    double cell
    double inv              # 1 / cell: every cell coordinate is floor(x * inv)
    int32_t exponent        # cell == base * factor ** exponent (via exp and log)
    int32_t wbits           # the table is W x W cells, W = 1 << wbits
    int64_t mask            # W - 1
    int32_t* head           # per cell: first object of its list, -1 if empty
    int32_t* members        # the level's objects in no order (swap-remove)
    Py_ssize_t n
    Py_ssize_t cap
    double reach            # no object of the level has been longer than this
    uint64_t* occupied      # one bit per cell: does its list hold anything?
    # Filled by the pair pass: the level's shapes and ids packed in cell order, so
    # neighbour tests read contiguous memory. The objects of cells c0 .. c1 are
    # packed[run_begin(c0) : run_begin(c1 + 1)], run_begin(c) being cell_start at
    # the number of occupied cells before c; word_rank[w] counts the occupied
    # cells before occupancy word w, so that number is a popcount away and the
    # lookups stay as compact as the objects, however sparse the table. A row's
    # neighbouring cells are thus one run, found without testing each cell.
    Shape* packed
    int32_t* packed_id
    int32_t* cell_start
    uint32_t* word_rank
    Py_ssize_t packed_cap
    Py_ssize_t cell_start_cap
    Py_ssize_t word_rank_cap
    # Also filled by the pair pass, for levels with more objects in finer levels
    # than their own (cover_bits is 0 for the others): one bit per sub-cell
    # (COVER_SPLIT per cell side, wrapped into a square table of 1 << cover_bits
    # per side) set where some object's box reaches. A finer object whose
    # sub-cells are all clear can meet none of the level's objects, so its
    # upward search skips the level.
    uint64_t* cover
    Py_ssize_t cover_cap
    int32_t cover_bits
    double cover_inv

# Cell coordinates stay below 2**48 in magnitude, so floor(x / cell) is exact to a
# small fraction of a cell; an object too small for its distance from the origin
# goes to a coarser level instead.
cdef double PRECISE_CELLS = 281474976710656.0
# Cell sizes stay within [SMALLEST_CELL, LARGEST_CELL] and coordinates within
# FARTHEST, so exponents stay small and no cell arithmetic overflows: a base
# taken from a denormal-sized first object must not send a large one to 1e308.
cdef double SMALLEST_CELL = 1e-150
cdef double LARGEST_CELL = 1e150
cdef double FARTHEST = 1e160
cdef int INITIAL_WBITS = 4          # 16 x 16 cells to start with
cdef enum:
    PACK_LOOKAHEAD = 8                # bodies prefetched ahead while packing
    # A level's pair search is cut into this many chunks (fewer for small tables)
    # whatever the thread count, so the order of the pairs never depends on it;
    # several chunks a thread keep a crowded stretch from stalling one.
    LEVEL_CHUNKS = 32
    COVER_SPLIT = 8               # sub-cells per cell side in the cover bitmap
    UPWARD_GROUP = 8              # coarser levels searched in one pass over a chunk
    COVER_BITS_PER_OBJECT = 512   # sparse enough that wrapping seldom aliases
    COVER_CHECKS = 16             # a finer object over more sub-cells skips the filter
    COVER_MAX_BITS = 12           # at most 4096 x 4096 sub-cells (2 MB) per level
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


cdef inline Py_ssize_t run_begin(const Level* L, int64_t c) noexcept nogil:
    """Where cell c's objects start in L.packed (valid after _pack, for any c from
    0 to the number of cells): cell_start at the count of occupied cells before c."""
    return L.cell_start[L.word_rank[c >> 6]
                        + count_ones(L.occupied[c >> 6] & (((<uint64_t>1) << (c & 63)) - 1))]


ctypedef struct PairChunk:
    # A stretch of one level's occupancy words (w0 .. w1-1) and what its pair
    # search found; the buffer is kept from frame to frame.
    Py_ssize_t rank          # the level's place in `order`
    Py_ssize_t w0
    Py_ssize_t w1
    PairList found
    bint keep_all            # keep every pair tested: the index's keep_candidates
    Py_ssize_t tested
    int failed
    int64_t* passed          # scratch of the upward search: per coarser level, the
                             # objects its cover let through
    Py_ssize_t passed_cap


cdef inline Py_ssize_t test_run(const Shape* shape, const Box* box, int32_t a, const Level* M,
                                Py_ssize_t v, Py_ssize_t end, PairChunk* out) noexcept nogil:
    """Test object a (its shape and box) against M's packed objects v .. end-1,
    keeping the pairs that touch (all of them, if out.keep_all); returns how
    many were tested, -1 if out of memory."""
    cdef Py_ssize_t tested = end - v, kept = out.found.n
    cdef int32_t* pairs
    cdef bint keep_all = out.keep_all
    if tested <= 0:
        return 0
    if pair_room(&out.found, tested) < 0:
        out.failed = 1
        return -1
    pairs = out.found.ids
    while v < end:
        put_pair(pairs + 2 * kept, a, M.packed_id[v])
        kept += shapes_touch(shape, box, &M.packed[v]) | keep_all
        v += 1
    out.found.n = kept
    return tested


cdef inline double longest_side(const Box* b) noexcept nogil:
    # Slightly under the true side, so equal objects whose widths differ by a
    # rounding error share a level; the sqrt(factor) margin dwarfs the difference.
    cdef double w = b.maxx - b.minx, h = b.maxy - b.miny
    return (w if w > h else h) * (1.0 - 9.094947017729282e-13)


cdef inline double farthest(const Box* b) noexcept nogil:
    cdef double m = fabs(b.minx)
    if fabs(b.maxx) > m:
        m = fabs(b.maxx)
    if fabs(b.miny) > m:
        m = fabs(b.miny)
    if fabs(b.maxy) > m:
        m = fabs(b.maxy)
    return m


cdef class HierarchicalGrid(SpatialIndex):
    """Hierarchical spatial hash grid over integer ids: no cell size to tune.

    A new level gets cells of (longest side x sqrt(hierarchy_factor)); the next
    ones are `hierarchy_factor` times larger or smaller. Each object lives in one
    cell of the smallest level whose cells are at least sqrt(hierarchy_factor)
    times its longest side. Pairs are found by looking back over half of each
    cell's neighbourhood within a level and checking upward across levels only,
    on `threads` threads (the result does not depend on how many). Sizes up to
    1e150 and coordinates up to 1e160 (world units) are accepted.

    Parameters
    ----------
    hierarchy_factor : float
        Ratio of the cell sizes of neighbouring levels, from 1.1 to 1e6 (default 2).
    density : float
        Objects per table cell, in (0, 64] (default 0.125), past which a level's
        table doubles its side.
    threads : int
        From 1 to 256 (default 1): threads for batch moves and the pair pass
        (one where the core was built without OpenMP).

    Raises ValueError naming a bad argument. The methods raise as SpatialIndex
    says.

    Attributes
    ----------
    hierarchy_factor, density : float
    threads : int
        The arguments above (read-only).
    """
    cdef readonly double hierarchy_factor
    cdef readonly double density
    cdef double sqrt_factor
    cdef double log_factor
    cdef double log_base
    cdef bint has_base
    cdef Level* levels
    cdef int32_t* order         # level indices by ascending cell size
    cdef Py_ssize_t n_levels, levels_cap, order_cap
    cdef int32_t* level_of
    cdef int32_t* cell_of
    cdef int32_t* next
    cdef int32_t* prev
    cdef int32_t* slot          # index in its level's members
    cdef readonly int threads
    cdef PairChunk* chunks
    cdef Py_ssize_t chunks_cap, chunks_ready
    cdef Py_ssize_t growths     # level tables grown so far

    def __cinit__(self, hierarchy_factor=2.0, density=0.125, threads=1):
        f = check_finite(hierarchy_factor, "hierarchy_factor")
        if not 1.1 <= f <= 1e6:
            raise ValueError(f"hierarchy_factor must be a number from 1.1 to 1e6, got {hierarchy_factor!r}")
        d = check_finite(density, "density")
        if not 0.0 < d <= 64.0:
            raise ValueError(f"density must be a number in (0, 64] (objects per cell), got {density!r}")
        if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 256:
            raise ValueError(f"threads must be an int from 1 to 256, got {threads!r}")
        self.hierarchy_factor = f
        self.density = d
        self.threads = threads
        self.sqrt_factor = sqrt(f)
        self.log_factor = log(f)
        self.log_base = 0.0

    def __dealloc__(self):
        cdef Py_ssize_t k
        for k in range(self.n_levels):
            free(self.levels[k].head)
            free(self.levels[k].members)
            free(self.levels[k].occupied)
            free(self.levels[k].cell_start)
            free(self.levels[k].word_rank)
            free(self.levels[k].packed)
            free(self.levels[k].cover)
            free(self.levels[k].packed_id)
        for k in range(self.chunks_ready):
            free(self.chunks[k].found.ids)
            free(self.chunks[k].passed)
        free(self.chunks)
        free(self.levels)
        free(self.order)
        free(self.level_of)
        free(self.cell_of)
        free(self.next)
        free(self.prev)
        free(self.slot)

    def __repr__(self):
        return (f"HierarchicalGrid(hierarchy_factor={self.hierarchy_factor!r}, "
                f"density={self.density!r}, threads={self.threads}) with {self.n_live} objects in "
                f"{sum(1 for k in range(self.n_levels) if self.levels[k].n)} levels")

    cdef inline bint _serial(self, Py_ssize_t work) noexcept nogil:
        """Does a loop over `work` objects run on this thread alone?"""
        return self.threads == 1 or work < PARALLEL_WORK

    # ------------------------------------------------------------- levels

    cdef inline double _cell_of_exponent(self, int32_t exponent) noexcept nogil:
        return exp(self.log_base + exponent * self.log_factor)

    cdef inline double _need(self, const Box* b) noexcept nogil:
        """The smallest cell that fits the object: sqrt(factor) x its longest side;
        0 for a point."""
        cdef double need = longest_side(b) * self.sqrt_factor
        return SMALLEST_CELL if 0.0 < need < SMALLEST_CELL else need

    cdef int32_t _exponent_for(self, const Box* b) noexcept nogil:
        """The level an object belongs to: the smallest whose cells fit it (and
        coarse enough for its position)."""
        cdef double need = self._need(b), far = farthest(b)
        cdef int32_t exponent = 0
        if need > 0.0:
            exponent = <int32_t>ceil((log(need) - self.log_base) / self.log_factor)
            while self._cell_of_exponent(exponent) < need:
                exponent += 1
            while self._cell_of_exponent(exponent - 1) >= need:
                exponent -= 1
        elif self.n_levels:
            # A point fits any level: the finest one that already exists.
            exponent = self.levels[self.order[0]].exponent
        while far / self._cell_of_exponent(exponent) >= PRECISE_CELLS:
            exponent += 1
        return exponent

    cdef int32_t _level_index(self, int32_t exponent) noexcept nogil:
        """The level of this exponent, created if absent; -1 if out of memory."""
        cdef Py_ssize_t k, pos
        cdef Level* L
        for k in range(self.n_levels):
            if self.levels[k].exponent == exponent:
                return <int32_t>k
        if grow_array(<void**>&self.levels, &self.levels_cap, self.n_levels + 1, sizeof(Level)) < 0:
            return -1
        if grow_array(<void**>&self.order, &self.order_cap, self.n_levels + 1, sizeof(int32_t)) < 0:
            return -1
        L = &self.levels[self.n_levels]
        L.head = <int32_t*>malloc((<Py_ssize_t>1 << (2 * INITIAL_WBITS)) * sizeof(int32_t))
        L.occupied = new_occupancy(INITIAL_WBITS)
        if L.head == NULL or L.occupied == NULL:
            free(L.head)
            free(L.occupied)
            return -1
        memset(L.head, 0xFF, (<Py_ssize_t>1 << (2 * INITIAL_WBITS)) * sizeof(int32_t))
        L.cell = self._cell_of_exponent(exponent)
        L.inv = 1.0 / L.cell
        L.exponent = exponent
        L.wbits = INITIAL_WBITS
        L.mask = (1 << INITIAL_WBITS) - 1
        L.members = NULL
        L.n = L.cap = 0
        L.reach = 0.0
        L.cell_start = NULL
        L.word_rank = NULL
        L.packed = NULL
        L.packed_id = NULL
        L.packed_cap = L.cell_start_cap = L.word_rank_cap = 0
        L.cover = NULL
        L.cover_cap = 0
        pos = self.n_levels
        while pos > 0 and self.levels[self.order[pos - 1]].exponent > exponent:
            self.order[pos] = self.order[pos - 1]
            pos -= 1
        self.order[pos] = <int32_t>self.n_levels
        self.n_levels += 1
        return <int32_t>(self.n_levels - 1)

    cdef inline int32_t _cell_index(self, const Level* L, const Box* b) noexcept nogil:
        cdef int64_t cx = floor_int(b.minx * L.inv), cy = floor_int(b.miny * L.inv)
        return <int32_t>(((cy & L.mask) << L.wbits) | (cx & L.mask))

    cdef inline void _push_cell(self, Level* L, int32_t i, int32_t cell) noexcept nogil:
        cdef int32_t first = L.head[cell]
        self.next[i] = first
        self.prev[i] = -1
        if first >= 0:
            self.prev[first] = i
        else:
            L.occupied[cell >> 6] |= (<uint64_t>1) << (cell & 63)
        L.head[cell] = i
        self.cell_of[i] = cell

    cdef inline void _pop_cell(self, Level* L, int32_t i) noexcept nogil:
        cdef int32_t before = self.prev[i], after = self.next[i]
        if before >= 0:
            self.next[before] = after
        else:
            L.head[self.cell_of[i]] = after
            if after < 0:
                L.occupied[self.cell_of[i] >> 6] &= ~((<uint64_t>1) << (self.cell_of[i] & 63))
        if after >= 0:
            self.prev[after] = before

    cdef void _grow_table(self, Level* L) noexcept nogil:
        """Double each side and reinsert; if memory is short the level stays as is."""
        cdef int32_t bits = L.wbits + 1
        cdef Py_ssize_t cells = (<Py_ssize_t>1) << (2 * bits), k
        cdef int32_t* head
        cdef uint64_t* occupied
        if bits > 15:
            return
        head = <int32_t*>malloc(cells * sizeof(int32_t))
        occupied = new_occupancy(bits)
        if head == NULL or occupied == NULL:
            free(head)
            free(occupied)
            return
        memset(head, 0xFF, cells * sizeof(int32_t))
        free(L.head)
        free(L.occupied)
        L.head = head
        L.occupied = occupied
        self.growths += 1
        L.wbits = bits
        L.mask = (1 << bits) - 1
        for k in range(L.n):
            self._push_cell(L, L.members[k], self._cell_index(L, &self.body[L.members[k]].box))

    cdef int _reserve_member(self, int32_t level) noexcept nogil:
        cdef Level* L = &self.levels[level]
        return grow_array(<void**>&L.members, &L.cap, L.n + 1, sizeof(int32_t))

    cdef void _enter_level(self, int32_t level, int32_t i) noexcept nogil:
        """Room for one more member must have been reserved."""
        cdef Level* L = &self.levels[level]
        if <double>(L.n + 1) > self.density * <double>((<Py_ssize_t>1) << (2 * L.wbits)):
            self._grow_table(L)
        L.members[L.n] = i
        self.slot[i] = <int32_t>L.n
        L.n += 1
        if longest_side(&self.body[i].box) > L.reach:
            L.reach = longest_side(&self.body[i].box)
        self.level_of[i] = level
        self._push_cell(L, i, self._cell_index(L, &self.body[i].box))

    cdef void _leave_level(self, int32_t i) noexcept nogil:
        cdef Level* L = &self.levels[self.level_of[i]]
        cdef int32_t slot = self.slot[i], last
        self._pop_cell(L, i)
        L.n -= 1
        last = L.members[L.n]
        L.members[slot] = last
        self.slot[last] = slot

    # ------------------------------------------------------------- the hooks

    cdef int _grow_objects(self, Py_ssize_t old_cap, Py_ssize_t new_cap) noexcept nogil:
        if grow_to(<void**>&self.level_of, old_cap, new_cap, sizeof(int32_t)) < 0 \
                or grow_to(<void**>&self.cell_of, old_cap, new_cap, sizeof(int32_t)) < 0 \
                or grow_to(<void**>&self.next, old_cap, new_cap, sizeof(int32_t)) < 0 \
                or grow_to(<void**>&self.prev, old_cap, new_cap, sizeof(int32_t)) < 0 \
                or grow_to(<void**>&self.slot, old_cap, new_cap, sizeof(int32_t)) < 0:
            return -1
        return 0

    cdef int _check_placement(self, const Box* b) noexcept nogil:
        if self._need(b) > LARGEST_CELL or farthest(b) > FARTHEST:
            return OUT_OF_RANGE
        return INPUT_OK

    cdef double _safe_magnitude(self) noexcept nogil:
        # A box of such numbers reaches at most twice this far and is at most twice
        # this long: a quarter of each limit leaves room for rounding.
        cdef double sizes = LARGEST_CELL / (4.0 * self.sqrt_factor)
        return sizes if sizes < FARTHEST / 4.0 else FARTHEST / 4.0

    cdef int _attach(self, int32_t i) noexcept nogil:
        cdef int32_t level
        cdef double need
        if not self.has_base:
            need = self._need(&self.body[i].box)
            # Nudged up, so objects a rounding error larger than the first still fit.
            self.log_base = log(need * (1.0 + 1.8189894035458565e-12)) if need > 0.0 else 0.0
            self.has_base = True
        level = self._level_index(self._exponent_for(&self.body[i].box))
        if level < 0 or self._reserve_member(level) < 0:
            return -1
        self._enter_level(level, i)
        return 0

    cdef inline bint _fits(self, const Level* L, const Box* box) noexcept nogil:
        """Is L the level an object with this box belongs to?"""
        cdef double need = self._need(box)
        return L.cell >= need and farthest(box) * L.inv < PRECISE_CELLS \
            and (need == 0.0 or L.cell / self.hierarchy_factor < need)

    cdef int _move(self, int32_t i, const Body* b) noexcept nogil:
        """Re-inserts only when the object's level or cell changes."""
        cdef int32_t level = self.level_of[i], target, cell
        cdef Level* L = &self.levels[level]
        if self._fits(L, &b.box):
            if longest_side(&b.box) > L.reach:
                L.reach = longest_side(&b.box)
            self.body[i] = b[0]
            cell = self._cell_index(L, &b.box)
            if cell != self.cell_of[i]:
                self._pop_cell(L, i)
                self._push_cell(L, i, cell)
            return 0
        target = self._level_index(self._exponent_for(&b.box))
        if target < 0 or self._reserve_member(target) < 0:
            return -1
        self._leave_level(i)
        self.body[i] = b[0]
        self._enter_level(target, i)
        return 0

    cdef inline int32_t _settle(self, int32_t i, const Body* b) noexcept nogil:
        """First half of a batch move, safe to run for many objects at once: if
        the object keeps its level and stays within the level's reach, give it
        body b and return its new cell (the list links are left to the second
        half); otherwise change nothing and return -1."""
        cdef const Level* L = &self.levels[self.level_of[i]]
        if longest_side(&b.box) <= L.reach and self._fits(L, &b.box):
            self.body[i] = b[0]
            return self._cell_index(L, &b.box)
        return -1

    cdef int _move_rows(self, const int64_t[::1] ids, const double[:, ::1] rows,
                        const double[::1] radii) noexcept nogil:
        """Two halves: every object that keeps its level takes its new body and
        notes its new cell (on `threads` threads: each row writes only its own
        object, ids being distinct); then, in row order, objects whose cell
        changed are relinked and the rest move one by one. The result is the
        same for any thread count."""
        cdef Py_ssize_t k, n = ids.shape[0], growths = self.growths
        cdef Rows batch = rows_of(rows, radii)
        cdef int32_t i, cell
        cdef Level* L
        cdef Body b
        cdef double started = now_ms(), settled
        if grow_array(<void**>&self.row_state, &self.row_state_cap, n, sizeof(int32_t)) < 0:
            return -1
        if self._serial(n):
            for k in range(n):
                self.row_state[k] = self._settle_row(<int32_t>ids[k], &batch, k)
        else:
            for k in prange(n, num_threads=self.threads, schedule="dynamic", chunksize=PARALLEL_CHUNK):
                self.row_state[k] = self._settle_row(<int32_t>ids[k], &batch, k)
        settled = now_ms()
        for k in range(n):
            if k + MOVE_LOOKAHEAD < n and self.row_state[k + MOVE_LOOKAHEAD] >= 0:
                i = <int32_t>ids[k + MOVE_LOOKAHEAD]
                prefetch(&self.levels[self.level_of[i]].head[self.row_state[k + MOVE_LOOKAHEAD]])
            i = <int32_t>ids[k]
            cell = self.row_state[k]
            if cell >= 0:
                L = &self.levels[self.level_of[i]]
                if self.growths != growths:
                    # A table grew under the first half's cells: recompute.
                    cell = self._cell_index(L, &self.body[i].box)
                if cell != self.cell_of[i]:
                    self._pop_cell(L, i)
                    self._push_cell(L, i, cell)
            else:
                body_of_row(&batch, k, &b)
                if self._move(i, &b) < 0:
                    return -1
        self._phase_times(started, settled)
        return 0

    cdef inline int32_t _settle_row(self, int32_t i, const Rows* batch, Py_ssize_t k) noexcept nogil:
        cdef Body b
        body_of_row(batch, k, &b)
        return self._settle(i, &b)

    cdef void _detach(self, int32_t i) noexcept nogil:
        self._leave_level(i)

    cdef void _reset(self) noexcept nogil:
        cdef Py_ssize_t k
        for k in range(self.n_levels):
            memset(self.levels[k].head, 0xFF,
                   ((<Py_ssize_t>1) << (2 * self.levels[k].wbits)) * sizeof(int32_t))
            memset(self.levels[k].occupied, 0,
                   occupancy_words(self.levels[k].wbits) * sizeof(uint64_t))
            self.levels[k].n = 0
            self.levels[k].reach = 0.0

    # ------------------------------------------------------------- queries

    cdef inline void _visit(self, const Query* q, const Level* L, int64_t cx, int64_t cy) noexcept nogil:
        cdef int32_t obj = L.head[((cy & L.mask) << L.wbits) | (cx & L.mask)]
        while obj >= 0:
            self._take(q, obj)
            obj = self.next[obj]

    cdef void _collect(self, Query* q) noexcept nogil:
        """Each object lives in one cell and no table cell is visited twice (the
        ranges are cut to the table's side), so nothing is offered twice."""
        cdef Py_ssize_t rank, k
        cdef const Level* L
        cdef Box reach = q.box, lead
        cdef double cell, x0, y0, x1, y1, side
        cdef int64_t cx, cy, first_row, last_row
        cdef bint scan
        self.out_n = 0
        if q.kind == Q_SWEPT:
            swept_reach(&q.box, q.dx, q.dy, &reach)
        for rank in range(self.n_levels):
            L = &self.levels[self.order[rank]]
            if L.n == 0:
                continue
            cell = L.cell
            side = <double>((<int64_t>1) << L.wbits)
            # An object of this level overlapping the query has its min corner at
            # most one cell before the query's: those are the cells to visit.
            x0 = floor(reach.minx * L.inv) - 1.0
            y0 = floor(reach.miny * L.inv) - 1.0
            x1 = floor(reach.maxx * L.inv)
            y1 = floor(reach.maxy * L.inv)
            # Scan the level's objects when its cells cannot be named precisely,
            # when a swept query would wrap around the table (columns would mix
            # different stretches of the path), or when there are fewer objects
            # than cells to visit.
            scan = not (fabs(x0) < PRECISE_CELLS and fabs(y0) < PRECISE_CELLS
                        and fabs(x1) < PRECISE_CELLS and fabs(y1) < PRECISE_CELLS)
            if x1 - x0 >= side:
                scan = scan or q.kind == Q_SWEPT
                x1 = x0 + side - 1.0
            if y1 - y0 >= side:
                y1 = y0 + side - 1.0
            if scan or scan_beats_visit(x1 - x0 + 1.0, y1 - y0 + 1.0, L.n):
                for k in range(L.n):
                    self._take(q, L.members[k])
            elif q.kind == Q_SWEPT:
                lead = q.box
                lead.minx -= cell
                lead.miny -= cell
                for cx in range(<int64_t>x0, <int64_t>x1 + 1):
                    # Within y0 .. y1, fewer rows than the table's side: no table cell twice.
                    if swept_column_rows(&lead, q.dx, q.dy, cx * cell, (cx + 1) * cell,
                                         0.0, L.inv, False, <int64_t>y0, <int64_t>y1,
                                         &first_row, &last_row):
                        for cy in range(first_row, last_row + 1):
                            self._visit(q, L, cx, cy)
            else:
                for cy in range(<int64_t>y0, <int64_t>y1 + 1):
                    for cx in range(<int64_t>x0, <int64_t>x1 + 1):
                        self._visit(q, L, cx, cy)

    # --------------------------------------------------------------- pairs

    cdef int _pack(self, Level* L) noexcept nogil:
        """Lay the level's bodies and ids out in cell order, noting where each
        occupied cell's run starts."""
        cdef Py_ssize_t w, k = 0, count = 0, cap
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
        # Ids first (the lists and `next` are small and cache-resident), then the
        # bodies, whose scattered loads can be prefetched once the order is known.
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
        if self._serial(L.n):
            for k in range(L.n):
                if k + PACK_LOOKAHEAD < L.n:
                    prefetch(&self.body[L.packed_id[k + PACK_LOOKAHEAD]])
                shape_of(&self.body[L.packed_id[k]], &L.packed[k])
        else:
            for k in prange(L.n, num_threads=self.threads, schedule="dynamic", chunksize=PARALLEL_CHUNK):
                if k + PACK_LOOKAHEAD < L.n:
                    prefetch(&self.body[L.packed_id[k + PACK_LOOKAHEAD]])
                shape_of(&self.body[L.packed_id[k]], &L.packed[k])
        return 0

    cdef int _cover(self, Level* M) noexcept nogil:
        """Set M's cover bits: every sub-cell each of its objects' boxes overlaps."""
        cdef int32_t bits = 3
        cdef int64_t mask, sx, sy, sx0, sx1, sy0, sy1, b
        cdef Py_ssize_t k, words
        cdef Box box
        while (<Py_ssize_t>1) << (2 * bits) < COVER_BITS_PER_OBJECT * M.n and bits < COVER_MAX_BITS:
            bits += 1
        words = occupancy_words(bits)
        if grow_array(<void**>&M.cover, &M.cover_cap, words, sizeof(uint64_t)) < 0:
            return -1
        memset(M.cover, 0, words * sizeof(uint64_t))
        M.cover_bits = bits
        mask = ((<int64_t>1) << bits) - 1
        for k in range(M.n):
            shape_box(&M.packed[k], &box)
            sx0 = floor_int(box.minx * M.cover_inv)
            sx1 = floor_int(box.maxx * M.cover_inv)
            sy0 = floor_int(box.miny * M.cover_inv)
            sy1 = floor_int(box.maxy * M.cover_inv)
            # A box wider than the table sets every column: clip, not wrap twice.
            if sx1 - sx0 > mask:
                sx1 = sx0 + mask
            if sy1 - sy0 > mask:
                sy1 = sy0 + mask
            for sy in range(sy0, sy1 + 1):
                for sx in range(sx0, sx1 + 1):
                    b = ((sy & mask) << bits) | (sx & mask)
                    M.cover[b >> 6] |= (<uint64_t>1) << (b & 63)
        return 0

    cdef int _find_pairs(self) noexcept nogil:
        """Pack every level, cut the levels' occupied cells into chunks, find each
        chunk's pairs (on up to `threads` threads: chunks only read the packed
        levels and write their own buffers), then join the buffers in chunk order,
        so the result does not depend on the thread count or scheduling."""
        cdef Py_ssize_t r, k, n_chunks = 0, pieces, words, total = 0, tested = 0
        cdef PairChunk* chunk
        cdef int failed = 0
        cdef Py_ssize_t finer = 0
        cdef Level* M
        for r in range(self.n_levels):
            if self.levels[r].n and self._pack(&self.levels[r]) < 0:
                return -1
        for r in range(self.n_levels):
            M = &self.levels[self.order[r]]
            # A cover costs a few bits per object of its level and saves a window
            # search per finer object it turns away: built only where those are many.
            M.cover_inv = M.inv * COVER_SPLIT
            M.cover_bits = 0
            if M.n and finer >= M.n and self._cover(M) < 0:
                return -1
            finer += M.n
        for r in range(self.n_levels):
            if self.levels[self.order[r]].n == 0:
                continue
            words = occupancy_words(self.levels[self.order[r]].wbits)
            pieces = min(words, LEVEL_CHUNKS)
            if grow_array(<void**>&self.chunks, &self.chunks_cap, n_chunks + pieces,
                          sizeof(PairChunk)) < 0:
                return -1
            for k in range(pieces):
                chunk = &self.chunks[n_chunks]
                if n_chunks >= self.chunks_ready:
                    chunk.found.ids = NULL
                    chunk.found.cap = 0
                    chunk.passed = NULL
                    chunk.passed_cap = 0
                    self.chunks_ready += 1
                chunk.rank = r
                chunk.keep_all = self.keep_candidates
                chunk.w0 = words * k // pieces
                chunk.w1 = words * (k + 1) // pieces
                n_chunks += 1
        if self._serial(self.n_live):
            for k in range(n_chunks):
                self._chunk_pairs(&self.chunks[k])
        else:
            for k in prange(n_chunks, num_threads=self.threads, schedule="dynamic", chunksize=1):
                self._chunk_pairs(&self.chunks[k])
        for k in range(n_chunks):
            failed = failed | self.chunks[k].failed
            total += self.chunks[k].found.n
            tested += self.chunks[k].tested
        self.found.n = 0
        if failed or pair_room(&self.found, total) < 0:
            return -1
        for k in range(n_chunks):
            memcpy(self.found.ids + 2 * self.found.n, self.chunks[k].found.ids,
                   2 * self.chunks[k].found.n * sizeof(int32_t))
            self.found.n += self.chunks[k].found.n
        self.broad_phase_pairs = tested
        self.narrow_phase_checks = tested
        self.hits = total
        return 0

    cdef void _chunk_pairs(self, PairChunk* out) noexcept nogil:
        """The pairs of the objects in one chunk of one level's occupied cells:
        within the level the rest of each cell and the half of its neighbourhood
        behind it (the three cells of the row above, the cell to the left), so
        each pair of cells meets once; then across levels, upward only, one
        coarser level at a time."""
        cdef const Level* L = &self.levels[self.order[out.rank]]
        cdef Py_ssize_t up, u, w, nth, start, end, left, left_end, tested = 0, t
        cdef Py_ssize_t above[4]       # the row above: one run, or two where it wraps
        cdef const Level* ups[UPWARD_GROUP]
        cdef int n_up
        cdef int64_t c, cx, cy, mask = L.mask
        cdef int32_t bits = L.wbits, a, k, n_above
        cdef uint64_t word
        cdef const Shape* shape
        cdef Box box
        out.found.n = out.tested = 0
        out.failed = 0
        if out.w0 >= out.w1:
            return
        nth = L.word_rank[out.w0]     # this chunk's first occupied cell
        for w in range(out.w0, out.w1):
            word = L.occupied[w]
            while word:
                c = (w << 6) | count_trailing_zeros(word)
                word &= word - 1
                cx = c & mask
                cy = c >> bits
                start = L.cell_start[nth]
                end = L.cell_start[nth + 1]
                nth += 1
                # Row above, cells cx - 1 .. cx + 1: one run, or two where it wraps.
                c = ((cy - 1) & mask) << bits
                if 0 < cx < mask:
                    above[0] = run_begin(L, c | (cx - 1))
                    above[1] = run_begin(L, (c | (cx + 1)) + 1)
                    n_above = 2
                else:
                    above[0] = run_begin(L, c | ((cx - 1) & mask))
                    above[1] = run_begin(L, c + mask + 1) if cx == 0 else run_begin(L, (c | mask) + 1)
                    above[2] = run_begin(L, c)
                    above[3] = run_begin(L, (c | ((cx + 1) & mask)) + 1)
                    n_above = 4
                c = (cy << bits) | ((cx - 1) & mask)
                left = run_begin(L, c)
                left_end = start if cx > 0 else run_begin(L, c + 1)
                for u in range(start, end):
                    a = L.packed_id[u]
                    shape = &L.packed[u]
                    shape_box(shape, &box)
                    t = test_run(shape, &box, a, L, u + 1, end, out)
                    for k in range(0, n_above, 2):
                        t |= test_run(shape, &box, a, L, above[k], above[k + 1], out)
                        tested += above[k + 1] - above[k]
                    t |= test_run(shape, &box, a, L, left, left_end, out)
                    if t < 0:
                        return
                    tested += (end - u - 1) + (left_end - left)
        start = L.cell_start[L.word_rank[out.w0]]
        end = L.cell_start[L.word_rank[out.w1]]
        n_up = 0
        for up in range(out.rank + 1, self.n_levels):
            if self.levels[self.order[up]].n:
                ups[n_up] = &self.levels[self.order[up]]
                n_up += 1
            if n_up == UPWARD_GROUP or (n_up and up == self.n_levels - 1):
                t = self._upward_pairs(start, end, L, ups, n_up, out)
                if t < 0:
                    return
                tested += t
                n_up = 0
        out.tested = tested

    cdef Py_ssize_t _upward_pairs(self, Py_ssize_t start, Py_ssize_t end, const Level* L,
                                  const Level** ups, int n_up, PairChunk* out) noexcept nogil:
        """Test L's packed objects start .. end-1 against the coarser levels ups:
        each object against the objects of the cells that can reach it, unless
        the level's cover bitmap says none can. Two passes: the cheap cover test
        of every object and level, noting the objects that pass for each level;
        then their searches, level by level. Returns the number of tests, -1 if
        out of memory."""
        cdef const Level* M
        cdef double pad
        cdef int64_t mask, side, ux0, ux1, uy, uy0, uy1, row, lo, hi
        cdef int64_t sx, sy, sx0, sx1, sy0, sy1, b
        cdef int32_t bits, a
        cdef Py_ssize_t u, j, n = end - start, tested = 0, v, e, t = 0
        cdef Py_ssize_t n_passed[UPWARD_GROUP]
        cdef const int64_t* passed
        cdef const Shape* shape
        cdef Box box
        cdef int covered, m
        # The covers' parameters, copied where no write through `out` can alias them.
        cdef const uint64_t* cover[UPWARD_GROUP]
        cdef double cover_inv[UPWARD_GROUP]
        cdef int64_t cover_mask[UPWARD_GROUP]
        cdef int32_t cover_bits[UPWARD_GROUP]
        if grow_array(<void**>&out.passed, &out.passed_cap, n * n_up, sizeof(int64_t)) < 0:
            out.failed = 1
            return -1
        for m in range(n_up):
            n_passed[m] = 0
            cover[m] = ups[m].cover
            cover_inv[m] = ups[m].cover_inv
            cover_bits[m] = ups[m].cover_bits
            cover_mask[m] = ((<int64_t>1) << ups[m].cover_bits) - 1
        for u in range(start, end):
            shape_box(&L.packed[u], &box)
            for m in range(n_up):
                covered = 1
                if cover_bits[m]:
                    sx0 = floor_int(box.minx * cover_inv[m])
                    sx1 = floor_int(box.maxx * cover_inv[m])
                    sy0 = floor_int(box.miny * cover_inv[m])
                    sy1 = floor_int(box.maxy * cover_inv[m])
                    if sx0 == sx1 and sy0 == sy1:     # most finer objects: one sub-cell
                        b = ((sy0 & cover_mask[m]) << cover_bits[m]) | (sx0 & cover_mask[m])
                        covered = (cover[m][b >> 6] >> (b & 63)) & 1
                    elif (sx1 - sx0 + 1) * (sy1 - sy0 + 1) <= COVER_CHECKS:
                        covered = 0
                        for sy in range(sy0, sy1 + 1):
                            for sx in range(sx0, sx1 + 1):
                                b = ((sy & cover_mask[m]) << cover_bits[m]) | (sx & cover_mask[m])
                                covered = covered | ((cover[m][b >> 6] >> (b & 63)) & 1)
                out.passed[m * n + n_passed[m]] = u
                n_passed[m] += covered
        for m in range(n_up):
            M = ups[m]
            # M's objects reach at most M.reach past their cell's corner (padded
            # for the shaved sides and rounding).
            pad = M.reach * 1.001
            mask = M.mask
            side = mask + 1
            bits = M.wbits
            passed = out.passed + m * n
            for j in range(n_passed[m]):
                u = passed[j]
                shape = &L.packed[u]
                a = L.packed_id[u]
                shape_box(shape, &box)
                ux0 = floor_int((box.minx - pad) * M.inv)
                uy0 = floor_int((box.miny - pad) * M.inv)
                ux1 = floor_int(box.maxx * M.inv)
                uy1 = floor_int(box.maxy * M.inv)
                if ux1 - ux0 >= side:
                    ux1 = ux0 + side - 1
                if uy1 - uy0 >= side:
                    uy1 = uy0 + side - 1
                lo = ux0 & mask
                hi = ux1 & mask
                for uy in range(uy0, uy1 + 1):
                    row = (uy & mask) << bits
                    if lo <= hi:
                        v = run_begin(M, row | lo)
                        e = run_begin(M, (row | hi) + 1)
                        t |= test_run(shape, &box, a, M, v, e, out)
                        tested += e - v
                    else:
                        # The window wraps around the table: its right part, then its left.
                        v = run_begin(M, row | lo)
                        e = run_begin(M, row + side)
                        t |= test_run(shape, &box, a, M, v, e, out)
                        tested += e - v
                        v = run_begin(M, row)
                        e = run_begin(M, (row | hi) + 1)
                        t |= test_run(shape, &box, a, M, v, e, out)
                        tested += e - v
                if t < 0:
                    return -1
        return tested

    # ------------------------------------------------------------- validation

    cdef int _validate_placement(self) except -1:
        """Levels are in ascending order with consistent tables; each live object
        is a member of one level, fits its cells, lies in the cell its box names,
        and is on that cell's list exactly once; occupancy bits match the lists."""
        cdef Py_ssize_t r, li, k, c, i, listed, total = 0
        cdef int32_t before
        cdef const Level* L
        cdef bytearray ranked = bytearray(self.n_levels)
        for r in range(self.n_levels):
            li = self.order[r]
            if not 0 <= li < self.n_levels or ranked[li] or \
                    (r and self.levels[self.order[r - 1]].exponent >= self.levels[li].exponent):
                self._broken(f"order[{r}] = {li}: levels are not in ascending order of cell size")
            ranked[li] = 1
        for li in range(self.n_levels):
            L = &self.levels[li]
            if not (INITIAL_WBITS <= L.wbits <= 15 and L.mask == (1 << L.wbits) - 1) \
                    or L.cell != self._cell_of_exponent(L.exponent) or L.inv != 1.0 / L.cell \
                    or not 0 <= L.n <= L.cap or L.occupied[occupancy_words(L.wbits)] != 0:
                self._broken(f"level {li}: cell {L.cell} (exponent {L.exponent}), "
                             f"{1 << L.wbits} cells a side, {L.n} members of {L.cap}")
            total += L.n
            for k in range(L.n):
                i = L.members[k]
                if not (0 <= i < self.obj_hi and self.live[i]) or self.level_of[i] != li \
                        or self.slot[i] != k:
                    self._broken(f"level {li} member {k} is id {i}")
            listed = 0
            for c in range((<Py_ssize_t>1) << (2 * L.wbits)):
                if is_occupied(L, c) != (L.head[c] >= 0):
                    self._broken(f"level {li} cell {c}: occupied bit {is_occupied(L, c)}, "
                                 f"first object {L.head[c]}")
                i = L.head[c]
                before = -1
                while i >= 0:
                    if not (0 <= i < self.obj_hi and self.live[i]) or self.level_of[i] != li \
                            or self.cell_of[i] != c or self.prev[i] != before:
                        self._broken(f"level {li} cell {c} lists id {i} after {before}")
                    listed += 1
                    if listed > L.n:
                        self._broken(f"level {li}: its cells list more than its {L.n} members")
                    before = <int32_t>i
                    i = self.next[i]
            if listed != L.n:
                self._broken(f"level {li}: its cells list {listed} of its {L.n} members")
        if total != self.n_live:
            self._broken(f"the levels hold {total} members for {self.n_live} live ids")
        for i in range(self.obj_hi):
            if not self.live[i]:
                continue
            li = self.level_of[i]
            if not 0 <= li < self.n_levels or self.levels[li].members[self.slot[i]] != i:
                self._broken(f"id {i}: level {li}, member slot {self.slot[i]}")
            L = &self.levels[li]
            if not (L.cell >= self._need(&self.body[i].box)
                    and farthest(&self.body[i].box) * L.inv < PRECISE_CELLS
                    and longest_side(&self.body[i].box) <= L.reach):
                self._broken(f"id {i} with box {self.body[i].box} does not fit the cells of "
                             f"level {li} (cell {L.cell}, reach {L.reach})")
            if self.cell_of[i] != self._cell_index(L, &self.body[i].box):
                self._broken(f"id {i} is in cell {self.cell_of[i]} of level {li} but its box "
                             f"is in cell {self._cell_index(L, &self.body[i].box)}")
        return 0

    cdef bint _corrupt_placement(self, str what):
        cdef Py_ssize_t li
        cdef Level* L
        cdef int32_t i
        for li in range(self.n_levels):
            if self.levels[li].n:
                break
        else:
            return False
        L = &self.levels[li]
        i = L.members[0]
        if what == "level_members":
            L.members[0] = <int32_t>self.obj_hi
        elif what == "member_slot":
            self.slot[i] += 1
        elif what == "cell_of":
            self.cell_of[i] ^= 1
        elif what == "cell_list":
            self.next[i] = i
        elif what == "occupied":
            L.occupied[self.cell_of[i] >> 6] ^= (<uint64_t>1) << (self.cell_of[i] & 63)
        elif what == "level_count":
            L.n -= 1
        elif what == "level_order" and self.n_levels > 1:
            self.order[0], self.order[1] = self.order[1], self.order[0]
        elif what == "reach" and longest_side(&self.body[i].box) > 0.0:
            L.reach = 0.0
        elif what == "level_cell":
            L.cell *= 2.0
        else:
            return False
        return True

    # -------------------------------------------------------------- extras

    def level_of_id(self, object_id):
        """(cell_size, exponent) of the level an object lives in: its cell side in
        world units (float) and the int e for which cell_size is base x
        hierarchy_factor ** e, the base being set by the first object ever added
        (just over sqrt(hierarchy_factor) x its longest side; 1 for a point).
        Raises KeyError for an unknown id,
        RuntimeError if another thread's call holds the index."""
        self._idle()
        cdef const Level* L = &self.levels[self.level_of[self._check_id(object_id)]]
        return (L.cell, L.exponent)

    def stats(self):
        """Occupancy figures in the schema both grids share (see UniformGrid.stats).
        Every object lives in one cell of one level (memberships == objects) and
        there is no large-object list; a level's table is direct-mapped, so a
        lookup reads one slot, and a cell's objects are the world cells that wrap
        onto the same slot. `levels` runs from the finest cell size to the coarsest."""
        cdef Py_ssize_t r, c, occupied, cells = 0, most = 0, length
        cdef int32_t i
        cdef const Level* L
        levels = []
        self._claim()       # the list grows as it is read: Python code can run meanwhile
        try:
            for r in range(self.n_levels):
                L = &self.levels[self.order[r]]
                occupied = 0
                for c in range((<Py_ssize_t>1) << (2 * L.wbits)):
                    if is_occupied(L, c):
                        occupied += 1
                        length = 0
                        i = L.head[c]
                        while i >= 0:
                            length += 1
                            i = self.next[i]
                        if length > most:
                            most = length
                cells += occupied
                levels.append({"cell_size": L.cell, "grid": 1 << L.wbits, "objects": L.n,
                               "occupied_cells": occupied})
            return occupancy(self.n_live, cells, self.n_live, most, 0, 1 if cells else 0,
                             levels, self)
        finally:
            self.busy = False
