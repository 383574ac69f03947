# The uniform spatial hash. Objects are dense integer ids; each small object is a
# member of every cell its box covers, and every membership records its slot in
# the cell's bucket so removal is a constant-time swap-remove. Objects covering
# more than `large_threshold` cells on a side live on a side list instead.

cdef enum:
    LOCAL_ENTRIES = 5   # entries stored inside the bucket: a bucket is one cache line

ctypedef struct Entry:
    int32_t obj
    # (membership index << 2) | edge, where edge bit 0 marks the object's first
    # column of cells and bit 1 its first row.
    uint32_t member

ctypedef struct Body:
    # Everything the narrow phase reads about one object, in one cache line.
    Box box
    Circle circle
    uint8_t kind

ctypedef struct Bucket:
    int32_t n           # entries; -1 while the bucket waits on the free list
    int32_t cap
    int32_t cx
    int32_t cy
    Entry* heap         # holds the entries once they outgrow `local`
    Entry local[LOCAL_ENTRIES]


cdef inline Entry* entries_of(Bucket* b) noexcept nogil:
    return b.heap if b.cap > LOCAL_ENTRIES else &b.local[0]


cdef inline uint32_t member_of(int32_t block, int32_t k, int32_t nx) noexcept nogil:
    return (<uint32_t>(block + k) << 2) | (k % nx == 0) | ((k < nx) << 1)


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
    cdef Body* body
    cdef CellRange* range
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
    cdef Py_ssize_t n_buckets, bucket_cap, bucket_free_cap, n_bucket_free, n_active
    cdef int32_t* mem_slot      # per membership: slot in its bucket
    cdef int32_t* mem_bucket    # per membership: its bucket
    cdef int32_t* mem_free      # per block size: head of the free-block list
    cdef Py_ssize_t mem_n, mem_cap, mem_bucket_cap
    cdef int32_t* scratch       # 5 x large_threshold**2 ints for re-bucketing
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
        self.scratch = <int32_t*>malloc(5 * large_threshold * large_threshold * sizeof(int32_t))
        if self.mem_free == NULL or self.scratch == NULL:
            raise MemoryError()
        for i in range(large_threshold * large_threshold + 1):
            self.mem_free[i] = -1

    def __dealloc__(self):
        cdef Py_ssize_t i
        for i in range(self.n_buckets):
            free(self.buckets[i].heap)
        free(self.buckets)
        free(self.scratch)
        free(self.bucket_free)
        table_free(&self.table)
        free(self.mem_slot)
        free(self.mem_bucket)
        free(self.mem_free)
        free(self.body)
        free(self.range)
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
            and self.body[<Py_ssize_t>object_id].kind != SHAPE_FREE

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
        c = cap; ok = grow_array(<void**>&self.body, &c, new_cap, sizeof(Body)) == 0
        c = cap; ok = ok and grow_array(<void**>&self.range, &c, new_cap, sizeof(CellRange)) == 0
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
        memset(self.body + cap, 0, (new_cap - cap) * sizeof(Body))
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
            self.buckets[b].heap = NULL
            self.buckets[b].cap = LOCAL_ENTRIES
        bucket = &self.buckets[b]
        bucket.n = 0
        bucket.cx = cx
        bucket.cy = cy
        table_put(&self.table, key, b)
        return b

    cdef void _sweep_empty_buckets(self) noexcept nogil:
        """Emptied buckets stay in the table so objects hopping back and forth between
        cells do not churn it; once they outnumber the occupied ones, drop them all."""
        cdef Py_ssize_t b
        for b in range(self.n_buckets):
            if self.buckets[b].n == 0:
                table_delete(&self.table, cell_key(self.buckets[b].cx, self.buckets[b].cy))
                self.buckets[b].n = -1
                self.bucket_free[self.n_bucket_free] = <int32_t>b
                self.n_bucket_free += 1

    cdef int32_t _bucket_push(self, int32_t b, int32_t obj, uint32_t member) noexcept nogil:
        cdef Bucket* bucket = &self.buckets[b]
        cdef Entry* e
        cdef int32_t new_cap
        if bucket.n == bucket.cap:
            new_cap = bucket.cap * 2
            if bucket.cap == LOCAL_ENTRIES:
                e = <Entry*>malloc(new_cap * sizeof(Entry))
                if e != NULL:
                    memcpy(e, &bucket.local[0], LOCAL_ENTRIES * sizeof(Entry))
            else:
                e = <Entry*>realloc(bucket.heap, new_cap * sizeof(Entry))
            if e == NULL:
                return -1
            bucket.heap = e
            bucket.cap = new_cap
        e = entries_of(bucket)
        e[bucket.n].obj = obj
        e[bucket.n].member = member
        bucket.n += 1
        if bucket.n == 1:
            self.n_active += 1
        return bucket.n - 1

    cdef inline void _bucket_remove(self, int32_t b, int32_t slot) noexcept nogil:
        cdef Bucket* bucket = &self.buckets[b]
        cdef Entry* e = entries_of(bucket)
        cdef int32_t last = bucket.n - 1
        if slot != last:
            e[slot] = e[last]
            self.mem_slot[e[slot].member >> 2] = slot
        bucket.n = last
        if last == 0:
            self.n_active -= 1
            if self.table.count - self.n_active > self.n_active + 64:
                self._sweep_empty_buckets()

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

    cdef inline bint _is_large_range(self, const CellRange* r) noexcept nogil:
        return r.x1 - r.x0 >= self.large_threshold or r.y1 - r.y0 >= self.large_threshold

    cdef void _unlink_members(self, int32_t i, int32_t count) noexcept nogil:
        cdef int32_t block = self.mem[i], k
        for k in range(count):
            self._bucket_remove(self.mem_bucket[block + k], self.mem_slot[block + k])

    cdef int _link(self, int32_t i) noexcept nogil:
        """Enter object i into the cells of its range (or the large list). All or nothing."""
        cdef CellRange r = self.range[i]
        cdef int32_t nx = r.x1 - r.x0 + 1, ny = r.y1 - r.y0 + 1
        cdef int32_t block, k = 0, cx, cy, b, slot
        if self._is_large_range(&r):
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
                slot = -1 if b < 0 else self._bucket_push(b, i, member_of(block, k, nx))
                if slot < 0:
                    self._unlink_members(i, k)
                    self._mem_release(block, nx * ny)
                    self.mem[i] = -1
                    return -1
                self.mem_bucket[block + k] = b
                self.mem_slot[block + k] = slot
                k += 1
        return 0

    cdef int _relink(self, int32_t i, const CellRange* nr) noexcept nogil:
        """Move small object i to the small range nr, touching only the cells it
        leaves or enters. All or nothing: every step that can fail comes first."""
        cdef CellRange o = self.range[i]
        cdef int32_t onx = o.x1 - o.x0 + 1, ony = o.y1 - o.y0 + 1
        cdef int32_t nnx = nr.x1 - nr.x0 + 1, nny = nr.y1 - nr.y0 + 1
        cdef int32_t k0n = onx * ony, k1n = nnx * nny, T2 = self.large_threshold * self.large_threshold
        cdef int32_t* old_b = self.scratch
        cdef int32_t* old_s = self.scratch + T2
        cdef int32_t* new_b = self.scratch + 2 * T2
        cdef int32_t* new_s = self.scratch + 3 * T2
        cdef int32_t* pushed = self.scratch + 4 * T2
        cdef int32_t old_block = self.mem[i], block = old_block, n_pushed = 0
        cdef int32_t k, cx, cy, b, slot
        cdef Entry* e
        for k in range(k0n):
            old_b[k] = self.mem_bucket[old_block + k]
            old_s[k] = self.mem_slot[old_block + k]
        if k1n != k0n:
            block = self._mem_alloc(k1n)
            if block < 0:
                return -1
        # 1. Enter the cells only the new range covers (the only step that can fail).
        for k in range(k1n):
            cx = nr.x0 + k % nnx
            cy = nr.y0 + k // nnx
            if o.x0 <= cx <= o.x1 and o.y0 <= cy <= o.y1:
                continue
            b = self._bucket_for(cx, cy)
            slot = -1 if b < 0 else self._bucket_push(b, i, member_of(block, k, nnx))
            if slot < 0:
                while n_pushed > 0:
                    n_pushed -= 1
                    self._bucket_remove(new_b[pushed[n_pushed]], new_s[pushed[n_pushed]])
                if block != old_block:
                    self._mem_release(block, k1n)
                return -1
            new_b[k] = b
            new_s[k] = slot
            pushed[n_pushed] = k
            n_pushed += 1
        # 2. Leave the cells only the old range covers. Each bucket holds at most one
        # entry of object i, so these removals never move i's other entries.
        for k in range(k0n):
            cx = o.x0 + k % onx
            cy = o.y0 + k // onx
            if not (nr.x0 <= cx <= nr.x1 and nr.y0 <= cy <= nr.y1):
                self._bucket_remove(old_b[k], old_s[k])
        # 3. Keep the shared cells, renumbering their entries for the new block.
        for k in range(k1n):
            cx = nr.x0 + k % nnx
            cy = nr.y0 + k // nnx
            if o.x0 <= cx <= o.x1 and o.y0 <= cy <= o.y1:
                b = old_b[(cy - o.y0) * onx + (cx - o.x0)]
                slot = old_s[(cy - o.y0) * onx + (cx - o.x0)]
                e = entries_of(&self.buckets[b])
                e[slot].member = member_of(block, k, nnx)
                new_b[k] = b
                new_s[k] = slot
        for k in range(k1n):
            self.mem_bucket[block + k] = new_b[k]
            self.mem_slot[block + k] = new_s[k]
        if block != old_block:
            self._mem_release(old_block, k0n)
            self.mem[i] = block
        self.range[i] = nr[0]
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
        if old.x0 != r.x0 or old.y0 != r.y0 or old.x1 != r.x1 or old.y1 != r.y1:
            if self.mem[i] >= 0 and not self._is_large_range(r):
                if self._relink(i, r) < 0:
                    return -1
            else:
                # To or from the large list. Linking a large object cannot fail, so
                # if the new small range does not fit, the old large one goes back.
                self._unlink(i)
                self.range[i] = r[0]
                if self._link(i) < 0:
                    self.range[i] = old
                    self._link(i)
                    return -1
        self.body[i].box = b[0]
        self.body[i].circle = c[0]
        self.body[i].kind = kind
        return 0

    cdef int32_t _add(self, object handle, const Box* b, const Circle* c, uint8_t kind,
                      const CellRange* r) except -2:
        cdef int32_t i
        if self._reserve_objects(self.obj_hi + 1) < 0:
            raise MemoryError()
        i = self.free_ids[self.n_free - 1] if self.n_free else <int32_t>self.obj_hi
        if i == len(self.handles):
            self.handles.append(None)
        self.body[i].box = b[0]
        self.body[i].circle = c[0]
        self.range[i] = r[0]
        if self._link(i) < 0:
            raise MemoryError()
        self.body[i].kind = kind
        self.handles[i] = i if handle is None else handle
        if self.n_free:
            self.n_free -= 1
        else:
            self.obj_hi += 1
        self.n_live += 1
        return i

    cdef int _check_id(self, object object_id) except -1:
        if not isinstance(object_id, int) or not 0 <= object_id < self.obj_hi \
                or self.body[<Py_ssize_t>object_id].kind == SHAPE_FREE:
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
        self.body[i].kind = SHAPE_FREE
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
            self.buckets[i].n = -1
            self.bucket_free[i] = <int32_t>(self.n_buckets - 1 - i)
        self.n_bucket_free = self.n_buckets
        self.n_active = 0
        table_clear(&self.table)
        for i in range(self.large_threshold * self.large_threshold + 1):
            self.mem_free[i] = -1
        self.mem_n = 0
        if self.obj_cap:
            memset(self.body, 0, self.obj_cap * sizeof(Body))
        self.obj_hi = self.n_live = self.n_free = self.n_large = 0
        self.handles.clear()

    def handle(self, object_id):
        """The handle stored with an id."""
        self._check_id(object_id)
        return self.handles[object_id]

    def bounds(self, object_id):
        """(x, y, width, height) of an object."""
        cdef int32_t i = self._check_id(object_id)
        cdef Box b = self.body[i].box
        return (b.minx, b.miny, b.maxx - b.minx, b.maxy - b.miny)

    def circle_of(self, object_id):
        """(x, y, radius) of a disc, None for a box."""
        cdef int32_t i = self._check_id(object_id)
        if self.body[i].kind != SHAPE_CIRCLE:
            return None
        return (self.body[i].circle.x, self.body[i].circle.y, self.body[i].circle.r)

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
        return [i for i in range(self.obj_hi) if self.body[i].kind != SHAPE_FREE]

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
        return i != j and shapes_touch(&self.body[i].box, &self.body[i].circle, self.body[i].kind,
                                       &self.body[j].box, &self.body[j].circle, self.body[j].kind)

    # ------------------------------------------------------------------ queries

    cdef inline uint32_t _next_stamp(self) noexcept nogil:
        self.cur_stamp += 1
        if self.cur_stamp == 0:
            memset(self.stamp, 0, self.obj_cap * sizeof(uint32_t))
            self.cur_stamp = 1
        return self.cur_stamp

    cdef inline bint _accept(self, const Query* q, int32_t i) noexcept nogil:
        cdef const Box* b = &self.body[i].box
        if q.kind == Q_CELLS:
            return True
        if q.kind == Q_SWEPT:
            return swept_box_hits(&q.box, q.dx, q.dy, b)
        if not box_overlap(&q.box, b):
            return False
        if q.kind == Q_BOX:
            return self.body[i].kind != SHAPE_CIRCLE or circle_box(&self.body[i].circle, &q.box)
        if self.body[i].kind == SHAPE_CIRCLE:
            return circle_circle(&q.circle, &self.body[i].circle)
        return circle_box(&q.circle, b)

    cdef inline void _visit_cell(self, const Query* q, int32_t cx, int32_t cy,
                                 uint32_t s) noexcept nogil:
        cdef int32_t b = table_find(&self.table, cell_key(cx, cy)), j, i
        cdef Entry* e
        if b < 0:
            return
        e = entries_of(&self.buckets[b])
        for j in range(self.buckets[b].n):
            i = e[j].obj
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
                if self.body[i].kind != SHAPE_FREE and self.large_slot[i] < 0 \
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
        return shapes_touch(&self.body[a].box, &self.body[a].circle, self.body[a].kind,
                            &self.body[b].box, &self.body[b].circle, self.body[b].kind)

    cdef int _find_pairs(self) noexcept nogil:
        """Every overlapping pair once, into pair_buf; -1 if out of memory."""
        cdef Py_ssize_t bi, li, j
        cdef int32_t n, u, v, a, c, L
        cdef uint32_t edge
        cdef Entry* e
        cdef Entry* ahead
        cdef Py_ssize_t cell_pairs = 0, checks = 0, found = 0
        cdef Query q
        self.n_pairs = 0
        for bi in range(self.n_buckets):
            n = self.buckets[bi].n
            if n < 2:
                continue
            e = entries_of(&self.buckets[bi])
            if bi + 8 < self.n_buckets and self.buckets[bi + 8].n >= 2:
                ahead = entries_of(&self.buckets[bi + 8])
                for u in range(self.buckets[bi + 8].n if self.buckets[bi + 8].n <= LOCAL_ENTRIES else LOCAL_ENTRIES):
                    prefetch(&self.body[ahead[u].obj])
            cell_pairs += (<Py_ssize_t>n * (n - 1)) // 2
            for u in range(n - 1):
                a = e[u].obj
                edge = e[u].member & 3
                for v in range(u + 1, n):
                    # A pair sharing several cells is tested only in the first one they
                    # share: the cell where one of them starts its column and one its row.
                    if (edge | (e[v].member & 3)) != 3:
                        continue
                    c = e[v].obj
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

    # -------------------------------------------------------------------- batch
    # Whole arrays in one call: every row is validated before anything changes, then
    # the loop runs without the GIL. Arrays are used in place when they are already
    # C-contiguous float64 (int64 for ids); anything else is converted once.

    cdef int _check_ids(self, const int64_t[::1] ids) except -1:
        cdef Py_ssize_t k, n = ids.shape[0], bad = -1
        with nogil:
            for k in range(n):
                if not (0 <= ids[k] < self.obj_hi) or self.body[ids[k]].kind == SHAPE_FREE:
                    bad = k
                    break
        if bad >= 0:
            raise KeyError(f"ids[{bad}]: no object with id {ids[bad]} in this grid")
        return 0

    cdef int _rect_rows(self, const double[:, ::1] rows, Py_ssize_t* bad) noexcept nogil:
        cdef Py_ssize_t k
        cdef Box b
        cdef CellRange r
        cdef int code
        for k in range(rows.shape[0]):
            code = box_from_rect(rows[k, 0], rows[k, 1], rows[k, 2], rows[k, 3], &b) or \
                range_of(&b, self.origin_x, self.origin_y, self.cell_size, &r)
            if code:
                bad[0] = k
                return code
        return 0

    cdef int _circle_rows(self, const double[:, ::1] centers, const double[::1] radii,
                          Py_ssize_t* bad) noexcept nogil:
        cdef Py_ssize_t k
        cdef Box b
        cdef Circle c
        cdef CellRange r
        cdef int code
        for k in range(centers.shape[0]):
            code = box_from_circle(centers[k, 0], centers[k, 1], radii[k], &c, &b) or \
                range_of(&b, self.origin_x, self.origin_y, self.cell_size, &r)
            if code:
                bad[0] = k
                return code
        return 0

    cdef int _validate_rects(self, const double[:, ::1] rows) except -1:
        cdef Py_ssize_t bad = 0
        cdef int code
        with nogil:
            code = self._rect_rows(rows, &bad)
        if code:
            raise input_error(code, f"rects[{bad}]: ", rows[bad, 0], rows[bad, 1],
                              rows[bad, 2], rows[bad, 3], self.cell_size)
        return 0

    cdef int _validate_circles(self, const double[:, ::1] centers, const double[::1] radii) except -1:
        cdef Py_ssize_t bad = 0
        cdef int code
        with nogil:
            code = self._circle_rows(centers, radii, &bad)
        if code:
            raise input_error(code, f"circles[{bad}]: ", centers[bad, 0], centers[bad, 1],
                              radii[bad], 0.0, self.cell_size)
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

    cdef int _commit_new(self, const int64_t[::1] ids, Py_ssize_t linked, object handles) except -1:
        """Give the first `linked` new ids their handles; return the rest unused."""
        cdef Py_ssize_t k, n = ids.shape[0]
        cdef list store = self.handles
        for k in range(linked):
            store[ids[k]] = ids[k] if handles is None else handles[k]
        for k in range(n - 1, linked - 1, -1):
            self.free_ids[self.n_free] = <int32_t>ids[k]
            self.n_free += 1
        self.n_live += linked
        if linked < n:
            raise MemoryError()
        return 0

    def insert_rects(self, rects, handles=None):
        """Add n boxes from an (n, 4) array of (x, y, width, height) rows; returns
        their ids (int64). Handles default to the ids."""
        cdef const double[:, ::1] rows = as_rows(rects, 4, "rects")
        cdef Py_ssize_t k, n = rows.shape[0], linked = 0
        cdef Box b
        cdef Circle c
        cdef CellRange r
        self._idle()
        self._validate_rects(rows)
        ids = self._new_ids(n, handles)
        cdef const int64_t[::1] idv = ids
        c.x = c.y = c.r = 0.0
        self.busy = True
        with nogil:
            for k in range(n):
                box_from_rect(rows[k, 0], rows[k, 1], rows[k, 2], rows[k, 3], &b)
                range_of(&b, self.origin_x, self.origin_y, self.cell_size, &r)
                if self._link_new(<int32_t>idv[k], &b, &c, SHAPE_BOX, &r) < 0:
                    break
                linked += 1
        self.busy = False
        self._commit_new(idv, linked, handles)
        return ids

    def insert_circles(self, centers, radii, handles=None):
        """Add n discs from (n, 2) centers and n radii (or one radius for all)."""
        cdef const double[:, ::1] xy = as_rows(centers, 2, "centers")
        cdef const double[::1] rad = as_radii(radii, xy.shape[0])
        cdef Py_ssize_t k, n = xy.shape[0], linked = 0
        cdef Box b
        cdef Circle c
        cdef CellRange r
        self._idle()
        self._validate_circles(xy, rad)
        ids = self._new_ids(n, handles)
        cdef const int64_t[::1] idv = ids
        self.busy = True
        with nogil:
            for k in range(n):
                box_from_circle(xy[k, 0], xy[k, 1], rad[k], &c, &b)
                range_of(&b, self.origin_x, self.origin_y, self.cell_size, &r)
                if self._link_new(<int32_t>idv[k], &b, &c, SHAPE_CIRCLE, &r) < 0:
                    break
                linked += 1
        self.busy = False
        self._commit_new(idv, linked, handles)
        return ids

    cdef int _link_new(self, int32_t i, const Box* b, const Circle* c, uint8_t kind,
                       const CellRange* r) noexcept nogil:
        self.body[i].box = b[0]
        self.body[i].circle = c[0]
        self.range[i] = r[0]
        if self._link(i) < 0:
            return -1
        self.body[i].kind = kind
        return 0

    def update_rects(self, ids, rects):
        """Move/resize the objects `ids` to the boxes in the (n, 4) array `rects`."""
        cdef const int64_t[::1] idv = as_ids(ids)
        cdef const double[:, ::1] rows = as_rows(rects, 4, "rects")
        cdef Py_ssize_t k, n = idv.shape[0]
        cdef Box b
        cdef Circle c
        cdef CellRange r
        cdef int failed = 0
        if rows.shape[0] != n:
            raise ValueError(f"{n} ids but {rows.shape[0]} rects")
        self._idle()
        self._check_ids(idv)
        self._validate_rects(rows)
        c.x = c.y = c.r = 0.0
        self.busy = True
        with nogil:
            for k in range(n):
                box_from_rect(rows[k, 0], rows[k, 1], rows[k, 2], rows[k, 3], &b)
                range_of(&b, self.origin_x, self.origin_y, self.cell_size, &r)
                if self._place(<int32_t>idv[k], &b, &c, SHAPE_BOX, &r) < 0:
                    failed = 1
                    break
        self.busy = False
        if failed:
            raise MemoryError()

    def update_circles(self, ids, centers, radii):
        """Move/resize the objects `ids` to discs: (n, 2) centers, n radii (or one)."""
        cdef const int64_t[::1] idv = as_ids(ids)
        cdef const double[:, ::1] xy = as_rows(centers, 2, "centers")
        cdef const double[::1] rad = as_radii(radii, xy.shape[0])
        cdef Py_ssize_t k, n = idv.shape[0]
        cdef Box b
        cdef Circle c
        cdef CellRange r
        cdef int failed = 0
        if xy.shape[0] != n:
            raise ValueError(f"{n} ids but {xy.shape[0]} centers")
        self._idle()
        self._check_ids(idv)
        self._validate_circles(xy, rad)
        self.busy = True
        with nogil:
            for k in range(n):
                box_from_circle(xy[k, 0], xy[k, 1], rad[k], &c, &b)
                range_of(&b, self.origin_x, self.origin_y, self.cell_size, &r)
                if self._place(<int32_t>idv[k], &b, &c, SHAPE_CIRCLE, &r) < 0:
                    failed = 1
                    break
        self.busy = False
        if failed:
            raise MemoryError()

    def remove_many(self, ids):
        """Remove the objects `ids` (all must be present, none twice)."""
        cdef const int64_t[::1] idv = as_ids(ids)
        cdef Py_ssize_t k, n = idv.shape[0]
        cdef int32_t i
        self._idle()
        self._check_ids(idv)
        if len(np.unique(np.asarray(idv))) != n:
            raise ValueError("ids contains duplicates")
        with nogil:
            for k in range(n):
                i = <int32_t>idv[k]
                self._unlink(i)
                self.body[i].kind = SHAPE_FREE
                self.free_ids[self.n_free] = i
                self.n_free += 1
            self.n_live -= n
        for k in range(n):
            self.handles[idv[k]] = None

    def pair_ids(self, out=None):
        """Every overlapping pair once as a (k, 2) int32 array of ids (smaller first).
        Pass `out`, an (m, 2) int32 C-contiguous array with m >= k, to reuse memory:
        the result is then a view of it."""
        cdef int failed
        cdef int32_t[:, ::1] dest
        self._idle()
        self.busy = True
        with nogil:
            failed = self._find_pairs()
        self.busy = False
        if failed:
            raise MemoryError()
        if out is None or out.shape[0] < self.n_pairs:
            out = np.empty((self.n_pairs, 2), dtype=np.int32)
        dest = out
        if self.n_pairs:
            memcpy(&dest[0, 0], self.pair_buf, self.n_pairs * 2 * sizeof(int32_t))
        return out[:self.n_pairs]

    def query_rects(self, rects, bint exact=False):
        """Many range queries at once, in CSR form: returns (offsets, ids) where the
        ids of query k are ids[offsets[k]:offsets[k + 1]]."""
        cdef const double[:, ::1] rows = as_rows(rects, 4, "rects")
        cdef Py_ssize_t k, m = rows.shape[0], total = 0
        cdef Query q
        cdef int failed = 0
        self._idle()
        self._validate_rects(rows)
        offsets = np.empty(m + 1, dtype=np.int64)
        cdef int64_t[::1] off = offsets
        q.kind = Q_BOX if exact else Q_CELLS
        self.busy = True
        with nogil:
            off[0] = 0
            for k in range(m):
                box_from_rect(rows[k, 0], rows[k, 1], rows[k, 2], rows[k, 3], &q.box)
                range_of(&q.box, self.origin_x, self.origin_y, self.cell_size, &q.cells)
                self._collect(&q)
                if grow_array(<void**>&self.pair_buf, &self.pair_cap, total + self.out_n,
                              sizeof(int32_t)) < 0:
                    failed = 1
                    break
                memcpy(self.pair_buf + total, self.out, self.out_n * sizeof(int32_t))
                total += self.out_n
                off[k + 1] = total
        self.busy = False
        if failed:
            raise MemoryError()
        ids = np.empty(total, dtype=np.int32)
        cdef int32_t[::1] dest = ids
        if total:
            memcpy(&dest[0], self.pair_buf, total * sizeof(int32_t))
        return offsets, ids

    # -------------------------------------------------------------------- stats

    def stats(self):
        """Occupancy figures: objects, active_cells, memberships, average and maximum
        objects per cell, large objects, longest hash probe, last pair-pass counters."""
        cdef Py_ssize_t i, members = 0, most = 0
        for i in range(self.n_buckets):
            if self.buckets[i].n > 0:
                members += self.buckets[i].n
            if self.buckets[i].n > most:
                most = self.buckets[i].n
        cells = self.n_active
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
                for i in range(self.n_buckets) if self.buckets[i].n > 0}
