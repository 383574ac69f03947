# Walking a window of a level's cells, for a query: written once for both grids,
# compiled once per grid (both are final) so that each grid's list visit is a
# direct call. A grid offers what a list holds with _visit_list, and what
# several hold with _visit_lists (the uniform grid keeps the objects whose cell
# ranges meet the query's; the hierarchical grid offers every object), and says
# what a list's walk reads first with _prefetch_list.

ctypedef fused Grid:
    UniformGrid
    HierarchicalGrid

cdef enum:
    # A window with lists in at most this many cells notes where they start.
    WINDOW_LISTS = 32


cdef inline void walk_window(Grid grid, const Query* q, const Level* L, int64_t x0, int64_t y0,
                             int64_t columns, int64_t rows) noexcept nogil:
    """Offer the objects at home in cells x0 .. x0 + columns - 1 by y0 .. y0 +
    rows - 1, at most the table's side each way (no table cell twice). The
    window's lists start scattered in memory: ask for all their first objects
    at once (noting them, for windows of a few lists), then walk them."""
    cdef int64_t cx, cy, row
    cdef Py_ssize_t firsts = 0
    cdef int32_t i
    cdef int32_t first[WINDOW_LISTS]
    for cy in range(y0, y0 + rows):
        row = (cy & L.mask) << L.wbits
        for cx in range(x0, x0 + columns):
            i = L.head[row | (cx & L.mask)]
            if i >= 0:
                grid._prefetch_list(i)
                if firsts < WINDOW_LISTS:
                    first[firsts] = i
                firsts += 1
    if firsts <= WINDOW_LISTS:
        grid._visit_lists(q, first, firsts)
        return
    for cy in range(y0, y0 + rows):
        row = (cy & L.mask) << L.wbits
        for cx in range(x0, x0 + columns):
            grid._visit_list(q, L.head[row | (cx & L.mask)])


cdef inline void walk_swept(Grid grid, const Query* q, const Level* L, double cell,
                            double origin_x, double origin_y, double row_scale,
                            bint scale_divides, int64_t x0, int64_t x1, int64_t y0, int64_t y1,
                            int64_t back_columns, int64_t back_rows) noexcept nogil:
    """Offer the objects at home in the cells a swept query passes, where an
    object's home is up to back_columns columns left of and back_rows rows
    above the cells of its box that the sweep touches: x0 .. x1 (fewer columns
    than the table has) are the sweep's columns from back_columns before its
    first, y0 .. y1 its rows. The box swept with its left side back_columns
    cells further left meets every home column of an object whose box the
    sweep touches; while it does, the sweep covers an interval of rows (found
    by the grid's own rule for placing objects, so no row holding a touched
    object is cut off), and the homes lie from back_rows rows above it."""
    cdef Box lead = q.box
    cdef double column_x
    cdef int64_t cx, cy, first_row, last_row, side = L.mask + 1
    lead.minx -= back_columns * cell
    for cx in range(x0, x1 + 1):
        column_x = origin_x + cx * cell
        if swept_column_rows(&lead, q.dx, q.dy, column_x, column_x + cell, origin_y, row_scale,
                             scale_divides, y0, y1, &first_row, &last_row):
            first_row -= back_rows
            if last_row - first_row >= side:
                last_row = first_row + side - 1
            for cy in range(first_row, last_row + 1):
                grid._visit_list(q, L.head[wrapped_cell(L, cx, cy)])
