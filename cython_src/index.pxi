# The public base of both grids: the calls on whole arrays of objects at once
# (each array validated before anything changes) and the check of every
# invariant, over the layers below it (objects.pxi, queries.pxi,
# pair_search.pxi).


cdef bint rows_within(const double* values, Py_ssize_t rows, Py_ssize_t width,
                      double bound) noexcept nogil:
    """Are all numbers of a batch within +-bound, with the size columns (2 and 3
    of rect rows, the only column of radii) not negative? False for NaN. One
    branch-free pass; the row-by-row check then runs only when this fails."""
    cdef Py_ssize_t k, n = rows * width
    cdef int ok = 1
    if width == 4:
        for k in range(0, n, 4):
            ok &= (fabs(values[k]) <= bound) & (fabs(values[k + 1]) <= bound) \
                & (values[k + 2] >= 0.0) & (values[k + 2] <= bound) \
                & (values[k + 3] >= 0.0) & (values[k + 3] <= bound)
    elif width == 2:
        for k in range(n):
            ok &= fabs(values[k]) <= bound
    else:
        for k in range(n):
            ok &= (values[k] >= 0.0) & (values[k] <= bound)
    return ok


cdef bint boxes_within(const float* corners, const float* sizes, Py_ssize_t n,
                       double bound) noexcept nogil:
    """rows_within for boxes as 32-bit corners and sizes."""
    cdef Py_ssize_t k
    cdef int ok = 1
    for k in range(0, 2 * n, 2):
        ok &= (fabs(corners[k]) <= bound) & (fabs(corners[k + 1]) <= bound) \
            & (sizes[k] >= 0.0) & (sizes[k] <= bound) & (sizes[k + 1] >= 0.0) & (sizes[k + 1] <= bound)
    return ok


cdef inline Rows rows_of(const double[:, ::1] rows, const double[::1] radii) noexcept nogil:
    cdef Rows batch
    batch.values = &rows[0, 0] if rows.shape[0] else NULL
    batch.width = rows.shape[1]
    batch.radii = &radii[0] if radii.shape[0] else NULL
    batch.corners = batch.sizes = NULL
    return batch


cdef inline Rows boxes_of(const float[:, ::1] corners, const float[:, ::1] sizes) noexcept nogil:
    cdef Rows batch
    batch.values = batch.radii = NULL
    batch.width = 4
    batch.corners = &corners[0, 0] if corners.shape[0] else NULL
    batch.sizes = &sizes[0, 0] if sizes.shape[0] else NULL
    return batch


cdef inline void shape_of_row(const Rows* batch, Py_ssize_t k, Shape* s) noexcept nogil:
    """The shape of row k of a batch its validation accepted."""
    cdef const double* row = batch.values + k * batch.width
    if batch.corners != NULL:
        rect_shape(batch.corners[2 * k], batch.corners[2 * k + 1], batch.sizes[2 * k],
                   batch.sizes[2 * k + 1], s)
    elif batch.radii != NULL:
        circle_shape(row[0], row[1], batch.radii[k], s)
    else:
        rect_shape(row[0], row[1], row[2], row[3], s)


cdef bint ids_live_and_increasing(const int64_t* ids, Py_ssize_t n, const uint8_t* live,
                                  Py_ssize_t limit) noexcept nogil:
    """Is each of the n ids below `limit`, live, and greater than the one
    before it? One branch-free pass."""
    cdef Py_ssize_t k
    cdef int64_t before = -1, i
    cdef int ok = 1
    if limit == 0:      # no objects, and perhaps no `live` array yet
        return n == 0
    for k in range(n):
        i = ids[k]
        ok &= (i > before) & (<uint64_t>i < <uint64_t>limit)
        ok &= live[i if <uint64_t>i < <uint64_t>limit else 0]
        before = i
    return ok != 0


# The keys of both grids' stats(), in order (UniformGrid.stats says what each holds).
STATS_KEYS = ("objects", "active_cells", "memberships", "avg_objects_per_cell",
              "max_objects_per_cell", "large_objects", "longest_probe", "levels",
              "broad_phase_pairs", "narrow_phase_checks", "hits")


