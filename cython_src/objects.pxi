# The base of every index: dense integer ids, each with its shape, collision
# filter, query stamp and Python handle, and the calls on one object at a time.
# Subclasses decide where objects live by overriding the placement and query
# hooks here (and the pair hooks of pair_search.pxi); everything validates input
# completely before a hook changes anything.


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


cdef class _ObjectTable:
    """The ids, shapes, filters and handles of an index and its calls on one
    object at a time (see SpatialIndex)."""

    def __cinit__(self, *args, **kwargs):
        self.handles = []

    def __dealloc__(self):
        free(self.body)
        free(self.stamp)
        free(self.live)
        free(self.filter)
        free(self.free_ids)
        free(self.out)
        free(self.generation)

    def __len__(self):
        return self.n_live

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

    cdef int _depart(self, Py_ssize_t i) except -1:
        """Live object i is about to be removed (the pair events keep what they
        need of it)."""
        return 0

    cdef int _broken(self, str what) except -1:
        raise AssertionError(f"{type(self).__name__} invariant broken: {what}")
