# What an index answers about a place: box, point, radius and swept queries,
# single and batched, the nearest objects and ray casts.


cdef inline bint accepts(SpatialIndexD index, const Query* q, int32_t i) noexcept nogil:
    """Does query q take object i (its layers, then its shape)?"""
    cdef const Shape* b = &index.state.body[i]
    cdef Box box
    if q.check_layers and not (filter_of_id(index, i).layer & q.layers):
        return False
    if q.kind == Q_CELLS:
        return True
    shape_box(b, &box)
    if q.kind == Q_SWEPT:
        return swept_box_hits(q.box.lo, q.along, box.lo)
    if not box_overlap(&q.box, &box):
        return False
    if q.kind == Q_BOX:
        return not shape_is_circle(b) or circle_box(<const Circle*>b, &q.box)
    if shape_is_circle(b):
        return circle_circle(&q.circle, <const Circle*>b)
    return circle_box(&q.circle, &box)


# ------------------------------------------------------------------ queries

cdef list _run_query(SpatialIndexD self, Query* q, str where, const double* at, const double* size):
    cdef Claim claim
    _claim(self, claim)       # making the result list can run Python code (a collection)
    code = _prepare_query(self, q)
    if code:
        raise input_error(code, where, at, size, _cell_hint(self))
    _collect(self, q)
    return _out_handles(self)


cdef list _out_handles(SpatialIndexD self):
    """The handles of the ids in `out`, as a new list. A query's results lie
    scattered in memory, so all their handles are fetched at once first."""
    cdef Py_ssize_t j, n = self.state.out_n, n_handles = PyList_GET_SIZE(self.handles)
    cdef list handles = self.handles
    cdef PyObject** items = PySequence_Fast_ITEMS(handles)
    cdef object handle
    cdef list result = PyList_New(n)
    for j in range(n):
        if self.state.out[j] < n_handles:
            prefetch(items[self.state.out[j]])
    for j in range(n):
        handle = handle_of(handles, self.state.out[j])
        incref(<PyObject*>handle)       # the new list's own reference
        list_put(result, j, <PyObject*>handle)
    return result


cdef list _box_query(SpatialIndexD self, int kind, const double* at, const double* size, object mask):
    cdef Query q
    _aim(self, &q, kind, check_bits(mask, "mask"))
    code = box_from_rect(at, size, &q.box)
    if code:
        raise input_error(code, "query ", at, size, 0.0)
    return _run_query(self, &q, "query ", at, size)


cdef list nearby_at(SpatialIndexD self, object pos, object size, object mask):
    """query_nearby with the corner and sizes as vectors (query_nearby_at)."""
    cdef double at[D]
    cdef double sizes[D]
    vector_into(pos, "pos", at)
    vector_into(size, "size", sizes)
    return _box_query(self, Q_CELLS, at, sizes, mask)


cdef list radius_query(SpatialIndexD self, const double* center, double radius, object mask):
    cdef Query q
    cdef double size[D]
    _aim(self, &q, Q_CIRCLE, check_bits(mask, "mask"))
    axes_of(size, radius, 0.0, 0.0)
    code = box_from_circle(center, radius, &q.circle, &q.box)
    if code:
        raise input_error(code, "query ", center, size, 0.0)
    return _run_query(self, &q, "query ", center, size)


cdef list swept_query(SpatialIndexD self, const double* start, const double* stop,
                      const double* size, object mask):
    cdef Query q
    cdef Box end
    cdef int a
    _aim(self, &q, Q_SWEPT, check_bits(mask, "mask"))
    code = box_from_rect(start, size, &q.box)
    if code:
        raise input_error(code, "path start ", start, size, 0.0)
    code = box_from_rect(stop, size, &end)
    if code:
        raise input_error(code, "path end ", stop, size, 0.0)
    for a in range(D):
        q.along[a] = stop[a] - start[a]
        if not isfinite(q.along[a]):
            raise ValueError(f"path from ({shown(start)}) to ({shown(stop)}) is too long")
    return _run_query(self, &q, "path ", stop, size)


# ------------------------------------------------------------------ nearest

