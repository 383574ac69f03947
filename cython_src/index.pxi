# The calls on a whole index: copy_into, validate.


def copy_into(SpatialIndexD self, SpatialIndexD target not None):
    """Put every object of this index into an empty one, under the same ids.

    Each object keeps its id, handle, filter and static mark; the next inserts
    get the same ids from both, and the pair events go on from this index's last
    call. This is how an index is rebuilt with another cell size, large-object
    threshold or kind. All or nothing.

    Parameters
    ----------
    target : $Index
        An empty index of any kind and settings.

    Raises
    ------
    ValueError
        Naming the first object `target` cannot place (a position too far from
        the origin for its cell size, say), or if `target` is not empty; both
        leave it as it was.
    MemoryError
        Which leaves `target` empty.
    RuntimeError
        If another thread's call holds either index.
    """
    cdef Py_ssize_t i, failed_at = -1
    cdef Box box
    cdef const Box* b = &box
    cdef double far[D]
    cdef double size[D]
    cdef int code, a
    if target is self:
        raise ValueError("target must be another index")
    cdef Claim claim
    _claim(self, claim)
    cdef Claim target_claim
    _claim(target, target_claim)
    if target.state.n_live:
        raise ValueError(f"target must be empty, it holds {target.state.n_live} objects")
    for i in range(self.state.obj_hi):
        shape_box(&self.state.body[i], &box)
        code = _check_placement(target, b) if self.state.live[i] else INPUT_OK
        if code:
            for a in range(D):      # name the corner farther from the origin
                far[a] = box.lo[a] if fabs(box.lo[a]) > fabs(box.hi[a]) else box.hi[a]
                size[a] = box.hi[a] - box.lo[a]
            raise input_error(code, f"id {i}: ", far, size, _cell_hint(target))
    if (own_filters(target, self.state.obj_hi) if self.state.filter != NULL
            else reserve_objects(target, self.state.obj_hi)) < 0 or grow_array(
            <void**>&target.state.touching, &target.state.touching_cap, self.state.n_touching,
            sizeof(Touch)) < 0:
        raise MemoryError()
    with nogil:
        _empty(target)
        copy_bytes(target.state.body, self.state.body, self.state.obj_hi * sizeof(Shape))
        copy_bytes(target.state.live, self.state.live, self.state.obj_hi)
        if self.state.filter != NULL:
            copy_bytes(target.state.filter, self.state.filter, self.state.obj_hi * sizeof(Filter))
        target.state.n_filtered = self.state.n_filtered
        copy_bytes(target.state.generation, self.state.generation, self.state.obj_hi * sizeof(uint32_t))
        copy_bytes(target.state.touching, self.state.touching, self.state.n_touching * sizeof(Touch))
        target.state.n_touching = self.state.n_touching
        copy_bytes(target.state.free_ids, self.state.free_ids, self.state.n_free * sizeof(int32_t))
        target.state.obj_hi, target.state.n_free = self.state.obj_hi, self.state.n_free
        for i in range(self.state.obj_hi):
            if self.state.live[i] and _attach(target, <int32_t>i) < 0:
                failed_at = i
                break
        if failed_at >= 0:
            _empty(target)
            target.state.n_touching = 0
    if failed_at >= 0:
        target.handles.clear()
        raise MemoryError()
    target.state.n_live = self.state.n_live
    target.handles = list(self.handles)
    target.departed = dict(self.departed)
    _changed(target)


# --------------------------------------------------------------- validation

def validate(SpatialIndexD self):
    """Check every internal invariant of the index.

    Ids, free lists, each object's placement against its box, the cells and
    their records: it visits every object and cell, for tests and debugging,
    not for a frame loop.

    Raises
    ------
    AssertionError
        Naming the first invariant broken.
    RuntimeError
        If another thread's call holds the index.
    """
    cdef Claim claim
    _claim(self, claim)
    validate_ids(self)
    validate_pass_marks(self)
    _validate_placement(self)
