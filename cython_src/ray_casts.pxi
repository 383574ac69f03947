# Ray casts: a ray is a swept query of a point, whose candidates are met
# exactly (ray_hits_shape) and sorted, earliest first.


cdef int earlier_first(const void* a, const void* b) noexcept nogil:
    """qsort's order for RayHit: by fraction, then by id."""
    cdef const RayHit* p = <const RayHit*>a
    cdef const RayHit* q = <const RayHit*>b
    if p.fraction != q.fraction:
        return -1 if p.fraction < q.fraction else 1
    return (p.id > q.id) - (p.id < q.id)


cdef int check_ray(const double* start, const double* end, str where="") except -1:
    if not all_finite(start):
        raise ValueError(f"{where}ray start must be finite, got ({shown(start)})")
    if not all_finite(end):
        raise ValueError(f"{where}ray end must be finite, got ({shown(end)})")
    return 0


cdef int aim_ray(SpatialIndexD index, const double* start, const double* end, uint32_t layers,
                 Query* q) noexcept nogil:
    """q as a swept query of the point `start` to the point `end` on `layers`:
    INPUT_OK, TOO_LONG if the path's length overflows, or the index's TOO_FAR + axis."""
    cdef int a
    _aim(index, q, Q_SWEPT, layers)
    for a in range(D):
        q.box.lo[a] = q.box.hi[a] = start[a]
        q.along[a] = end[a] - start[a]
        if not isfinite(q.along[a]):
            return TOO_LONG
    return _prepare_query(index, q)


cdef int raise_ray_error(SpatialIndexD index, int code, str where, const double* start,
                         const double* end) except -1:
    cdef double no_size[D]
    if code == TOO_LONG:
        raise ValueError(f"{where}from ({shown(start)}) to ({shown(end)}) is too long")
    raise input_error(code, where, end, axes_of(no_size, 0.0, 0.0, 0.0), _cell_hint(index))


cdef Py_ssize_t collect_hits(SpatialIndexD index, Query* q) noexcept nogil:
    """Every object the prepared ray q meets, into ray_hits[0 : returned],
    earliest first (ties in id order): the objects whose box it touches, found
    by the cells it crosses, then met exactly; -1 if out of memory."""
    cdef Py_ssize_t j, n = 0
    cdef int32_t i
    cdef double start[D]
    cdef double along[D]
    cdef int a
    for a in range(D):      # copied, so that no write to ray_hits can alias them
        start[a] = q.box.lo[a]
        along[a] = q.along[a]
    _collect(index, q)
    if grow_array(<void**>&index.state.ray_hits, &index.state.ray_hits_cap, index.state.out_n,
                  sizeof(RayHit)) < 0:
        return -1
    for j in range(index.state.out_n):
        i = index.state.out[j]
        if ray_hits_shape(index.state.body[i].p, start, along, &index.state.ray_hits[n]):
            index.state.ray_hits[n].id = i
            n += 1
    sort_items(index.state.ray_hits, n, sizeof(RayHit), earlier_first)
    return n


cdef Py_ssize_t cast_ray(SpatialIndexD index, const double* start, const double* end,
                         object mask) except -1:
    cdef Query q
    cdef Py_ssize_t n
    cdef uint32_t layers = check_bits(mask, "mask")
    check_ray(start, end)
    code = aim_ray(index, start, end, layers, &q)
    if code:
        raise_ray_error(index, code, "ray ", start, end)
    with nogil:
        n = collect_hits(index, &q)
    if n < 0:
        raise MemoryError()
    return n


cdef tuple hit_tuple(SpatialIndexD index, Py_ssize_t j):
    cdef const RayHit* h = &index.state.ray_hits[j]
    return (handle_of(index.handles, h.id), h.fraction, axes_tuple(h.point),
            axes_tuple(h.normal))


cdef tuple cast_rays(SpatialIndexD index, rays, bint all_hits, object mask):
    """raycast_many's work (which documents it)."""
    cdef uint32_t layers = check_bits(mask, "mask")
    cdef const double[:, ::1] rows = as_rows(rays, 2 * D, "rays")
    cdef Py_ssize_t j, m = rows.shape[0], total = 0, n = 0, k
    cdef Query q
    cdef int code = 0
    cdef RayHit* kept
    cdef int64_t[::1] off
    cdef int32_t[::1] dest_ids
    cdef double[::1] dest_fractions
    cdef double[:, ::1] dest_points, dest_normals
    for j in range(m):
        check_ray(&rows[j, 0], &rows[j, D], f"rays[{j}]: ")
    cdef Claim claim
    _claim(index, claim)
    for j in range(m):
        code = aim_ray(index, &rows[j, 0], &rows[j, D], layers, &q)
        if code:
            raise_ray_error(index, code, f"rays[{j}]: ray ", &rows[j, 0], &rows[j, D])
    offsets = np.empty(m + 1, dtype=np.int64)
    off = offsets
    with nogil:
        off[0] = 0
        for j in range(m):
            aim_ray(index, &rows[j, 0], &rows[j, D], layers, &q)
            n = collect_hits(index, &q)
            if n > 1 and not all_hits:
                n = 1
            if n < 0:
                break
            kept = <RayHit*>_batch_room(index, (total + n) * sizeof(RayHit))
            if kept == NULL:
                n = -1
                break
            copy_bytes(kept + total, index.state.ray_hits, n * sizeof(RayHit))
            total += n
            off[j + 1] = total
    if n < 0:
        raise MemoryError()
    ids = np.empty(total, dtype=np.int32)
    fractions = np.empty(total, dtype=np.float64)
    points = np.empty((total, D), dtype=np.float64)
    normals = np.empty((total, D), dtype=np.float64)
    dest_ids, dest_fractions, dest_points, dest_normals = ids, fractions, points, normals
    kept = <RayHit*>index.state.batch_results
    for k in range(total):
        dest_ids[k] = kept[k].id
        dest_fractions[k] = kept[k].fraction
        for j in range(D):
            dest_points[k, j] = kept[k].point[j]
            dest_normals[k, j] = kept[k].normal[j]
    return offsets, ids, fractions, points, normals