cdef int _aim_nearest(SpatialIndexD self, NearestInput* search, uint32_t layers,
                      Py_ssize_t want) noexcept nogil:
    """search as a search of this index's objects on `layers`, with room in
    `nearby` for `want` answers; -1 if out of memory."""
    cdef Query q
    if grow_array(<void**>&self.state.nearby, &self.state.nearby_cap, want, sizeof(Nearby)) < 0:
        return -1
    _aim(self, &q, Q_CELLS, layers)
    if q.check_layers and own_filters(self, self.state.obj_hi) < 0:     # the search reads one per object
        return -1
    search.body = <const double*>self.state.body
    search.filter = self.state.filter if q.check_layers else NULL
    search.layers = layers
    search.packed = NULL
    return _nearest_levels(self, search)


cdef list nearest_query(SpatialIndexD self, const double* point, object k,
                        double max_distance, object mask):
    cdef Py_ssize_t j, n, want
    cdef uint32_t layers = check_bits(mask, "mask")
    cdef NearestInput search
    if not all_finite(point):
        raise ValueError(f"point must be finite, got ({shown(point)})")
    check_nearest_arguments(k, max_distance)
    cdef Claim claim
    _claim(self, claim)
    want = self.state.n_live if k >= self.state.n_live else <Py_ssize_t>k
    if _aim_nearest(self, &search, layers, want) < 0:
        raise MemoryError()
    with nogil:
        n = nearest_objects(search, point, want, max_distance, self.state.nearby)
    for j in range(n):
        self.state.out[j] = self.state.nearby[j].id
    self.state.out_n = n
    return _out_handles(self)


def query_nearest_many(SpatialIndexD self, points, k=1, double max_distance=INFINITY, mask=0xFFFFFFFF):
    """`query_nearest` for many points at once, on ids.

    Parameters
    ----------
    points : array_like, shape (m, $D)
        Rows $point, in world units (float64).
    k : int, optional
        How many objects to find per point (default 1; 0 finds none).
    max_distance : float, optional
        None farther than this, in world units (default infinite).
    mask : int, optional
        Only objects on one of these collision layers (default all).

    Returns
    -------
    offsets : numpy.ndarray of int64, shape (m + 1,)
        Point j's results are at [offsets[j]:offsets[j + 1]].
    ids : numpy.ndarray of int32
        Object ids (not handles), each point's nearest first.
    distances : numpy.ndarray of float64
        Their exact distances, in world units.

    Raises
    ------
    ValueError
        For a wrong shape, a bad number (naming points[j]), or a bad k,
        max_distance or mask, as `query_nearest`.
    MemoryError
        If memory runs out.
    RuntimeError
        If another thread's call holds the index.
    """
    cdef uint32_t layers = check_bits(mask, "mask")
    cdef const double[:, ::1] rows = as_rows(points, D, "points")
    cdef Py_ssize_t j, m = rows.shape[0], total, n, want
    cdef Nearby* kept
    cdef NearestInput search
    cdef int64_t[::1] off
    cdef int32_t[::1] dest_ids
    cdef double[::1] dest_distances
    for j in range(m):
        if not all_finite(&rows[j, 0]):
            raise ValueError(f"points[{j}] must be finite, got ({shown(&rows[j, 0])})")
    check_nearest_arguments(k, max_distance)
    cdef Claim claim
    _claim(self, claim)
    want = self.state.n_live if k >= self.state.n_live else <Py_ssize_t>k
    if _aim_nearest(self, &search, layers, want) < 0:
        raise MemoryError()
    if self.state.nearest_packs == NULL:
        self.state.nearest_packs = new NearestPacks()
    offsets = np.empty(m + 1, dtype=np.int64)
    off = offsets
    with nogil:
        self.state.nearest_packs.prepare(search, m, self.state.changes)
        if want <= VISITED_NEAREST:
            total = nearest_in_visiting_order(self, &search, rows, want, max_distance, off)
        else:
            total = nearest_in_order(self, &search, rows, want, max_distance, off)
    if total < 0:
        raise MemoryError()
    ids = np.empty(total, dtype=np.int32)
    distances = np.empty(total, dtype=np.float64)
    dest_ids = ids
    dest_distances = distances
    for j in range(m):
        # The answers of row j: at row j * want when searched in visiting
        # order, one after another otherwise.
        kept = <Nearby*>self.state.batch_results + (j * want if want <= VISITED_NEAREST else off[j])
        for n in range(off[j + 1] - off[j]):
            dest_ids[off[j] + n] = kept[n].id
            dest_distances[off[j] + n] = kept[n].distance
    return offsets, ids, distances


