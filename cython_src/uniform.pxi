# The uniform spatial hash: cells of one size, the user's. An object covers the
# cells of its box (its cell range) but is stored once, on the list of its home
# cell, the one holding its box's min corner, in a wrapped table (a Level, see
# cell_lists.pxi): moving it is a constant-time relink, and only when its min
# corner changes cell. No object in the table spans more than span_x columns
# and span_y rows past its home, so a query finds whatever shares a cell with
# its range among the home cells up to that far before it, keeping what truly
# does; the pair pass tests each object against the objects at home in the
# cells of its range and, in its range's later rows, up to span_x cells left of
# it, keeping the pairs whose ranges meet. Objects covering more than
# `large_threshold` cells on a side live on a side list instead.

cdef enum:
    # The table doubles its side once it holds more small objects than cells:
    # the lists of an evenly filled world stay about one object long, and the
    # pair pass walks no more cells than objects.
    TABLE_LOAD_DIVISOR = 1


cdef inline bint ranges_meet(const CellRange* a, const CellRange* b) noexcept nogil:
    return a.x0 <= b.x1 and b.x0 <= a.x1 and a.y0 <= b.y1 and b.y0 <= a.y1


cdef inline Py_ssize_t meeting_run(bint exact_homes, const CellRange* cells, int32_t u,
                                   const Filter* own, const Level* L, const CellRange* ranges,
                                   Py_ssize_t v, Py_ssize_t end, int32_t* out,
                                   Py_ssize_t n) noexcept nogil:
    """Write (u, v) at out[2 * n] for each of L's packed objects v .. end-1
    (their ranges in `ranges`) whose range meets `cells`, the range of packed
    object u, and whose filter passes with u's `own` (NULL: every object has
    the default); returns the new n. out must have room for end - v more.
    With exact_homes (the packed objects are at home in u's window in the
    world, not only in the wrapped table; no filters), ranges meet unless
    the other one ends left of u's. No branch depends on the data."""
    # Locals, not reads through the pointers: the candidates written below are
    # int32s too, so the compiler would otherwise read them again after each.
    cdef int32_t x0 = cells.x0, y0 = cells.y0, x1 = cells.x1, y1 = cells.y1
    cdef const CellRange* r
    cdef bint meet
    if exact_homes:
        while v < end:
            out[2 * n] = u
            out[2 * n + 1] = <int32_t>v
            n += ranges[v].x1 >= x0
            v += 1
    else:
        while v < end:
            r = &ranges[v]
            meet = (x0 <= r.x1) & (r.x0 <= x1) & (y0 <= r.y1) & (r.y0 <= y1)
            if own != NULL:
                meet = meet & filters_pass(own, &L.packed_filter[v])
            out[2 * n] = u
            out[2 * n + 1] = <int32_t>v
            n += meet
            v += 1
    return n


cdef inline int64_t cell_key(int32_t cx, int32_t cy) noexcept nogil:
    return (<int64_t>cx << 32) | <int64_t>(<uint32_t>cy)


cdef inline Py_ssize_t cell_meetings(const CellRange* ranges, Py_ssize_t start, Py_ssize_t end,
                                     Py_ssize_t right_end, Py_ssize_t below_begin,
                                     Py_ssize_t below_end, Py_ssize_t below_wide_end,
                                     int32_t* out, Py_ssize_t n) noexcept nogil:
    """The meeting pairs (u, v) of the packed objects start .. end-1 of one
    cell, at out[2 * n] (which has room for all), where no range is over two
    cells a side and homes are exact: an object's range meets every object
    after it in its cell and, if it is two cells wide, in the cell to the
    right (whose objects end at right_end); if it is two cells tall, those in
    the row below from the cell to the left (from below_begin) through its own
    column (to below_end) or the next (to below_wide_end) whose ranges reach
    its column. Returns the new n. Each object's two runs are walked as one,
    and which runs it takes is chosen by arithmetic: whether a range is two
    cells wide or tall is a coin toss that a branch would mispredict."""
    cdef Py_ssize_t u, v, t, first, more
    cdef int32_t x0
    cdef bint wide, tall
    for u in range(start, end):
        x0 = ranges[u].x0
        wide = ranges[u].x1 > x0
        tall = ranges[u].y1 > ranges[u].y0
        first = end + wide * (right_end - end) - u - 1
        more = first + tall * (below_end - below_begin + wide * (below_wide_end - below_end))
        for t in range(more):
            v = u + 1 + t + (t >= first) * (below_begin - u - 1 - first)
            out[2 * n] = <int32_t>u
            out[2 * n + 1] = <int32_t>v
            n += (t < first) | (ranges[v].x1 >= x0)
    return n


