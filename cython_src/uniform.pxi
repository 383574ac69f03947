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

    Cell (cx, cy) is the square of side cell_size whose corner is
    origin + (cx, cy) * cell_size: a coordinate v lies in cell
    floor((v - origin) / cell_size). Cell coordinates are ints within +-2**30.
    Each object is a member of every cell its box covers; objects covering more
    than `large_threshold` cells on a side live on a large-object list instead.

    Parameters
    ----------
    cell_size : float
        Side of a cell in world units, positive and finite (default 64).
    origin : (x, y) pair or Vector2
        Where cell (0, 0) starts, in world units (default (0, 0)).
    large_threshold : int
        Cells per side, from 1 to 64 (default 4), beyond which an object goes to
        the large-object list.

    Raises ValueError naming a bad argument, TypeError if `origin` is not a pair
    or a Vector2, MemoryError. The methods raise as SpatialIndex says.

    Attributes
    ----------
    cell_size, origin_x, origin_y : float
        The arguments above (read-only), in world units.
    large_threshold : int
        Likewise, in cells.
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

    cdef bint _stays(self, int32_t i, const Body* b) noexcept nogil:
        cdef CellRange cells
        range_of(&b.box, self.origin_x, self.origin_y, self.cell_size, &cells)
        if memcmp(&cells, &self.range[i], sizeof(CellRange)) != 0:
            return False
        self.body[i] = b[0]
        return True

    cdef void _prefetch_move(self, int32_t i, const Body* b, int stage) noexcept nogil:
        # Stage 0: the object's records and the table slots of its new cells;
        # 1: its membership block and the buckets of its new cells; 2: the
        # buckets it is in now.
        cdef CellRange cells
        cdef int32_t block = self.mem[i] if stage else -1, cx, cy, k, bucket
        range_of(&b.box, self.origin_x, self.origin_y, self.cell_size, &cells)
        if stage == 0:
            prefetch(&self.mem[i])
            prefetch(&self.range[i])
        if stage < 2 and not self._is_large_range(&cells):
            for cy in range(cells.y0, cells.y1 + 1):
                for cx in range(cells.x0, cells.x1 + 1):
                    if stage == 0:
                        prefetch(&self.table.slots[table_home(&self.table, cell_key(cx, cy))])
                    else:
                        bucket = table_find(&self.table, cell_key(cx, cy))
                        if bucket >= 0:
                            prefetch(&self.buckets[bucket])
        if stage == 1 and block >= 0:
            prefetch(&self.mem_bucket[block])
            prefetch(&self.mem_slot[block])
        elif stage == 2 and block >= 0:
            cells = self.range[i]
            for k in range((cells.x1 - cells.x0 + 1) * (cells.y1 - cells.y0 + 1)):
                prefetch(&self.buckets[self.mem_bucket[block + k]])

    cdef int _move(self, int32_t i, const Body* b) noexcept nogil:
        """Only an object whose cell range changes is re-bucketed."""
        cdef CellRange old_cells = self.range[i], new_cells
        range_of(&b.box, self.origin_x, self.origin_y, self.cell_size, &new_cells)
        if old_cells.x0 != new_cells.x0 or old_cells.y0 != new_cells.y0 \
                or old_cells.x1 != new_cells.x1 or old_cells.y1 != new_cells.y1:
            if self.mem[i] >= 0 and not self._is_large_range(&new_cells):
                if self._relink(i, &new_cells) < 0:
                    return -1
            else:
                # To or from the large list. Linking a large object cannot fail, so
                # if the new small range does not fit, the old large one goes back.
                self._unlink(i)
                self.range[i] = new_cells
                if self._link(i) < 0:
                    self.range[i] = old_cells
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
        cdef Entry* entries
        cdef int32_t new_cap
        if bucket.n == bucket.cap:
            new_cap = bucket.cap * 2
            if bucket.cap == LOCAL_ENTRIES:
                entries = <Entry*>malloc(new_cap * sizeof(Entry))
                if entries != NULL:
                    memcpy(entries, &bucket.local[0], LOCAL_ENTRIES * sizeof(Entry))
            else:
                entries = <Entry*>realloc(bucket.heap, new_cap * sizeof(Entry))
            if entries == NULL:
                return -1
            bucket.heap = entries
            bucket.cap = new_cap
        entries = entries_of(bucket)
        entries[bucket.n].obj = obj
        entries[bucket.n].member = member
        bucket.n += 1
        if bucket.n == 1:
            self.n_active += 1
        return bucket.n - 1

    cdef inline void _bucket_remove(self, int32_t b, int32_t slot) noexcept nogil:
        cdef Bucket* bucket = &self.buckets[b]
        cdef Entry* entries = entries_of(bucket)
        cdef int32_t last = bucket.n - 1
        if slot != last:
            entries[slot] = entries[last]
            self.mem_slot[entries[slot].member >> 2] = slot
        bucket.n = last
        if last == 0:
            self.n_active -= 1
            if self.table.count - self.n_active > self.n_active + 64:
                self._sweep_empty_buckets()

    cdef int32_t _mem_alloc(self, int32_t count) noexcept nogil:
        """A block of `count` consecutive memberships, recycled by size."""
        cdef int32_t block = self.mem_free[count]
        cdef Py_ssize_t cap
        if block >= 0:
            self.mem_free[count] = self.mem_slot[block]
            return block
        if self.mem_n + count > 2147483647:
            return -1
        cap = self.mem_cap
        if grow_array(<void**>&self.mem_slot, &cap, self.mem_n + count, sizeof(int32_t)) < 0:
            return -1
        if grow_array(<void**>&self.mem_bucket, &self.mem_bucket_cap, cap, sizeof(int32_t)) < 0:
            return -1
        self.mem_cap = cap
        block = <int32_t>self.mem_n
        self.mem_n += count
        return block

    cdef inline void _mem_release(self, int32_t block, int32_t count) noexcept nogil:
        self.mem_slot[block] = self.mem_free[count]
        self.mem_free[count] = block

    cdef inline bint _is_large_range(self, const CellRange* cells) noexcept nogil:
        return cells.x1 - cells.x0 >= self.large_threshold or cells.y1 - cells.y0 >= self.large_threshold

    cdef void _unlink_members(self, int32_t i, int32_t count) noexcept nogil:
        cdef int32_t block = self.mem[i], k
        for k in range(count):
            self._bucket_remove(self.mem_bucket[block + k], self.mem_slot[block + k])

    cdef int _link(self, int32_t i) noexcept nogil:
        """Enter object i into the cells of its range (or the large list). All or nothing."""
        cdef CellRange cells = self.range[i]
        cdef int32_t cols = cells.x1 - cells.x0 + 1, rows = cells.y1 - cells.y0 + 1
        cdef int32_t block, k = 0, cx, cy, bucket, slot
        if self._is_large_range(&cells):
            self.large_slot[i] = <int32_t>self.n_large
            self.large[self.n_large] = i
            self.n_large += 1
            self.mem[i] = -1
            return 0
        block = self._mem_alloc(cols * rows)
        if block < 0:
            return -1
        self.mem[i] = block
        self.large_slot[i] = -1
        for cy in range(cells.y0, cells.y1 + 1):
            for cx in range(cells.x0, cells.x1 + 1):
                bucket = self._bucket_for(cx, cy)
                slot = -1 if bucket < 0 else self._bucket_push(bucket, i, member_of(block, k, cols))
                if slot < 0:
                    self._unlink_members(i, k)
                    self._mem_release(block, cols * rows)
                    self.mem[i] = -1
                    return -1
                self.mem_bucket[block + k] = bucket
                self.mem_slot[block + k] = slot
                k += 1
        return 0

    cdef int _relink(self, int32_t i, const CellRange* new_cells) noexcept nogil:
        """Move small object i to the small range new_cells, touching only the
        cells it leaves or enters. All or nothing: every step that can fail comes
        first."""
        cdef CellRange old_cells = self.range[i]
        cdef int32_t old_cols = old_cells.x1 - old_cells.x0 + 1
        cdef int32_t new_cols = new_cells.x1 - new_cells.x0 + 1
        cdef int32_t old_count = old_cols * (old_cells.y1 - old_cells.y0 + 1)
        cdef int32_t new_count = new_cols * (new_cells.y1 - new_cells.y0 + 1)
        # The scratch holds five arrays, each with room for the most cells a small
        # object covers.
        cdef int32_t most_cells = self.large_threshold * self.large_threshold
        cdef int32_t* old_bucket = self.scratch
        cdef int32_t* old_slot = self.scratch + most_cells
        cdef int32_t* new_bucket = self.scratch + 2 * most_cells
        cdef int32_t* new_slot = self.scratch + 3 * most_cells
        cdef int32_t* pushed = self.scratch + 4 * most_cells
        cdef int32_t old_block = self.mem[i], block = old_block, n_pushed = 0
        cdef int32_t k, cx, cy, bucket, slot, shared
        cdef Entry* entries
        for k in range(old_count):
            old_bucket[k] = self.mem_bucket[old_block + k]
            old_slot[k] = self.mem_slot[old_block + k]
        if new_count != old_count:
            block = self._mem_alloc(new_count)
            if block < 0:
                return -1
        # 1. Enter the cells only the new range covers (the only step that can fail).
        for k in range(new_count):
            cx = new_cells.x0 + k % new_cols
            cy = new_cells.y0 + k // new_cols
            if old_cells.x0 <= cx <= old_cells.x1 and old_cells.y0 <= cy <= old_cells.y1:
                continue
            bucket = self._bucket_for(cx, cy)
            slot = -1 if bucket < 0 else self._bucket_push(bucket, i, member_of(block, k, new_cols))
            if slot < 0:
                while n_pushed > 0:
                    n_pushed -= 1
                    self._bucket_remove(new_bucket[pushed[n_pushed]], new_slot[pushed[n_pushed]])
                if block != old_block:
                    self._mem_release(block, new_count)
                return -1
            new_bucket[k] = bucket
            new_slot[k] = slot
            pushed[n_pushed] = k
            n_pushed += 1
        # 2. Leave the cells only the old range covers. Each bucket holds at most one
        # entry of object i, so these removals never move i's other entries.
        for k in range(old_count):
            cx = old_cells.x0 + k % old_cols
            cy = old_cells.y0 + k // old_cols
            if not (new_cells.x0 <= cx <= new_cells.x1 and new_cells.y0 <= cy <= new_cells.y1):
                self._bucket_remove(old_bucket[k], old_slot[k])
        # 3. Keep the shared cells, renumbering their entries for the new block.
        for k in range(new_count):
            cx = new_cells.x0 + k % new_cols
            cy = new_cells.y0 + k // new_cols
            if old_cells.x0 <= cx <= old_cells.x1 and old_cells.y0 <= cy <= old_cells.y1:
                shared = (cy - old_cells.y0) * old_cols + (cx - old_cells.x0)
                bucket = old_bucket[shared]
                slot = old_slot[shared]
                entries = entries_of(&self.buckets[bucket])
                entries[slot].member = member_of(block, k, new_cols)
                new_bucket[k] = bucket
                new_slot[k] = slot
        for k in range(new_count):
            self.mem_bucket[block + k] = new_bucket[k]
            self.mem_slot[block + k] = new_slot[k]
        if block != old_block:
            self._mem_release(old_block, old_count)
            self.mem[i] = block
        self.range[i] = new_cells[0]
        return 0

    cdef void _unlink(self, int32_t i) noexcept nogil:
        cdef int32_t slot, last, count
        cdef CellRange cells
        if self.mem[i] < 0:
            slot = self.large_slot[i]
            self.n_large -= 1
            last = self.large[self.n_large]
            self.large[slot] = last
            self.large_slot[last] = slot
            self.large_slot[i] = -1
            return
        cells = self.range[i]
        count = (cells.x1 - cells.x0 + 1) * (cells.y1 - cells.y0 + 1)
        self._unlink_members(i, count)
        self._mem_release(self.mem[i], count)
        self.mem[i] = -1

    # ------------------------------------------------------------- queries

    cdef inline void _visit_cell(self, const Query* q, int32_t cx, int32_t cy,
                                 uint32_t stamp) noexcept nogil:
        cdef int32_t bucket = table_find(&self.table, cell_key(cx, cy)), j
        cdef Entry* entries
        if bucket < 0:
            return
        entries = entries_of(&self.buckets[bucket])
        for j in range(self.buckets[bucket].n):
            self._offer(q, entries[j].obj, stamp)

    cdef inline void _visit_first_meetings(self, const Query* q, int32_t bucket,
                                           uint32_t edge) noexcept nogil:
        """Offer the objects of the bucket (a cell of a rectangle of cells) for which
        it is the first cell (lowest column, then row) they share with the
        rectangle: `edge` has bit 0 set unless the cell is in the rectangle's first
        column, bit 1 unless in its first row, and such a cell must then be the
        object's own first column or row. So each object is met once, with no
        stamps to read or write."""
        cdef Entry* entries = entries_of(&self.buckets[bucket])
        cdef int32_t j
        for j in range(self.buckets[bucket].n):
            if entries[j].member & edge == edge:
                self._take(q, entries[j].obj)

    cdef void _visit_rectangle(self, const Query* q) noexcept nogil:
        """Visit the cells of q's rectangle of cells. A small rectangle's table
        slots, then its buckets, are fetched all at once before they are read:
        a query's cells lie scattered in memory."""
        cdef const CellRange* cells = &q.cells
        cdef int32_t cx, cy, bucket
        cdef int32_t found[PREFETCHED_CELLS]
        cdef Py_ssize_t k = 0
        cdef bint small = (<int64_t>cells.x1 - cells.x0 + 1) * (<int64_t>cells.y1 - cells.y0 + 1) \
            <= PREFETCHED_CELLS
        if small:
            for cy in range(cells.y0, cells.y1 + 1):
                for cx in range(cells.x0, cells.x1 + 1):
                    prefetch(&self.table.slots[table_home(&self.table, cell_key(cx, cy))])
            for cy in range(cells.y0, cells.y1 + 1):
                for cx in range(cells.x0, cells.x1 + 1):
                    bucket = table_find(&self.table, cell_key(cx, cy))
                    found[k] = bucket
                    k += 1
                    if bucket >= 0:
                        prefetch(&self.buckets[bucket])
                        prefetch(<char*>&self.buckets[bucket] + sizeof(Bucket) - 1)
            k = 0
        for cy in range(cells.y0, cells.y1 + 1):
            for cx in range(cells.x0, cells.x1 + 1):
                if small:
                    bucket = found[k]
                    k += 1
                else:
                    bucket = table_find(&self.table, cell_key(cx, cy))
                if bucket >= 0:
                    self._visit_first_meetings(q, bucket, (cx != cells.x0) | ((cy != cells.y0) << 1))

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
        cdef const CellRange* cells = &q.cells
        cdef int32_t i
        cdef Py_ssize_t j
        self.out_n = 0
        if not scan_beats_visit(<double>cells.x1 - cells.x0 + 1.0, <double>cells.y1 - cells.y0 + 1.0,
                                self.n_live):
            if q.kind == Q_SWEPT:
                self._walk_swept_cells(q, self._next_stamp())
            else:
                self._visit_rectangle(q)
        else:
            for i in range(<int32_t>self.obj_hi):
                if self.body[i].kind != SHAPE_FREE and self.large_slot[i] < 0 \
                        and ranges_meet(&self.range[i], cells):
                    self._take(q, i)
        for j in range(self.n_large):
            i = self.large[j]
            if ranges_meet(&self.range[i], cells):
                self._take(q, i)

    # --------------------------------------------------------------- pairs

    cdef int _find_pairs(self) noexcept nogil:
        """Every overlapping pair once (every pair tested, if keep_candidates)
        into `found`; -1 if out of memory."""
        cdef Py_ssize_t bi, li, j
        cdef int32_t n, u, v, a, c, big
        cdef uint32_t edge
        cdef Entry* e
        cdef Entry* ahead
        cdef Py_ssize_t cell_pairs = 0, checks = 0, hits = 0, kept = 0
        cdef bint touch, keep_all = self.keep_candidates
        cdef int32_t* pairs
        cdef Query q
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
                self.found.n = kept
                if pair_room(&self.found, n - 1 - u) < 0:
                    return -1
                pairs = self.found.ids
                a = e[u].obj
                edge = e[u].member & 3
                for v in range(u + 1, n):
                    # A pair sharing several cells is tested only in the first one they
                    # share: the cell where one of them starts its column and one its row.
                    if (edge | (e[v].member & 3)) != 3:
                        continue
                    c = e[v].obj
                    checks += 1
                    touch = bodies_touch(&self.body[a], &self.body[c])
                    hits += touch
                    put_pair(pairs + 2 * kept, a, c)
                    kept += touch | keep_all
        # Large objects: test each against what shares its cells, and against the
        # large objects after it on the list.
        q.kind = Q_CELLS
        for li in range(self.n_large):
            big = self.large[li]
            q.cells = self.range[big]
            self._collect(&q)
            self.found.n = kept
            if pair_room(&self.found, self.out_n) < 0:
                return -1
            pairs = self.found.ids
            for j in range(self.out_n):
                c = self.out[j]
                if c == big or 0 <= self.large_slot[c] <= li:
                    continue
                cell_pairs += 1
                checks += 1
                touch = bodies_touch(&self.body[big], &self.body[c])
                hits += touch
                put_pair(pairs + 2 * kept, big, c)
                kept += touch | keep_all
        self.found.n = kept
        self.broad_phase_pairs = cell_pairs
        self.narrow_phase_checks = checks
        self.hits = hits
        return 0

    # ------------------------------------------------------------- validation

    cdef int _validate_placement(self) except -1:
        """Each object's cell range matches its box; each small object's block of
        memberships names, cell by cell, a bucket slot holding exactly that
        membership; buckets, the cell table, the large list and every free list
        account for each other, and every membership belongs to one block."""
        cdef Py_ssize_t i, k, b, slot, size, blocks, members = 0, large = 0
        cdef Py_ssize_t entries = 0, active = 0, kept = 0, free_buckets = 0, filled = 0
        cdef int32_t block, columns, cx, cy
        cdef uint32_t expected
        cdef CellRange r
        cdef Bucket* bucket
        cdef Entry e
        cdef bytearray covered = bytearray(self.mem_n), freed
        if not (self.mem_n <= self.mem_cap <= self.mem_bucket_cap and 0 <= self.n_large <= self.obj_cap):
            self._broken(f"membership counts: {self.mem_n} used, capacity {self.mem_cap}")
        for i in range(self.obj_hi):
            if not self.live[i]:
                continue
            if range_of(&self.body[i].box, self.origin_x, self.origin_y, self.cell_size, &r) != INPUT_OK:
                self._broken(f"id {i}: its box {self.body[i].box} has no cell range")
            if memcmp(&r, &self.range[i], sizeof(CellRange)) != 0:
                self._broken(f"id {i} is kept over cells {self.range[i]} but its box covers {r}")
            if self._is_large_range(&r):
                if self.mem[i] != -1 or not 0 <= self.large_slot[i] < self.n_large \
                        or self.large[self.large_slot[i]] != i:
                    self._broken(f"large id {i}: block {self.mem[i]}, large-list slot {self.large_slot[i]}")
                large += 1
                continue
            columns = r.x1 - r.x0 + 1
            size = columns * (r.y1 - r.y0 + 1)
            block = self.mem[i]
            if self.large_slot[i] != -1 or not 0 <= block <= self.mem_n - size:
                self._broken(f"id {i}: block {block} of {size} memberships (of {self.mem_n}), "
                             f"large-list slot {self.large_slot[i]}")
            for k in range(size):
                if covered[block + k]:
                    self._broken(f"membership {block + k} of id {i} also belongs to another block")
                covered[block + k] = 1
                cx = r.x0 + <int32_t>(k % columns)
                cy = r.y0 + <int32_t>(k // columns)
                b = self.mem_bucket[block + k]
                slot = self.mem_slot[block + k]
                if not (0 <= b < self.n_buckets and 0 <= slot < self.buckets[b].n):
                    self._broken(f"id {i}: membership {block + k} points at slot {slot} of bucket {b}")
                bucket = &self.buckets[b]
                if bucket.cx != cx or bucket.cy != cy:
                    self._broken(f"id {i}: its membership for cell ({cx}, {cy}) is in the bucket "
                                 f"of cell ({bucket.cx}, {bucket.cy})")
                e = entries_of(bucket)[slot]
                expected = member_of(block, <int32_t>k, columns)
                if e.obj != i or e.member != expected:
                    self._broken(f"cell ({cx}, {cy}) slot {slot} holds (id {e.obj}, membership "
                                 f"{e.member >> 2}, edges {e.member & 3}) instead of (id {i}, "
                                 f"membership {expected >> 2}, edges {expected & 3})")
            members += size
        if large != self.n_large:
            self._broken(f"{large} large objects but the large list holds {self.n_large}")
        for b in range(self.n_buckets):
            bucket = &self.buckets[b]
            if bucket.n == -1:
                free_buckets += 1
                continue
            if not (0 <= bucket.n <= bucket.cap and bucket.cap >= LOCAL_ENTRIES) \
                    or (bucket.cap > LOCAL_ENTRIES and bucket.heap == NULL):
                self._broken(f"bucket {b} of cell ({bucket.cx}, {bucket.cy}): {bucket.n} entries, "
                             f"room for {bucket.cap}")
            entries += bucket.n
            active += bucket.n > 0
            kept += 1
            if table_find(&self.table, cell_key(bucket.cx, bucket.cy)) != b:
                self._broken(f"bucket {b} of cell ({bucket.cx}, {bucket.cy}) is not found by its cell")
        if entries != members:
            self._broken(f"{entries} bucket entries for {members} memberships")
        if active != self.n_active:
            self._broken(f"{active} occupied cells but n_active is {self.n_active}")
        for k in range(self.table.mask + 1):
            b = self.table.slots[k].val
            if b < 0:
                continue
            filled += 1
            if b >= self.n_buckets or self.buckets[b].n < 0 \
                    or self.table.slots[k].key != cell_key(self.buckets[b].cx, self.buckets[b].cy):
                self._broken(f"cell table slot {k} maps key {self.table.slots[k].key} to bucket {b}")
        if filled != kept or filled != self.table.count or 2 * filled > self.table.mask + 1:
            self._broken(f"the cell table holds {filled} cells (count {self.table.count}, "
                         f"{self.table.mask + 1} slots) for {kept} buckets in use")
        freed = bytearray(self.n_buckets)
        for k in range(self.n_bucket_free):
            b = self.bucket_free[k]
            if not 0 <= b < self.n_buckets or self.buckets[b].n != -1 or freed[b]:
                self._broken(f"bucket_free[{k}] = {b} is not a distinct free bucket")
            freed[b] = 1
        if self.n_bucket_free != free_buckets:
            self._broken(f"{free_buckets} free buckets but {self.n_bucket_free} on the free list")
        if self.mem_free[0] != -1:
            self._broken("a free list of empty membership blocks")
        for size in range(1, self.large_threshold * self.large_threshold + 1):
            block = self.mem_free[size]
            while block >= 0:
                if block > self.mem_n - size:
                    self._broken(f"free block {block} of {size} memberships ends past {self.mem_n}")
                for k in range(size):
                    if covered[block + k]:
                        self._broken(f"free block {block} of {size} memberships overlaps another block")
                    covered[block + k] = 1
                block = self.mem_slot[block]
        if covered.count(0):
            self._broken(f"membership {covered.index(0)} belongs to no block, live or free")
        return 0

    cdef bint _corrupt_placement(self, str what):
        cdef Py_ssize_t i, b
        cdef int32_t small = -1
        for i in range(self.obj_hi):
            if self.live[i] and self.mem[i] >= 0:
                small = <int32_t>i
                break
        for b in range(self.n_buckets):
            if self.buckets[b].n > 0:
                break
        else:
            return False
        if what == "bucket_entry":
            entries_of(&self.buckets[b])[0].obj += 1
        elif what == "membership_slot" and small >= 0:
            self.mem_slot[self.mem[small]] += 1
        elif what == "cell_record":
            self.buckets[b].cx += 1
        elif what == "cell_range" and small >= 0:
            self.range[small].x1 += 1
        elif what == "cell_table":
            table_delete(&self.table, cell_key(self.buckets[b].cx, self.buckets[b].cy))
        elif what == "active_cells":
            self.n_active += 1
        elif what == "large_list" and self.n_large:
            self.n_large -= 1
        elif what == "bucket_free_list":
            self.bucket_free[self.n_bucket_free] = <int32_t>b
            self.n_bucket_free += 1
        elif what == "membership_free_list" and small >= 0:
            i = (self.range[small].x1 - self.range[small].x0 + 1) \
                * (self.range[small].y1 - self.range[small].y0 + 1)
            self.mem_free[i] = self.mem[small]
        else:
            return False
        return True

    # --------------------------------------------------------------- extras

    def cells_of(self, object_id):
        """(cx0, cy0, cx1, cy1): the inclusive range of cells (ints) an object's box
        covers. Raises KeyError for an unknown id, RuntimeError if another thread's
        call holds the index."""
        self._idle()
        cdef CellRange r = self.range[self._check_id(object_id)]
        return (r.x0, r.y0, r.x1, r.y1)

    def is_large(self, object_id):
        """True if the object lives on the large-object list instead of in cells.
        Raises KeyError for an unknown id, RuntimeError if another thread's call
        holds the index."""
        self._idle()
        return self.large_slot[self._check_id(object_id)] >= 0

    def cell_of(self, x, y):
        """The cell (cx, cy), as ints, containing the point (x, y) in world units.
        Raises ValueError naming x or y if it is not a finite number or lies past
        2**30 cells from the origin."""
        cdef Box point
        cdef CellRange cell
        point.minx = point.maxx = check_finite(x, "x")
        point.miny = point.maxy = check_finite(y, "y")
        code = range_of(&point, self.origin_x, self.origin_y, self.cell_size, &cell)
        if code:
            raise input_error(code, "", point.minx, point.miny, 0.0, 0.0, self.cell_size)
        return (cell.x0, cell.y0)

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
        """{(cx, cy): number of objects} for every cell holding at least one; large
        objects are not counted. Raises RuntimeError if another thread's call holds
        the index."""
        cdef Py_ssize_t i
        self._claim()       # the dict grows as it is read: Python code can run meanwhile
        try:
            return {(self.buckets[i].cx, self.buckets[i].cy): self.buckets[i].n
                    for i in range(self.n_buckets) if self.buckets[i].n > 0}
        finally:
            self.busy = False
