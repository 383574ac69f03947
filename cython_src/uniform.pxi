# The uniform spatial hash. Objects are dense integer ids; each small object is a
# member of every cell its box covers, and every membership records its slot in
# the cell's bucket so removal is a constant-time swap-remove. Objects covering
# more than `large_threshold` cells on a side live on a side list instead.

cdef enum:
    LOCAL_ENTRIES = 5   # entries stored inside the bucket: a bucket is one cache line
    PREFETCHED_CELLS = 16   # queries over at most this many cells fetch them ahead

ctypedef struct Entry:
    int32_t obj
    # (membership index << 2) | edge, where edge bit 0 marks the object's first
    # column of cells and bit 1 its first row.
    uint32_t member

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



cdef inline bint ranges_meet(const CellRange* a, const CellRange* b) noexcept nogil:
    return a.x0 <= b.x1 and b.x0 <= a.x1 and a.y0 <= b.y1 and b.y0 <= a.y1


cdef class UniformGrid(SpatialIndex):
    """Uniform spatial hash over integer ids, with a Python handle stored per id.

    Cells are ``floor((v - origin) / cell_size)``. Each object is a member of every
    cell its box covers; objects covering more than ``large_threshold`` cells on a
    side live on a large-object list instead.
    """
    cdef readonly double cell_size
    cdef readonly double origin_x
    cdef readonly double origin_y
    cdef readonly int large_threshold
    # per object
    cdef CellRange* range
    cdef int32_t* mem           # first membership of the object's block, -1 if none
    cdef int32_t* large_slot    # index in `large`, -1 if not large
    cdef int32_t* large
    cdef Py_ssize_t n_large
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
        free(self.bucket_free)
        table_free(&self.table)
        free(self.mem_slot)
        free(self.mem_bucket)
        free(self.mem_free)
        free(self.scratch)
        free(self.range)
        free(self.mem)
        free(self.large_slot)
        free(self.large)

    def __repr__(self):
        return (f"UniformGrid(cell_size={self.cell_size!r}, origin=({self.origin_x!r}, "
                f"{self.origin_y!r}), large_threshold={self.large_threshold}) "
                f"with {self.n_live} objects")

    # ------------------------------------------------------------- the hooks

    cdef int _grow_objects(self, Py_ssize_t old_cap, Py_ssize_t new_cap) noexcept nogil:
        if grow_to(<void**>&self.range, old_cap, new_cap, sizeof(CellRange)) < 0 \
                or grow_to(<void**>&self.mem, old_cap, new_cap, sizeof(int32_t)) < 0 \
                or grow_to(<void**>&self.large_slot, old_cap, new_cap, sizeof(int32_t)) < 0 \
                or grow_to(<void**>&self.large, old_cap, new_cap, sizeof(int32_t)) < 0:
            return -1
        return 0

    cdef double _cell_hint(self):
        return self.cell_size

    cdef int _check_placement(self, const Box* b) noexcept nogil:
        cdef CellRange r
        return range_of(b, self.origin_x, self.origin_y, self.cell_size, &r)

    cdef double _safe_magnitude(self) noexcept nogil:
        # A box of such numbers spans at most 2**29 cells each side of the origin,
        # well inside the +-2**30 cell limit whatever the rounding.
        cdef double far = fabs(self.origin_x) if fabs(self.origin_x) > fabs(self.origin_y) \
            else fabs(self.origin_y)
        cdef double bound = (CELL_LIMIT / 4.0) * self.cell_size - far
        return bound if bound > 0.0 else 0.0

    cdef int _attach(self, int32_t i) noexcept nogil:
        range_of(&self.body[i].box, self.origin_x, self.origin_y, self.cell_size, &self.range[i])
        return self._link(i)

    cdef int _move(self, int32_t i, const Body* b) noexcept nogil:
        """Only an object whose cell range changes is re-bucketed."""
        cdef CellRange old = self.range[i], r
        range_of(&b.box, self.origin_x, self.origin_y, self.cell_size, &r)
        if old.x0 != r.x0 or old.y0 != r.y0 or old.x1 != r.x1 or old.y1 != r.y1:
            if self.mem[i] >= 0 and not self._is_large_range(&r):
                if self._relink(i, &r) < 0:
                    return -1
            else:
                # To or from the large list. Linking a large object cannot fail, so
                # if the new small range does not fit, the old large one goes back.
                self._unlink(i)
                self.range[i] = r
                if self._link(i) < 0:
                    self.range[i] = old
                    self._link(i)
                    return -1
        self.body[i] = b[0]
        return 0

    cdef void _detach(self, int32_t i) noexcept nogil:
        self._unlink(i)

    cdef void _reset(self) noexcept nogil:
        cdef Py_ssize_t i
        for i in range(self.n_buckets):
            self.buckets[i].n = -1
            self.bucket_free[i] = <int32_t>(self.n_buckets - 1 - i)
        self.n_bucket_free = self.n_buckets
        self.n_active = 0
        table_clear(&self.table)
        for i in range(self.large_threshold * self.large_threshold + 1):
            self.mem_free[i] = -1
        self.mem_n = 0
        self.n_large = 0

    cdef int _prepare_query(self, Query* q) noexcept nogil:
        cdef Box reach = q.box
        if q.kind == Q_SWEPT:
            swept_reach(&q.box, q.dx, q.dy, &reach)
        return range_of(&reach, self.origin_x, self.origin_y, self.cell_size, &q.cells)

    # ------------------------------------------------------------- buckets

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

    # ------------------------------------------------------------- queries

    cdef inline void _visit_cell(self, const Query* q, int32_t cx, int32_t cy,
                                 uint32_t s) noexcept nogil:
        cdef int32_t b = table_find(&self.table, cell_key(cx, cy)), j
        cdef Entry* e
        if b < 0:
            return
        e = entries_of(&self.buckets[b])
        for j in range(self.buckets[b].n):
            self._offer(q, e[j].obj, s)

    cdef inline void _visit_first_meetings(self, const Query* q, int32_t b,
                                           uint32_t edge) noexcept nogil:
        """Offer the objects of bucket b (a cell of a rectangle of cells) for which
        it is the first cell (lowest column, then row) they share with the
        rectangle: `edge` has bit 0 set unless the cell is in the rectangle's first
        column, bit 1 unless in its first row, and such a cell must then be the
        object's own first column or row. So each object is met once, with no
        stamps to read or write."""
        cdef Entry* e = entries_of(&self.buckets[b])
        cdef int32_t j
        for j in range(self.buckets[b].n):
            if e[j].member & edge == edge:
                self._take(q, e[j].obj)

    cdef void _visit_rectangle(self, const Query* q) noexcept nogil:
        """Visit the cells of q's rectangle of cells. A small rectangle's table
        slots, then its buckets, are fetched all at once before they are read:
        a query's cells lie scattered in memory."""
        cdef const CellRange* r = &q.cells
        cdef int32_t cx, cy, b, found[PREFETCHED_CELLS]
        cdef Py_ssize_t k = 0
        cdef bint small = (<int64_t>r.x1 - r.x0 + 1) * (<int64_t>r.y1 - r.y0 + 1) <= PREFETCHED_CELLS
        if small:
            for cy in range(r.y0, r.y1 + 1):
                for cx in range(r.x0, r.x1 + 1):
                    prefetch(&self.table.slots[table_home(&self.table, cell_key(cx, cy))])
            for cy in range(r.y0, r.y1 + 1):
                for cx in range(r.x0, r.x1 + 1):
                    b = table_find(&self.table, cell_key(cx, cy))
                    found[k] = b
                    k += 1
                    if b >= 0:
                        prefetch(&self.buckets[b])
                        prefetch(<char*>&self.buckets[b] + sizeof(Bucket) - 1)
            k = 0
        for cy in range(r.y0, r.y1 + 1):
            for cx in range(r.x0, r.x1 + 1):
                if small:
                    b = found[k]
                    k += 1
                else:
                    b = table_find(&self.table, cell_key(cx, cy))
                if b >= 0:
                    self._visit_first_meetings(q, b, (cx != r.x0) | ((cy != r.y0) << 1))

    cdef void _walk_swept_cells(self, const Query* q, uint32_t stamp) noexcept nogil:
        # Each column of cells meets the swept box during a window of time, and
        # within it the box's y extent is an interval: every touched cell is visited.
        cdef const CellRange* cells = &q.cells
        cdef double cell = self.cell_size, column_x
        cdef int32_t cx
        cdef int64_t cy, first_row, last_row
        for cx in range(cells.x0, cells.x1 + 1):
            column_x = self.origin_x + cx * cell
            if swept_column_rows(&q.box, q.dx, q.dy, column_x, column_x + cell,
                                 self.origin_y, cell, True, cells.y0, cells.y1,
                                 &first_row, &last_row):
                for cy in range(first_row, last_row + 1):
                    self._visit_cell(q, cx, <int32_t>cy, stamp)

    cdef void _collect(self, const Query* q) noexcept nogil:
        """Fill `out` with the ids the query selects (out has room for every object)."""
        cdef const CellRange* r = &q.cells
        cdef int32_t i
        cdef Py_ssize_t j
        self.out_n = 0
        if not scan_beats_visit(<double>r.x1 - r.x0 + 1.0, <double>r.y1 - r.y0 + 1.0, self.n_live):
            if q.kind == Q_SWEPT:
                self._walk_swept_cells(q, self._next_stamp())
            else:
                self._visit_rectangle(q)
        else:
            for i in range(<int32_t>self.obj_hi):
                if self.body[i].kind != SHAPE_FREE and self.large_slot[i] < 0 \
                        and ranges_meet(&self.range[i], r):
                    self._take(q, i)
        for j in range(self.n_large):
            i = self.large[j]
            if ranges_meet(&self.range[i], r):
                self._take(q, i)

    # --------------------------------------------------------------- pairs

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
                    if bodies_touch(&self.body[a], &self.body[c]):
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
                if bodies_touch(&self.body[L], &self.body[c]):
                    found += 1
                    if self._emit(L, c) < 0:
                        return -1
        self.broad_phase_pairs = cell_pairs
        self.narrow_phase_checks = checks
        self.hits = found
        return 0

    # --------------------------------------------------------------- extras

    def cells_of(self, object_id):
        """(cx0, cy0, cx1, cy1): the inclusive cell range an object covers."""
        self._idle()
        cdef CellRange r = self.range[self._check_id(object_id)]
        return (r.x0, r.y0, r.x1, r.y1)

    def is_large(self, object_id):
        """True if the object lives on the large-object list instead of in cells."""
        self._idle()
        return self.large_slot[self._check_id(object_id)] >= 0

    def cell_of(self, x, y):
        """The integer cell (cx, cy) containing a point."""
        cdef Box b
        cdef CellRange r
        b.minx = b.maxx = check_finite(x, "x")
        b.miny = b.maxy = check_finite(y, "y")
        code = range_of(&b, self.origin_x, self.origin_y, self.cell_size, &r)
        if code:
            raise input_error(code, "", b.minx, b.miny, 0.0, 0.0, self.cell_size)
        return (r.x0, r.y0)

    def stats(self):
        """Occupancy figures, in the schema both grids share (STATS_KEYS):

        objects: live objects. active_cells: cells holding at least one object.
        memberships: (object, cell) entries; an object covers every cell of its box.
        avg_objects_per_cell, max_objects_per_cell: memberships per active cell.
        large_objects: objects on the large-object list instead of in cells.
        longest_probe: the most slots a cell lookup walks in the hash table.
        levels: one entry per cell size, {"cell_size", "grid" (table side; None
        here: cells are hashed by their full coordinate pair), "objects",
        "occupied_cells"}. broad_phase_pairs, narrow_phase_checks, hits: the
        counters of the last pair pass."""
        cdef Py_ssize_t i, members = 0, most = 0
        self._idle()
        for i in range(self.n_buckets):
            if self.buckets[i].n > 0:
                members += self.buckets[i].n
            if self.buckets[i].n > most:
                most = self.buckets[i].n
        return occupancy(self.n_live, self.n_active, members, most, self.n_large,
                         table_longest_probe(&self.table),
                         [{"cell_size": self.cell_size, "grid": None,
                           "objects": self.n_live - self.n_large,
                           "occupied_cells": self.n_active}], self)

    def cell_counts(self):
        """{(cx, cy): number of objects} for every active cell."""
        cdef Py_ssize_t i
        self._claim()       # the dict grows as it is read: Python code can run meanwhile
        try:
            return {(self.buckets[i].cx, self.buckets[i].cy): self.buckets[i].n
                    for i in range(self.n_buckets) if self.buckets[i].n > 0}
        finally:
            self.busy = False
