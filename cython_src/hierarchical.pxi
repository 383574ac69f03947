# The hierarchical spatial hash grid (after Schornbaum's hierarchical
# hash grids): a stack of grids whose cell sizes grow by a hierarchy factor. Each
# object lives in exactly one cell of the one level whose cells fit it, whatever
# the mix of sizes. A level is a power-of-two square (cube) table addressed by
# wrapped cell coordinates (cx mod W, ...), so neighbouring cells are neighbours in
# memory; it doubles each side and reinserts its objects when the objects per
# cell pass the density threshold.

# Cell coordinates stay below PRECISE_CELLS (floor.hpp) in magnitude, so
# floor(x / cell) is exact to a small fraction of a cell; an object too small
# for its distance from the origin goes to a coarser level instead.
# Cell sizes stay within [SMALLEST_CELL, LARGEST_CELL] and coordinates within
# FARTHEST, so exponents stay small and no cell arithmetic overflows: a base
# taken from a denormal-sized first object must not send a large one to 1e308.
cdef double SMALLEST_CELL = 1e-150


cdef double LARGEST_CELL = 1e150


cdef double FARTHEST = 1e160


cdef enum:
    SPACING_SAMPLE = 256          # fewer points than this keep the finest level


cdef inline double longest_side(const Box* b) noexcept nogil:
    # Slightly under the true side, so equal objects whose widths differ by a
    # rounding error share a level; the sqrt(factor) margin dwarfs the difference.
    cdef double side = 0.0
    cdef int a
    for a in range(D):
        if b.hi[a] - b.lo[a] > side:
            side = b.hi[a] - b.lo[a]
    return side * (1.0 - 9.094947017729282e-13)


cdef inline double farthest(const Box* b) noexcept nogil:
    """The largest magnitude of the box's coordinates."""
    cdef double m = 0.0
    cdef int a
    for a in range(D):
        if fabs(b.lo[a]) > m:
            m = fabs(b.lo[a])
        if fabs(b.hi[a]) > m:
            m = fabs(b.hi[a])
    return m


# ------------------------------------------------------------- the class's calls


cdef int init_hierarchical(HierarchicalGridD self, object hierarchy_factor, object density,
                           object threads) except -1:
    self.state.kind = HIERARCHICAL_GRID
    f = check_finite(hierarchy_factor, "hierarchy_factor")
    if not 1.1 <= f <= 1e6:
        raise ValueError(f"hierarchy_factor must be a number from 1.1 to 1e6, got {hierarchy_factor!r}")
    d = check_finite(density, "density")
    if not 0.0 < d <= 64.0:
        raise ValueError(f"density must be a number in (0, 64] (objects per cell), got {density!r}")
    self.state.threads = check_threads(threads)
    self.hierarchy_factor = f
    self.density = d
    self.hierarchy.sqrt_factor = sqrt(f)
    self.hierarchy.log_factor = log(f)
    self.hierarchy.log_base = 0.0
    self.hierarchy.pairs = new HierarchyPairs()
    return 0


cdef void free_hierarchical(HierarchicalGridD self) noexcept:
    cdef Py_ssize_t k
    for k in range(self.hierarchy.n_levels):
        level_free(&self.hierarchy.levels[k])
    del self.hierarchy.pairs
    free(self.hierarchy.pair_levels)
    free(self.hierarchy.levels)
    free(self.hierarchy.order)
    free(self.hierarchy.level_of)
    free(self.hierarchy.nearest_levels)


cdef str hierarchical_repr(HierarchicalGridD self):
    return (f"{type(self).__name__}(hierarchy_factor={self.hierarchy_factor!r}, "
            f"density={self.density!r}, threads={self.state.threads}) with {self.state.n_live} objects in "
            f"{sum(1 for k in range(self.hierarchy.n_levels) if self.hierarchy.levels[k].n)} levels")


def level_of_id(HierarchicalGridD self, object_id):
    """The level an object lives in.

    Parameters
    ----------
    object_id : int
        The object's id.

    Returns
    -------
    cell_size : float
        The level's cell side, in world units.
    exponent : int
        The e for which cell_size is base * hierarchy_factor ** e, the base
        being set by the first object ever added (just over
        sqrt(hierarchy_factor) times its longest side; 1 for a point).

    Raises
    ------
    KeyError
        For an unknown id.
    RuntimeError
        If another thread's call holds the index.
    """
    _idle(self)
    cdef const Level* L = &self.hierarchy.levels[self.hierarchy.level_of[_check_id(self, object_id)]]
    return (L.cell, L.exponent)


def hierarchical_stats(HierarchicalGridD self):
    """Occupancy figures, in the schema both grids share.

    Every object lives in one cell of one level (memberships == objects) and
    there is no large-object list; a level's table is direct-mapped, so a
    lookup reads one slot, and a cell's objects are the world cells that wrap
    onto the same slot.

    Returns
    -------
    dict
        The keys of STATS_KEYS, as `$Grid.stats` describes them; "levels" runs
        from the finest cell size to the coarsest.

    Raises
    ------
    RuntimeError
        If another thread's call holds the index.
    """
    cdef Py_ssize_t r, c, occupied, cells = 0, most = 0, length
    cdef int32_t i
    cdef const Level* L
    levels = []
    cdef Claim claim
    _claim(self, claim)       # the list grows as it is read: Python code can run meanwhile
    for r in range(self.hierarchy.n_levels):
        L = &self.hierarchy.levels[self.hierarchy.order[r]]
        occupied = 0
        for c in range((<Py_ssize_t>1) << (D * L.wbits)):
            if is_occupied(L, c):
                occupied += 1
                length = 0
                i = L.head[c]
                while i >= 0:
                    length += 1
                    i = self.state.next[i]
                if length > most:
                    most = length
        cells += occupied
        levels.append({"cell_size": L.cell, "grid": 1 << L.wbits, "objects": L.n,
                       "occupied_cells": occupied})
    return occupancy(self.state.n_live, cells, self.state.n_live, most, 0, 1 if cells else 0,
                     levels, self)


