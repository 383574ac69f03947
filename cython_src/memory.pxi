# The core's own arrays: grown in place (all or nothing), the large ones on
# blocks of their own.


# memcpy, memset and qsort take no null pointer even for nothing to do, and an
# array that never held an item has none: these do nothing for nothing.
cdef inline void copy_bytes(void* dest, const void* source, size_t n) noexcept nogil:
    if n:
        memcpy(dest, source, n)


cdef inline void clear_bytes(void* dest, size_t n) noexcept nogil:
    if n:
        memset(dest, 0, n)


cdef inline void sort_items(void* items, size_t n, size_t size,
                            int (*order)(const void*, const void*) noexcept nogil) noexcept nogil:
    if n > 1:
        qsort(items, n, size, order)


cdef extern from *:
    """
    /* A block for a large array, on huge pages where the system gives them on
       request (Linux's usual setting): objects sit in such arrays in id order
       and are read in cell order, one scattered read each, and with 4 KB pages
       nearly each of those also misses the TLB. free() releases it. */
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    static void* large_block(size_t bytes) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        const size_t huge = (size_t)2 << 20;
        void* p = NULL;
        if (posix_memalign(&p, huge, bytes) != 0)
            return NULL;
        madvise(p, bytes & ~(size_t)4095, MADV_HUGEPAGE);
        return p;
    #else
        return malloc(bytes);
    #endif
    }
    """
    void* large_block(size_t bytes) noexcept nogil


cdef enum:
    # Arrays of this many bytes and more get a block of their own (large_block).
    LARGE_ARRAY = 8 << 20


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
    if new_cap * item >= LARGE_ARRAY:
        p = large_block(new_cap * item)
        if p == NULL:
            return -1
        if cap[0]:
            memcpy(p, ptr[0], cap[0] * item)
        free(ptr[0])
    else:
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


cdef int grow_zeroed(void** ptr, Py_ssize_t old_cap, Py_ssize_t new_cap, size_t item) noexcept nogil:
    """grow_to for an array whose new items start at zero: a zeroed block
    (whose pages the system maps on first use, so items never written cost no
    memory), then the old items copied; -1 if out of memory."""
    cdef void* p = calloc(new_cap, item)
    if p == NULL:
        return -1
    if old_cap:
        memcpy(p, ptr[0], old_cap * item)
    free(ptr[0])
    ptr[0] = p
    return 0


cdef int reserve_objects(SpatialIndexD index, Py_ssize_t need) noexcept nogil:
    """Room for ids below `need` in every per-object array, the grid's own
    included (_grow_objects), growing them together; -1 if out of memory."""
    cdef Py_ssize_t cap = index.state.obj_cap, new_cap
    if need <= cap:
        return 0
    if need > 2147483647:
        return -1
    new_cap = cap * 2 if cap * 2 > need else need
    if new_cap < 64:
        new_cap = 64
    # Every array grows to new_cap; obj_cap moves only once all of them have.
    if grow_to(<void**>&index.state.body, cap, new_cap, sizeof(Shape)) < 0 \
            or grow_zeroed(<void**>&index.state.generation, cap, new_cap, sizeof(uint32_t)) < 0 \
            or grow_to(<void**>&index.state.live, cap, new_cap, sizeof(uint8_t)) < 0 \
            or (index.state.filter != NULL
                and grow_to(<void**>&index.state.filter, cap, new_cap, sizeof(Filter)) < 0) \
            or grow_to(<void**>&index.state.free_ids, cap, new_cap, sizeof(int32_t)) < 0 \
            or grow_zeroed(<void**>&index.state.marks, cap, new_cap, sizeof(uint8_t)) < 0 \
            or grow_to(<void**>&index.state.changed, cap, new_cap, sizeof(int32_t)) < 0 \
            or grow_array(<void**>&index.state.out, &index.state.out_cap, new_cap, sizeof(int32_t)) < 0 \
            or _grow_objects(index, cap, new_cap) < 0:
        return -1
    memset(index.state.live + cap, 0, new_cap - cap)
    memset(index.state.body + cap, 0, (new_cap - cap) * sizeof(Shape))
    if index.state.filter != NULL:
        default_filters(index.state.filter + cap, new_cap - cap)
    index.state.obj_cap = new_cap
    return 0


cdef int own_filters(SpatialIndexD index, Py_ssize_t need) noexcept nogil:
    """reserve_objects(need), and the array of the objects' filters, made (every
    one the default) the first time an object may be given another: until
    then the index keeps none (filter_of_id). -1 if out of memory."""
    if reserve_objects(index, need) < 0:
        return -1
    if index.state.filter == NULL:
        if grow_to(<void**>&index.state.filter, 0, index.state.obj_cap, sizeof(Filter)) < 0:
            return -1
        default_filters(index.state.filter, index.state.obj_cap)
    return 0
