# The check of every invariant that validate() makes: the ids, shapes,
# filters and free list every index keeps, the lists of a wrapped table of
# cells, and where each grid keeps each object. Each check raises
# AssertionError naming the first thing broken.


cdef int broken(object index, str what) except -1:
    raise AssertionError(f"{type(index).__name__} invariant broken: {what}")


cdef inline bint box_is_ordered(const Box* b) noexcept nogil:
    """Is the box's min corner at or below its max corner on every axis?"""
    cdef int a
    cdef bint ordered = True
    for a in range(D):
        ordered &= b.lo[a] <= b.hi[a]
    return ordered


cdef int validate_ids(SpatialIndexD index) except -1:
    """Live flags, bodies, handles and the free-id list agree."""
    cdef Py_ssize_t i, k, live = 0, filtered = 0
    cdef const Shape* b
    cdef const Filter* f
    cdef Box bounds
    cdef bytearray freed
    if not (0 <= index.state.n_live <= index.state.obj_hi <= index.state.obj_cap and 0 <= index.state.n_free):
        broken(index, f"counts: {index.state.n_live} live of {index.state.obj_hi} ids, "
                      f"capacity {index.state.obj_cap}")
    if index.state.n_live + index.state.n_free != index.state.obj_hi:
        broken(index, f"{index.state.n_live} live ids and {index.state.n_free} free ids, "
                      f"but {index.state.obj_hi} handed out")
    if len(index.handles) > index.state.obj_hi:
        broken(index, f"{len(index.handles)} handles for {index.state.obj_hi} ids")
    for k in range(index.state.named_cap):
        if index.state.named[k]:
            broken(index, f"the ids a batch named are still marked (word {k}: {index.state.named[k]:#x})")
    if index.state.out_cap < index.state.obj_cap or 2 * index.state.found.n > index.state.found.cap:
        broken(index, "an output buffer is smaller than what it must hold")
    for i in range(index.state.obj_cap):
        if index.state.live[i] > 1:
            broken(index, f"id {i}: live flag {index.state.live[i]}")
        if not index.state.live[i]:
            if i < len(index.handles) and index.handles[i] is not None:
                broken(index, f"id {i}: live flag 0 but it keeps the handle {index.handles[i]!r}")
            continue
        if i >= index.state.obj_hi:
            broken(index, f"id {i} is live but only {index.state.obj_hi} ids were handed out")
        live += 1
        b = &index.state.body[i]
        shape_box(b, &bounds)
        if not (box_is_ordered(&bounds) and (not shape_is_circle(b) or b.p[D] >= 0.0)):
            broken(index, f"id {i} has the shape {b[0]}")
    if live != index.state.n_live:
        broken(index, f"{live} ids have their live flag but n_live is {index.state.n_live}")
    for i in range(index.state.obj_cap):
        f = filter_of_id(index, i)
        if not index.state.live[i] and not is_default_filter(f):
            broken(index, f"free id {i} keeps the filter {f[0]}")
        filtered += not is_default_filter(f)
    if filtered != index.state.n_filtered:
        broken(index, f"{filtered} objects have a filter other than the default, "
                     f"but n_filtered is {index.state.n_filtered}")
    freed = bytearray(index.state.obj_hi)
    for k in range(index.state.n_free):
        i = index.state.free_ids[k]
        if not 0 <= i < index.state.obj_hi or index.state.live[i] or freed[i]:
            broken(index, f"free_ids[{k}] = {i} is not a distinct free id")
        freed[i] = 1
    return 0


