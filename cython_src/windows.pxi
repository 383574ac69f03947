# Walking a window of a level's cells, for a query: written once for both grids,
# compiled once per grid so that each grid's list visit is a direct call. A
# grid offers what a list holds with its visit_list, and what several hold with
# its visit_lists (the uniform grid keeps the objects whose cell ranges meet the
# query's; the hierarchical grid offers every object), and says what a list's
# walk reads first with its prefetch_list.

# The calls below name the grid they compile for (walk_window[UniformGridD]):
# Cython does not match an argument typed with one of these names to the
# fused type by itself.
ctypedef fused Grid:
    UniformGridD
    HierarchicalGridD

cdef inline void grid_prefetch_list(Grid grid, int32_t i) noexcept nogil:
    if Grid is UniformGridD:
        uniform_prefetch_list(grid, i)
    else:
        hierarchical_prefetch_list(grid, i)


cdef inline void grid_visit_list(Grid grid, const Query* q, int32_t i) noexcept nogil:
    if Grid is UniformGridD:
        uniform_visit_list(grid, q, i)
    else:
        hierarchical_visit_list(grid, q, i)


cdef inline void grid_visit_lists(Grid grid, const Query* q, const int32_t* first,
                                  Py_ssize_t n) noexcept nogil:
    if Grid is UniformGridD:
        uniform_visit_lists(grid, q, first, n)
    else:
        hierarchical_visit_lists(grid, q, first, n)


cdef enum:
    # A window with lists in at most this many cells notes where they start.
    WINDOW_LISTS = 32


cdef inline void walk_window(Grid grid, const Query* q, const Level* L, const int64_t* start,
                             const int64_t* count) noexcept nogil:
    """Offer the objects at home in the cells start[a] .. start[a] + count[a] - 1
    on each axis a (three of each: in 2D the window is one layer, at 0), at
    most the table's side each way (no table cell twice); its rows are taken
    one after another, layer by layer. The window's lists start scattered in
    memory: ask for all their first objects at once (noting them, for windows
    of a few lists), then walk them."""
    cdef int64_t cx, cy, cz, row
    cdef Py_ssize_t firsts = 0
    cdef int32_t i
    cdef int32_t first[WINDOW_LISTS]
    for cz in range(start[2], start[2] + count[2]):
        for cy in range(start[1], start[1] + count[1]):
            row = wrapped_cell(L, 0, cy, cz)
            for cx in range(start[0], start[0] + count[0]):
                i = L.head[row | (cx & L.mask)]
                if i >= 0:
                    grid_prefetch_list[Grid](grid, i)
                    if firsts < WINDOW_LISTS:
                        first[firsts] = i
                    firsts += 1
    if firsts <= WINDOW_LISTS:
        grid_visit_lists[Grid](grid, q, first, firsts)
        return
    for cz in range(start[2], start[2] + count[2]):
        for cy in range(start[1], start[1] + count[1]):
            row = wrapped_cell(L, 0, cy, cz)
            for cx in range(start[0], start[0] + count[0]):
                grid_visit_list[Grid](grid, q, L.head[row | (cx & L.mask)])


cdef inline void walk_swept(Grid grid, const Query* q, const Level* L, double cell,
                            double origin_x, double origin_y, double row_scale,
                            bint scale_divides, int64_t x0, int64_t x1, int64_t y0, int64_t y1,
                            int64_t back_columns, int64_t back_rows) noexcept nogil:
    """In 2D: offer the objects at home in the cells a swept query passes,
    where an object's home is up to back_columns columns left of and back_rows
    rows above the cells of its box that the sweep touches: x0 .. x1 (fewer
    columns than the table has) are the sweep's columns from back_columns
    before its first, y0 .. y1 its rows. The box swept with its left side
    back_columns cells further left meets every home column of an object whose
    box the sweep touches; while it does, the sweep covers an interval of rows
    (found by the grid's own rule for placing objects, so no row holding a
    touched object is cut off), and the homes lie from back_rows rows above it."""
    cdef Box lead = q.box
    cdef double column_x
    cdef int64_t cx, cy, first_row, last_row, side = L.mask + 1
    lead.lo[0] -= back_columns * cell
    for cx in range(x0, x1 + 1):
        column_x = origin_x + cx * cell
        if swept_column_rows(&lead, q.along, column_x, column_x + cell, origin_y, row_scale,
                             scale_divides, y0, y1, &first_row, &last_row):
            first_row -= back_rows
            if last_row - first_row >= side:
                last_row = first_row + side - 1
            for cy in range(first_row, last_row + 1):
                grid_visit_list[Grid](grid, q, L.head[wrapped_cell(L, cx, cy)])