# ------------------------------------------------------------- levels


cdef inline double hierarchical_cell_of_exponent(HierarchicalGridD self, int32_t exponent) noexcept nogil:
    return exp(self.hierarchy.log_base + exponent * self.hierarchy.log_factor)


cdef inline double hierarchical_need(HierarchicalGridD self, const Box* b) noexcept nogil:
    """The smallest cell that fits the object: sqrt(factor) x its longest side;
    0 for a point."""
    cdef double need = longest_side(b) * self.hierarchy.sqrt_factor
    return SMALLEST_CELL if 0.0 < need < SMALLEST_CELL else need


cdef int32_t hierarchical_natural_exponent(HierarchicalGridD self, double need) noexcept nogil:
    """The smallest level whose cells are at least `need` (> 0) wide."""
    cdef int32_t exponent = <int32_t>ceil((log(need) - self.hierarchy.log_base) / self.hierarchy.log_factor)
    while hierarchical_cell_of_exponent(self, exponent) < need:
        exponent += 1
    while hierarchical_cell_of_exponent(self, exponent - 1) >= need:
        exponent -= 1
    return exponent


cdef int32_t hierarchical_exponent_for(HierarchicalGridD self, const Box* b) noexcept nogil:
    """The level an object belongs to: the smallest whose cells fit it, or
    for a point the points' level (and coarse enough for its position)."""
    cdef double need = hierarchical_need(self, b), far = farthest(b)
    cdef int32_t exponent = 0
    if need > 0.0:
        exponent = hierarchical_natural_exponent(self, need)
    elif self.hierarchy.has_point_level:
        exponent = self.hierarchy.point_exponent
    elif self.hierarchy.n_levels:
        # A point fits any level: the finest one that already exists.
        exponent = self.hierarchy.levels[self.hierarchy.order[0]].exponent
    while far / hierarchical_cell_of_exponent(self, exponent) >= PRECISE_CELLS:
        exponent += 1
    return exponent


cdef int32_t hierarchical_level_index(HierarchicalGridD self, int32_t exponent) noexcept nogil:
    """The level of this exponent, created if absent; -1 if out of memory."""
    cdef Py_ssize_t k, pos
    cdef Level* L
    for k in range(self.hierarchy.n_levels):
        if self.hierarchy.levels[k].exponent == exponent:
            return <int32_t>k
    if grow_array(<void**>&self.hierarchy.levels, &self.hierarchy.levels_cap,
                  self.hierarchy.n_levels + 1, sizeof(Level)) < 0:
        return -1
    if grow_array(<void**>&self.hierarchy.order, &self.hierarchy.order_cap,
                  self.hierarchy.n_levels + 1, sizeof(int32_t)) < 0:
        return -1
    L = &self.hierarchy.levels[self.hierarchy.n_levels]
    if level_init(L, INITIAL_WBITS) < 0:
        return -1
    L.cell = hierarchical_cell_of_exponent(self, exponent)
    L.inv = 1.0 / L.cell
    L.exponent = exponent
    pos = self.hierarchy.n_levels
    while pos > 0 and self.hierarchy.levels[self.hierarchy.order[pos - 1]].exponent > exponent:
        self.hierarchy.order[pos] = self.hierarchy.order[pos - 1]
        pos -= 1
    self.hierarchy.order[pos] = <int32_t>self.hierarchy.n_levels
    self.hierarchy.n_levels += 1
    return <int32_t>(self.hierarchy.n_levels - 1)


cdef inline int32_t hierarchical_cell_index(HierarchicalGridD self, const Level* L, const Box* b) noexcept nogil:
    return wrapped_cell(L, floor_int(b.lo[0] * L.inv), floor_int(b.lo[1] * L.inv),
                        floor_int(b.lo[D - 1] * L.inv))


cdef int32_t hierarchical_home(HierarchicalGridD self, const Level* L, int32_t i) noexcept nogil:
    cdef Box box
    shape_box(&self.state.body[i], &box)
    return hierarchical_cell_index(self, L, &box)


cdef void hierarchical_enter_level(HierarchicalGridD self, int32_t level, int32_t i) noexcept nogil:
    """Room for one more member must have been reserved."""
    cdef Level* L = &self.hierarchy.levels[level]
    cdef Box box
    shape_box(&self.state.body[i], &box)
    # Past the density the table doubles each side; if memory is short it stays.
    if <double>(L.n + 1) > self.density * <double>((<Py_ssize_t>1) << (D * L.wbits)) \
            and L.wbits < LARGEST_WBITS:
        _resize(self, L, L.wbits + 1)
        self.hierarchy.spacing_due = True
    _add_member(self, L, i)
    if longest_side(&box) > L.reach:
        L.reach = longest_side(&box)
    self.hierarchy.level_of[i] = level
    _push_cell(self, L, i, hierarchical_cell_index(self, L, &box))


cdef void hierarchical_leave_level(HierarchicalGridD self, int32_t i) noexcept nogil:
    _drop_member(self, &self.hierarchy.levels[self.hierarchy.level_of[i]], i)
