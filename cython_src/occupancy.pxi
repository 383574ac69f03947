# What the cells hold, counted for stats() and cell_counts(): the schema both
# grids' stats() share, and every cell the objects' ranges cover with how
# many cover it.


# The keys of both grids' stats(), in order (UniformGrid.stats says what each holds).
STATS_KEYS = ("objects", "active_cells", "memberships", "avg_objects_per_cell",
              "max_objects_per_cell", "large_objects", "longest_probe", "levels",
              "broad_phase_pairs", "narrow_phase_checks", "hits")


cdef dict occupancy(Py_ssize_t objects, Py_ssize_t cells, Py_ssize_t members, Py_ssize_t most,
                    Py_ssize_t large, Py_ssize_t probe, list levels, SpatialIndexD index):
    """A stats() dict in the shared schema, with the index's pair-pass counters;
    the caller holds the index's claim."""
    _resolve_broad_phase(index)
    return dict(zip(STATS_KEYS, (
        objects, cells, members, <double>members / cells if cells else 0.0, most, large, probe,
        levels, index.state.broad_phase_count, index.state.narrow_phase_count, index.hits)))


cdef object covered_cells(const CellRange* ranges, const int32_t* members, Py_ssize_t n):
    """(keys, counts): every cell covered by the ranges ranges[members[k]] for
    k < n (ranges[k] if members is NULL), in ascending order, and how many of
    them cover it. In 2D a cell's key is cx << 32 | (cy mod 2**32); in 3D, whose
    three coordinates of 31 bits do not fit in 64, the row (cx, cy, cz) of an
    (m, 3) array."""
    cdef Py_ssize_t k, m = 0, cells
    cdef int64_t cx, cy, cz, z0, z1
    cdef int a
    cdef const CellRange* r
    for k in range(n):
        r = &ranges[members[k] if members != NULL else k]
        cells = 1
        for a in range(D):
            cells *= <Py_ssize_t>r.hi[a] - r.lo[a] + 1
        m += cells
    rows = np.empty((m, D), dtype=np.int32)
    cdef int32_t[:, ::1] out = rows
    m = 0
    for k in range(n):
        r = &ranges[members[k] if members != NULL else k]
        z0 = r.lo[D - 1] if D == 3 else 0      # 2D: one layer
        z1 = r.hi[D - 1] if D == 3 else 0
        for cz in range(z0, z1 + 1):
            for cy in range(r.lo[1], r.hi[1] + 1):
                for cx in range(r.lo[0], r.hi[0] + 1):
                    out[m, 0] = <int32_t>cx
                    out[m, 1] = <int32_t>cy
                    out[m, D - 1] = <int32_t>(cz if D == 3 else cy)
                    m += 1
    if D == 2:
        return np.unique((rows[:, 0].astype(np.int64) << 32) | (rows[:, 1].astype(np.int64) & 0xFFFFFFFF),
                         return_counts=True)
    return unique_rows(rows)


cdef object unique_rows(object keys):
    """np.unique(keys, axis=0, return_counts=True) for an (m, 3) int32 array,
    about ten times faster: numpy sorts rows as opaque records. Rows whose
    spans fit in 21 bits a side are packed into one int64 each (in the same
    order as the rows); wider spans are sorted by columns."""
    if not len(keys):
        return keys, np.zeros(0, dtype=np.int64)
    low = keys.min(axis=0).astype(np.int64)
    span = keys.max(axis=0).astype(np.int64) - low
    if (span < (1 << 21)).all():
        shifted = keys - low
        packed = (shifted[:, 0] << 42) | (shifted[:, 1] << 21) | shifted[:, 2]
        packed, first, counts = np.unique(packed, return_index=True, return_counts=True)
        return np.ascontiguousarray(keys[first]), counts
    rows = keys[np.lexsort((keys[:, 2], keys[:, 1], keys[:, 0]))]
    starts = np.flatnonzero(np.concatenate(([True], (rows[1:] != rows[:-1]).any(axis=1))))
    return np.ascontiguousarray(rows[starts]), np.diff(np.append(starts, len(rows)))
