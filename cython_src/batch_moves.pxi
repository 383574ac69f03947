# A batch move's two halves, compiled once per grid (both are final, Grid is
# defined with the window walks), so that their per-object hooks (_settle,
# _level_of) are direct calls the compiler can inline instead of a virtual call
# per row.


cdef inline int32_t settle_row(Grid grid, int32_t i, const Rows* batch, Py_ssize_t k) noexcept nogil:
    cdef Shape b
    shape_of_row(batch, k, &b)
    return grid._settle(i, &b)


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
    if grow_array(<void**>&grid.row_state, &grid.row_state_cap, n, sizeof(int32_t)) < 0:
        return -1
    if grid._serial(n):
        for k in range(n):
            grid.row_state[k] = settle_row(grid, <int32_t>ids[k], batch, k)
    else:
        for k in prange(n, num_threads=grid.threads, schedule="dynamic", chunksize=PARALLEL_CHUNK):
            grid.row_state[k] = settle_row(grid, <int32_t>ids[k], batch, k)
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
            grid._move_cell(L, i, cell)
        else:
            shape_of_row(batch, k, &b)
            if grid._move(i, &b) < 0:
                return -1
    grid._phase_times(started, settled)
    return 0