cdef int check_lists(SpatialIndexD grid, const Level* L, str name) except -1:
    """L's table and members agree with its lists: every member is a live id
    whose slot names it, each cell's occupancy bit says whether its list is
    empty, every list links each of its objects both ways with home naming
    the cell and the object at home there, and the lists hold the members
    exactly once."""
    cdef Py_ssize_t k, c, i, listed = 0
    cdef int32_t before
    if not (INITIAL_WBITS <= L.wbits <= LARGEST_WBITS and L.mask == (1 << L.wbits) - 1) \
            or not 0 <= L.n <= L.cap or L.occupied[occupancy_words(L.wbits)] != 0:
        broken(grid, f"{name}: {1 << L.wbits} cells a side (mask {L.mask}), "
                     f"{L.n} members of {L.cap}")
    for k in range(L.n):
        i = L.members[k]
        if not (0 <= i < grid.state.obj_hi and grid.state.live[i]) or grid.state.slot[i] != k:
            broken(grid, f"{name} member {k} is id {i}")
    for c in range((<Py_ssize_t>1) << (D * L.wbits)):
        if is_occupied(L, c) != (L.head[c] >= 0):
            broken(grid, f"{name} cell {c}: occupied bit {is_occupied(L, c)}, "
                         f"first object {L.head[c]}")
        i = L.head[c]
        before = -1
        while i >= 0:
            if not (0 <= i < grid.state.obj_hi and grid.state.live[i]) or grid.state.home[i] != c \
                    or grid.state.prev[i] != before or not 0 <= grid.state.slot[i] < L.n \
                    or L.members[grid.state.slot[i]] != i or _home(grid, L, <int32_t>i) != c:
                broken(grid, f"{name} cell {c} lists id {i} after {before}")
            listed += 1
            if listed > L.n:
                broken(grid, f"{name}: its cells list more than its {L.n} members")
            before = <int32_t>i
            i = grid.state.next[i]
    if listed != L.n:
        broken(grid, f"{name}: its cells list {listed} of its {L.n} members")
    return 0


cdef int validate_uniform(UniformGridD grid) except -1:
    """The table's lists are consistent and wider than any window; each
    object's cell range matches its box, puts it in the table (at home at its
    min corner, within the spans) or on the large list, and every object is
    in exactly one of them."""
    cdef Py_ssize_t i, large = 0
    cdef int a
    cdef CellRange r
    cdef Box box
    cdef const Level* L = &grid.cells.table
    check_lists(grid, L, "the table")
    if L.wbits < grid.cells.min_wbits:
        broken(grid, f"the table is {1 << L.wbits} cells a side, narrower than a window "
                     f"of {2 * grid.large_threshold - 1}")
    for i in range(grid.state.obj_hi):
        if not grid.state.live[i]:
            continue
        shape_box(&grid.state.body[i], &box)
        if range_of(&box, grid.cells.origin, grid.cell_size, &r) != INPUT_OK:
            broken(grid, f"id {i}: its box {box} has no cell range")
        if memcmp(&r, &grid.cells.range[i], sizeof(CellRange)) != 0:
            broken(grid, f"id {i} is kept over cells {grid.cells.range[i]} but its box covers {r}")
        if uniform_is_large_range(grid, &r):
            if grid.state.home[i] != -1 or not 0 <= grid.state.slot[i] < grid.cells.n_large \
                    or grid.cells.large[grid.state.slot[i]] != i:
                broken(grid, f"large id {i}: cell {grid.state.home[i]}, large-list slot {grid.state.slot[i]}")
            large += 1
        elif grid.state.home[i] < 0 or not 0 <= grid.state.slot[i] < L.n \
                or L.members[grid.state.slot[i]] != i:
            broken(grid, f"id {i} over cells {r} is not in the table (cell {grid.state.home[i]}, "
                         f"slot {grid.state.slot[i]})")
        elif not uniform_within_spans(grid, &r):
            broken(grid, f"id {i} over cells {r} spans more than the spans "
                         f"{tuple([grid.cells.span[a] for a in range(D)])}")
    if large != grid.cells.n_large or L.n + grid.cells.n_large != grid.state.n_live:
        broken(grid, f"{large} large objects, {grid.cells.n_large} on the large list, {L.n} in "
                     f"the table, {grid.state.n_live} live")
    return 0


