# The uniform spatial hash: cells of one size, the user's. An object covers the
# cells of its box (its cell range) but is stored once, on the list of its home
# cell, the one holding its box's min corner, in a wrapped table (a Level, see
# cell_lists.pxi): moving it is a constant-time relink, and only when its min
# corner changes cell. No object in the table spans more than span_x columns
# and span_y rows (in 3D, span_z layers) past its home, so a query finds
# whatever shares a cell with its range among the home cells up to that far
# before it, keeping what truly does; the pair pass tests each object against
# the objects at home in the cells of its range, in its range's later rows also
# up to span_x cells left of it (in 3D, in its later layers also up to span_y
# rows before it), keeping the pairs whose ranges meet. Objects covering more
# than `large_threshold` cells on a side live on a side list instead. The class
# UniformGrid (UniformGrid3D) is declared per dimension (api2d/classes.pxi).


cdef enum:
    # The table doubles its side once it holds more small objects than cells:
    # the lists of an evenly filled world stay about one object long, and the
    # pair pass walks no more cells than objects.
    TABLE_LOAD_DIVISOR = 1


cdef int init_uniform(UniformGridD self, object cell_size, object origin, object large_threshold,
                      object threads) except -1:
    cdef int exponent, a
    cdef double at[D]
    self.state.kind = UNIFORM_GRID
    self.cell_size = check_cell_size(cell_size)
    vector_into(origin, "origin", at)
    for a in range(D):
        self.cells.origin[a] = check_finite(at[a], "origin." + AXIS_NAMES[a])
    if not isinstance(large_threshold, int) or not 1 <= large_threshold <= 64:
        raise ValueError(
            f"large_threshold must be an int from 1 to 64 (cells per side), got {large_threshold!r}")
    self.large_threshold = large_threshold
    self.state.threads = check_threads(threads)
    self.cells.inv_cell = 1.0 / self.cell_size
    self.cells.exact_inverse = frexp(self.cell_size, &exponent) == 0.5 and isfinite(self.cells.inv_cell) \
        and self.cells.inv_cell * self.cell_size == 1.0
    # A window of home cells is 2 * span + 1 <= 2 * large_threshold - 1 wide.
    self.cells.min_wbits = INITIAL_WBITS
    while (1 << self.cells.min_wbits) < 2 * large_threshold - 1:
        self.cells.min_wbits += 1
    if level_init(&self.cells.table, self.cells.min_wbits) < 0:
        raise MemoryError()
    self.cells.cell_pairs = new CellPairs()
    return 0


cdef void free_uniform(UniformGridD self) noexcept:
    del self.cells.cell_pairs
    level_free(&self.cells.table)
    free(self.cells.range)
    free(self.cells.large)
    free(self.cells.packed_range)


cdef str uniform_repr(UniformGridD self):
    return (f"{type(self).__name__}(cell_size={self.cell_size!r}, "
            f"origin=({shown(self.cells.origin)}), large_threshold={self.large_threshold}, "
            f"threads={self.state.threads}) "
            f"with {self.state.n_live} objects")


cdef tuple cells_tuple(UniformGridD self, object object_id):
    """An object's cell range as cells_of returns it: its low cell's
    coordinates then its high cell's."""
    _idle(self)
    cdef CellRange r = self.cells.range[_check_id(self, object_id)]
    cdef int a
    return tuple([r.lo[a] for a in range(D)] + [r.hi[a] for a in range(D)])


def is_large(UniformGridD self, object_id):
    """Whether an object lives on the large-object list instead of in cells.

    Objects covering more than `large_threshold` cells on a side do.

    Parameters
    ----------
    object_id : int
        The object's id.

    Returns
    -------
    bool
        True if it is on the large-object list.

    Raises
    ------
    KeyError
        For an unknown id.
    RuntimeError
        If another thread's call holds the index.
    """
    _idle(self)
    return self.state.home[_check_id(self, object_id)] < 0


cdef tuple cell_of_point(UniformGridD self, tuple point_axes):
    """cell_of: the cell holding the point whose numbers are `point_axes`."""
    cdef Box point
    cdef CellRange cell
    cdef double no_size[D]
    cdef int a
    for a, value in enumerate(point_axes):
        point.lo[a] = point.hi[a] = check_finite(value, AXIS_NAMES[a])
    code = range_of(&point, self.cells.origin, self.cell_size, &cell)
    if code:
        raise input_error(code, "", point.lo, axes_of(no_size, 0.0, 0.0, 0.0), self.cell_size)
    return tuple([cell.lo[a] for a in range(D)])


def uniform_stats(UniformGridD self):
    """Occupancy figures, in the schema both grids share.

    Counts every membership: for tests, tuning and monitors, not for a frame's
    inner loop.

    Returns
    -------
    dict
        The keys of STATS_KEYS, in order: "objects" (live objects),
        "active_cells" (cells covered by at least one object), "memberships"
        ((object, cell) pairs; an object covers every cell its box touches),
        "avg_objects_per_cell" and "max_objects_per_cell" (memberships per
        active cell), "large_objects" (objects on the large-object list),
        "longest_probe" (slots a cell lookup reads in the table: 1, as it is
        direct-mapped; 0 when empty), "levels" (one dict per cell size:
        "cell_size", "grid" (the table's side: cells whose coordinates agree
        modulo it share its slot), "objects" (in the table), "occupied_cells"),
        and the last pair pass's "broad_phase_pairs", "narrow_phase_checks"
        and "hits".

    Raises
    ------
    RuntimeError
        If another thread's call holds the index.
    """
    cdef Claim claim
    _claim(self, claim)       # numpy runs meanwhile: Python code could call in
    keys, counts = covered_cells(self.cells.range, self.cells.table.members, self.cells.table.n)
    cells = len(keys)
    return occupancy(self.state.n_live, cells, int(counts.sum()), int(counts.max()) if cells else 0,
                     self.cells.n_large, 1 if cells else 0,
                     [{"cell_size": self.cell_size, "grid": self.cells.table.mask + 1,
                       "objects": self.cells.table.n, "occupied_cells": cells}], self)


cdef dict cell_counts_of(UniformGridD self):
    """cell_counts: {cell: number of objects} over the cells of the table."""
    cdef Claim claim
    _claim(self, claim)
    keys, counts = covered_cells(self.cells.range, self.cells.table.members, self.cells.table.n)
    if D == 2:      # keys pack the column and the row into one int64
        columns = (keys >> 32).tolist()
        rows = (keys & 0xFFFFFFFF).astype(np.uint32).view(np.int32).tolist()
        return dict(zip(zip(columns, rows), counts.tolist()))
    return dict(zip(map(tuple, keys.tolist()), counts.tolist()))
