# What an index answers about a place: box, point, radius and swept queries,
# single and batched, the nearest objects and ray casts.


cdef int earlier_first(const void* a, const void* b) noexcept nogil:
    """qsort's order for RayHit: by fraction, then by id."""
    cdef const RayHit* p = <const RayHit*>a
    cdef const RayHit* q = <const RayHit*>b
    if p.fraction != q.fraction:
        return -1 if p.fraction < q.fraction else 1
    return (p.id > q.id) - (p.id < q.id)


cdef int check_ray(double x0, double y0, double x1, double y1, str where="") except -1:
    if not (isfinite(x0) and isfinite(y0)):
        raise ValueError(f"{where}ray start must be finite, got ({x0!r}, {y0!r})")
    if not (isfinite(x1) and isfinite(y1)):
        raise ValueError(f"{where}ray end must be finite, got ({x1!r}, {y1!r})")
    return 0


cdef inline bint scan_beats_visit(double columns, double rows, Py_ssize_t objects) noexcept nogil:
    """Should a query over columns x rows cells test every object instead? Yes
    once the cells outnumber the objects: the scan then makes fewer steps than
    the cell lookups would."""
    return columns * rows > <double>objects


cdef class _Queries(_ObjectTable):
    """The queries of an index (see SpatialIndex)."""

    def __dealloc__(self):
        free(self.nearby)
        free(self.batch_results)
        free(self.ray_hits)

    # ------------------------------------------------------------------ queries

    cdef list _run_query(self, Query* q, str where, double x, double y, double a, double c):
        self._claim()       # making the result list can run Python code (a collection)
        try:
            code = self._prepare_query(q)
            if code:
                raise input_error(code, where, x, y, a, c, self._cell_hint())
            self._collect(q)
            return self._out_handles()
        finally:
            self.busy = False

    cdef list _out_handles(self):
        """The handles of the ids in `out`, as a new list. A query's results lie
        scattered in memory, so all their handles are fetched at once first."""
        cdef Py_ssize_t j, n = self.out_n
        cdef PyObject** items = PySequence_Fast_ITEMS(self.handles)
        cdef PyObject* handle
        cdef list result = PyList_New(n)
        for j in range(n):
            prefetch(items[self.out[j]])
        for j in range(n):
            handle = items[self.out[j]]
            incref(handle)
            list_put(result, j, handle)
        return result

    cdef list _box_query(self, int kind, double x, double y, double w, double h, object mask):
        cdef Query q
        self._aim(&q, kind, check_bits(mask, "mask"))
        code = box_from_rect(x, y, w, h, &q.box)
        if code:
            raise input_error(code, "query ", x, y, w, h, 0.0)
        return self._run_query(&q, "query ", x, y, w, h)

    def query_nearby(self, double x, double y, double width, double height, mask=0xFFFFFFFF):
        """List of the handles of every object sharing a cell with the box from
        (x, y) to (x + width, y + height), in world units: the broad phase's
        candidates, a superset of the exact overlaps, in no set order. Every
        query takes a `mask` (a 32-bit unsigned int, default all bits) and
        returns only the objects on one of its layers (see set_filter). Raises
        ValueError for a bad number or mask (in a UniformGrid, also a box out of
        range), or RuntimeError if another thread's call holds the index."""
        return self._box_query(Q_CELLS, x, y, width, height, mask)

    def query_nearby_at(self, pos, size=(0.0, 0.0), mask=0xFFFFFFFF):
        """query_nearby with the GDScript arguments: the box's corner `pos` and its
        `size`, each an (x, y) pair or a Vector2, in world units. Raises TypeError
        if either is neither, otherwise as query_nearby does."""
        cdef double x, y, w, h
        vec2_into(pos, "pos", &x, &y)
        vec2_into(size, "size", &w, &h)
        return self._box_query(Q_CELLS, x, y, w, h, mask)

    def query_rect(self, double x, double y, double width, double height, bint exact=False,
                   mask=0xFFFFFFFF):
        """Like query_nearby; with exact=True, only the handles of the objects that
        overlap the box. Raises as query_nearby does."""
        return self._box_query(Q_BOX if exact else Q_CELLS, x, y, width, height, mask)

    def query_point(self, double x, double y, mask=0xFFFFFFFF):
        """List of the handles of the objects containing the point (x, y), in world
        units, boundary included. Raises as query_nearby does."""
        return self._box_query(Q_BOX, x, y, 0.0, 0.0, mask)

    def query_radius(self, double x, double y, double radius, mask=0xFFFFFFFF):
        """List of the handles of the objects overlapping the disc of centre (x, y)
        and radius `radius`, in world units. Raises ValueError for a bad number
        or mask (in a UniformGrid, also a disc out of range), or RuntimeError if
        another thread's call holds the index."""
        cdef Query q
        self._aim(&q, Q_CIRCLE, check_bits(mask, "mask"))
        code = box_from_circle(x, y, radius, &q.circle, &q.box)
        if code:
            raise input_error(code, "query ", x, y, radius, 0.0, 0.0)
        return self._run_query(&q, "query ", x, y, radius, 0.0)

    def query_swept(self, double x0, double y0, double x1, double y1, double width,
                    double height, mask=0xFFFFFFFF):
        """List of the handles of the objects whose box the width x height box
        touches anywhere on its way from corner (x0, y0) to corner (x1, y1), in
        world units: every cell it crosses is visited. Raises ValueError for a bad
        number or mask or a path whose length overflows (in a UniformGrid, also
        a path out of range), or RuntimeError if another thread's call holds the
        index."""
        cdef Query q
        cdef Box end
        self._aim(&q, Q_SWEPT, check_bits(mask, "mask"))
        code = box_from_rect(x0, y0, width, height, &q.box)
        if code:
            raise input_error(code, "path start ", x0, y0, width, height, 0.0)
        code = box_from_rect(x1, y1, width, height, &end)
        if code:
            raise input_error(code, "path end ", x1, y1, width, height, 0.0)
        q.dx = x1 - x0
        q.dy = y1 - y0
        if not (isfinite(q.dx) and isfinite(q.dy)):
            raise ValueError(f"path from ({x0!r}, {y0!r}) to ({x1!r}, {y1!r}) is too long")
        return self._run_query(&q, "path ", x1, y1, width, height)

    # ------------------------------------------------------------------ nearest

    cdef Py_ssize_t _nearest(self, double x, double y, Py_ssize_t k, double limit,
                             uint32_t layers) noexcept nogil:
        """The k objects on `layers` nearest to the point (x, y) and at most `limit`
        from it, nearest first (ties in id order), into nearby[0 : returned]; -1 if out of
        memory. Searches squares around the point, each twice as wide as the
        last: an object within a square's half-side has its box in the square
        (padded against rounding), so once k objects lie that near, or the
        half-side reaches `limit`, or the square holds every object, the answer
        is among the objects sharing the square's cells."""
        cdef Query q
        cdef double reach = self.nearby_reach if self.nearby_reach > 0.0 else self._search_start()
        cdef double pad
        cdef Py_ssize_t j, n, found, m
        cdef bint everything, check
        cdef int32_t i
        if k == 0 or self.n_live == 0:
            return 0
        self._aim(&q, Q_CELLS, layers)
        check = q.check_layers      # tested below: every object counts towards
        q.check_layers = False      # "the square holds them all"
        while True:
            if reach > limit:
                reach = limit
            # Relative to the numbers, and absolute for distances whose squares
            # underflow (sqrt(dx*dx + dy*dy) is 0 for dx, dy under 1e-162).
            pad = (fabs(x) + fabs(y) + reach) * 1e-12 + 1e-150
            q.box.minx = x - reach - pad
            q.box.maxx = x + reach + pad
            q.box.miny = y - reach - pad
            q.box.maxy = y + reach + pad
            everything = not (isfinite(q.box.minx) and isfinite(q.box.maxx) and isfinite(q.box.miny)
                              and isfinite(q.box.maxy)) or self._prepare_query(&q) != INPUT_OK
            if everything:
                self.out_n = 0
                for i in range(self.obj_hi):
                    if self.live[i]:
                        self.out[self.out_n] = i
                        self.out_n += 1
            else:
                self._collect(&q)
            n = self.out_n
            if grow_array(<void**>&self.nearby, &self.nearby_cap, n, sizeof(Nearby)) < 0:
                return -1
            found = m = 0
            for j in range(n):
                i = self.out[j]
                if check and not (self.filter[i].layer & layers):
                    continue
                self.nearby[m].id = i
                self.nearby[m].distance = shape_distance(&self.body[i], x, y)
                found += self.nearby[m].distance <= reach
                m += 1
            if found >= k or reach >= limit or everything or n == self.n_live:
                # The answer: the nearest of those within `reach` if k of them are
                # (reach <= limit), else of all within `limit`.
                if found < k:
                    reach = limit
                found = nearest_first(self.nearby, m, reach, k)
                if found >= k and 0.0 < self.nearby[k - 1].distance < 1e300:
                    self.nearby_reach = 1.25 * self.nearby[k - 1].distance
                return found if found < k else k
            reach *= 2.0

    def query_nearest(self, double x, double y, k=1, double max_distance=INFINITY,
                      mask=0xFFFFFFFF):
        """List of the handles of the k objects nearest to the point (x, y), nearest
        first by the exact distance (world units) to their circle or box, 0 for
        those containing the point, ties in id order; none farther than
        max_distance, so fewer than k where fewer lie that near; only objects on
        a layer of `mask`. Raises ValueError for a bad number or mask, a k that
        is not an int >= 0 or a max_distance that is negative or NaN;
        MemoryError; or RuntimeError if another thread's call holds the index."""
        cdef Py_ssize_t j, n, want
        cdef uint32_t layers = check_bits(mask, "mask")
        if not (isfinite(x) and isfinite(y)):
            raise ValueError(f"point must be finite, got ({x!r}, {y!r})")
        check_nearest_arguments(k, max_distance)
        self._claim()
        try:
            want = self.n_live if k >= self.n_live else <Py_ssize_t>k
            with nogil:
                n = self._nearest(x, y, want, max_distance, layers)
            if n < 0:
                raise MemoryError()
            for j in range(n):
                self.out[j] = self.nearby[j].id
            self.out_n = n
            return self._out_handles()
        finally:
            self.busy = False

    def query_nearest_many(self, points, k=1, double max_distance=INFINITY, mask=0xFFFFFFFF):
        """query_nearest for each row (x, y) of `points`, an (m, 2) array in world
        units. Returns (offsets, ids, distances): offsets an (m + 1,) int64
        array, ids (int32, object ids, not handles) and distances (float64, world
        units), point j's nearest first in ids[offsets[j]:offsets[j + 1]].
        Raises ValueError for a wrong shape, a bad number (naming points[j]) or
        a bad k, max_distance or mask, as query_nearest; MemoryError; or
        RuntimeError if another thread's call holds the index."""
        cdef uint32_t layers = check_bits(mask, "mask")
        cdef const double[:, ::1] rows = as_rows(points, 2, "points")
        cdef Py_ssize_t j, m = rows.shape[0], total, n, want
        cdef Nearby* kept
        cdef int64_t[::1] off
        cdef int32_t[::1] dest_ids
        cdef double[::1] dest_distances
        for j in range(m):
            if not (isfinite(rows[j, 0]) and isfinite(rows[j, 1])):
                raise ValueError(f"points[{j}] must be finite, got ({rows[j, 0]!r}, {rows[j, 1]!r})")
        check_nearest_arguments(k, max_distance)
        self._claim()
        try:
            want = self.n_live if k >= self.n_live else <Py_ssize_t>k
            offsets = np.empty(m + 1, dtype=np.int64)
            off = offsets
            if want <= VISITED_NEAREST:
                total = self._nearest_in_visiting_order(rows, want, max_distance, layers, off)
            else:
                total = self._nearest_in_order(rows, want, max_distance, layers, off)
            if total < 0:
                raise MemoryError()
            ids = np.empty(total, dtype=np.int32)
            distances = np.empty(total, dtype=np.float64)
            dest_ids = ids
            dest_distances = distances
            for j in range(m):
                # The answers of row j: at row j * want when searched in visiting
                # order, one after another otherwise.
                kept = <Nearby*>self.batch_results + (j * want if want <= VISITED_NEAREST else off[j])
                for n in range(off[j + 1] - off[j]):
                    dest_ids[off[j] + n] = kept[n].id
                    dest_distances[off[j] + n] = kept[n].distance
            return offsets, ids, distances
        finally:
            self.busy = False

    cdef Py_ssize_t _nearest_in_order(self, const double[:, ::1] rows, Py_ssize_t want,
                                      double max_distance, uint32_t layers,
                                      int64_t[::1] off) noexcept nogil:
        """Each row's answer, in row order, one after another in batch_results;
        off gets the offsets. Returns the total, -1 if out of memory."""
        cdef Py_ssize_t j, n, total = 0
        cdef Nearby* kept
        off[0] = 0
        for j in range(rows.shape[0]):
            n = self._nearest(rows[j, 0], rows[j, 1], want, max_distance, layers)
            if n < 0:
                return -1
            kept = <Nearby*>self._batch_room((total + n) * sizeof(Nearby))
            if kept == NULL:
                return -1
            memcpy(kept + total, self.nearby, n * sizeof(Nearby))
            total += n
            off[j + 1] = total
        return total

    cdef Py_ssize_t _nearest_in_visiting_order(self, const double[:, ::1] rows, Py_ssize_t want,
                                               double max_distance, uint32_t layers,
                                               int64_t[::1] off) noexcept nogil:
        """Each row's answer, searched in visiting order, at row j * want of
        batch_results; off gets the offsets. Returns the total, -1 if out of
        memory."""
        cdef Py_ssize_t j, t, n, m = rows.shape[0]
        cdef Py_ssize_t answers = m * want * sizeof(Nearby)
        # The answers, then a count per row, the visiting order and its bands.
        cdef char* room = <char*>self._batch_room(answers + (2 * m + VISIT_BANDS + 1) * sizeof(int32_t))
        cdef int32_t* counts
        cdef int32_t* order
        if room == NULL:
            return -1
        counts = <int32_t*>(room + answers)
        order = counts + m
        visiting_order(rows, m, order, order + m)
        for t in range(m):
            j = order[t]
            n = self._nearest(rows[j, 0], rows[j, 1], want, max_distance, layers)
            if n < 0:
                return -1
            memcpy(<Nearby*>room + j * want, self.nearby, n * sizeof(Nearby))
            counts[j] = <int32_t>n
        off[0] = 0
        for j in range(m):
            off[j + 1] = off[j] + counts[j]
        return off[m]

    # ---------------------------------------------------------------- ray casts

    cdef int _ray_query(self, double x0, double y0, double x1, double y1, uint32_t layers,
                        Query* q) noexcept nogil:
        """q as a swept query of the point (x0, y0) to (x1, y1) on `layers`:
        INPUT_OK, TOO_LONG if the path's length overflows, or the index's FAR_X / FAR_Y."""
        self._aim(q, Q_SWEPT, layers)
        q.box.minx = q.box.maxx = x0
        q.box.miny = q.box.maxy = y0
        q.dx = x1 - x0
        q.dy = y1 - y0
        if not (isfinite(q.dx) and isfinite(q.dy)):
            return TOO_LONG
        return self._prepare_query(q)

    cdef int _ray_error(self, int code, str where, double x0, double y0, double x1, double y1) except -1:
        if code == TOO_LONG:
            raise ValueError(f"{where}from ({x0!r}, {y0!r}) to ({x1!r}, {y1!r}) is too long")
        raise input_error(code, where, x1, y1, 0.0, 0.0, self._cell_hint())

    cdef Py_ssize_t _ray_hits(self, Query* q) noexcept nogil:
        """Every object the prepared ray q meets, into ray_hits[0 : returned],
        earliest first (ties in id order): the objects whose box it touches, found
        by the cells it crosses, then met exactly; -1 if out of memory."""
        cdef Py_ssize_t j, n = 0
        cdef int32_t i
        cdef double x0 = q.box.minx, y0 = q.box.miny
        self._collect(q)
        if grow_array(<void**>&self.ray_hits, &self.ray_hits_cap, self.out_n, sizeof(RayHit)) < 0:
            return -1
        for j in range(self.out_n):
            i = self.out[j]
            if ray_hits_shape(&self.body[i], x0, y0, q.dx, q.dy, &self.ray_hits[n]):
                self.ray_hits[n].id = i
                n += 1
        qsort(self.ray_hits, n, sizeof(RayHit), earlier_first)
        return n

    cdef Py_ssize_t _cast(self, double x0, double y0, double x1, double y1, object mask) except -1:
        cdef Query q
        cdef Py_ssize_t n
        cdef uint32_t layers = check_bits(mask, "mask")
        check_ray(x0, y0, x1, y1)
        code = self._ray_query(x0, y0, x1, y1, layers, &q)
        if code:
            self._ray_error(code, "ray ", x0, y0, x1, y1)
        with nogil:
            n = self._ray_hits(&q)
        if n < 0:
            raise MemoryError()
        return n

    cdef tuple _hit_tuple(self, Py_ssize_t j):
        cdef const RayHit* h = &self.ray_hits[j]
        return (self.handles[h.id], h.fraction, (h.x, h.y), (h.nx, h.ny))

    def raycast(self, double x0, double y0, double x1, double y1, mask=0xFFFFFFFF):
        """The first object the segment from (x0, y0) to (x1, y1) meets, in world
        units: (handle, fraction of the way, (x, y) of the hit, (nx, ny) the unit
        surface normal there), or None. An object containing the start is met
        at fraction 0 with normal (0, 0); objects met at the same fraction come
        in id order; only objects on a layer of `mask`. Raises ValueError for a
        bad number or mask or a ray whose length overflows (in a UniformGrid,
        also one out of range), MemoryError, or RuntimeError if another thread's
        call holds the index."""
        self._claim()
        try:
            return self._hit_tuple(0) if self._cast(x0, y0, x1, y1, mask) else None
        finally:
            self.busy = False

    def raycast_all(self, double x0, double y0, double x1, double y1, mask=0xFFFFFFFF):
        """Every object the segment meets, as raycast's tuples, earliest first.
        Raises as raycast does."""
        cdef Py_ssize_t j, n
        self._claim()
        try:
            n = self._cast(x0, y0, x1, y1, mask)
            return [self._hit_tuple(j) for j in range(n)]
        finally:
            self.busy = False

    def raycast_many(self, rays, bint all_hits=False, mask=0xFFFFFFFF):
        """Many ray casts at once: `rays` is an (m, 4) array of (x0, y0, x1, y1)
        rows in world units; each ray's first hit, or every hit if all_hits.
        Returns (offsets, ids, fractions, points, normals): offsets an (m + 1,)
        int64 array; ids (int32 object ids, not handles), fractions (float64),
        points and normals ((k, 2) float64) of ray j's hits, earliest first, at
        [offsets[j]:offsets[j + 1]]; only objects on a layer of `mask`. Every
        row is checked first. Raises ValueError for a wrong shape, a bad ray
        (naming rays[j]) or a bad mask, MemoryError, or RuntimeError if another
        thread's call holds the index."""
        cdef uint32_t layers = check_bits(mask, "mask")
        cdef const double[:, ::1] rows = as_rows(rays, 4, "rays")
        cdef Py_ssize_t j, m = rows.shape[0], total = 0, n = 0, k
        cdef Query q
        cdef int code = 0
        cdef RayHit* kept
        cdef int64_t[::1] off
        cdef int32_t[::1] dest_ids
        cdef double[::1] dest_fractions
        cdef double[:, ::1] dest_points, dest_normals
        for j in range(m):
            check_ray(rows[j, 0], rows[j, 1], rows[j, 2], rows[j, 3], f"rays[{j}]: ")
        self._claim()
        try:
            for j in range(m):
                code = self._ray_query(rows[j, 0], rows[j, 1], rows[j, 2], rows[j, 3], layers, &q)
                if code:
                    self._ray_error(code, f"rays[{j}]: ray ", rows[j, 0], rows[j, 1], rows[j, 2], rows[j, 3])
            offsets = np.empty(m + 1, dtype=np.int64)
            off = offsets
            with nogil:
                off[0] = 0
                for j in range(m):
                    self._ray_query(rows[j, 0], rows[j, 1], rows[j, 2], rows[j, 3], layers, &q)
                    n = self._ray_hits(&q)
                    if n > 1 and not all_hits:
                        n = 1
                    if n < 0:
                        break
                    kept = <RayHit*>self._batch_room((total + n) * sizeof(RayHit))
                    if kept == NULL:
                        n = -1
                        break
                    memcpy(kept + total, self.ray_hits, n * sizeof(RayHit))
                    total += n
                    off[j + 1] = total
            if n < 0:
                raise MemoryError()
            ids = np.empty(total, dtype=np.int32)
            fractions = np.empty(total, dtype=np.float64)
            points = np.empty((total, 2), dtype=np.float64)
            normals = np.empty((total, 2), dtype=np.float64)
            dest_ids, dest_fractions, dest_points, dest_normals = ids, fractions, points, normals
            kept = <RayHit*>self.batch_results
            for k in range(total):
                dest_ids[k] = kept[k].id
                dest_fractions[k] = kept[k].fraction
                dest_points[k, 0] = kept[k].x
                dest_points[k, 1] = kept[k].y
                dest_normals[k, 0] = kept[k].nx
                dest_normals[k, 1] = kept[k].ny
            return offsets, ids, fractions, points, normals
        finally:
            self.busy = False

    cdef void* _batch_room(self, Py_ssize_t size) noexcept nogil:
        """The batch query results' storage, grown to at least `size` bytes
        (what it held is kept); NULL if out of memory."""
        if grow_array(<void**>&self.batch_results, &self.batch_results_cap, size + 1, 1) < 0:
            return NULL
        return self.batch_results

    def query_rects(self, rects, bint exact=False, mask=0xFFFFFFFF):
        """Many box queries at once: `rects` is an (m, 4) array of (x, y, width,
        height) rows in world units; exact as in query_rect. Returns (offsets,
        ids): offsets an (m + 1,) int64 array, ids an int32 array of object ids
        (not handles), the ids of query k being ids[offsets[k]:offsets[k + 1]].
        Only objects on a layer of `mask`. Raises ValueError for a wrong shape, a
        bad number (naming rects[k]; in a UniformGrid, also a box out of range)
        or a bad mask, MemoryError, or RuntimeError if another thread's call
        holds the index."""
        cdef uint32_t layers = check_bits(mask, "mask")
        cdef const double[:, ::1] rows = as_rows(rects, 4, "rects")
        cdef Py_ssize_t k, m = rows.shape[0], total = 0, bad = 0
        cdef Query q
        cdef int failed = 0, code = 0
        cdef int32_t* kept
        cdef int64_t[::1] off
        cdef int32_t[::1] dest
        self._aim(&q, Q_BOX if exact else Q_CELLS, layers)
        self._claim()
        try:
            with nogil:
                for k in range(m):
                    code = box_from_rect(rows[k, 0], rows[k, 1], rows[k, 2], rows[k, 3], &q.box) \
                        or self._prepare_query(&q)
                    if code:
                        bad = k
                        break
            if code:
                raise input_error(code, f"rects[{bad}]: ", rows[bad, 0], rows[bad, 1],
                                  rows[bad, 2], rows[bad, 3], self._cell_hint())
            offsets = np.empty(m + 1, dtype=np.int64)
            off = offsets
            with nogil:
                off[0] = 0
                for k in range(m):
                    box_from_rect(rows[k, 0], rows[k, 1], rows[k, 2], rows[k, 3], &q.box)
                    self._prepare_query(&q)
                    self._collect(&q)
                    kept = <int32_t*>self._batch_room((total + self.out_n) * sizeof(int32_t))
                    if kept == NULL:
                        failed = 1
                        break
                    memcpy(kept + total, self.out, self.out_n * sizeof(int32_t))
                    total += self.out_n
                    off[k + 1] = total
            if failed:
                raise MemoryError()
            ids = np.empty(total, dtype=np.int32)
            dest = ids
            if total:
                memcpy(&dest[0], self.batch_results, total * sizeof(int32_t))
            return offsets, ids
        finally:
            self.busy = False