# ---------------------------------------------------------------- ray casts

cdef object first_hit(SpatialIndexD self, const double* start, const double* end, object mask):
    """What raycast returns for the segment from `start` to `end`."""
    cdef Claim claim
    _claim(self, claim)
    return hit_tuple(self, 0) if cast_ray(self, start, end, mask) else None


cdef list every_hit(SpatialIndexD self, const double* start, const double* end, object mask):
    """What raycast_all returns for the segment from `start` to `end`."""
    cdef Py_ssize_t j, n
    cdef Claim claim
    _claim(self, claim)
    n = cast_ray(self, start, end, mask)
    return [hit_tuple(self, j) for j in range(n)]


def raycast_many(SpatialIndexD self, rays, bint all_hits=False, mask=0xFFFFFFFF):
    """Many ray casts at once, on ids.

    Parameters
    ----------
    rays : array_like, shape (m, $twoD)
        Rows $ray: each ray's start and end, in world units (float64).
    all_hits : bool, optional
        Every object each ray meets (True), or only the first (default).
    mask : int, optional
        Only objects on one of these collision layers (default all).

    Returns
    -------
    offsets : numpy.ndarray of int64, shape (m + 1,)
        Ray j's hits are at [offsets[j]:offsets[j + 1]], earliest first.
    ids : numpy.ndarray of int32
        The objects hit (ids, not handles).
    fractions : numpy.ndarray of float64
        How far along its ray each hit is, from 0 to 1.
    points : numpy.ndarray of float64, shape (k, $D)
        Where each hit is, in world units.
    normals : numpy.ndarray of float64, shape (k, $D)
        The unit surface normal there ($zero for a ray starting inside).

    Raises
    ------
    ValueError
        For a wrong shape, a bad ray (naming rays[j]) or a bad mask; every row
        is checked first.
    MemoryError
        If memory runs out.
    RuntimeError
        If another thread's call holds the index.
    """
    return cast_rays(self, rays, all_hits, mask)


cdef void* _batch_room(SpatialIndexD self, Py_ssize_t size) noexcept nogil:
    """The batch query results' storage, grown to at least `size` bytes
    (what it held is kept); NULL if out of memory."""
    if grow_array(<void**>&self.state.batch_results, &self.state.batch_results_cap, size + 1, 1) < 0:
        return NULL
    return self.state.batch_results


cdef tuple box_queries(SpatialIndexD self, object boxes, bint exact, object mask):
    """query_rects (query_boxes in 3D)."""
    cdef uint32_t layers = check_bits(mask, "mask")
    cdef const double[:, ::1] rows = as_rows(boxes, 2 * D, RECTS)
    cdef Py_ssize_t k, m = rows.shape[0], total = 0, bad = 0
    cdef Query q
    cdef int failed = 0, code = 0
    cdef int32_t* kept
    cdef int64_t[::1] off
    cdef int32_t[::1] dest
    _aim(self, &q, Q_BOX if exact else Q_CELLS, layers)
    cdef Claim claim
    _claim(self, claim)
    with nogil:
        for k in range(m):
            code = box_from_rect(&rows[k, 0], &rows[k, D], &q.box) or _prepare_query(self, &q)
            if code:
                bad = k
                break
    if code:
        raise input_error(code, f"{RECTS}[{bad}]: ", &rows[bad, 0], &rows[bad, D],
                          _cell_hint(self))
    offsets = np.empty(m + 1, dtype=np.int64)
    off = offsets
    with nogil:
        off[0] = 0
        for k in range(m):
            box_from_rect(&rows[k, 0], &rows[k, D], &q.box)
            _prepare_query(self, &q)
            _collect(self, &q)
            kept = <int32_t*>_batch_room(self, (total + self.state.out_n) * sizeof(int32_t))
            if kept == NULL:
                failed = 1
                break
            copy_bytes(kept + total, self.state.out, self.state.out_n * sizeof(int32_t))
            total += self.state.out_n
            off[k + 1] = total
    if failed:
        raise MemoryError()
    ids = np.empty(total, dtype=np.int32)
    dest = ids
    if total:
        memcpy(&dest[0], self.state.batch_results, total * sizeof(int32_t))
    return offsets, ids
