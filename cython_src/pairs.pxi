# The pair output both grids' pair passes write: a growable array of id pairs,
# the smaller id first. A pass makes room for a run of candidates at once, then
# writes each one and keeps it by advancing the count, so whether a candidate
# touches decides no branch.


cdef inline int pair_room(PairList* pairs, Py_ssize_t more) noexcept nogil:
    """Room for `more` pairs past the kept ones; -1 if out of memory."""
    if 2 * (pairs.n + more) <= pairs.cap:
        return 0
    return grow_array(<void**>&pairs.ids, &pairs.cap, 2 * (pairs.n + more), sizeof(int32_t))


cdef inline void put_pair(int32_t* at, int32_t a, int32_t b) noexcept nogil:
    """Write the pair (a, b) at `at`, the smaller id first."""
    at[0] = a if a < b else b
    at[1] = b if a < b else a
