# What every index shares: dense integer ids with a Python handle each, the
# per-object narrow-phase data, query stamps, reusable output buffers, and the
# Python-facing calls (single and batch). Subclasses decide where objects live by
# overriding the placement, query and pair hooks; everything here validates input
# completely before a hook changes anything.


cdef int key_order(const void* a, const void* b) noexcept nogil:
    cdef int64_t p = (<const Touch*>a).key, q = (<const Touch*>b).key
    return (p > q) - (p < q)


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


cdef int check_nearest_arguments(object k, double max_distance) except -1:
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise ValueError(f"k must be an int >= 0 (how many objects), got {k!r}")
    if not max_distance >= 0.0:
        raise ValueError(f"max_distance must be a number >= 0 (world units), got {max_distance!r}")
    return 0


cdef inline bint scan_beats_visit(double columns, double rows, Py_ssize_t objects) noexcept nogil:
    """Should a query over columns x rows cells test every object instead? Yes
    once the cells outnumber the objects: the scan then makes fewer steps than
    the cell lookups would."""
    return columns * rows > <double>objects


cdef int grow_array(void** ptr, Py_ssize_t* cap, Py_ssize_t need, size_t item) noexcept nogil:
    """Make room for `need` items; on failure the old block stays valid and -1 is returned."""
    cdef Py_ssize_t new_cap
    cdef void* p
    if need <= cap[0]:
        return 0
    new_cap = cap[0] * 2
    if new_cap < need:
        new_cap = need
    if new_cap < 16:
        new_cap = 16
    p = realloc(ptr[0], new_cap * item)
    if p == NULL:
        return -1
    ptr[0] = p
    cap[0] = new_cap
    return 0


cdef inline int grow_to(void** ptr, Py_ssize_t old_cap, Py_ssize_t new_cap, size_t item) noexcept nogil:
    """grow_array for one of several arrays sharing a capacity, which the caller
    moves only once all of them have grown; -1 if out of memory."""
    return grow_array(ptr, &old_cap, new_cap, item)


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


cdef inline int shape_from_rect(double x, double y, double w, double h, Shape* s) noexcept nogil:
    cdef Box box
    cdef int code = box_from_rect(x, y, w, h, &box)
    if code == INPUT_OK:
        rect_shape(x, y, w, h, s)
    return code


cdef inline int shape_from_circle(double x, double y, double r, Shape* s) noexcept nogil:
    cdef Circle c
    cdef Box box
    cdef int code = box_from_circle(x, y, r, &c, &box)
    if code == INPUT_OK:
        circle_shape(x, y, r, s)
    return code


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


