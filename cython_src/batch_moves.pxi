# A batch move's two halves, compiled once per grid (both are final, Grid is
# defined with the window walks), so that their per-object hooks (_settle,
# _level_of) are direct calls the compiler can inline instead of a virtual call
# per row.


ctypedef struct SettleRows:
    # A batch move's first half for for_each_chunk: the grid (borrowed, which
    # grid it is) and the batch.
    PyObject* grid
    bint hierarchical
    const int64_t* ids
    const Rows* batch


cdef void settle_range(Grid grid, const SettleRows* rows, Py_ssize_t first, Py_ssize_t end) noexcept nogil:
    cdef Py_ssize_t k
    cdef Shape b
    for k in range(first, end):
        shape_of_row(rows.batch, k, &b)
        grid.row_state[k] = grid._settle(<int32_t>rows.ids[k], &b)


cdef Py_ssize_t settle_rows(void* context, Py_ssize_t first, Py_ssize_t end) noexcept nogil:
    cdef const SettleRows* rows = <const SettleRows*>context
    if rows.hierarchical:
        settle_range[HierarchicalGridD](<HierarchicalGridD>rows.grid, rows, first, end)
    else:
        settle_range[UniformGridD](<UniformGridD>rows.grid, rows, first, end)
    return 0


cdef int move_rows(Grid grid, const int64_t[::1] ids, const Rows* batch) noexcept nogil:
    """Two halves, timed apart: every object _settle takes in takes its new
    body and notes its new home (on `threads` threads: each row writes only its
    own object, ids being distinct; the moves); then, in row order, objects
    whose home changed are relinked and the rest move one by one (the
    relinks). The result is the same for any thread count."""
    cdef Py_ssize_t k, n = ids.shape[0], growths = grid.growths
    cdef int32_t i, cell
    cdef Level* L
    cdef Shape b
    cdef double started = now_ms(), settled
    cdef SettleRows rows
    if grow_array(<void**>&grid.row_state, &grid.row_state_cap, n, sizeof(int32_t)) < 0:
        return -1
    if n:
        rows.grid = <PyObject*>grid
        rows.hierarchical = Grid is HierarchicalGridD
        rows.ids = &ids[0]
        rows.batch = batch
        for_each_chunk(1 if _serial(grid, n) else grid.threads, n, PARALLEL_CHUNK, settle_rows, &rows)
    settled = now_ms()
    for k in range(n):
        if k + MOVE_LOOKAHEAD < n and grid.row_state[k + MOVE_LOOKAHEAD] >= 0:
            i = <int32_t>ids[k + MOVE_LOOKAHEAD]
            prefetch(&grid._level_of(i).head[grid.row_state[k + MOVE_LOOKAHEAD]])
        i = <int32_t>ids[k]
        cell = grid.row_state[k]
        if cell >= 0:
            L = grid._level_of(i)
            if grid.growths != growths:
                # A table grew under the first half's cells: recompute.
                cell = grid._home(L, i)
            _move_cell(grid, L, i, cell)
        else:
            shape_of_row(batch, k, &b)
            if grid._move(i, &b) < 0:
                return -1
    _phase_times(grid, started, settled)
    return 0