# What each grid's query visits (its _collect): the windows of home cells
# that can hold an object meeting the query's box, or every object where
# there are fewer objects than cells. A 2D swept query walks the cells its
# path crosses; a 3D one, the window of its whole reach, whose objects _take
# then tests against the sweep.


cdef inline bint scan_beats_visit(double cells, Py_ssize_t objects) noexcept nogil:
    """Should a query over this many cells test every object instead? Yes once
    the cells outnumber the objects: the scan then makes fewer steps than the
    cell lookups would."""
    return cells > <double>objects


cdef inline void collect_uniform(UniformGridD grid, Query* q) noexcept nogil:
    """Each object has one home and no table cell is visited twice (windows
    are cut to the table's side), so nothing is offered twice."""
    cdef const CellRange* cells = &q.cells
    cdef const Level* L = &grid.cells.table
    cdef int64_t side = L.mask + 1
    cdef int64_t start[3]       # the window (see walk_window)
    cdef int64_t count[3]
    cdef double window = 1.0
    cdef Py_ssize_t k
    cdef int32_t i
    cdef int a
    start[2] = 0
    count[2] = 1
    grid.state.out_n = 0
    if L.n:
        for a in range(D):
            start[a] = <int64_t>cells.lo[a] - grid.cells.span[a]
            count[a] = min(cells.hi[a] - start[a] + 1, side)
            window *= <double>count[a]
        if scan_beats_visit(window, L.n) \
                or (D == 2 and q.kind == Q_SWEPT and cells.hi[0] - start[0] + 1 > side):
            for k in range(L.n):
                i = L.members[k]
                if ranges_meet(&grid.cells.range[i], cells):
                    _take(grid, q, i)
        elif D == 2 and q.kind == Q_SWEPT:
            walk_swept[UniformGridD](grid, q, L, grid.cell_size, grid.cells.origin[0], grid.cells.origin[1], grid.cell_size,
                       True, start[0], cells.hi[0], cells.lo[1], cells.hi[1], grid.cells.span[0],
                       grid.cells.span[1])
        else:
            walk_window[UniformGridD](grid, q, L, start, count)
    for k in range(grid.cells.n_large):
        i = grid.cells.large[k]
        if ranges_meet(&grid.cells.range[i], cells):
            _take(grid, q, i)


cdef inline void collect_hierarchical(HierarchicalGridD grid, Query* q) noexcept nogil:
    """Each object lives in one cell and no table cell is visited twice (the
    ranges are cut to the table's side), so nothing is offered twice."""
    cdef Py_ssize_t rank, k
    cdef const Level* L
    cdef Box reach = q.box
    cdef double lo[D]           # the level's cells to visit, lo .. hi on each axis
    cdef double hi[D]
    cdef double side, window, rows_to
    cdef int64_t start[3]       # the window (see walk_window)
    cdef int64_t count[3]
    cdef bint scan
    cdef int a
    start[2] = 0
    count[2] = 1
    grid.state.out_n = 0
    if q.kind == Q_SWEPT:
        swept_reach(q.box.lo, q.along, reach.lo)
    for rank in range(grid.hierarchy.n_levels):
        L = &grid.hierarchy.levels[grid.hierarchy.order[rank]]
        if L.n == 0:
            continue
        side = <double>((<int64_t>1) << L.wbits)
        # An object of this level overlapping the query has its min corner at
        # most one cell before the query's: those are the cells to visit. Scan
        # the level's objects when its cells cannot be named precisely, when a
        # 2D swept query would wrap around the table (columns would mix
        # different stretches of the path), or when there are fewer objects
        # than cells to visit.
        scan = False
        window = 1.0
        for a in range(D):
            lo[a] = floor(reach.lo[a] * L.inv) - 1.0
            hi[a] = floor(reach.hi[a] * L.inv)
            scan |= not (fabs(lo[a]) < PRECISE_CELLS and fabs(hi[a]) < PRECISE_CELLS)
        scan |= D == 2 and q.kind == Q_SWEPT and hi[0] - lo[0] >= side
        rows_to = hi[1]
        for a in range(D):
            if hi[a] - lo[a] >= side:
                hi[a] = lo[a] + side - 1.0
            window *= hi[a] - lo[a] + 1.0
        if scan or scan_beats_visit(window, L.n):
            for k in range(L.n):
                _take(grid, q, L.members[k])
        elif D == 2 and q.kind == Q_SWEPT:
            walk_swept[HierarchicalGridD](grid, q, L, L.cell, 0.0, 0.0, L.inv, False, <int64_t>lo[0], <int64_t>hi[0],
                       <int64_t>lo[1] + 1, <int64_t>rows_to, 1, 1)
        else:
            for a in range(D):
                start[a] = <int64_t>lo[a]
                count[a] = <int64_t>(hi[a] - lo[a]) + 1
            walk_window[HierarchicalGridD](grid, q, L, start, count)