cdef dict occupancy(Py_ssize_t objects, Py_ssize_t cells, Py_ssize_t members, Py_ssize_t most,
                    Py_ssize_t large, Py_ssize_t probe, list levels, SpatialIndex index):
    """A stats() dict in the shared schema, with the index's pair-pass counters;
    the caller holds the index's claim."""
    index._resolve_broad_phase()
    return dict(zip(STATS_KEYS, (
        objects, cells, members, <double>members / cells if cells else 0.0, most, large, probe,
        levels, index.broad_phase_count, index.narrow_phase_checks, index.hits)))


cdef class SpatialIndex(_PairSearch):
    """Base of the compiled indexes: ids, handles, validation, queries and batches.

    Coordinates, sizes and radii are in world units (floats); boxes are closed, so
    touching counts. Ids are non-negative ints handed out by the index and reused
    after removal; a handle is any object stored with an id (the id itself by
    default), and is what the queries and pairs() return.

    What the methods raise: TypeError where an argument typed as a number (x, y,
    width, ...) is not one; ValueError naming the argument for a bad number (NaN or infinite coordinates,
    negative or non-finite sizes and radii) or an object the index cannot place
    (UniformGrid: a box reaching past 2**30 cells from the origin;
    HierarchicalGrid: a longest side over 1e150 / sqrt(hierarchy_factor) or a
    coordinate over 1e160 in magnitude); KeyError for an id that names no live
    object; MemoryError when memory runs out (a single-object call then changes
    nothing, a batch may be partly applied). Not thread-safe: use one index per
    thread. A call made while another thread's call holds the index raises
    RuntimeError instead of corrupting memory.

    Attributes
    ----------
    broad_phase_pairs, narrow_phase_checks, hits : int
        Counters of the last pair pass (pairs() or pair_ids()): candidate pairs
        the broad phase met, distinct pairs tested exactly, overlapping pairs.
    """

    def copy_into(self, SpatialIndex target not None):
        """Put every object of this index into `target`, an empty index of any
        kind and settings, under the same id with the same handle; the next
        inserts get the same ids from both, and the pair events go on from
        this index's last call. This is how an index is rebuilt with another
        cell size, large-object threshold or kind. All or nothing:
        ValueError naming the first object `target` cannot place (a position
        too far from the origin for its cell size, say) or if `target` is not
        empty (both leave it as it was), MemoryError (which leaves it empty),
        RuntimeError if another thread's call holds either index."""
        cdef Py_ssize_t i, failed_at = -1
        cdef Box box
        cdef const Box* b = &box
        cdef int code
        if target is self:
            raise ValueError("target must be another index")
        self._claim()
        try:
            target._claim()
            try:
                if target.n_live:
                    raise ValueError(f"target must be empty, it holds {target.n_live} objects")
                for i in range(self.obj_hi):
                    shape_box(&self.body[i], &box)
                    code = target._check_placement(b) if self.live[i] else INPUT_OK
                    if code:
                        raise input_error(
                            code, f"id {i}: ", b.minx if fabs(b.minx) > fabs(b.maxx) else b.maxx,
                            b.miny if fabs(b.miny) > fabs(b.maxy) else b.maxy,
                            b.maxx - b.minx, b.maxy - b.miny, target._cell_hint())
                if target._reserve_objects(self.obj_hi) < 0 or grow_array(
                        <void**>&target.touching, &target.touching_cap, self.n_touching,
                        sizeof(Touch)) < 0:
                    raise MemoryError()
                with nogil:
                    target._empty()
                    memcpy(target.body, self.body, self.obj_hi * sizeof(Shape))
                    memcpy(target.live, self.live, self.obj_hi)
                    memcpy(target.filter, self.filter, self.obj_hi * sizeof(Filter))
                    target.n_filtered = self.n_filtered
                    memcpy(target.generation, self.generation, self.obj_hi * sizeof(uint32_t))
                    memcpy(target.touching, self.touching, self.n_touching * sizeof(Touch))
                    target.n_touching = self.n_touching
                    memcpy(target.free_ids, self.free_ids, self.n_free * sizeof(int32_t))
                    target.obj_hi, target.n_free = self.obj_hi, self.n_free
                    for i in range(self.obj_hi):
                        if self.live[i] and target._attach(<int32_t>i) < 0:
                            failed_at = i
                            break
                    if failed_at >= 0:
                        target._empty()
                        target.n_touching = 0
                if failed_at >= 0:
                    target.handles.clear()
                    raise MemoryError()
                target.n_live = self.n_live
                target.handles = list(self.handles)
                target.departed = dict(self.departed)
                target._changed()
            finally:
                target.busy = False
        finally:
            self.busy = False

    # --------------------------------------------------------------- validation

    def validate(self):
        """Check every internal invariant of the index (ids, free lists, each
        object's placement against its box, the cells and their records); raises
        AssertionError naming the first one broken, RuntimeError if another
        thread's call holds the index. Visits every object and cell: for tests
        and debugging, not for a frame loop."""
        self._claim()
        try:
            self._validate_ids()
            self._validate_placement()
        finally:
            self.busy = False

    cdef int _validate_ids(self) except -1:
        """Live flags, bodies, handles and the free-id list agree."""
        cdef Py_ssize_t i, k, live = 0, filtered = 0
        cdef const Shape* b
        cdef Box bounds
        cdef bytearray freed
        if not (0 <= self.n_live <= self.obj_hi <= self.obj_cap and 0 <= self.n_free):
            self._broken(f"counts: {self.n_live} live of {self.obj_hi} ids, capacity {self.obj_cap}")
        if self.n_live + self.n_free != self.obj_hi:
            self._broken(f"{self.n_live} live ids and {self.n_free} free ids, but {self.obj_hi} handed out")
        if len(self.handles) != self.obj_hi:
            self._broken(f"{len(self.handles)} handles for {self.obj_hi} ids")
        if self.out_cap < self.obj_cap or 2 * self.found.n > self.found.cap:
            self._broken("an output buffer is smaller than what it must hold")
        for i in range(self.obj_cap):
            if self.live[i] > 1:
                self._broken(f"id {i}: live flag {self.live[i]}")
            if not self.live[i]:
                if i < self.obj_hi and self.handles[i] is not None:
                    self._broken(f"id {i}: live flag 0 but it keeps the handle {self.handles[i]!r}")
                continue
            if i >= self.obj_hi:
                self._broken(f"id {i} is live but only {self.obj_hi} ids were handed out")
            live += 1
            b = &self.body[i]
            shape_box(b, &bounds)
            if not (bounds.minx <= bounds.maxx and bounds.miny <= bounds.maxy
                    and (not shape_is_circle(b) or b.p2 >= 0.0)):
                self._broken(f"id {i} has the shape {b[0]}")
        if live != self.n_live:
            self._broken(f"{live} ids have their live flag but n_live is {self.n_live}")
        for i in range(self.obj_cap):
            if not self.live[i] and not is_default_filter(&self.filter[i]):
                self._broken(f"free id {i} keeps the filter {self.filter[i]}")
            filtered += not is_default_filter(&self.filter[i])
        if filtered != self.n_filtered:
            self._broken(f"{filtered} objects have a filter other than the default, "
                         f"but n_filtered is {self.n_filtered}")
        freed = bytearray(self.obj_hi)
        for k in range(self.n_free):
            i = self.free_ids[k]
            if not 0 <= i < self.obj_hi or self.live[i] or freed[i]:
                self._broken(f"free_ids[{k}] = {i} is not a distinct free id")
            freed[i] = 1
        return 0

    cdef int _validate_placement(self) except -1:
        """Where each live object is kept agrees with its body."""
        return 0

    # -------------------------------------------------------------------- batch
    # Whole arrays in one call: every row is validated before anything changes,
    # then the loop runs without the GIL. Arrays are used in place when they are
    # already C-contiguous float64 (int64 for ids); anything else is converted once.

    cdef int _check_ids(self, const int64_t[::1] ids) except -1:
        """Every id names a live object, none twice (a batch is one simultaneous
        change, so a repeated id would be ambiguous)."""
        cdef Py_ssize_t k, n = ids.shape[0], bad = -1
        cdef bint repeated = False
        cdef uint32_t stamp
        with nogil:
            # Ids in increasing order (as a batch usually comes) are distinct:
            # then one pass without stamps settles it.
            if ids_live_and_increasing(&ids[0] if n else NULL, n, self.live, self.obj_hi):
                return 0
            stamp = self._next_stamp()
            for k in range(n):
                if not (0 <= ids[k] < self.obj_hi and self.live[ids[k]]):
                    bad = k
                    break
                if self.stamp[ids[k]] == stamp:
                    bad = k
                    repeated = True
                    break
                self.stamp[ids[k]] = stamp
        if repeated:
            raise ValueError(f"ids contains duplicates: ids[{bad}] repeats id {ids[bad]}")
        if bad >= 0:
            raise KeyError(f"ids[{bad}]: no object with id {ids[bad]} in this index")
        return 0

    cdef int _validate_rects(self, const double[:, ::1] rows) except -1:
        cdef Py_ssize_t k, bad = 0
        cdef int code = 0
        cdef Box b
        with nogil:
            if rows_within(&rows[0, 0] if rows.shape[0] else NULL, rows.shape[0], 4,
                           self._safe_magnitude()):
                return 0
            for k in range(rows.shape[0]):
                code = box_from_rect(rows[k, 0], rows[k, 1], rows[k, 2], rows[k, 3], &b) \
                    or self._check_placement(&b)
                if code:
                    bad = k
                    break
        if code:
            raise input_error(code, f"rects[{bad}]: ", rows[bad, 0], rows[bad, 1],
                              rows[bad, 2], rows[bad, 3], self._cell_hint())
        return 0

    cdef int _validate_circles(self, const double[:, ::1] centers, const double[::1] radii) except -1:
        cdef Py_ssize_t k, bad = 0
        cdef int code = 0
        cdef Box b
        cdef Circle c
        cdef double safe
        with nogil:
            safe = self._safe_magnitude()
            if rows_within(&centers[0, 0] if centers.shape[0] else NULL, centers.shape[0], 2, safe) \
                    and rows_within(&radii[0] if radii.shape[0] else NULL, radii.shape[0], 1, safe):
                return 0
            for k in range(centers.shape[0]):
                code = box_from_circle(centers[k, 0], centers[k, 1], radii[k], &c, &b) \
                    or self._check_placement(&b)
                if code:
                    bad = k
                    break
        if code:
            raise input_error(code, f"circles[{bad}]: ", centers[bad, 0], centers[bad, 1],
                              radii[bad], 0.0, self._cell_hint())
        return 0

    cdef object _new_ids(self, Py_ssize_t n, object handles):
        """Reserve n ids (recycled first); returns them as an int64 array."""
        cdef Py_ssize_t k
        if handles is not None and len(handles) != n:
            raise ValueError(f"handles has {len(handles)} items for {n} objects")
        if self._reserve_objects(self.obj_hi + n) < 0:
            raise MemoryError()
        ids = np.empty(n, dtype=np.int64)
        cdef int64_t[::1] out = ids
        for k in range(n):
            if self.n_free:
                self.n_free -= 1
                out[k] = self.free_ids[self.n_free]
            else:
                out[k] = self.obj_hi
                self.obj_hi += 1
        if len(self.handles) < self.obj_hi:
            self.handles.extend([None] * (self.obj_hi - len(self.handles)))
        return ids

    cdef int _commit_new(self, const int64_t[::1] ids, Py_ssize_t placed, object handles,
                         const uint32_t[::1] layers, const uint32_t[::1] masks) except -1:
        """Give the first `placed` new ids their handles and filters; return the
        rest unused."""
        cdef Py_ssize_t k, n = ids.shape[0]
        cdef list store = self.handles
        cdef Filter f
        for k in range(placed):
            store[ids[k]] = ids[k] if handles is None else handles[k]
            self.live[ids[k]] = 1
            f.layer, f.mask = layers[k], masks[k]
            self._set_filter(<int32_t>ids[k], &f)
        for k in range(n - 1, placed - 1, -1):
            self.free_ids[self.n_free] = <int32_t>ids[k]
            self.n_free += 1
        self.n_live += placed
        if placed < n:
            raise MemoryError()
        return 0

    cdef Py_ssize_t _attach_rows(self, const int64_t[::1] ids, const double[:, ::1] rows,
                                 const double[::1] radii) noexcept nogil:
        """Place new objects from rect rows (radii empty) or circle centers; returns
        how many were placed before memory ran out (all of them, normally)."""
        cdef Py_ssize_t k
        cdef int32_t i
        cdef Rows batch = rows_of(rows, radii)
        for k in range(ids.shape[0]):
            i = <int32_t>ids[k]
            shape_of_row(&batch, k, &self.body[i])
            if self._attach(i) < 0:
                return k
        return ids.shape[0]

    cdef int _move_rows(self, const int64_t[::1] ids, const Rows* batch) noexcept nogil:
        """Give live objects ids[k] the bodies of the batch's rows, each move all
        or nothing; -1 if out of memory. Subclasses that re-place objects in two
        halves time them with _phase_times."""
        cdef Py_ssize_t k
        cdef Shape b
        for k in range(ids.shape[0]):
            shape_of_row(batch, k, &b)
            if self._move(<int32_t>ids[k], &b) < 0:
                return -1
        return 0

    cdef inline void _phase_times(self, double started, double settled) noexcept nogil:
        self.phase_ms[PHASE_MOVES] = settled - started
        self.phase_ms[PHASE_RELINKS] = now_ms() - settled

    cdef object _insert_rows(self, const double[:, ::1] rows, const double[::1] radii, handles,
                             layers, masks):
        cdef Py_ssize_t placed, n = rows.shape[0]
        cdef const uint32_t[::1] layer_v = as_bits(layers, n, DEFAULT_LAYER, "layers")
        cdef const uint32_t[::1] mask_v = as_bits(masks, n, EVERY_LAYER, "masks")
        ids = self._new_ids(n, handles)
        cdef const int64_t[::1] idv = ids
        with nogil:
            placed = self._attach_rows(idv, rows, radii)
        self._commit_new(idv, placed, handles, layer_v, mask_v)
        with nogil:
            self._changed()
        return ids

    cdef int _update_rows(self, ids, Py_ssize_t n, const Rows* batch) except -1:
        cdef const int64_t[::1] idv = as_ids(ids)
        cdef int failed
        if n != idv.shape[0]:
            raise ValueError(f"{idv.shape[0]} ids but {n} rows")
        self._check_ids(idv)
        with nogil:
            failed = self._move_rows(idv, batch)
            self._changed()
        if failed:
            raise MemoryError()
        return 0

    def insert_rects(self, rects, handles=None, layers=None, masks=None):
        """Add n boxes from `rects`, an (n, 4) array of (x, y, width, height) rows
        in world units (converted to float64 unless it already is); returns their
        ids as an (n,) int64 array. `handles`, if given, is a sequence of n
        handles (default: the ids); `layers` and `masks` their collision layers
        and masks (see set_filter): n ints, or one for all (default: layer 1,
        mask all bits). Every row is checked before any is added. Raises
        ValueError for a wrong shape, a bad number (naming rects[k]), a box out
        of range, a `handles` of another length or a bad layer or mask (naming
        layers[k] or masks[k]); MemoryError; or RuntimeError if another thread's
        call holds the index."""
        cdef const double[:, ::1] rows = as_rows(rects, 4, "rects")
        self._claim()
        try:
            self._validate_rects(rows)
            return self._insert_rows(rows, NO_RADII, handles, layers, masks)
        finally:
            self.busy = False

    def insert_circles(self, centers, radii, handles=None, layers=None, masks=None):
        """Add n discs from `centers`, an (n, 2) array of (x, y) rows, and `radii`,
        n radii or one for all, in world units; returns their ids as an (n,) int64
        array. `handles`, `layers` and `masks` as in insert_rects. Raises as
        insert_rects does (naming circles[k])."""
        cdef const double[:, ::1] xy = as_rows(centers, 2, "centers")
        cdef const double[::1] rad = as_radii(radii, xy.shape[0])
        self._claim()
        try:
            self._validate_circles(xy, rad)
            return self._insert_rows(xy, rad, handles, layers, masks)
        finally:
            self.busy = False

    def update_rects(self, ids, rects):
        """Move/resize the objects `ids` (a 1-D integer array of n distinct live
        ids) to the boxes of `rects`, an (n, 4) array of (x, y, width, height)
        rows in world units. Everything is checked before anything moves. Raises
        TypeError if `ids` is not a 1-D integer array; KeyError for an unknown id;
        ValueError for a repeated id, n ids for another number of rows, a wrong
        shape, a bad number (naming rects[k]) or a box out of range; MemoryError;
        or RuntimeError if another thread's call holds the index."""
        cdef const double[:, ::1] rows = as_rows(rects, 4, "rects")
        cdef Rows batch = rows_of(rows, NO_RADII)
        self._claim()
        try:
            self._validate_rects(rows)
            self._update_rows(ids, rows.shape[0], &batch)
        finally:
            self.busy = False

    def update_boxes(self, ids, const float[:, ::1] corners, const float[:, ::1] sizes):
        """update_rects from boxes as two (n, 2) C-contiguous float32 arrays, the
        (x, y) top-left corners and the (width, height) sizes (Godot's packed
        Vector2 arrays, read where they are: no rows are made). Raises as
        update_rects does, naming the row as rects[k]."""
        cdef Rows batch = boxes_of(corners, sizes)
        if corners.shape[1] != 2 or sizes.shape[1] != 2 or sizes.shape[0] != corners.shape[0]:
            raise ValueError(f"corners and sizes must be (n, 2) arrays of one n, got "
                             f"{corners.shape[0]}x{corners.shape[1]} and {sizes.shape[0]}x{sizes.shape[1]}")
        self._claim()
        try:
            if not boxes_within(batch.corners, batch.sizes, corners.shape[0], self._safe_magnitude()):
                self._validate_rects(np.concatenate([corners, sizes], axis=1).astype(np.float64))
            self._update_rows(ids, corners.shape[0], &batch)
        finally:
            self.busy = False

    def update_circles(self, ids, centers, radii):
        """Move/resize the objects `ids` (n distinct live ids) to discs: `centers`
        an (n, 2) array of (x, y) rows and `radii` n radii or one for all, in world
        units. Raises as update_rects does (naming circles[k])."""
        cdef const double[:, ::1] xy = as_rows(centers, 2, "centers")
        cdef const double[::1] rad = as_radii(radii, xy.shape[0])
        cdef Rows batch = rows_of(xy, rad)
        self._claim()
        try:
            self._validate_circles(xy, rad)
            self._update_rows(ids, xy.shape[0], &batch)
        finally:
            self.busy = False

    def set_filters(self, ids, layers, masks):
        """set_filter for many objects: `ids` a 1-D integer array of n distinct
        live ids, `layers` and `masks` n ints each or one for all. Everything is
        checked before anything changes. Raises TypeError if `ids` is not a 1-D
        integer array, KeyError for an unknown id, ValueError for a repeated id
        or a bad layer or mask (naming layers[k] or masks[k]), or RuntimeError
        if another thread's call holds the index."""
        cdef const int64_t[::1] idv = as_ids(ids)
        cdef Py_ssize_t k, n = idv.shape[0]
        cdef const uint32_t[::1] layer_v = as_bits(layers, n, DEFAULT_LAYER, "layers")
        cdef const uint32_t[::1] mask_v = as_bits(masks, n, EVERY_LAYER, "masks")
        cdef Filter f
        self._claim()
        try:
            self._check_ids(idv)
            for k in range(n):
                f.layer, f.mask = layer_v[k], mask_v[k]
                self._set_filter(<int32_t>idv[k], &f)
        finally:
            self.busy = False

    def remove_many(self, ids):
        """Remove the objects `ids`, a 1-D integer array of distinct live ids; all
        are checked before any is removed. Raises TypeError if `ids` is not a 1-D
        integer array, KeyError for an unknown id, ValueError for a repeated one,
        or RuntimeError if another thread's call holds the index."""
        cdef const int64_t[::1] idv = as_ids(ids)
        cdef Py_ssize_t k
        self._claim()
        try:
            self._check_ids(idv)
            for k in range(idv.shape[0]):
                self._depart(idv[k])
            with nogil:
                for k in range(idv.shape[0]):
                    self._release(<int32_t>idv[k])
            for k in range(idv.shape[0]):
                self.handles[idv[k]] = None
        finally:
            self.busy = False
