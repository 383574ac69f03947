# The damage itself, written once for both dimensions: plant.pyx and
# plant3d.pyx cimport their core's classes under the names used here.


cdef bint damage_lists(SpatialIndex grid, Level* L, str what):
    """One kind of damage to L's lists and members; False if `what` is not one."""
    cdef int32_t i
    if L.n == 0:
        return False
    i = L.members[0]
    if what == "level_members":
        L.members[0] = <int32_t>grid.state.obj_hi
    elif what == "member_slot":
        grid.state.slot[i] += 1
    elif what == "cell_of":
        grid.state.home[i] ^= 1
    elif what == "cell_list":
        grid.state.next[i] = i
    elif what == "occupied":
        L.occupied[grid.state.home[i] >> 6] ^= (<uint64_t>1) << (grid.state.home[i] & 63)
    elif what == "level_count":
        L.n -= 1
    else:
        return False
    return True


cdef bint damage_uniform(UniformGrid grid, str what):
    cdef int32_t small = grid.cells.table.members[0] if grid.cells.table.n else -1
    cdef int a
    if what == "cell_range" and small >= 0:
        grid.cells.range[small].hi[0] += 1
    elif what == "large_list" and grid.cells.n_large:
        grid.cells.n_large -= 1
    elif what == "spans" and small >= 0:
        for a in range(D):
            grid.cells.span[a] = -1
    elif what == "table_side":
        grid.cells.min_wbits = grid.cells.table.wbits + 1
    else:
        return damage_lists(grid, &grid.cells.table, what)
    return True


cdef bint is_point(const Shape* s):
    cdef int a
    if s.p[2 * D - 1] != s.p[2 * D - 1]:       # a circle (sphere): its radius
        return s.p[D] == 0.0
    for a in range(D):
        if s.p[D + a] != s.p[a]:
            return False
    return True


cdef double longest(const Shape* s):
    cdef int a
    cdef double side = 0.0
    if s.p[2 * D - 1] != s.p[2 * D - 1]:
        return 2.0 * s.p[D]
    for a in range(D):
        side = max(side, s.p[D + a] - s.p[a])
    return side


cdef bint damage_hierarchical(HierarchicalGrid grid, str what):
    cdef Py_ssize_t li, i
    if what == "point_level":
        for i in range(grid.state.obj_hi):
            if grid.state.live[i] and is_point(&grid.state.body[i]):
                grid.hierarchy.has_point_level = True
                grid.hierarchy.point_exponent = grid.hierarchy.levels[grid.hierarchy.level_of[i]].exponent + 1
                return True
        return False
    cdef Level* L
    cdef const Shape* s
    for li in range(grid.hierarchy.n_levels):
        if grid.hierarchy.levels[li].n:
            break
    else:
        return False
    L = &grid.hierarchy.levels[li]
    s = &grid.state.body[L.members[0]]
    if what == "level_order" and grid.hierarchy.n_levels > 1:
        grid.hierarchy.order[0], grid.hierarchy.order[1] = grid.hierarchy.order[1], grid.hierarchy.order[0]
    elif what == "reach" and longest(s) > 0.0:
        L.reach = 0.0           # its first member, longer than 0, no longer fits
    elif what == "level_cell":
        L.cell *= 2.0
    else:
        return damage_lists(grid, L, what)
    return True


def damage(SpatialIndex index, str what):
    """Break the invariant `what` names in `index` (raises ValueError for a kind
    this index cannot have). The index is unusable afterwards."""
    cdef Py_ssize_t i
    if what == "live_flag":
        for i in range(index.state.obj_hi):
            if index.state.live[i]:
                index.state.live[i] = 0
                return
    elif what == "filter_count":
        index.state.n_filtered += 1
        return
    elif what == "free_ids" and index.state.n_free:
        for i in range(index.state.obj_hi):
            if index.state.live[i]:
                index.state.free_ids[0] = <int32_t>i
                return
    elif isinstance(index, UniformGrid) and damage_uniform(index, what):
        return
    elif isinstance(index, HierarchicalGrid) and damage_hierarchical(index, what):
        return
    raise ValueError(f"cannot damage {what!r} in {index!r}")


def pairs_held(SpatialIndex index):
    """How many pairs the index's pair list holds (the last pair pass's)."""
    return index.state.found.n
