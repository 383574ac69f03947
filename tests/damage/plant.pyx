# cython: language_level=3
"""Planted damage for the tests of validate(): each kind breaks one invariant
of an index by writing its memory through the core's declared interface
(spatial_hash/_core.pxd), which the release build carries no hook for."""
from libc.stdint cimport int32_t, uint64_t
from spatial_hash._core cimport HierarchicalGrid, Level, Shape, SpatialIndex, UniformGrid, _CellLists


cdef bint damage_lists(_CellLists grid, Level* L, str what):
    """One kind of damage to L's lists and members; False if `what` is not one."""
    cdef int32_t i
    if L.n == 0:
        return False
    i = L.members[0]
    if what == "level_members":
        L.members[0] = <int32_t>grid.obj_hi
    elif what == "member_slot":
        grid.slot[i] += 1
    elif what == "cell_of":
        grid.home[i] ^= 1
    elif what == "cell_list":
        grid.next[i] = i
    elif what == "occupied":
        L.occupied[grid.home[i] >> 6] ^= (<uint64_t>1) << (grid.home[i] & 63)
    elif what == "level_count":
        L.n -= 1
    else:
        return False
    return True


cdef bint damage_uniform(UniformGrid grid, str what):
    cdef int32_t small = grid.table.members[0] if grid.table.n else -1
    if what == "cell_range" and small >= 0:
        grid.range[small].x1 += 1
    elif what == "large_list" and grid.n_large:
        grid.n_large -= 1
    elif what == "spans" and small >= 0:
        grid.span_x = grid.span_y = -1
    elif what == "table_side":
        grid.min_wbits = grid.table.wbits + 1
    else:
        return damage_lists(grid, &grid.table, what)
    return True


cdef bint is_point(const Shape* s):
    return s.p2 == 0.0 if s.p3 != s.p3 else (s.p2 == s.p0 and s.p3 == s.p1)


cdef bint damage_hierarchical(HierarchicalGrid grid, str what):
    cdef Py_ssize_t li, i
    if what == "point_level":
        for i in range(grid.obj_hi):
            if grid.live[i] and is_point(&grid.body[i]):
                grid.has_point_level = True
                grid.point_exponent = grid.levels[grid.level_of[i]].exponent + 1
                return True
        return False
    cdef Level* L
    cdef const Shape* s
    for li in range(grid.n_levels):
        if grid.levels[li].n:
            break
    else:
        return False
    L = &grid.levels[li]
    s = &grid.body[L.members[0]]
    if what == "level_order" and grid.n_levels > 1:
        grid.order[0], grid.order[1] = grid.order[1], grid.order[0]
    elif what == "reach" and (2.0 * s.p2 if s.p3 != s.p3 else max(s.p2 - s.p0, s.p3 - s.p1)) > 0.0:
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
        for i in range(index.obj_hi):
            if index.live[i]:
                index.live[i] = 0
                return
    elif what == "filter_count":
        index.n_filtered += 1
        return
    elif what == "free_ids" and index.n_free:
        for i in range(index.obj_hi):
            if index.live[i]:
                index.free_ids[0] = <int32_t>i
                return
    elif isinstance(index, UniformGrid) and damage_uniform(index, what):
        return
    elif isinstance(index, HierarchicalGrid) and damage_hierarchical(index, what):
        return
    raise ValueError(f"cannot damage {what!r} in {index!r}")


def pairs_held(SpatialIndex index):
    """How many pairs the index's pair list holds (the last pair pass's)."""
    return index.found.n