cdef int validate_hierarchical(HierarchicalGridD grid) except -1:
    """Levels are in ascending order, each with its cell size and consistent
    lists (check_lists); each live object is a member of one level
    and fits its cells, a point no finer than the points' level."""
    cdef Py_ssize_t r, li, k, i, total = 0
    cdef const Level* L
    cdef Box box
    cdef bytearray ranked = bytearray(grid.hierarchy.n_levels)
    for r in range(grid.hierarchy.n_levels):
        li = grid.hierarchy.order[r]
        if not 0 <= li < grid.hierarchy.n_levels or ranked[li] or \
                (r and grid.hierarchy.levels[grid.hierarchy.order[r - 1]].exponent >= grid.hierarchy.levels[li].exponent):
            broken(grid, f"order[{r}] = {li}: levels are not in ascending order of cell size")
        ranked[li] = 1
    for li in range(grid.hierarchy.n_levels):
        L = &grid.hierarchy.levels[li]
        if L.cell != hierarchical_cell_of_exponent(grid, L.exponent) or L.inv != 1.0 / L.cell:
            broken(grid, f"level {li}: cell {L.cell} (exponent {L.exponent})")
        check_lists(grid, L, f"level {li}")
        for k in range(L.n):
            if grid.hierarchy.level_of[L.members[k]] != li:
                broken(grid, f"level {li} member {k} is id {L.members[k]} of level "
                             f"{grid.hierarchy.level_of[L.members[k]]}")
        total += L.n
    if total != grid.state.n_live:
        broken(grid, f"the levels hold {total} members for {grid.state.n_live} live ids")
    for i in range(grid.state.obj_hi):
        if not grid.state.live[i]:
            continue
        li = grid.hierarchy.level_of[i]
        if not 0 <= li < grid.hierarchy.n_levels \
                or grid.hierarchy.levels[li].members[grid.state.slot[i]] != i:
            broken(grid, f"id {i}: level {li}, member slot {grid.state.slot[i]}")
        L = &grid.hierarchy.levels[li]
        shape_box(&grid.state.body[i], &box)
        if hierarchical_need(grid, &box) == 0.0 and grid.hierarchy.has_point_level \
                and L.exponent < grid.hierarchy.point_exponent:
            broken(grid, f"point {i} lives in level {li} (exponent {L.exponent}), not the "
                         f"points' level (exponent {grid.hierarchy.point_exponent})")
        if not (L.cell >= hierarchical_need(grid, &box) and farthest(&box) * L.inv < PRECISE_CELLS
                and longest_side(&box) <= L.reach):
            broken(grid, f"id {i} with box {box} does not fit the cells of "
                         f"level {li} (cell {L.cell}, reach {L.reach})")
    return 0


cdef int validate_pass_marks(SpatialIndexD index) except -1:
    """What the next pair pass relies on (changed_pairs.pxi): the changed
    list holds each id marked CHANGED once; while the last pairs will be reused,
    each of them is two live objects that still overlap and pass the pair
    rule (a pair of resting objects), each kept pair's objects marked KEPT
    and neither changed."""
    cdef Py_ssize_t i, k, p, marked = 0
    cdef int32_t a, b
    for i in range(index.state.obj_cap):
        marked += index.state.marks[i] & CHANGED
    for k in range(index.state.n_changed):
        i = index.state.changed[k]
        if not 0 <= i < index.state.obj_hi or not index.state.marks[i] & CHANGED:
            broken(index, f"changed[{k}] = {i} is not an id marked as changed")
    if marked != index.state.n_changed:
        broken(index, f"{marked} ids are marked as changed, but the list holds {index.state.n_changed}")
    if not index.state.pairs_fresh or index.state.too_many_changed:
        return 0        # the next pass is a full one: the last pairs are not used
    for p in range(index.state.found.n):
        a, b = index.state.found.ids[2 * p], index.state.found.ids[2 * p + 1]
        if not (0 <= a < b < index.state.obj_hi):
            broken(index, f"pair {p} is ({a}, {b})")
        if p < index.state.n_kept and (not index.state.marks[a] & KEPT or not index.state.marks[b] & KEPT):
            broken(index, f"kept pair ({a}, {b}) has an object not marked as kept")
        if (index.state.marks[a] | index.state.marks[b]) & CHANGED:
            continue        # the next pass drops it
        if not (index.state.live[a] and index.state.live[b]
                and filters_pass(filter_of_id(index, a), filter_of_id(index, b))
                and shapes_meet(&index.state.body[a], &index.state.body[b])):
            broken(index, f"the resting objects {a} and {b} are kept as a pair but do not form one")
    return 0