cdef object covered_cells(const CellRange* ranges, const int32_t* members, Py_ssize_t n):
    """(keys, counts): every cell covered by the ranges ranges[members[k]] for
    k < n (ranges[k] if members is NULL), as cx << 32 | (cy mod 2**32) in
    ascending order, and how many of them cover it."""
    cdef Py_ssize_t k, m = 0
    cdef int32_t cx, cy
    cdef const CellRange* r
    for k in range(n):
        r = &ranges[members[k] if members != NULL else k]
        m += (<Py_ssize_t>r.x1 - r.x0 + 1) * (r.y1 - r.y0 + 1)
    keys = np.empty(m, dtype=np.int64)
    cdef int64_t[::1] out = keys
    m = 0
    for k in range(n):
        r = &ranges[members[k] if members != NULL else k]
        for cy in range(r.y0, r.y1 + 1):
            for cx in range(r.x0, r.x1 + 1):
                out[m] = cell_key(cx, cy)
                m += 1
    return np.unique(keys, return_counts=True)


@cython.final
cdef class UniformGrid(_CellLists):
    """Uniform spatial hash over integer ids, with a Python handle stored per id.

    Cell (cx, cy) is the square of side cell_size whose corner is
    origin + (cx, cy) * cell_size: a coordinate v lies in cell
    floor((v - origin) / cell_size). Cell coordinates are ints within +-2**30.
    Each object covers every cell its box touches (its cell range); objects
    covering more than `large_threshold` cells on a side live on a large-object
    list instead.

    Parameters
    ----------
    cell_size : float
        Side of a cell in world units, positive and finite (default 64).
    origin : (x, y) pair or Vector2
        Where cell (0, 0) starts, in world units (default (0, 0)).
    large_threshold : int
        Cells per side, from 1 to 64 (default 4), beyond which an object goes to
        the large-object list.

    Raises ValueError naming a bad argument, TypeError if `origin` is not a pair
    or a Vector2, MemoryError. The methods raise as SpatialIndex says.

    Attributes
    ----------
    cell_size, origin_x, origin_y : float
        The arguments above (read-only), in world units.
    large_threshold : int
        Likewise, in cells.
    """
    # 1 / cell_size, and whether multiplying by it is dividing by cell_size (a
    # power of two): then cells of placed boxes cost a product, not a quotient.
    # No object in the table covers more columns (rows) than this past its home:
    # widened as objects arrive or grow, made exact again by each pair pass.

    def __cinit__(self, cell_size=64.0, origin=(0.0, 0.0), large_threshold=4):
        cdef int exponent
        self.cell_size = check_cell_size(cell_size)
        ox, oy = read_vec2(origin, "origin")
        self.origin_x = check_finite(ox, "origin.x")
        self.origin_y = check_finite(oy, "origin.y")
        if not isinstance(large_threshold, int) or not 1 <= large_threshold <= 64:
            raise ValueError(
                f"large_threshold must be an int from 1 to 64 (cells per side), got {large_threshold!r}")
        self.large_threshold = large_threshold
        self.inv_cell = 1.0 / self.cell_size
        self.exact_inverse = frexp(self.cell_size, &exponent) == 0.5 and isfinite(self.inv_cell) \
            and self.inv_cell * self.cell_size == 1.0
        # A window of home cells is 2 * span + 1 <= 2 * large_threshold - 1 wide.
        self.min_wbits = INITIAL_WBITS
        while (1 << self.min_wbits) < 2 * large_threshold - 1:
            self.min_wbits += 1
        if level_init(&self.table, self.min_wbits) < 0:
            raise MemoryError()

    def __dealloc__(self):
        level_free(&self.table)
        free(self.range)
        free(self.large)
        free(self.packed_range)
        free(self.meeting)

    def __repr__(self):
        return (f"UniformGrid(cell_size={self.cell_size!r}, origin=({self.origin_x!r}, "
                f"{self.origin_y!r}), large_threshold={self.large_threshold}) "
                f"with {self.n_live} objects")

    # ------------------------------------------------------------- the hooks

    cdef int _grow_objects(self, Py_ssize_t old_cap, Py_ssize_t new_cap) noexcept nogil:
        if grow_to(<void**>&self.range, old_cap, new_cap, sizeof(CellRange)) < 0 \
                or grow_to(<void**>&self.large, old_cap, new_cap, sizeof(int32_t)) < 0:
            return -1
        return self._grow_lists(old_cap, new_cap)

    cdef int32_t _home(self, const Level* L, int32_t i) noexcept nogil:
        return wrapped_cell(L, self.range[i].x0, self.range[i].y0)

    cdef double _cell_hint(self):
        return self.cell_size

    cdef double _search_start(self) noexcept nogil:
        return self.cell_size

    cdef int _check_placement(self, const Box* b) noexcept nogil:
        cdef CellRange r
        return range_of(b, self.origin_x, self.origin_y, self.cell_size, &r)

    cdef double _safe_magnitude(self) noexcept nogil:
        # A box of such numbers spans at most 2**29 cells each side of the origin,
        # well inside the +-2**30 cell limit whatever the rounding.
        cdef double far = fabs(self.origin_x) if fabs(self.origin_x) > fabs(self.origin_y) \
            else fabs(self.origin_y)
        cdef double bound = (CELL_LIMIT / 4.0) * self.cell_size - far
        return bound if bound > 0.0 else 0.0

    cdef inline int32_t _placed_cell(self, double v, double origin) noexcept nogil:
        """floor((v - origin) / cell_size) for a coordinate of a box that
        _check_placement accepted (so no limit to check)."""
        cdef double d = v - origin
        return <int32_t>floor_int(d * self.inv_cell if self.exact_inverse else d / self.cell_size)

    cdef inline void _placed_range(self, const Shape* s, CellRange* r) noexcept nogil:
        """range_of for the box of a shape that _check_placement accepted."""
        cdef Box b
        shape_box(s, &b)
        r.x0 = self._placed_cell(b.minx, self.origin_x)
        r.y0 = self._placed_cell(b.miny, self.origin_y)
        r.x1 = self._placed_cell(b.maxx, self.origin_x)
        r.y1 = self._placed_cell(b.maxy, self.origin_y)

    cdef inline bint _is_large_range(self, const CellRange* cells) noexcept nogil:
        return cells.x1 - cells.x0 >= self.large_threshold or cells.y1 - cells.y0 >= self.large_threshold

    cdef inline void _widen_spans(self, const CellRange* cells) noexcept nogil:
        if cells.x1 - cells.x0 > self.span_x:
            self.span_x = cells.x1 - cells.x0
        if cells.y1 - cells.y0 > self.span_y:
            self.span_y = cells.y1 - cells.y0

    cdef int _link(self, int32_t i) noexcept nogil:
        """Put object i, its range set, in the table or on the large list; -1 if
        out of memory (then nothing changed)."""
        cdef Level* L = &self.table
        if self._is_large_range(&self.range[i]):
            self.slot[i] = <int32_t>self.n_large
            self.home[i] = -1
            self.large[self.n_large] = i
            self.n_large += 1
            return 0
        if self._reserve_member(L) < 0:
            return -1
        # If memory is short for a wider table, the lists just grow longer.
        if TABLE_LOAD_DIVISOR * (L.n + 1) > (<Py_ssize_t>1) << (2 * L.wbits) and L.wbits < LARGEST_WBITS:
            self._resize(L, L.wbits + 1)
        self._widen_spans(&self.range[i])
        self._add_member(L, i)
        self._push_cell(L, i, self._home(L, i))
        return 0

    cdef void _unlink(self, int32_t i) noexcept nogil:
        cdef int32_t slot, last
        if self.home[i] >= 0:
            self._drop_member(&self.table, i)
            return
        slot = self.slot[i]
        self.n_large -= 1
        last = self.large[self.n_large]
        self.large[slot] = last
        self.slot[last] = slot

    cdef int _attach(self, int32_t i) noexcept nogil:
        self._placed_range(&self.body[i], &self.range[i])
        return self._link(i)

    cdef void _detach(self, int32_t i) noexcept nogil:
        self._unlink(i)

    cdef int _move_rows(self, const int64_t[::1] ids, const Rows* batch) noexcept nogil:
        return move_rows(self, ids, batch)

    cdef Level* _level_of(self, int32_t i) noexcept nogil:
        return &self.table

    cdef inline int32_t _settle(self, int32_t i, const Shape* b) noexcept nogil:
        """An object of the table that stays small takes its body and range."""
        cdef CellRange cells
        self._placed_range(b, &cells)
        if self.home[i] < 0 or self._is_large_range(&cells):
            return -1
        self._widen_spans(&cells)
        self.range[i] = cells
        self.body[i] = b[0]
        return wrapped_cell(&self.table, cells.x0, cells.y0)

    cdef int _move(self, int32_t i, const Shape* b) noexcept nogil:
        """Relinks only when the min corner changes cell or the object moves to
        or from the large list."""
        cdef CellRange old_cells = self.range[i], new_cells
        self._placed_range(b, &new_cells)
        if self.home[i] >= 0 and not self._is_large_range(&new_cells):
            self._widen_spans(&new_cells)
            self.range[i] = new_cells
            self._move_cell(&self.table, i, self._home(&self.table, i))
        elif self.home[i] < 0 and self._is_large_range(&new_cells):
            self.range[i] = new_cells
        else:
            # Entering the large list cannot fail, so if the table has no room
            # for a formerly large object, it goes back where it was.
            self._unlink(i)
            self.range[i] = new_cells
            if self._link(i) < 0:
                self.range[i] = old_cells
                self._link(i)
                return -1
        self.body[i] = b[0]
        return 0

    cdef void _reset(self) noexcept nogil:
        level_empty(&self.table)
        self.n_large = 0
        self.span_x = self.span_y = 0

    cdef int _prepare_query(self, Query* q) noexcept nogil:
        cdef Box reach = q.box
        if q.kind == Q_SWEPT:
            swept_reach(&q.box, q.dx, q.dy, &reach)
        return range_of(&reach, self.origin_x, self.origin_y, self.cell_size, &q.cells)

    # ------------------------------------------------------------- queries

    cdef inline void _prefetch_list(self, int32_t i) noexcept nogil:
        prefetch(&self.range[i])
        prefetch(&self.next[i])

    cdef inline void _visit_list(self, const Query* q, int32_t i) noexcept nogil:
        """Offer the objects of the list starting at i whose ranges meet the
        query's."""
        while i >= 0:
            if ranges_meet(&self.range[i], &q.cells):
                self._take(q, i)
            i = self.next[i]

    cdef inline void _visit_lists(self, const Query* q, const int32_t* first,
                                  Py_ssize_t n) noexcept nogil:
        """_visit_list for the n lists starting at first[k]; for a query of cells
        alone (no layers to test), each object is taken without a branch."""
        cdef Py_ssize_t k, taken = self.out_n
        cdef int32_t i
        cdef int32_t* out = self.out
        cdef CellRange cells = q.cells
        if q.kind != Q_CELLS or q.check_layers:
            for k in range(n):
                self._visit_list(q, first[k])
            return
        for k in range(n):
            i = first[k]
            while i >= 0:
                out[taken] = i
                taken += ranges_meet(&self.range[i], &cells)
                i = self.next[i]
        self.out_n = taken

    cdef void _collect(self, Query* q) noexcept nogil:
        """Each object has one home and no table cell is visited twice (windows
        are cut to the table's side), so nothing is offered twice."""
        cdef const CellRange* cells = &q.cells
        cdef const Level* L = &self.table
        cdef int64_t side = L.mask + 1, x0, y0, columns, rows
        cdef Py_ssize_t k
        cdef int32_t i
        self.out_n = 0
        if L.n:
            x0 = <int64_t>cells.x0 - self.span_x
            y0 = <int64_t>cells.y0 - self.span_y
            columns = cells.x1 - x0 + 1
            rows = cells.y1 - y0 + 1
            if columns > side:
                columns = side
            if rows > side:
                rows = side
            if scan_beats_visit(<double>columns, <double>rows, L.n) \
                    or (q.kind == Q_SWEPT and cells.x1 - x0 + 1 > side):
                for k in range(L.n):
                    i = L.members[k]
                    if ranges_meet(&self.range[i], cells):
                        self._take(q, i)
            elif q.kind == Q_SWEPT:
                walk_swept(self, q, L, self.cell_size, self.origin_x, self.origin_y, self.cell_size,
                           True, x0, cells.x1, cells.y0, cells.y1, self.span_x, self.span_y)
            else:
                walk_window(self, q, L, x0, y0, columns, rows)
        for k in range(self.n_large):
            i = self.large[k]
            if ranges_meet(&self.range[i], cells):
                self._take(q, i)

    # --------------------------------------------------------------- pairs

    cdef int _pack_ranges(self) noexcept nogil:
        """Note the packed objects' ranges, in the packed order (they stay, for
        the pass's shared cells, until the next pass), make the spans exact
        again and say whether homes are exact; -1 if out of memory."""
        cdef const Level* L = &self.table
        cdef Py_ssize_t k
        cdef int32_t x_lo = 0, x_hi = 0, y_lo = 0, y_hi = 0, span_x = 0, span_y = 0
        cdef const CellRange* r
        if grow_array(<void**>&self.packed_range, &self.packed_range_cap, L.n, sizeof(CellRange)) < 0:
            return -1
        if L.n:
            x_lo = x_hi = self.range[L.packed_id[0]].x0
            y_lo = y_hi = self.range[L.packed_id[0]].y0
        for k in range(L.n):
            if k + PACK_LOOKAHEAD < L.n:
                prefetch(&self.range[L.packed_id[k + PACK_LOOKAHEAD]])
            r = &self.range[L.packed_id[k]]
            self.packed_range[k] = r[0]
            span_x = r.x1 - r.x0 if r.x1 - r.x0 > span_x else span_x
            span_y = r.y1 - r.y0 if r.y1 - r.y0 > span_y else span_y
            x_lo = r.x0 if r.x0 < x_lo else x_lo
            x_hi = r.x0 if r.x0 > x_hi else x_hi
            y_lo = r.y0 if r.y0 < y_lo else y_lo
            y_hi = r.y0 if r.y0 > y_hi else y_hi
        self.span_x, self.span_y = span_x, span_y
        self.packed_n = L.n
        # Homes that differ by less than the table's side, less the reach of a
        # window of the pair pass (span_x, and one cell for a cell's own windows,
        # cell_meetings), cannot meet in one after wrapping: then a wrapped window
        # holds just the homes it names in the world.
        self.exact_homes = <int64_t>x_hi - x_lo + span_x + 1 <= L.mask \
            and <int64_t>y_hi - y_lo + span_y + 1 <= L.mask
        return 0

    cdef inline int _meeting_room(self, Py_ssize_t n, Py_ssize_t more) noexcept nogil:
        """Make room in `meeting` for n + more pairs; -1 if out of memory."""
        if 2 * (n + more) > self.meeting_cap:
            return grow_array(<void**>&self.meeting, &self.meeting_cap, 2 * (n + more),
                              sizeof(int32_t))
        return 0

    cdef Py_ssize_t _meeting_pairs(self) noexcept nogil:
        """The broad phase of the table's pairs, after _pack and _pack_ranges:
        into `meeting`, each pair (u, v) of packed objects whose ranges meet
        and whose filters pass, once; returns how many, -1 if out of memory.
        Each object u meets the rest of its home cell and the objects at home
        in the other cells of its range's first row, then, in each later row of
        its range, those at home from span_x cells left of its range to its end.
        While no range is over two cells a side and homes are exact without
        filters, each cell works out those runs once for all its objects, from
        the occupancy bits next to it (cell_meetings); otherwise, and in the
        columns where windows wrap around the table, each object looks up its
        own (_object_meetings)."""
        # A copy: the candidates written are int32s, as some of the table's
        # fields are, so the compiler would read those again after each write.
        cdef Level table = self.table
        cdef const Level* L = &table
        cdef bint by_cell = self.exact_homes and not self.n_filtered \
            and self.span_x <= 1 and self.span_y <= 1
        cdef int64_t c, cx, below, step = L.mask + 1, last_cell = step * step - 1
        cdef Py_ssize_t w, nth = 0, u, start, end, rank, n = 0
        cdef Py_ssize_t right_end, below_begin, below_end, below_wide_end
        cdef uint64_t word
        for w in range(occupancy_words(L.wbits)):
            word = L.occupied[w]
            while word:
                c = (w << 6) | count_trailing_zeros(word)
                word &= word - 1
                start = L.cell_start[nth]
                end = L.cell_start[nth + 1]
                cx = c & L.mask
                if by_cell and 1 <= cx < L.mask:
                    # This cell's runs: through the cell to its right; in the row
                    # below, from the cell to the left through this cell's column
                    # and through the next.
                    right_end = L.cell_start[nth + 1 + is_occupied(L, c + 1)]
                    below = (((c - cx) + step) & last_cell) | (cx - 1)
                    rank = cell_rank(L, below)
                    below_begin = L.cell_start[rank]
                    rank += is_occupied(L, below) + is_occupied(L, below + 1)
                    below_end = L.cell_start[rank]
                    below_wide_end = L.cell_start[rank + is_occupied(L, below + 2)]
                    if self._meeting_room(n, (end - start) * (right_end - start + below_wide_end
                                                              - below_begin)) < 0:
                        return -1
                    n = cell_meetings(self.packed_range, start, end, right_end, below_begin,
                                      below_end, below_wide_end, self.meeting, n)
                else:
                    for u in range(start, end):
                        n = self._object_meetings(L, u, end, n)
                        if n < 0:
                            return -1
                nth += 1
        return n

    cdef Py_ssize_t _object_meetings(self, const Level* L, Py_ssize_t u, Py_ssize_t end,
                                     Py_ssize_t n) noexcept nogil:
        """_meeting_pairs for packed object u (its home cell's objects end at
        `end`), each of its rows' runs looked up; the new n, -1 if out of memory."""
        cdef const CellRange* ranges = self.packed_range
        cdef bint exact = self.exact_homes and not self.n_filtered
        cdef CellRange cells = ranges[u]
        cdef const Filter* own = self._own_filter(L, u)
        cdef int64_t row = (cells.y0 & L.mask) << L.wbits, step = L.mask + 1
        cdef int32_t y = cells.y0
        cdef Py_ssize_t more
        cdef Py_ssize_t runs[4]
        cdef int n_runs
        # Its first row: from the object after it to the end of its range, one
        # run unless the row wraps there.
        if cells.x1 == cells.x0:
            runs[1] = end
            n_runs = 2
        else:
            n_runs = row_runs(L, row, cells.x0, cells.x1, runs)
        runs[0] = u + 1
        while True:
            more = runs[1] - runs[0] + (runs[3] - runs[2] if n_runs == 4 else 0)
            if self._meeting_room(n, more) < 0:
                return -1
            n = meeting_run(exact, &cells, <int32_t>u, own, L, ranges, runs[0], runs[1],
                            self.meeting, n)
            if n_runs == 4:
                n = meeting_run(exact, &cells, <int32_t>u, own, L, ranges, runs[2], runs[3],
                                self.meeting, n)
            if y == cells.y1:
                return n
            y += 1
            row = (row + step) & (step * step - 1)
            n_runs = row_runs(L, row, cells.x0 - self.span_x, cells.x1, runs)

    cdef int _touching_pairs(self, Py_ssize_t n) noexcept nogil:
        """The narrow phase of the table's pairs: of the n meeting pairs, those
        whose shapes touch (all, if keep_candidates) into `found`, as ids; -1
        if out of memory. A loop of its own for tables of circles only and of
        boxes only, whose tests take no branch."""
        cdef const Level* L = &self.table
        cdef const int32_t* ids = L.packed_id
        cdef const Shape* packed = L.packed
        cdef const int32_t* meeting = self.meeting
        cdef bint keep_all = self.keep_candidates
        cdef Py_ssize_t k, kept = 0
        cdef int32_t u, v
        cdef int32_t* pairs
        cdef Box box
        if pair_room(&self.found, n) < 0:
            return -1
        pairs = self.found.ids
        if L.circles == L.n:
            for k in range(n):
                u = meeting[2 * k]
                v = meeting[2 * k + 1]
                put_pair(pairs + 2 * kept, ids[u], ids[v])
                kept += circles_touch(&packed[u], &packed[v]) | keep_all
        elif L.circles == 0:
            for k in range(n):
                u = meeting[2 * k]
                v = meeting[2 * k + 1]
                put_pair(pairs + 2 * kept, ids[u], ids[v])
                kept += boxes_touch(&packed[u], &packed[v]) | keep_all
        else:
            for k in range(n):
                u = meeting[2 * k]
                v = meeting[2 * k + 1]
                shape_box(&packed[u], &box)
                put_pair(pairs + 2 * kept, ids[u], ids[v])
                kept += shapes_touch(&packed[u], &box, &packed[v]) | keep_all
        self.found.n = kept
        return 0

    cdef int _find_pairs(self) noexcept nogil:
        """Every overlapping pair once (every pair tested, if keep_candidates)
        into `found`; -1 if out of memory. The table's objects are packed in
        cell order, its pairs whose ranges meet found (_meeting_pairs) and
        then those that touch (_touching_pairs); then each large object meets
        what shares its cells. The cells the table's meeting pairs share are
        counted only when broad_phase_pairs is read (_resolve_broad_phase)."""
        cdef Level* L = &self.table
        cdef Py_ssize_t j, li, kept, meeting = 0, shared = 0
        cdef int32_t other, big
        cdef bint touch, keep_all = self.keep_candidates
        cdef int32_t* pairs
        cdef Query q
        self.found.n = self.packed_n = self.broad_phase_count = 0
        self.broad_phase_pending = False
        if L.n:
            if self._pack(L, 1) < 0 or self._pack_ranges() < 0:
                return -1
            meeting = self._meeting_pairs()
            if meeting < 0 or self._touching_pairs(meeting) < 0:
                return -1
        self.narrow_phase_checks = meeting
        kept = self.found.n
        # Large objects: test each against what shares its cells, and against the
        # large objects after it on the list.
        self._aim(&q, Q_CELLS, EVERY_LAYER)
        q.check_layers = False      # the pair rule is tested per pair below
        for li in range(self.n_large):
            big = self.large[li]
            q.cells = self.range[big]
            self._collect(&q)
            self.found.n = kept
            if pair_room(&self.found, self.out_n) < 0:
                return -1
            pairs = self.found.ids
            for j in range(self.out_n):
                other = self.out[j]
                if other == big or (self.home[other] < 0 and self.slot[other] <= li):
                    continue
                shared += 1
                if not filters_pass(&self.filter[big], &self.filter[other]):
                    continue
                self.narrow_phase_checks += 1
                touch = shapes_meet(&self.body[big], &self.body[other])
                put_pair(pairs + 2 * kept, big, other)
                kept += touch | keep_all
        self.found.n = kept
        self.broad_phase_count = shared
        self.broad_phase_pending = self.packed_n > 0
        self.hits = kept
        return 0

    cdef int _resolve_broad_phase(self) except -1:
        """Count the cells shared by the last pass's meeting pairs of the table
        into broad_phase_count: over every cell, the pairs of the ranges that
        cover it, from the ranges the pass packed. The caller holds the claim."""
        cdef Py_ssize_t shared = 0
        if self.broad_phase_pending:
            keys, counts = covered_cells(self.packed_range, NULL, self.packed_n)
            shared = int((counts * (counts - 1) // 2).sum())
            self.broad_phase_count += shared
            self.broad_phase_pending = False
        return 0

    # ------------------------------------------------------------- validation

    cdef int _validate_placement(self) except -1:
        """The table's lists are consistent and wider than any window; each
        object's cell range matches its box, puts it in the table (at home at its
        min corner, within the spans) or on the large list, and every object is
        in exactly one of them."""
        cdef Py_ssize_t i, large = 0
        cdef CellRange r
        cdef Box box
        cdef const Level* L = &self.table
        self._check_lists(L, "the table")
        if L.wbits < self.min_wbits:
            self._broken(f"the table is {1 << L.wbits} cells a side, narrower than a window "
                         f"of {2 * self.large_threshold - 1}")
        for i in range(self.obj_hi):
            if not self.live[i]:
                continue
            shape_box(&self.body[i], &box)
            if range_of(&box, self.origin_x, self.origin_y, self.cell_size, &r) != INPUT_OK:
                self._broken(f"id {i}: its box {box} has no cell range")
            if memcmp(&r, &self.range[i], sizeof(CellRange)) != 0:
                self._broken(f"id {i} is kept over cells {self.range[i]} but its box covers {r}")
            if self._is_large_range(&r):
                if self.home[i] != -1 or not 0 <= self.slot[i] < self.n_large \
                        or self.large[self.slot[i]] != i:
                    self._broken(f"large id {i}: cell {self.home[i]}, large-list slot {self.slot[i]}")
                large += 1
            elif self.home[i] < 0 or not 0 <= self.slot[i] < L.n or L.members[self.slot[i]] != i:
                self._broken(f"id {i} over cells {r} is not in the table (cell {self.home[i]}, "
                             f"slot {self.slot[i]})")
            elif r.x1 - r.x0 > self.span_x or r.y1 - r.y0 > self.span_y:
                self._broken(f"id {i} over cells {r} spans more than the spans "
                             f"({self.span_x}, {self.span_y})")
        if large != self.n_large or L.n + self.n_large != self.n_live:
            self._broken(f"{large} large objects, {self.n_large} on the large list, {L.n} in "
                         f"the table, {self.n_live} live")
        return 0

    # --------------------------------------------------------------- extras

    def cells_of(self, object_id):
        """(cx0, cy0, cx1, cy1): the inclusive range of cells (ints) an object's box
        covers. Raises KeyError for an unknown id, RuntimeError if another thread's
        call holds the index."""
        self._idle()
        cdef CellRange r = self.range[self._check_id(object_id)]
        return (r.x0, r.y0, r.x1, r.y1)

    def is_large(self, object_id):
        """True if the object lives on the large-object list instead of in cells.
        Raises KeyError for an unknown id, RuntimeError if another thread's call
        holds the index."""
        self._idle()
        return self.home[self._check_id(object_id)] < 0

    def cell_of(self, x, y):
        """The cell (cx, cy), as ints, containing the point (x, y) in world units.
        Raises ValueError naming x or y if it is not a finite number or lies past
        2**30 cells from the origin."""
        cdef Box point
        cdef CellRange cell
        point.minx = point.maxx = check_finite(x, "x")
        point.miny = point.maxy = check_finite(y, "y")
        code = range_of(&point, self.origin_x, self.origin_y, self.cell_size, &cell)
        if code:
            raise input_error(code, "", point.minx, point.miny, 0.0, 0.0, self.cell_size)
        return (cell.x0, cell.y0)

    def stats(self):
        """Occupancy figures, in the schema both grids share (STATS_KEYS):

        objects: live objects. active_cells: cells covered by at least one object.
        memberships: (object, cell) pairs; an object covers every cell its box
        touches. avg_objects_per_cell, max_objects_per_cell: memberships per
        active cell. large_objects: objects on the large-object list instead of
        in cells. longest_probe: slots a cell lookup reads in the table (1: it
        is direct-mapped; 0 when empty). levels: one entry per cell size,
        {"cell_size", "grid" (the table's side: cells whose coordinates agree
        modulo it share its slot), "objects" (in the table), "occupied_cells"
        (active cells)}. broad_phase_pairs, narrow_phase_checks, hits: the
        counters of the last pair pass. Counts every membership: for tests,
        tuning and monitors, not for a frame's inner loop."""
        self._claim()       # numpy runs meanwhile: Python code could call in
        try:
            keys, counts = covered_cells(self.range, self.table.members, self.table.n)
            cells = len(keys)
            return occupancy(self.n_live, cells, int(counts.sum()), int(counts.max()) if cells else 0,
                             self.n_large, 1 if cells else 0,
                             [{"cell_size": self.cell_size, "grid": self.table.mask + 1,
                               "objects": self.table.n, "occupied_cells": cells}], self)
        finally:
            self.busy = False

    def cell_counts(self):
        """{(cx, cy): number of objects} for every cell covered by at least one;
        large objects are not counted. Raises RuntimeError if another thread's
        call holds the index."""
        self._claim()
        try:
            keys, counts = covered_cells(self.range, self.table.members, self.table.n)
        finally:
            self.busy = False
        columns = (keys >> 32).tolist()
        rows = (keys & 0xFFFFFFFF).astype(np.uint32).view(np.int32).tolist()
        return dict(zip(zip(columns, rows), counts.tolist()))
