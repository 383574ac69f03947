# A batch move's two halves, compiled once per grid (Grid is defined with the
# window walks), so that their per-object hooks (settle, level_of) are direct
# calls the compiler can inline instead of a dispatch per row.


cdef inline int32_t grid_settle(Grid grid, int32_t i, const Shape* b) noexcept nogil:
    if Grid is UniformGridD:
        return uniform_settle(grid, i, b)
    else:
        return hierarchical_settle(grid, i, b)


cdef inline Level* grid_level_of(Grid grid, int32_t i) noexcept nogil:
    if Grid is UniformGridD:
        return uniform_level_of(grid, i)
    else:
        return hierarchical_level_of(grid, i)


cdef inline int32_t grid_home(Grid grid, const Level* L, int32_t i) noexcept nogil:
    if Grid is UniformGridD:
        return uniform_home(grid, L, i)
    else:
        return hierarchical_home(grid, L, i)


cdef inline int grid_move(Grid grid, int32_t i, const Shape* b) noexcept nogil:
    if Grid is UniformGridD:
        return uniform_move(grid, i, b)
    else:
        return hierarchical_move(grid, i, b)


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
        grid.state.row_state[k] = grid_settle[Grid](grid, <int32_t>rows.ids[k], &b)


cdef Py_ssize_t settle_rows(void* context, Py_ssize_t first, Py_ssize_t end) noexcept nogil:
    cdef const SettleRows* rows = <const SettleRows*>context
    if rows.hierarchical:
        settle_range[HierarchicalGridD](<HierarchicalGridD>rows.grid, rows, first, end)
    else:
        settle_range[UniformGridD](<UniformGridD>rows.grid, rows, first, end)
    return 0


cdef int move_rows(Grid grid, const int64_t[::1] ids, const Rows* batch) noexcept nogil:
    """Two halves, timed apart: every object grid_settle takes in takes its new
    body and notes its new home (on `threads` threads: each row writes only its
    own object, ids being distinct; the moves); then, in row order, objects
    whose home changed are relinked and the rest move one by one (the
    relinks). The result is the same for any thread count."""
    cdef Py_ssize_t k, n = ids.shape[0], growths = grid.state.growths
    cdef int32_t i, cell
    cdef Level* L
    cdef Shape b
    cdef double started = now_ms(), settled
    cdef SettleRows rows
    if grow_array(<void**>&grid.state.row_state, &grid.state.row_state_cap, n, sizeof(int32_t)) < 0:
        return -1
    if n:
        rows.grid = <PyObject*>grid
        rows.hierarchical = Grid is HierarchicalGridD
        rows.ids = &ids[0]
        rows.batch = batch
        for_each_chunk(1 if _serial(grid, n) else grid.state.threads, n, PARALLEL_CHUNK, settle_rows, &rows)
    settled = now_ms()
    for k in range(n):
        if k + MOVE_LOOKAHEAD < n and grid.state.row_state[k + MOVE_LOOKAHEAD] >= 0:
            i = <int32_t>ids[k + MOVE_LOOKAHEAD]
            prefetch(&grid_level_of[Grid](grid, i).head[grid.state.row_state[k + MOVE_LOOKAHEAD]])
        i = <int32_t>ids[k]
        cell = grid.state.row_state[k]
        if cell >= 0:
            L = grid_level_of[Grid](grid, i)
            if grid.state.growths != growths:
                # A table grew under the first half's cells: recompute.
                cell = grid_home[Grid](grid, L, i)
            _move_cell(grid, L, i, cell)
        else:
            shape_of_row(batch, k, &b)
            if grid_move[Grid](grid, i, &b) < 0:
                return -1
    _phase_times(grid, started, settled)
    return 0
