# Hash table from integer cell coordinates to bucket indices: open addressing with
# linear probing and backward-shift deletion (no tombstones), keyed by the full
# (cx, cy) pair so two cells never merge.

ctypedef struct CellSlot:
    int64_t key
    int32_t val         # bucket index; -1 marks an empty slot
    int32_t unused

ctypedef struct CellTable:
    CellSlot* slots
    int bits
    Py_ssize_t mask
    Py_ssize_t count


cdef inline int64_t cell_key(int32_t cx, int32_t cy) noexcept nogil:
    return (<int64_t>cx << 32) | <int64_t>(<uint32_t>cy)


cdef inline Py_ssize_t table_home(const CellTable* t, int64_t key) noexcept nogil:
    # Fibonacci hashing: the multiply spreads neighbouring cells over the whole table.
    return <Py_ssize_t>((<uint64_t>key * <uint64_t>0x9E3779B97F4A7C15ULL) >> (64 - t.bits))


cdef int table_init(CellTable* t, int bits) noexcept nogil:
    cdef Py_ssize_t n = (<Py_ssize_t>1) << bits
    cdef CellSlot* slots = <CellSlot*>malloc(n * sizeof(CellSlot))
    if slots == NULL:
        return -1
    memset(slots, 0xFF, n * sizeof(CellSlot))
    t.slots = slots
    t.bits = bits
    t.mask = n - 1
    t.count = 0
    return 0


cdef void table_free(CellTable* t) noexcept nogil:
    free(t.slots)
    t.slots = NULL


cdef void table_clear(CellTable* t) noexcept nogil:
    memset(t.slots, 0xFF, (t.mask + 1) * sizeof(CellSlot))
    t.count = 0


cdef inline int32_t table_find(const CellTable* t, int64_t key) noexcept nogil:
    cdef Py_ssize_t i = table_home(t, key)
    cdef int32_t v
    while True:
        v = t.slots[i].val
        if v < 0:
            return -1
        if t.slots[i].key == key:
            return v
        i = (i + 1) & t.mask


cdef inline void table_put(CellTable* t, int64_t key, int32_t val) noexcept nogil:
    """Add a key known to be absent; room must have been reserved."""
    cdef Py_ssize_t i = table_home(t, key)
    while t.slots[i].val >= 0:
        i = (i + 1) & t.mask
    t.slots[i].key = key
    t.slots[i].val = val
    t.count += 1


cdef int table_reserve(CellTable* t, Py_ssize_t extra) noexcept nogil:
    """Keep the load factor at or below 1/2 after `extra` more keys."""
    cdef Py_ssize_t need = t.count + extra, i
    cdef int bits = t.bits
    cdef CellTable bigger
    if need * 2 <= t.mask + 1:
        return 0
    while need * 2 > ((<Py_ssize_t>1) << bits):
        bits += 1
    if table_init(&bigger, bits) < 0:
        return -1
    for i in range(t.mask + 1):
        if t.slots[i].val >= 0:
            table_put(&bigger, t.slots[i].key, t.slots[i].val)
    table_free(t)
    t[0] = bigger
    return 0


cdef void table_delete(CellTable* t, int64_t key) noexcept nogil:
    """Remove a key known to be present."""
    cdef Py_ssize_t i = table_home(t, key), j, home
    while t.slots[i].key != key or t.slots[i].val < 0:
        i = (i + 1) & t.mask
    j = i
    while True:
        j = (j + 1) & t.mask
        if t.slots[j].val < 0:
            break
        home = table_home(t, t.slots[j].key)
        # The entry at j may fill the hole at i only if i lies on its probe path.
        if ((j - home) & t.mask) >= ((j - i) & t.mask):
            t.slots[i] = t.slots[j]
            i = j
    t.slots[i].val = -1
    t.count -= 1


cdef Py_ssize_t table_longest_probe(const CellTable* t) noexcept nogil:
    cdef Py_ssize_t i, dist, worst = 0
    for i in range(t.mask + 1):
        if t.slots[i].val >= 0:
            dist = ((i - table_home(t, t.slots[i].key)) & t.mask) + 1
            if dist > worst:
                worst = dist
    return worst
