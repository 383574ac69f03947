# The uniform spatial hash. Objects are dense integer ids; each small object is a
# member of every cell its box covers, and every membership records its slot in
# the cell's bucket so removal is a constant-time swap-remove. Objects covering
# more than `large_threshold` cells on a side live on a side list instead.

ctypedef struct Entry:
    int32_t obj
    int32_t k           # which of the object's memberships this entry is

ctypedef struct Bucket:
    Entry* e
    int32_t n
    int32_t cap
    int32_t cx
    int32_t cy

cdef enum QueryKind:
    Q_CELLS = 0         # everything sharing a cell with the query (seed semantics)
    Q_BOX = 1           # exact overlap with a closed box
    Q_CIRCLE = 2        # exact overlap with a disc
    Q_SWEPT = 3         # exact overlap with a box swept along (dx, dy)

ctypedef struct Query:
    int kind
    Box box
    Circle circle
    double dx
    double dy
    CellRange cells


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


cdef inline bint ranges_meet(const CellRange* a, const CellRange* b) noexcept nogil:
    return a.x0 <= b.x1 and b.x0 <= a.x1 and a.y0 <= b.y1 and b.y0 <= a.y1


cdef class UniformGrid:
    """Uniform spatial hash over integer ids, with a Python handle stored per id.

    Boxes are closed (touching counts). Cells are ``floor((v - origin) / cell_size)``.
    Not thread-safe: use one grid per thread (a call made while another thread is
    inside a batch call raises RuntimeError instead of corrupting memory).
    """
    cdef readonly double cell_size
    cdef readonly double origin_x
    cdef readonly double origin_y
    cdef readonly int large_threshold
    # objects, one slot per id
    cdef Box* box
    cdef Circle* circle
    cdef CellRange* range
    cdef uint8_t* shape
    cdef int32_t* mem           # first membership of the object's block, -1 if none
    cdef int32_t* large_slot    # index in `large`, -1 if not large
    cdef uint32_t* stamp
    cdef int32_t* free_ids
    cdef int32_t* large
    cdef Py_ssize_t obj_cap, obj_hi, n_live, n_free, n_large
    cdef list handles
    # cells
    cdef CellTable table
    cdef Bucket* buckets
    cdef int32_t* bucket_free
    cdef Py_ssize_t n_buckets, bucket_cap, bucket_free_cap, n_bucket_free
    cdef int32_t* mem_slot      # per membership: slot in its bucket
    cdef int32_t* mem_bucket    # per membership: its bucket
    cdef int32_t* mem_free      # per block size: head of the free-block list
    cdef Py_ssize_t mem_n, mem_cap, mem_bucket_cap
    # scratch reused by every query and pair pass
    cdef uint32_t cur_stamp
    cdef int32_t* out
    cdef Py_ssize_t out_n, out_cap
    cdef int32_t* pair_buf
    cdef Py_ssize_t n_pairs, pair_cap
    cdef bint busy
    cdef readonly Py_ssize_t broad_phase_pairs
    cdef readonly Py_ssize_t narrow_phase_checks
    cdef readonly Py_ssize_t hits

    def __cinit__(self, cell_size=64.0, origin=(0.0, 0.0), large_threshold=4):
        cdef int i
        self.cell_size = check_cell_size(cell_size)
        ox, oy = read_vec2(origin, "origin")
        self.origin_x = check_finite(ox, "origin.x")
        self.origin_y = check_finite(oy, "origin.y")
        if not isinstance(large_threshold, int) or not 1 <= large_threshold <= 64:
            raise ValueError(
                f"large_threshold must be an int from 1 to 64 (cells per side), got {large_threshold!r}")
        self.large_threshold = large_threshold
        self.handles = []
        if table_init(&self.table, 6) < 0:
            raise MemoryError()
        self.mem_free = <int32_t*>malloc((large_threshold * large_threshold + 1) * sizeof(int32_t))
        if self.mem_free == NULL:
            raise MemoryError()
        for i in range(large_threshold * large_threshold + 1):
            self.mem_free[i] = -1

    def __dealloc__(self):
        cdef Py_ssize_t i
        for i in range(self.n_buckets):
            free(self.buckets[i].e)
        free(self.buckets)
        free(self.bucket_free)
        table_free(&self.table)
        free(self.mem_slot)
        free(self.mem_bucket)
        free(self.mem_free)
        free(self.box)
        free(self.circle)
        free(self.range)
        free(self.shape)
        free(self.mem)
        free(self.large_slot)
        free(self.stamp)
        free(self.free_ids)
        free(self.large)
        free(self.out)
        free(self.pair_buf)

    def __repr__(self):
        return (f"UniformGrid(cell_size={self.cell_size!r}, origin=({self.origin_x!r}, "
                f"{self.origin_y!r}), large_threshold={self.large_threshold}) "
                f"with {self.n_live} objects")

    def __len__(self):
        return self.n_live

    def __contains__(self, object_id):
        return isinstance(object_id, int) and 0 <= object_id < self.obj_hi \
            and self.shape[<Py_ssize_t>object_id] != SHAPE_FREE

    # ------------------------------------------------------------------ storage

    cdef int _idle(self) except -1:
        if self.busy:
            raise RuntimeError("this grid is in use by a batch call in another thread")
        return 0

    cdef int _reserve_objects(self, Py_ssize_t need) noexcept nogil:
        cdef Py_ssize_t cap = self.obj_cap, new_cap, c
        cdef bint ok
        if need <= cap:
            return 0
        if need > 2147483647:
            return -1
        new_cap = cap * 2 if cap * 2 > need else need
        if new_cap < 64:
            new_cap = 64
        # Every array grows to new_cap; obj_cap moves only once all of them have.
        c = cap; ok = grow_array(<void**>&self.box, &c, new_cap, sizeof(Box)) == 0
        c = cap; ok = ok and grow_array(<void**>&self.circle, &c, new_cap, sizeof(Circle)) == 0
        c = cap; ok = ok and grow_array(<void**>&self.range, &c, new_cap, sizeof(CellRange)) == 0
        c = cap; ok = ok and grow_array(<void**>&self.shape, &c, new_cap, sizeof(uint8_t)) == 0
        c = cap; ok = ok and grow_array(<void**>&self.mem, &c, new_cap, sizeof(int32_t)) == 0
        c = cap; ok = ok and grow_array(<void**>&self.large_slot, &c, new_cap, sizeof(int32_t)) == 0
        c = cap; ok = ok and grow_array(<void**>&self.stamp, &c, new_cap, sizeof(uint32_t)) == 0
        c = cap; ok = ok and grow_array(<void**>&self.free_ids, &c, new_cap, sizeof(int32_t)) == 0
        c = cap; ok = ok and grow_array(<void**>&self.large, &c, new_cap, sizeof(int32_t)) == 0
        c = self.out_cap
        ok = ok and grow_array(<void**>&self.out, &c, new_cap, sizeof(int32_t)) == 0
        if not ok:
            return -1
        self.out_cap = c
        memset(self.stamp + cap, 0, (new_cap - cap) * sizeof(uint32_t))
        memset(self.shape + cap, 0, (new_cap - cap) * sizeof(uint8_t))
        self.obj_cap = new_cap
        return 0

    cdef int32_t _bucket_for(self, int32_t cx, int32_t cy) noexcept nogil:
        """The bucket of cell (cx, cy), created (or recycled) if absent; -1 if out of memory."""
        cdef int64_t key = cell_key(cx, cy)
        cdef int32_t b = table_find(&self.table, key)
        cdef Bucket* bucket
        if b >= 0:
            return b
        if table_reserve(&self.table, 1) < 0:
            return -1
        if self.n_bucket_free > 0:
            self.n_bucket_free -= 1
            b = self.bucket_free[self.n_bucket_free]
        else:
            if grow_array(<void**>&self.buckets, &self.bucket_cap, self.n_buckets + 1, sizeof(Bucket)) < 0:
                return -1
            # The free list can always hold every bucket, so releasing never allocates.
            if grow_array(<void**>&self.bucket_free, &self.bucket_free_cap, self.bucket_cap,
                          sizeof(int32_t)) < 0:
                return -1
            b = <int32_t>self.n_buckets
            self.n_buckets += 1
            self.buckets[b].e = NULL
            self.buckets[b].cap = 0
        bucket = &self.buckets[b]
        bucket.n = 0
        bucket.cx = cx
        bucket.cy = cy
        table_put(&self.table, key, b)
        return b

    cdef inline void _release_bucket(self, int32_t b) noexcept nogil:
        table_delete(&self.table, cell_key(self.buckets[b].cx, self.buckets[b].cy))
        self.bucket_free[self.n_bucket_free] = b
        self.n_bucket_free += 1

    cdef int32_t _bucket_push(self, int32_t b, int32_t obj, int32_t k) noexcept nogil:
        cdef Bucket* bucket = &self.buckets[b]
        cdef Entry* e
        cdef int32_t new_cap
        if bucket.n == bucket.cap:
            new_cap = bucket.cap * 2 if bucket.cap else 4
            e = <Entry*>realloc(bucket.e, new_cap * sizeof(Entry))
            if e == NULL:
                return -1
            bucket.e = e
            bucket.cap = new_cap
        bucket.e[bucket.n].obj = obj
        bucket.e[bucket.n].k = k
        bucket.n += 1
        return bucket.n - 1

    cdef inline void _bucket_remove(self, int32_t b, int32_t slot) noexcept nogil:
        cdef Bucket* bucket = &self.buckets[b]
        cdef int32_t last = bucket.n - 1
        cdef Entry moved
        if slot != last:
            moved = bucket.e[last]
            bucket.e[slot] = moved
            self.mem_slot[self.mem[moved.obj] + moved.k] = slot
        bucket.n = last
        if last == 0:
            self._release_bucket(b)

    cdef int32_t _mem_alloc(self, int32_t k) noexcept nogil:
        """A block of k consecutive memberships, recycled by size."""
        cdef int32_t block = self.mem_free[k]
        cdef Py_ssize_t c
        if block >= 0:
            self.mem_free[k] = self.mem_slot[block]
            return block
        if self.mem_n + k > 2147483647:
            return -1
        c = self.mem_cap
        if grow_array(<void**>&self.mem_slot, &c, self.mem_n + k, sizeof(int32_t)) < 0:
            return -1
        if grow_array(<void**>&self.mem_bucket, &self.mem_bucket_cap, c, sizeof(int32_t)) < 0:
            return -1
        self.mem_cap = c
        block = <int32_t>self.mem_n
        self.mem_n += k
        return block

    cdef inline void _mem_release(self, int32_t block, int32_t k) noexcept nogil:
        self.mem_slot[block] = self.mem_free[k]
        self.mem_free[k] = block

    cdef void _unlink_members(self, int32_t i, int32_t count) noexcept nogil:
        cdef int32_t block = self.mem[i], k
        for k in range(count):
            self._bucket_remove(self.mem_bucket[block + k], self.mem_slot[block + k])

    cdef int _link(self, int32_t i) noexcept nogil:
        """Enter object i into the cells of its range (or the large list). All or nothing."""
        cdef CellRange r = self.range[i]
        cdef int32_t nx = r.x1 - r.x0 + 1, ny = r.y1 - r.y0 + 1
        cdef int32_t block, k = 0, cx, cy, b, slot
        if nx > self.large_threshold or ny > self.large_threshold:
            self.large_slot[i] = <int32_t>self.n_large
            self.large[self.n_large] = i
            self.n_large += 1
            self.mem[i] = -1
            return 0
        block = self._mem_alloc(nx * ny)
        if block < 0:
            return -1
        self.mem[i] = block
        self.large_slot[i] = -1
        for cy in range(r.y0, r.y1 + 1):
            for cx in range(r.x0, r.x1 + 1):
                b = self._bucket_for(cx, cy)
                slot = -1 if b < 0 else self._bucket_push(b, i, k)
                if slot < 0:
                    if b >= 0 and self.buckets[b].n == 0:
                        self._release_bucket(b)
                    self._unlink_members(i, k)
                    self._mem_release(block, nx * ny)
                    self.mem[i] = -1
                    return -1
                self.mem_bucket[block + k] = b
                self.mem_slot[block + k] = slot
                k += 1
        return 0

    cdef void _unlink(self, int32_t i) noexcept nogil:
        cdef int32_t s, last, k
        cdef CellRange r
        if self.mem[i] < 0:
            s = self.large_slot[i]
            self.n_large -= 1
            last = self.large[self.n_large]
            self.large[s] = last
            self.large_slot[last] = s
            self.large_slot[i] = -1
            return
        r = self.range[i]
        k = (r.x1 - r.x0 + 1) * (r.y1 - r.y0 + 1)
        self._unlink_members(i, k)
        self._mem_release(self.mem[i], k)
        self.mem[i] = -1

    cdef int _place(self, int32_t i, const Box* b, const Circle* c, uint8_t kind,
                    const CellRange* r) noexcept nogil:
        """Give live object i new bounds, re-bucketing only if its cells changed."""
        cdef CellRange old = self.range[i]
        self.box[i] = b[0]
        self.circle[i] = c[0]
        self.shape[i] = kind
        if old.x0 == r.x0 and old.y0 == r.y0 and old.x1 == r.x1 and old.y1 == r.y1:
            return 0
        self._unlink(i)
        self.range[i] = r[0]
        if self._link(i) == 0:
            return 0
        # Out of memory: put the object back where it was.
        self.range[i] = old
        self._link(i)  # cannot fail: it reuses the memberships just released
        return -1

    cdef int32_t _add(self, object handle, const Box* b, const Circle* c, uint8_t kind,
                      const CellRange* r) except -2:
        cdef int32_t i
        if self._reserve_objects(self.obj_hi + 1) < 0:
            raise MemoryError()
        i = self.free_ids[self.n_free - 1] if self.n_free else <int32_t>self.obj_hi
        if i == len(self.handles):
            self.handles.append(None)
        self.box[i] = b[0]
        self.circle[i] = c[0]
        self.range[i] = r[0]
        if self._link(i) < 0:
            raise MemoryError()
        self.shape[i] = kind
        self.handles[i] = i if handle is None else handle
        if self.n_free:
            self.n_free -= 1
        else:
            self.obj_hi += 1
        self.n_live += 1
        return i

    cdef int _check_id(self, object object_id) except -1:
        if not isinstance(object_id, int) or not 0 <= object_id < self.obj_hi \
                or self.shape[<Py_ssize_t>object_id] == SHAPE_FREE:
            raise KeyError(f"no object with id {object_id!r} in this grid")
        return <int32_t>object_id

    # ------------------------------------------------------------- single calls

    def insert_rect(self, double x, double y, double width, double height, handle=None):
        """Add a box; returns its id. The handle (default: the id) is what queries return."""
        cdef Box b
        cdef Circle c
        cdef CellRange r
        self._idle()
        code = box_from_rect(x, y, width, height, &b) or \
            range_of(&b, self.origin_x, self.origin_y, self.cell_size, &r)
        if code:
            raise input_error(code, "", x, y, width, height, self.cell_size)
        c.x = c.y = c.r = 0.0
        return self._add(handle, &b, &c, SHAPE_BOX, &r)

    def insert_circle(self, double x, double y, double radius, handle=None):
        """Add a disc; returns its id."""
        cdef Box b
        cdef Circle c
        cdef CellRange r
        self._idle()
        code = box_from_circle(x, y, radius, &c, &b) or \
            range_of(&b, self.origin_x, self.origin_y, self.cell_size, &r)
        if code:
            raise input_error(code, "", x, y, radius, 0.0, self.cell_size)
        return self._add(handle, &b, &c, SHAPE_CIRCLE, &r)

    def update_rect(self, object_id, double x, double y, double width, double height):
        """Move/resize object `object_id` to a box. Free if its cells are unchanged."""
        cdef Box b
        cdef Circle c
        cdef CellRange r
        self._idle()
        cdef int32_t i = self._check_id(object_id)
        code = box_from_rect(x, y, width, height, &b) or \
            range_of(&b, self.origin_x, self.origin_y, self.cell_size, &r)
        if code:
            raise input_error(code, "", x, y, width, height, self.cell_size)
        c.x = c.y = c.r = 0.0
        if self._place(i, &b, &c, SHAPE_BOX, &r) < 0:
            raise MemoryError()

    def update_circle(self, object_id, double x, double y, double radius):
        """Move/resize object `object_id` to a disc."""
        cdef Box b
        cdef Circle c
        cdef CellRange r
        self._idle()
        cdef int32_t i = self._check_id(object_id)
        code = box_from_circle(x, y, radius, &c, &b) or \
            range_of(&b, self.origin_x, self.origin_y, self.cell_size, &r)
        if code:
            raise input_error(code, "", x, y, radius, 0.0, self.cell_size)
        if self._place(i, &b, &c, SHAPE_CIRCLE, &r) < 0:
            raise MemoryError()

    def remove(self, object_id):
        """Remove an object; returns False (and changes nothing) if it is absent."""
        self._idle()
        if object_id not in self:
            return False
        cdef int32_t i = <int32_t>object_id
        self._unlink(i)
        self.shape[i] = SHAPE_FREE
        self.free_ids[self.n_free] = i
        self.n_free += 1
        self.n_live -= 1
        self.handles[i] = None
        return True

    def clear(self):
        """Remove everything; keeps the allocated storage for reuse."""
        cdef Py_ssize_t i
        self._idle()
        for i in range(self.n_buckets):
            self.buckets[i].n = 0
            self.bucket_free[i] = <int32_t>(self.n_buckets - 1 - i)
        self.n_bucket_free = self.n_buckets
        table_clear(&self.table)
        for i in range(self.large_threshold * self.large_threshold + 1):
            self.mem_free[i] = -1
        self.mem_n = 0
        if self.obj_cap:
            memset(self.shape, 0, self.obj_cap * sizeof(uint8_t))
        self.obj_hi = self.n_live = self.n_free = self.n_large = 0
        self.handles.clear()

    def handle(self, object_id):
        """The handle stored with an id."""
        self._check_id(object_id)
        return self.handles[object_id]

    def bounds(self, object_id):
        """(x, y, width, height) of an object."""
        cdef int32_t i = self._check_id(object_id)
        cdef Box b = self.box[i]
        return (b.minx, b.miny, b.maxx - b.minx, b.maxy - b.miny)

    def circle_of(self, object_id):
        """(x, y, radius) of a disc, None for a box."""
        cdef int32_t i = self._check_id(object_id)
        if self.shape[i] != SHAPE_CIRCLE:
            return None
        return (self.circle[i].x, self.circle[i].y, self.circle[i].r)

    def cells_of(self, object_id):
        """(cx0, cy0, cx1, cy1): the inclusive cell range an object covers."""
        cdef int32_t i = self._check_id(object_id)
        cdef CellRange r = self.range[i]
        return (r.x0, r.y0, r.x1, r.y1)

    def is_large(self, object_id):
        """True if the object lives on the large-object list instead of in cells."""
        return self.large_slot[self._check_id(object_id)] >= 0

    def ids(self):
        """Ids of all live objects, ascending."""
        cdef Py_ssize_t i
        return [i for i in range(self.obj_hi) if self.shape[i] != SHAPE_FREE]

    def cell_of(self, double x, double y):
        """The integer cell (cx, cy) containing a point."""
        cdef Box b
        cdef CellRange r
        b.minx = b.maxx = check_finite(x, "x")
        b.miny = b.maxy = check_finite(y, "y")
        code = range_of(&b, self.origin_x, self.origin_y, self.cell_size, &r)
        if code:
            raise input_error(code, "", x, y, 0.0, 0.0, self.cell_size)
        return (r.x0, r.y0)

    def is_colliding(self, a, b):
        """Do objects a and b (ids) overlap? The same test the pair pass uses."""
        cdef int32_t i = self._check_id(a), j = self._check_id(b)
        return i != j and shapes_touch(&self.box[i], &self.circle[i], self.shape[i],
                                       &self.box[j], &self.circle[j], self.shape[j])

    # ------------------------------------------------------------------ queries

    cdef inline uint32_t _next_stamp(self) noexcept nogil:
        self.cur_stamp += 1
        if self.cur_stamp == 0:
            memset(self.stamp, 0, self.obj_cap * sizeof(uint32_t))
            self.cur_stamp = 1
        return self.cur_stamp

    cdef inline bint _accept(self, const Query* q, int32_t i) noexcept nogil:
        cdef const Box* b = &self.box[i]
        if q.kind == Q_CELLS:
            return True
        if q.kind == Q_SWEPT:
            return swept_box_hits(&q.box, q.dx, q.dy, b)
        if not box_overlap(&q.box, b):
            return False
        if q.kind == Q_BOX:
            return self.shape[i] != SHAPE_CIRCLE or circle_box(&self.circle[i], &q.box)
        if self.shape[i] == SHAPE_CIRCLE:
            return circle_circle(&q.circle, &self.circle[i])
        return circle_box(&q.circle, b)

    cdef inline void _visit_cell(self, const Query* q, int32_t cx, int32_t cy,
                                 uint32_t s) noexcept nogil:
        cdef int32_t b = table_find(&self.table, cell_key(cx, cy)), j, i
        cdef Bucket* bucket
        if b < 0:
            return
        bucket = &self.buckets[b]
        for j in range(bucket.n):
            i = bucket.e[j].obj
            if self.stamp[i] != s:
                self.stamp[i] = s
                if self._accept(q, i):
                    self.out[self.out_n] = i
                    self.out_n += 1

    cdef void _walk_swept_cells(self, const Query* q, uint32_t s) noexcept nogil:
        # Each column of cells sees the swept box during a window of time; within
        # that window its y extent is an interval, so every touched cell is visited.
        cdef const CellRange* r = &q.cells
        cdef double S = self.cell_size, pad = S * 1e-7, xa, xb, t0, t1, ylo, yhi, a, c
        cdef int32_t cx, cy, cy0, cy1
        for cx in range(r.x0, r.x1 + 1):
            xa = self.origin_x + cx * S
            xb = xa + S
            pad = S * 1e-7 + (fabs(xa) + fabs(q.box.miny) + fabs(q.box.maxy)) * 1e-13
            t0 = 0.0
            t1 = 1.0
            if not axis_window(q.box.minx, q.box.maxx, q.dx, xa - pad, xb + pad, &t0, &t1):
                continue
            a = t0 * q.dy
            c = t1 * q.dy
            ylo = q.box.miny + (a if a < c else c) - pad
            yhi = q.box.maxy + (c if a < c else a) + pad
            ylo = floor((ylo - self.origin_y) / S)
            yhi = floor((yhi - self.origin_y) / S)
            cy0 = r.y0 if ylo < r.y0 else <int32_t>ylo
            cy1 = r.y1 if yhi > r.y1 else <int32_t>yhi
            for cy in range(cy0, cy1 + 1):
                self._visit_cell(q, cx, cy, s)

    cdef void _collect(self, const Query* q) noexcept nogil:
        """Fill `out` with the ids the query selects (out has room for every object)."""
        cdef const CellRange* r = &q.cells
        cdef uint32_t s = self._next_stamp()
        cdef double n_cells = (<double>r.x1 - r.x0 + 1.0) * (<double>r.y1 - r.y0 + 1.0)
        cdef int32_t cx, cy, i
        cdef Py_ssize_t j
        self.out_n = 0
        if n_cells <= self.n_live:
            if q.kind == Q_SWEPT:
                self._walk_swept_cells(q, s)
            else:
                for cy in range(r.y0, r.y1 + 1):
                    for cx in range(r.x0, r.x1 + 1):
                        self._visit_cell(q, cx, cy, s)
        else:
            # The query covers more cells than there are objects: scanning is cheaper.
            for i in range(<int32_t>self.obj_hi):
                if self.shape[i] != SHAPE_FREE and self.large_slot[i] < 0 \
                        and ranges_meet(&self.range[i], r) and self._accept(q, i):
                    self.out[self.out_n] = i
                    self.out_n += 1
        for j in range(self.n_large):
            i = self.large[j]
            if ranges_meet(&self.range[i], r) and self._accept(q, i):
                self.out[self.out_n] = i
                self.out_n += 1

    cdef list _out_handles(self):
        cdef Py_ssize_t j
        cdef list handles = self.handles
        return [handles[self.out[j]] for j in range(self.out_n)]

    cdef int _set_query_box(self, Query* q, int kind, double x, double y, double w,
                            double h) except -1:
        code = box_from_rect(x, y, w, h, &q.box) or \
            range_of(&q.box, self.origin_x, self.origin_y, self.cell_size, &q.cells)
        if code:
            raise input_error(code, "query ", x, y, w, h, self.cell_size)
        q.kind = kind
        return 0

    def query_nearby(self, double x, double y, double width, double height):
        """Handles of every object sharing a cell with the box (seed semantics:
        candidates, not exact hits). Large objects count by the cells they cover."""
        cdef Query q
        self._idle()
        self._set_query_box(&q, Q_CELLS, x, y, width, height)
        self._collect(&q)
        return self._out_handles()

    def query_rect(self, double x, double y, double width, double height, bint exact=False):
        """Like query_nearby; with exact=True only objects that overlap the box."""
        cdef Query q
        self._idle()
        self._set_query_box(&q, Q_BOX if exact else Q_CELLS, x, y, width, height)
        self._collect(&q)
        return self._out_handles()

    def query_point(self, double x, double y):
        """Handles of the objects containing the point (boundary included)."""
        cdef Query q
        self._idle()
        self._set_query_box(&q, Q_BOX, x, y, 0.0, 0.0)
        self._collect(&q)
        return self._out_handles()

    def query_radius(self, double x, double y, double radius):
        """Handles of the objects overlapping the disc."""
        cdef Query q
        self._idle()
        code = box_from_circle(x, y, radius, &q.circle, &q.box) or \
            range_of(&q.box, self.origin_x, self.origin_y, self.cell_size, &q.cells)
        if code:
            raise input_error(code, "query ", x, y, radius, 0.0, self.cell_size)
        q.kind = Q_CIRCLE
        self._collect(&q)
        return self._out_handles()

    def query_swept(self, double x0, double y0, double x1, double y1, double width,
                    double height):
        """Handles of the objects whose box the (width x height) box touches anywhere
        on its way from corner (x0, y0) to (x1, y1): walks every cell it crosses."""
        cdef Query q
        cdef Box end
        self._idle()
        self._set_query_box(&q, Q_SWEPT, x0, y0, width, height)
        code = box_from_rect(x1, y1, width, height, &end)
        if code:
            raise input_error(code, "path end ", x1, y1, width, height, self.cell_size)
        q.dx = x1 - x0
        q.dy = y1 - y0
        if not (isfinite(q.dx) and isfinite(q.dy)):
            raise ValueError(f"path from ({x0!r}, {y0!r}) to ({x1!r}, {y1!r}) is too long")
        end.minx = min(q.box.minx, end.minx)
        end.miny = min(q.box.miny, end.miny)
        end.maxx = max(q.box.maxx, end.maxx)
        end.maxy = max(q.box.maxy, end.maxy)
        code = range_of(&end, self.origin_x, self.origin_y, self.cell_size, &q.cells)
        if code:
            raise input_error(code, "path end ", x1, y1, width, height, self.cell_size)
        self._collect(&q)
        return self._out_handles()

    # -------------------------------------------------------------------- pairs

    cdef inline int _emit(self, int32_t a, int32_t b) noexcept nogil:
        if self.n_pairs * 2 + 2 > self.pair_cap:
            if grow_array(<void**>&self.pair_buf, &self.pair_cap, self.n_pairs * 2 + 2,
                          sizeof(int32_t)) < 0:
                return -1
        if a > b:
            a, b = b, a
        self.pair_buf[2 * self.n_pairs] = a
        self.pair_buf[2 * self.n_pairs + 1] = b
        self.n_pairs += 1
        return 0

    cdef inline bint _touch(self, int32_t a, int32_t b) noexcept nogil:
        return shapes_touch(&self.box[a], &self.circle[a], self.shape[a],
                            &self.box[b], &self.circle[b], self.shape[b])

    cdef int _find_pairs(self) noexcept nogil:
        """Every overlapping pair once, into pair_buf; -1 if out of memory."""
        cdef Py_ssize_t bi, li, j
        cdef int32_t n, u, v, a, c, bcx, bcy, L
        cdef Entry* e
        cdef const CellRange* ra
        cdef const CellRange* rc
        cdef Py_ssize_t cell_pairs = 0, checks = 0, found = 0
        cdef Query q
        self.n_pairs = 0
        for bi in range(self.n_buckets):
            n = self.buckets[bi].n
            if n < 2:
                continue
            e = self.buckets[bi].e
            bcx = self.buckets[bi].cx
            bcy = self.buckets[bi].cy
            cell_pairs += (<Py_ssize_t>n * (n - 1)) // 2
            for u in range(n - 1):
                a = e[u].obj
                ra = &self.range[a]
                for v in range(u + 1, n):
                    c = e[v].obj
                    rc = &self.range[c]
                    # A pair sharing several cells is tested only in the first one
                    # they share: the min corner of their cell ranges' overlap.
                    if (ra.x0 if ra.x0 > rc.x0 else rc.x0) != bcx or \
                            (ra.y0 if ra.y0 > rc.y0 else rc.y0) != bcy:
                        continue
                    checks += 1
                    if self._touch(a, c):
                        found += 1
                        if self._emit(a, c) < 0:
                            return -1
        # Large objects: test each against what shares its cells, and against the
        # large objects after it on the list.
        q.kind = Q_CELLS
        for li in range(self.n_large):
            L = self.large[li]
            q.cells = self.range[L]
            self._collect(&q)
            for j in range(self.out_n):
                c = self.out[j]
                if c == L or 0 <= self.large_slot[c] <= li:
                    continue
                cell_pairs += 1
                checks += 1
                if self._touch(L, c):
                    found += 1
                    if self._emit(L, c) < 0:
                        return -1
        self.broad_phase_pairs = cell_pairs
        self.narrow_phase_checks = checks
        self.hits = found
        return 0

    def pairs(self):
        """List of (handle_a, handle_b) for every overlapping pair, each pair once,
        with the smaller id first. Updates the counters broad_phase_pairs (pairs met in
        shared cells), narrow_phase_checks (distinct pairs tested) and hits."""
        cdef Py_ssize_t k
        cdef list handles = self.handles
        self._idle()
        if self._find_pairs() < 0:
            raise MemoryError()
        return [(handles[self.pair_buf[2 * k]], handles[self.pair_buf[2 * k + 1]])
                for k in range(self.n_pairs)]

    # -------------------------------------------------------------------- stats

    def stats(self):
        """Occupancy figures: objects, active_cells, memberships, average and maximum
        objects per cell, large objects, longest hash probe, last pair-pass counters."""
        cdef Py_ssize_t i, members = 0, most = 0
        for i in range(self.n_buckets):
            members += self.buckets[i].n
            if self.buckets[i].n > most:
                most = self.buckets[i].n
        cells = self.table.count
        return {
            "objects": self.n_live,
            "active_cells": cells,
            "memberships": members,
            "avg_objects_per_cell": members / cells if cells else 0.0,
            "max_objects_per_cell": most,
            "large_objects": self.n_large,
            "longest_probe": table_longest_probe(&self.table),
            "broad_phase_pairs": self.broad_phase_pairs,
            "narrow_phase_checks": self.narrow_phase_checks,
            "hits": self.hits,
        }

    def cell_counts(self):
        """{(cx, cy): number of objects} for every active cell."""
        cdef Py_ssize_t i
        return {(self.buckets[i].cx, self.buckets[i].cy): self.buckets[i].n
                for i in range(self.n_buckets) if self.buckets[i].n}