cdef class SpatialIndex:
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

    def __cinit__(self, *args, **kwargs):
        self.handles = []
        self.departed = {}

    def __dealloc__(self):
        free(self.body)
        free(self.stamp)
        free(self.live)
        free(self.filter)
        free(self.free_ids)
        free(self.out)
        free(self.found.ids)
        free(self.nearby)
        free(self.batch_results)
        free(self.ray_hits)
        free(self.generation)
        free(self.touching)
        free(self.seen)

    def __len__(self):
        return self.n_live

    @property
    def broad_phase_pairs(self):
        """The candidate pairs the last pair pass met (see Attributes). A
        UniformGrid counts the cells its pairs shared when this is first read
        after a pass, from the cell ranges the pass saw: for tests, tuning and
        monitors, not for a frame's inner loop. Raises RuntimeError if another
        thread's call holds the index."""
        self._claim()
        try:
            self._resolve_broad_phase()
            return self.broad_phase_count
        finally:
            self.busy = False

    @property
    def safe_magnitude(self):
        """Rects (x, y, w, h) and circles (x, y, r) whose numbers are all within
        this in magnitude, sizes not negative, are placed as they are: an
        owner that checks that much can hold calls back and apply them later
        as a batch that cannot be refused. 0.0 if nothing is that safe."""
        return self._safe_magnitude()

    def __contains__(self, object_id):
        return isinstance(object_id, int) and 0 <= object_id < self.obj_hi \
            and self.live[<Py_ssize_t>object_id]

    # -------------------------------------------------------------- the hooks

    cdef int _grow_objects(self, Py_ssize_t old_cap, Py_ssize_t new_cap) noexcept nogil:
        """Grow the subclass's per-object arrays; -1 if out of memory."""
        return 0

    cdef int _check_placement(self, const Box* b) noexcept nogil:
        """INPUT_OK, or FAR_X / FAR_Y if the box cannot be placed in this index."""
        return INPUT_OK

    cdef double _safe_magnitude(self) noexcept nogil:
        """A bound such that any rect (x, y, w, h) or circle (x, y, r) whose
        numbers are all within it in magnitude (sizes not negative) passes
        _check_placement: lets a batch skip checking row by row."""
        return 0.0

    cdef int _attach(self, int32_t i) noexcept nogil:
        """Place new object i (its body is set). All or nothing; -1 if out of memory."""
        return 0

    cdef int _move(self, int32_t i, const Shape* b) noexcept nogil:
        """Give live object i a new body, re-placing it if needed. All or nothing."""
        self.body[i] = b[0]
        return 0

    cdef void _detach(self, int32_t i) noexcept nogil:
        pass

    cdef void _reset(self) noexcept nogil:
        pass

    cdef void _changed(self) noexcept nogil:
        """Called once a call that added or moved objects is done (they are
        live, the index consistent): a grid may reorganise here."""
        pass

    cdef int _prepare_query(self, Query* q) noexcept nogil:
        """Fill what _collect needs beyond q's shape; INPUT_OK or FAR_X / FAR_Y."""
        return INPUT_OK

    cdef void _collect(self, Query* q) noexcept nogil:
        """Fill `out` with the ids q selects, each once."""
        pass

    cdef int _find_pairs(self) noexcept nogil:
        """Every overlapping pair once into `found` (every pair tested, if
        keep_candidates), setting the counters."""
        return 0

    cdef int _resolve_broad_phase(self) except -1:
        """Finish broad_phase_count if the last pair pass left part of it to
        count when asked (broad_phase_pending); the caller holds the claim."""
        return 0

    cdef double _search_start(self) noexcept nogil:
        """A first half-side for the nearest-object search, in world units: about
        the side of the index's cells where objects are (positive)."""
        return 1.0

    # ------------------------------------------------------- shared machinery

    cdef int _idle(self) except -1:
        if self.busy:
            raise RuntimeError("this index is in use by a call in another thread")
        return 0

    cdef int _claim(self) except -1:
        """Mark the index in use for a whole call that releases the GIL, from its
        first release to its last (Python code between them could let another
        thread in): every call from elsewhere raises until `busy` is cleared,
        which the caller does in a `finally`."""
        self._idle()
        self.busy = True
        return 0

    cdef int _reserve_objects(self, Py_ssize_t need) noexcept nogil:
        cdef Py_ssize_t cap = self.obj_cap, new_cap
        if need <= cap:
            return 0
        if need > 2147483647:
            return -1
        new_cap = cap * 2 if cap * 2 > need else need
        if new_cap < 64:
            new_cap = 64
        # Every array grows to new_cap; obj_cap moves only once all of them have.
        if grow_to(<void**>&self.body, cap, new_cap, sizeof(Shape)) < 0 \
                or grow_to(<void**>&self.stamp, cap, new_cap, sizeof(uint32_t)) < 0 \
                or grow_to(<void**>&self.generation, cap, new_cap, sizeof(uint32_t)) < 0 \
                or grow_to(<void**>&self.live, cap, new_cap, sizeof(uint8_t)) < 0 \
                or grow_to(<void**>&self.filter, cap, new_cap, sizeof(Filter)) < 0 \
                or grow_to(<void**>&self.free_ids, cap, new_cap, sizeof(int32_t)) < 0 \
                or grow_array(<void**>&self.out, &self.out_cap, new_cap, sizeof(int32_t)) < 0 \
                or self._grow_objects(cap, new_cap) < 0:
            return -1
        memset(self.stamp + cap, 0, (new_cap - cap) * sizeof(uint32_t))
        memset(self.generation + cap, 0, (new_cap - cap) * sizeof(uint32_t))
        memset(self.live + cap, 0, new_cap - cap)
        memset(self.body + cap, 0, (new_cap - cap) * sizeof(Shape))
        default_filters(self.filter + cap, new_cap - cap)
        self.obj_cap = new_cap
        return 0

    cdef inline uint32_t _next_stamp(self) noexcept nogil:
        self.cur_stamp += 1
        if self.cur_stamp == 0:
            memset(self.stamp, 0, self.obj_cap * sizeof(uint32_t))
            self.cur_stamp = 1
        return self.cur_stamp

    cdef inline void _aim(self, Query* q, int kind, uint32_t layers) noexcept nogil:
        """Set q's kind and mask (every query starts here)."""
        q.kind = kind
        q.layers = layers
        q.check_layers = layers != EVERY_LAYER or self.n_filtered > 0

    cdef inline bint _accept(self, const Query* q, int32_t i) noexcept nogil:
        cdef const Shape* b = &self.body[i]
        cdef Box box
        if q.check_layers and not (self.filter[i].layer & q.layers):
            return False
        if q.kind == Q_CELLS:
            return True
        shape_box(b, &box)
        if q.kind == Q_SWEPT:
            return swept_box_hits(&q.box, q.dx, q.dy, &box)
        if not box_overlap(&q.box, &box):
            return False
        if q.kind == Q_BOX:
            return not shape_is_circle(b) or circle_box(<const Circle*>b, &q.box)
        if shape_is_circle(b):
            return circle_circle(&q.circle, <const Circle*>b)
        return circle_box(&q.circle, &box)

    cdef inline void _take(self, const Query* q, int32_t i) noexcept nogil:
        """Add i to `out` if the query takes it (each object is offered once)."""
        if self._accept(q, i):
            self.out[self.out_n] = i
            self.out_n += 1

    cdef inline void _offer(self, const Query* q, int32_t i, uint32_t stamp) noexcept nogil:
        """_take, for walks that may offer an object more than once."""
        if self.stamp[i] != stamp:
            self.stamp[i] = stamp
            self._take(q, i)

    cdef int _check_body(self, int code, const Shape* b, str where, double x, double y,
                         double a, double c) except -1:
        cdef Box box
        if code == INPUT_OK:
            shape_box(b, &box)
            code = self._check_placement(&box)
        if code:
            raise input_error(code, where, x, y, a, c, self._cell_hint())
        return 0

    cdef double _cell_hint(self):
        """The cell size named in 'too far from the origin' messages."""
        return 0.0

    cdef int32_t _add(self, object handle, const Shape* b, const Filter* f) except -2:
        cdef int32_t i
        if self._reserve_objects(self.obj_hi + 1) < 0:
            raise MemoryError()
        i = self.free_ids[self.n_free - 1] if self.n_free else <int32_t>self.obj_hi
        if i == len(self.handles):
            self.handles.append(None)
        self.body[i] = b[0]
        if self._attach(i) < 0:
            raise MemoryError()
        self._set_filter(i, f)
        self.handles[i] = i if handle is None else handle
        self.live[i] = 1
        if self.n_free:
            self.n_free -= 1
        else:
            self.obj_hi += 1
        self.n_live += 1
        self._changed()
        return i

    cdef inline void _set_filter(self, int32_t i, const Filter* f) noexcept nogil:
        self.n_filtered += (not is_default_filter(f)) - (not is_default_filter(&self.filter[i]))
        self.filter[i] = f[0]

    cdef int32_t _check_id(self, object object_id) except -1:
        if not isinstance(object_id, int) or not 0 <= object_id < self.obj_hi \
                or not self.live[<Py_ssize_t>object_id]:
            raise KeyError(f"no object with id {object_id!r} in this index")
        return <int32_t>object_id

    # ------------------------------------------------------------- single calls

    def insert_rect(self, double x, double y, double width, double height, handle=None,
                    layer=1, mask=0xFFFFFFFF):
        """Add the box from (x, y) to (x + width, y + height), in world units;
        returns its id (int). The handle (default: the id) is what queries return.
        `layer` and `mask` are its collision layers and the layers it looks for
        (see set_filter). Raises ValueError for a bad number, a box out of range
        or a layer or mask that is not a 32-bit unsigned int, MemoryError, or
        RuntimeError if another thread's call holds the index."""
        cdef Shape b
        cdef Filter f
        read_filter(layer, mask, &f)
        self._claim()
        try:
            self._check_body(shape_from_rect(x, y, width, height, &b), &b, "", x, y, width, height)
            return self._add(handle, &b, &f)
        finally:
            self.busy = False

    def insert_circle(self, double x, double y, double radius, handle=None,
                      layer=1, mask=0xFFFFFFFF):
        """Add the disc of centre (x, y) and radius `radius`, in world units;
        returns its id (int). handle, layer and mask as in insert_rect. Raises as
        insert_rect does."""
        cdef Shape b
        cdef Filter f
        read_filter(layer, mask, &f)
        self._claim()
        try:
            self._check_body(shape_from_circle(x, y, radius, &b), &b, "", x, y, radius, 0.0)
            return self._add(handle, &b, &f)
        finally:
            self.busy = False

    def update_rect(self, object_id, double x, double y, double width, double height):
        """Move/resize object `object_id` to the box from (x, y) to
        (x + width, y + height), in world units; cheap if it stays in its cells.
        Raises KeyError for an unknown id, ValueError for a bad number or a box out
        of range, MemoryError (the object then stays as it was), or RuntimeError if
        another thread's call holds the index."""
        self._update_box(object_id, x, y, width, height)

    def update_bounds(self, object_id, bounds, str name="bounds"):
        """update_rect with the GDScript argument: `bounds` as (x, y, width,
        height) or a Rect2. Raises TypeError naming it as `name` if it is
        neither, and as update_rect."""
        cdef double x, y, w, h
        rect_into(bounds, name, &x, &y, &w, &h)
        self._update_box(object_id, x, y, w, h)

    cdef int _update_box(self, object_id, double x, double y, double width,
                         double height) except -1:
        cdef Shape b
        cdef int32_t i
        self._claim()
        try:
            i = self._check_id(object_id)
            self._check_body(shape_from_rect(x, y, width, height, &b), &b, "", x, y, width, height)
            if self._move(i, &b) < 0:
                raise MemoryError()
            self._changed()
        finally:
            self.busy = False
        return 0

    def update_circle(self, object_id, double x, double y, double radius):
        """Move/resize object `object_id` to the disc of centre (x, y) and radius
        `radius`, in world units. Raises as update_rect does."""
        cdef Shape b
        cdef int32_t i
        self._claim()
        try:
            i = self._check_id(object_id)
            self._check_body(shape_from_circle(x, y, radius, &b), &b, "", x, y, radius, 0.0)
            if self._move(i, &b) < 0:
                raise MemoryError()
            self._changed()
        finally:
            self.busy = False

    def set_filter(self, object_id, layer, mask):
        """Put object `object_id` on the collision layers `layer` and have it look
        for those of `mask` (32-bit unsigned ints; new objects: layer 1, mask all
        bits). pairs() reports two touching objects when either one's mask has a
        bit of the other's layer; a query with a mask returns only the objects on
        one of its layers. Raises KeyError for an unknown id, ValueError for a
        layer or mask that is not an int from 0 to 2**32 - 1, or RuntimeError if
        another thread's call holds the index."""
        cdef Filter f
        read_filter(layer, mask, &f)
        self._idle()
        self._set_filter(self._check_id(object_id), &f)

    def filter_of(self, object_id):
        """(layer, mask) of an object, as set_filter takes them. Raises KeyError
        for an unknown id, RuntimeError if another thread's call holds the index."""
        self._idle()
        cdef Filter f = self.filter[self._check_id(object_id)]
        return (f.layer, f.mask)

    cdef void _release(self, int32_t i) noexcept nogil:
        self._set_filter(i, &DEFAULT_FILTER)
        self._detach(i)
        self.generation[i] += 1
        self.live[i] = 0
        self.free_ids[self.n_free] = i
        self.n_free += 1
        self.n_live -= 1

    def remove(self, object_id):
        """Remove an object; returns True, or False (changing nothing) if
        `object_id` names no live object. Raises RuntimeError if another thread's
        call holds the index."""
        self._claim()
        try:
            if object_id not in self:
                return False
            self._depart(object_id)
            self._release(<int32_t>object_id)
            self.handles[object_id] = None
            return True
        finally:
            self.busy = False

    cdef void _empty(self) noexcept nogil:
        self._reset()
        if self.obj_cap:
            memset(self.body, 0, self.obj_cap * sizeof(Shape))
            memset(self.live, 0, self.obj_cap)
            default_filters(self.filter, self.obj_cap)
        self.obj_hi = self.n_live = self.n_free = self.n_filtered = 0

    def clear(self):
        """Remove every object (ids start again from 0); keeps the allocated storage
        for reuse. Raises RuntimeError if another thread's call holds the index."""
        cdef Py_ssize_t i
        self._claim()
        try:
            for i in range(self.obj_hi):
                if self.live[i]:
                    self._depart(i)
                    self.generation[i] += 1
            self._empty()
            self.handles.clear()
        finally:
            self.busy = False

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

    def handle(self, object_id):
        """The handle stored with an id. Raises KeyError for an unknown id,
        RuntimeError if another thread's call holds the index."""
        self._idle()
        self._check_id(object_id)
        return self.handles[object_id]

    def bounds(self, object_id):
        """(x, y, width, height) of an object's box in world units (a disc's
        bounding box). Raises KeyError for an unknown id, RuntimeError if another
        thread's call holds the index."""
        self._idle()
        cdef Box b
        shape_box(&self.body[self._check_id(object_id)], &b)
        return (b.minx, b.miny, b.maxx - b.minx, b.maxy - b.miny)

    def circle_of(self, object_id):
        """(x, y, radius) of a disc in world units, None for a box. Raises KeyError
        for an unknown id, RuntimeError if another thread's call holds the index."""
        self._idle()
        cdef const Shape* b = &self.body[self._check_id(object_id)]
        if not shape_is_circle(b):
            return None
        return (b.p0, b.p1, b.p2)

    def ids(self):
        """List of the ids (ints) of all live objects, ascending. Raises RuntimeError
        if another thread's call holds the index."""
        cdef Py_ssize_t i
        self._claim()       # the list grows as it is read: Python code can run meanwhile
        try:
            return [i for i in range(self.obj_hi) if self.live[i]]
        finally:
            self.busy = False

    def is_colliding(self, a, b):
        """Would pairs() report objects a and b (ids)? They overlap, by the exact
        test the pair pass uses, and either one's mask has a bit of the other's
        layer; False when a == b. Raises KeyError for an unknown id,
        RuntimeError if another thread's call holds the index."""
        self._idle()
        cdef int32_t i = self._check_id(a), j = self._check_id(b)
        return i != j and filters_pass(&self.filter[i], &self.filter[j]) \
            and shapes_meet(&self.body[i], &self.body[j])

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
        cdef Nearby found
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
            kept = <Nearby*>self.batch_results
            for j in range(m):
                for n in range(off[j + 1] - off[j]):
                    found = kept[j * want + n] if want <= VISITED_NEAREST else kept[off[j] + n]
                    dest_ids[off[j] + n] = found.id
                    dest_distances[off[j] + n] = found.distance
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
        cdef char* room = <char*>self._batch_room(answers + (3 * m + VISIT_BANDS + 2) * sizeof(int32_t))
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

    # -------------------------------------------------------------------- pairs

    cdef int _pairs_now(self, bint candidates=False) except -1:
        """The pair pass into `found`; the caller holds the claim. A candidate
        pass keeps every pair tested and leaves the counters as they were."""
        cdef int failed
        cdef Py_ssize_t met, checks = self.narrow_phase_checks, hits = self.hits
        cdef double started = now_ms()
        if candidates:
            self._resolve_broad_phase()     # before the pass replaces what it counts from
            met = self.broad_phase_count
        self.keep_candidates = candidates
        with nogil:
            failed = self._find_pairs()
        self.keep_candidates = False
        if candidates:
            self.broad_phase_count, self.narrow_phase_checks, self.hits = met, checks, hits
            self.broad_phase_pending = False
        else:
            self.phase_ms[PHASE_PAIRS] = now_ms() - started
        if failed:
            raise MemoryError()
        return 0

    cdef object _found_array(self, object out):
        cdef int32_t[:, ::1] dest
        cdef Py_ssize_t n = self.found.n
        if out is None or out.shape[0] < n:
            out = np.empty((n, 2), dtype=np.int32)
        dest = out
        if n:
            memcpy(&dest[0, 0], self.found.ids, n * 2 * sizeof(int32_t))
        return out[:n]

    def pairs(self):
        """List of (handle_a, handle_b) tuples, one for every overlapping pair, the
        smaller id's handle first, in no set order. Updates broad_phase_pairs,
        narrow_phase_checks and hits. Raises MemoryError, or RuntimeError if
        another thread's call holds the index."""
        cdef Py_ssize_t k
        cdef list handles = self.handles
        self._claim()
        try:
            self._pairs_now()
            return [(handles[self.found.ids[2 * k]], handles[self.found.ids[2 * k + 1]])
                    for k in range(self.found.n)]
        finally:
            self.busy = False

    def pair_ids(self, out=None):
        """Every overlapping pair once as a (k, 2) int32 array of ids, the smaller
        first in each row, rows in no set order. Pass `out`, an (m, 2) int32
        C-contiguous array, to reuse memory: with m >= k the result is out[:k],
        otherwise a new array. Updates the counters as pairs() does. Raises
        ValueError if `out` is not such an array, MemoryError, or RuntimeError if
        another thread's call holds the index."""
        check_pair_out(out)
        self._claim()
        try:
            self._pairs_now()
            return self._found_array(out)
        finally:
            self.busy = False

    # ------------------------------------------------------------ pair events

    cdef int _depart(self, Py_ssize_t i) except -1:
        """Keep the handle of live object i, about to be removed, while a pair it
        may be in awaits its end event."""
        if self.n_touching:
            self.departed[(i, self.generation[i])] = self.handles[i]
        return 0

    cdef object _pair_changes(self):
        """The pair pass, then its pairs against the last call's: (began, ended,
        ended_generations) arrays of (k, 2) int32 ids, (m, 2) int32 ids and their
        (m, 2) uint32 generations then. A pair whose object was removed (even if
        its id now names another object) has ended. The caller holds the claim."""
        cdef Py_ssize_t j, n, p = 0, c = 0, n_began = 0, n_ended = 0
        cdef bint old, new, same
        cdef Touch* swap
        cdef int32_t[:, ::1] began_v, ended_v
        cdef uint32_t[:, ::1] gens_v
        self._pairs_now()
        n = self.found.n
        if grow_array(<void**>&self.seen, &self.seen_cap, n, sizeof(Touch)) < 0:
            raise MemoryError()
        for j in range(n):
            self.seen[j].key = (<int64_t>self.found.ids[2 * j] << 32) | self.found.ids[2 * j + 1]
            self.seen[j].gen_a = self.generation[self.found.ids[2 * j]]
            self.seen[j].gen_b = self.generation[self.found.ids[2 * j + 1]]
        qsort(self.seen, n, sizeof(Touch), key_order)
        began = np.empty((n, 2), dtype=np.int32)
        ended = np.empty((self.n_touching, 2), dtype=np.int32)
        gens = np.empty((self.n_touching, 2), dtype=np.uint32)
        began_v, ended_v, gens_v = began, ended, gens
        with nogil:
            while p < self.n_touching or c < n:
                # The heads of both lists: a key in one only began or ended; in
                # both, it goes on unless an object was removed in between.
                old = p < self.n_touching and (c == n or self.touching[p].key <= self.seen[c].key)
                new = c < n and (p == self.n_touching or self.seen[c].key <= self.touching[p].key)
                same = old and new and self.seen[c].gen_a == self.touching[p].gen_a \
                    and self.seen[c].gen_b == self.touching[p].gen_b
                if old and not same:
                    ended_v[n_ended, 0] = <int32_t>(self.touching[p].key >> 32)
                    ended_v[n_ended, 1] = <int32_t>self.touching[p].key
                    gens_v[n_ended, 0] = self.touching[p].gen_a
                    gens_v[n_ended, 1] = self.touching[p].gen_b
                    n_ended += 1
                if new and not same:
                    began_v[n_began, 0] = <int32_t>(self.seen[c].key >> 32)
                    began_v[n_began, 1] = <int32_t>self.seen[c].key
                    n_began += 1
                p += old
                c += new
            swap = self.touching
            self.touching = self.seen
            self.seen = swap
            self.seen_cap, self.touching_cap = self.touching_cap, self.seen_cap
            self.n_touching = n
        return began[:n_began], ended[:n_ended], gens[:n_ended]

    def pair_event_ids(self):
        """The pairs that began and ended overlapping since the last call of
        pair_event_ids or pair_events (before the first: since the index was
        empty), each once: (began, ended), (k, 2) and (m, 2) int32 arrays of ids,
        the smaller first. A pair ends when its objects part or when one is
        removed (then its id may already name another object). Updates the
        counters as pairs() does. Raises MemoryError, or RuntimeError if another
        thread's call holds the index."""
        self._claim()
        try:
            began, ended, _ = self._pair_changes()
            self.departed.clear()
            return began, ended
        finally:
            self.busy = False

    def pair_events(self):
        """pair_event_ids with handles: (began, ended), lists of (handle_a,
        handle_b) tuples, a removed object's pairs ending with the handle it had.
        Raises as pair_event_ids does."""
        cdef Py_ssize_t j
        self._claim()
        try:
            began, ended, gens = self._pair_changes()
            handles = self.handles
            began_handles = [(handles[a], handles[b]) for a, b in began.tolist()]
            ended_handles = [(self._handle_then(a, ga), self._handle_then(b, gb))
                             for (a, b), (ga, gb) in zip(ended.tolist(), gens.tolist())]
            self.departed.clear()
            return began_handles, ended_handles
        finally:
            self.busy = False

    def end_pairs_of(self, object_id):
        """End now the pairs that the last pair_events (or pair_event_ids)
        reported as begun for the object `object_id` names, or last named if it
        was removed since: returns them as a list of (handle_a, handle_b)
        tuples, the smaller id's handle first, and the next call does not
        report them. For an owner that announces the end of a removed object's
        pairs at once, as Godot's areas do for a node leaving the tree. Raises
        KeyError for an id never handed out, RuntimeError if another thread's
        call holds the index."""
        cdef int32_t i, a, b
        cdef uint32_t generation
        cdef Py_ssize_t p, kept = 0
        cdef Touch t
        cdef list ended = []
        if not isinstance(object_id, int) or not 0 <= object_id < self.obj_hi:
            raise KeyError(f"no object ever had the id {object_id!r} in this index")
        i = <int32_t>object_id
        self._claim()
        try:
            generation = self.generation[i] - (not self.live[i])
            for p in range(self.n_touching):
                t = self.touching[p]
                a, b = <int32_t>(t.key >> 32), <int32_t>t.key
                if (a == i and t.gen_a == generation) or (b == i and t.gen_b == generation):
                    ended.append((self._handle_then(a, t.gen_a), self._handle_then(b, t.gen_b)))
                else:
                    self.touching[kept] = t
                    kept += 1
            self.n_touching = kept
            return ended
        finally:
            self.busy = False

    cdef object _handle_then(self, int32_t i, uint32_t generation):
        """The handle id i had in that generation: its own, or a removed object's."""
        return self.handles[i] if self.generation[i] == generation else self.departed[(i, generation)]

    def candidate_ids(self, out=None):
        """Every pair of objects the broad phase hands to the narrow phase, each
        once, as a (k, 2) int32 array of ids (smaller first): a superset of
        pair_ids(), k being the narrow_phase_checks of a pair pass. What sharing
        cells means depends on the index (UniformGrid: a common cell, or a large
        object's cell range; HierarchicalGrid: neighbouring cells within a level,
        or a coarser level's cells that can reach the object). The counters are
        left as the last pair pass set them. `out` as for pair_ids. Raises
        ValueError for any other `out`, MemoryError, or RuntimeError if another
        thread's call holds the index."""
        check_pair_out(out)
        self._claim()
        try:
            self._pairs_now(True)
            return self._found_array(out)
        finally:
            self.busy = False

    def last_phase_ms(self):
        """Where the last frame's time went, in milliseconds: {"moves": the last
        batch update's new bodies for objects that stayed in their cells,
        "relinks": its moves of the others between cells, "pairs": the last
        pair pass}; 0.0 for what has not run yet. Single-object calls leave
        them as they are."""
        return {"moves": self.phase_ms[PHASE_MOVES], "relinks": self.phase_ms[PHASE_RELINKS],
                "pairs": self.phase_ms[PHASE_PAIRS]}

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

    cdef int _broken(self, str what) except -1:
        raise AssertionError(f"{type(self).__name__} invariant broken: {what}")

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


cdef int check_pair_out(object out) except -1:
    """`out` of pair_ids and candidate_ids: None or an (m, 2) int32 C-contiguous array."""
    if out is not None and not (isinstance(out, np.ndarray) and out.dtype == np.int32
                                and out.ndim == 2 and out.shape[1] == 2
                                and out.flags.c_contiguous):
        raise ValueError("out must be an (m, 2) int32 C-contiguous array, got " + (
            f"{out.dtype} with shape {out.shape}" if isinstance(out, np.ndarray)
            else type(out).__name__))
    return 0


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
