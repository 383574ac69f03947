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

    cdef int _find_pairs(self) noexcept nogil:
        return uniform_pair_pass(self)

    cdef int _resolve_broad_phase(self) except -1:
        return uniform_broad_phase(self)

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
