# The hierarchical spatial hash grid (after Schornbaum's hierarchical
# hash grids): a stack of grids whose cell sizes grow by a hierarchy factor. Each
# object lives in exactly one cell of the one level whose cells fit it, whatever
# the mix of sizes. A level is a power-of-two square table addressed by wrapped
# cell coordinates (cx mod W, cy mod W), so neighbouring cells are neighbours in
# memory; it doubles each side and reinserts its objects when the objects per
# cell pass the density threshold.

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
cdef enum:
    # A level's pair search is cut into this many chunks (fewer for small tables)
    # whatever the thread count, so the order of the pairs never depends on it;
    # several chunks a thread keep a crowded stretch from stalling one.
    LEVEL_CHUNKS = 32
    COVER_SPLIT = 8               # sub-cells per cell side in the cover bitmap
    UPWARD_GROUP = 8              # coarser levels searched in one pass over a chunk
    COVER_BITS_PER_OBJECT = 512   # sparse enough that wrapping seldom aliases
    COVER_CHECKS = 16             # a finer object over more sub-cells skips the filter
    COVER_MAX_BITS = 12           # at most 4096 x 4096 sub-cells (2 MB) per level
    SPACING_SAMPLE = 256          # fewer points than this keep the finest level


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


@cython.final
cdef class HierarchicalGrid(_CellLists):
    """Hierarchical spatial hash grid over integer ids: no cell size to tune.

    A new level gets cells of (longest side x sqrt(hierarchy_factor)); the next
    ones are `hierarchy_factor` times larger or smaller. Each object lives in one
    cell of the smallest level whose cells are at least sqrt(hierarchy_factor)
    times its longest side. Points (no extent) fit any level: they share one,
    chosen for their spacing (most of them alone in its cells) once there are
    a few hundred of them. Pairs are found by looking back over half of each
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
            level_free(&self.levels[k])
        for k in range(self.chunks_ready):
            free(self.chunks[k].found.ids)
            free(self.chunks[k].passed)
        free(self.chunks)
        free(self.levels)
        free(self.order)
        free(self.level_of)

    @property
    def threads(self):
        return self.threads

    def __repr__(self):
        return (f"HierarchicalGrid(hierarchy_factor={self.hierarchy_factor!r}, "
                f"density={self.density!r}, threads={self.threads}) with {self.n_live} objects in "
                f"{sum(1 for k in range(self.n_levels) if self.levels[k].n)} levels")

    # ------------------------------------------------------------- levels

    cdef inline double _cell_of_exponent(self, int32_t exponent) noexcept nogil:
        return exp(self.log_base + exponent * self.log_factor)

    cdef inline double _need(self, const Box* b) noexcept nogil:
        """The smallest cell that fits the object: sqrt(factor) x its longest side;
        0 for a point."""
        cdef double need = longest_side(b) * self.sqrt_factor
        return SMALLEST_CELL if 0.0 < need < SMALLEST_CELL else need

    cdef int32_t _natural_exponent(self, double need) noexcept nogil:
        """The smallest level whose cells are at least `need` (> 0) wide."""
        cdef int32_t exponent = <int32_t>ceil((log(need) - self.log_base) / self.log_factor)
        while self._cell_of_exponent(exponent) < need:
            exponent += 1
        while self._cell_of_exponent(exponent - 1) >= need:
            exponent -= 1
        return exponent

    cdef int32_t _exponent_for(self, const Box* b) noexcept nogil:
        """The level an object belongs to: the smallest whose cells fit it, or
        for a point the points' level (and coarse enough for its position)."""
        cdef double need = self._need(b), far = farthest(b)
        cdef int32_t exponent = 0
        if need > 0.0:
            exponent = self._natural_exponent(need)
        elif self.has_point_level:
            exponent = self.point_exponent
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
        if level_init(L, INITIAL_WBITS) < 0:
            return -1
        L.cell = self._cell_of_exponent(exponent)
        L.inv = 1.0 / L.cell
        L.exponent = exponent
        pos = self.n_levels
        while pos > 0 and self.levels[self.order[pos - 1]].exponent > exponent:
            self.order[pos] = self.order[pos - 1]
            pos -= 1
        self.order[pos] = <int32_t>self.n_levels
        self.n_levels += 1
        return <int32_t>(self.n_levels - 1)

    cdef inline int32_t _cell_index(self, const Level* L, const Box* b) noexcept nogil:
        return wrapped_cell(L, floor_int(b.minx * L.inv), floor_int(b.miny * L.inv))

    cdef int32_t _home(self, const Level* L, int32_t i) noexcept nogil:
        cdef Box box
        shape_box(&self.body[i], &box)
        return self._cell_index(L, &box)

    cdef void _enter_level(self, int32_t level, int32_t i) noexcept nogil:
        """Room for one more member must have been reserved."""
        cdef Level* L = &self.levels[level]
        cdef Box box
        shape_box(&self.body[i], &box)
        # Past the density the table doubles each side; if memory is short it stays.
        if <double>(L.n + 1) > self.density * <double>((<Py_ssize_t>1) << (2 * L.wbits)) \
                and L.wbits < LARGEST_WBITS:
            self._resize(L, L.wbits + 1)
            self.spacing_due = True
        self._add_member(L, i)
        if longest_side(&box) > L.reach:
            L.reach = longest_side(&box)
        self.level_of[i] = level
        self._push_cell(L, i, self._cell_index(L, &box))

    cdef void _leave_level(self, int32_t i) noexcept nogil:
        self._drop_member(&self.levels[self.level_of[i]], i)

    # ------------------------------------------------------------- the hooks

    cdef int _grow_objects(self, Py_ssize_t old_cap, Py_ssize_t new_cap) noexcept nogil:
        if grow_to(<void**>&self.level_of, old_cap, new_cap, sizeof(int32_t)) < 0:
            return -1
        return self._grow_lists(old_cap, new_cap)

    cdef double _search_start(self) noexcept nogil:
        cdef Py_ssize_t r
        for r in range(self.n_levels):
            if self.levels[self.order[r]].n:
                return self.levels[self.order[r]].cell
        return 1.0

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
        cdef Box box
        shape_box(&self.body[i], &box)
        if not self.has_base:
            need = self._need(&box)
            # Nudged up, so objects a rounding error larger than the first still fit.
            self.log_base = log(need * (1.0 + 1.8189894035458565e-12)) if need > 0.0 else 0.0
            self.has_base = True
        level = self._level_index(self._exponent_for(&box))
        if level < 0 or self._reserve_member(&self.levels[level]) < 0:
            return -1
        self._enter_level(level, i)
        return 0

    cdef void _changed(self) noexcept nogil:
        if self.spacing_due:
            respace(self)

    cdef inline bint _fits(self, const Level* L, const Box* box) noexcept nogil:
        """Is L the level an object with this box belongs to?"""
        cdef double need = self._need(box)
        if need == 0.0 and self.has_point_level:
            return L.exponent == self._exponent_for(box)
        return L.cell >= need and farthest(box) * L.inv < PRECISE_CELLS \
            and (need == 0.0 or L.cell / self.hierarchy_factor < need)

    cdef int _move(self, int32_t i, const Shape* b) noexcept nogil:
        """Re-inserts only when the object's level or cell changes."""
        cdef int32_t level = self.level_of[i], target, cell
        cdef Level* L = &self.levels[level]
        cdef Box box
        shape_box(b, &box)
        if self._fits(L, &box):
            if longest_side(&box) > L.reach:
                L.reach = longest_side(&box)
            self.body[i] = b[0]
            self._move_cell(L, i, self._cell_index(L, &box))
            return 0
        target = self._level_index(self._exponent_for(&box))
        if target < 0 or self._reserve_member(&self.levels[target]) < 0:
            return -1
        self._leave_level(i)
        self.body[i] = b[0]
        self._enter_level(target, i)
        return 0

    cdef int32_t _settle(self, int32_t i, const Shape* b) noexcept nogil:
        """If the object keeps its level and stays within the level's reach
        (safe to decide for many objects at once), give it shape b and return its
        new cell; otherwise change nothing and return -1."""
        cdef const Level* L = &self.levels[self.level_of[i]]
        cdef Box box
        shape_box(b, &box)
        if longest_side(&box) <= L.reach and self._fits(L, &box):
            self.body[i] = b[0]
            return self._cell_index(L, &box)
        return -1

    cdef int _move_rows(self, const int64_t[::1] ids, const Rows* batch) noexcept nogil:
        return move_rows(self, ids, batch)

    cdef Level* _level_of(self, int32_t i) noexcept nogil:
        return &self.levels[self.level_of[i]]

    cdef void _detach(self, int32_t i) noexcept nogil:
        self._leave_level(i)

    cdef void _reset(self) noexcept nogil:
        cdef Py_ssize_t k
        self.has_point_level = self.spacing_due = False
        for k in range(self.n_levels):
            level_empty(&self.levels[k])
            self.levels[k].reach = 0.0

    # ------------------------------------------------------------- queries

    cdef inline void _prefetch_list(self, int32_t i) noexcept nogil:
        prefetch(&self.body[i])
        prefetch(&self.next[i])

    cdef inline void _visit_list(self, const Query* q, int32_t i) noexcept nogil:
        """Offer every object of the list starting at i."""
        while i >= 0:
            self._take(q, i)
            i = self.next[i]

    cdef inline void _visit_lists(self, const Query* q, const int32_t* first,
                                  Py_ssize_t n) noexcept nogil:
        cdef Py_ssize_t k
        for k in range(n):
            self._visit_list(q, first[k])

    cdef void _collect(self, Query* q) noexcept nogil:
        """Each object lives in one cell and no table cell is visited twice (the
        ranges are cut to the table's side), so nothing is offered twice."""
        cdef Py_ssize_t rank, k
        cdef const Level* L
        cdef Box reach = q.box
        cdef double x0, y0, x1, y1, rows_to, side
        cdef bint scan
        self.out_n = 0
        if q.kind == Q_SWEPT:
            swept_reach(&q.box, q.dx, q.dy, &reach)
        for rank in range(self.n_levels):
            L = &self.levels[self.order[rank]]
            if L.n == 0:
                continue
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
            rows_to = y1
            if y1 - y0 >= side:
                y1 = y0 + side - 1.0
            if scan or scan_beats_visit(x1 - x0 + 1.0, y1 - y0 + 1.0, L.n):
                for k in range(L.n):
                    self._take(q, L.members[k])
            elif q.kind == Q_SWEPT:
                walk_swept(self, q, L, L.cell, 0.0, 0.0, L.inv, False, <int64_t>x0, <int64_t>x1,
                           <int64_t>y0 + 1, <int64_t>rows_to, 1, 1)
            else:
                walk_window(self, q, L, <int64_t>x0, <int64_t>y0, <int64_t>(x1 - x0) + 1,
                            <int64_t>(y1 - y0) + 1)

    # --------------------------------------------------------------- pairs

    cdef int _find_pairs(self) noexcept nogil:
        return hierarchical_pair_pass(self)

    # ------------------------------------------------------------- validation

    cdef int _validate_placement(self) except -1:
        """Levels are in ascending order, each with its cell size and consistent
        lists (_CellLists._check_lists); each live object is a member of one level
        and fits its cells, a point no finer than the points' level."""
        cdef Py_ssize_t r, li, k, i, total = 0
        cdef const Level* L
        cdef Box box
        cdef bytearray ranked = bytearray(self.n_levels)
        for r in range(self.n_levels):
            li = self.order[r]
            if not 0 <= li < self.n_levels or ranked[li] or \
                    (r and self.levels[self.order[r - 1]].exponent >= self.levels[li].exponent):
                self._broken(f"order[{r}] = {li}: levels are not in ascending order of cell size")
            ranked[li] = 1
        for li in range(self.n_levels):
            L = &self.levels[li]
            if L.cell != self._cell_of_exponent(L.exponent) or L.inv != 1.0 / L.cell:
                self._broken(f"level {li}: cell {L.cell} (exponent {L.exponent})")
            self._check_lists(L, f"level {li}")
            for k in range(L.n):
                if self.level_of[L.members[k]] != li:
                    self._broken(f"level {li} member {k} is id {L.members[k]} of level "
                                 f"{self.level_of[L.members[k]]}")
            total += L.n
        if total != self.n_live:
            self._broken(f"the levels hold {total} members for {self.n_live} live ids")
        for i in range(self.obj_hi):
            if not self.live[i]:
                continue
            li = self.level_of[i]
            if not 0 <= li < self.n_levels or self.levels[li].members[self.slot[i]] != i:
                self._broken(f"id {i}: level {li}, member slot {self.slot[i]}")
            L = &self.levels[li]
            shape_box(&self.body[i], &box)
            if self._need(&box) == 0.0 and self.has_point_level and L.exponent < self.point_exponent:
                self._broken(f"point {i} lives in level {li} (exponent {L.exponent}), not the "
                             f"points' level (exponent {self.point_exponent})")
            if not (L.cell >= self._need(&box) and farthest(&box) * L.inv < PRECISE_CELLS
                    and longest_side(&box) <= L.reach):
                self._broken(f"id {i} with box {box} does not fit the cells of "
                             f"level {li} (cell {L.cell}, reach {L.reach})")
        return 0

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
