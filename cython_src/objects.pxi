# What every index keeps of its objects: dense integer ids, each with its shape,
# collision filter and Python handle, and the calls on one object at a time.
# Each grid decides where objects live through the hooks (hooks.pxi); every
# call validates its input completely before a hook changes anything.


cdef inline object handle_of(list handles, Py_ssize_t i):
    """The handle of id i: the id itself where none other was given (the list
    then holds None or ends before i, and the id costs no int object until it
    is asked for)."""
    if i < PyList_GET_SIZE(handles):
        handle = handles[i]
        if handle is not None:
            return handle
    return i


cdef int handle_room(list handles, Py_ssize_t n) except -1:
    """Make the list of handles at least n long (None for the ids it adds)."""
    if PyList_GET_SIZE(handles) < n:
        handles.extend([None] * (n - PyList_GET_SIZE(handles)))
    return 0


cdef inline void drop_handle(list handles, Py_ssize_t i):
    """Id i's handle is the id again (it names no object, or one given none)."""
    if i < PyList_GET_SIZE(handles):
        handles[i] = None


# ------------------------------------------------------- shared machinery

cdef int _idle(SpatialIndexD self) except -1:
    if self.state.busy:
        raise RuntimeError("this index is in use by a call in another thread")
    return 0


cdef int _claim(SpatialIndexD self, Claim& claim) except -1:
    """Mark the index in use for a whole call that releases the GIL, from its
    first release to its last (Python code between them could let another
    thread in): every call from elsewhere raises until `claim`, the call's
    own, goes out of scope."""
    _idle(self)
    claim.hold(&self.state.busy)
    return 0


cdef inline void _aim(SpatialIndexD self, Query* q, int kind, uint32_t layers) noexcept nogil:
    """Set q's kind and mask (every query starts here)."""
    q.kind = kind
    q.layers = layers
    q.check_layers = self.state.n_filtered > 0 or not (layers & DEFAULT_LAYER)


cdef inline void _take(SpatialIndexD self, const Query* q, int32_t i) noexcept nogil:
    """Add i to `out` if the query takes it (each object is offered once)."""
    if accepts(self, q, i):
        self.state.out[self.state.out_n] = i
        self.state.out_n += 1


cdef int _check_body(SpatialIndexD self, int code, const Shape* b, str where, const double* at,
                     const double* size) except -1:
    cdef Box box
    if code == INPUT_OK:
        shape_box(b, &box)
        code = _check_placement(self, &box)
    if code:
        raise input_error(code, where, at, size, _cell_hint(self))
    return 0


cdef int _check_circle(SpatialIndexD self, const double* center, double radius, Shape* b) except -1:
    """_check_body for the circle (sphere) at `center` of radius `radius`, into b."""
    cdef double size[D]     # a message names the radius as the first size
    return _check_body(self, shape_from_circle(center, radius, b), b, "", center,
                       axes_of(size, radius, 0.0, 0.0))


cdef int32_t _add(SpatialIndexD self, object handle, const Shape* b, const Filter* f) except -2:
    cdef int32_t i
    if reserve_objects(self, self.state.obj_hi + 1) < 0 \
            or (not is_default_filter(f) and own_filters(self, self.state.obj_hi + 1) < 0):
        raise MemoryError()
    i = self.state.free_ids[self.state.n_free - 1] if self.state.n_free else <int32_t>self.state.obj_hi
    if handle is not None:
        handle_room(self.handles, i + 1)
    self.state.body[i] = b[0]
    if _attach(self, i) < 0:
        raise MemoryError()
    _set_filter(self, i, f)
    if handle is not None:
        self.handles[i] = handle
    self.state.live[i] = 1
    if self.state.n_free:
        self.state.n_free -= 1
    else:
        self.state.obj_hi += 1
    self.state.n_live += 1
    _changed(self)
    return i


cdef inline void _set_filter(SpatialIndexD self, int32_t i, const Filter* f) noexcept nogil:
    """Give object i filter f: a caller that may give one other than the default
    first makes the array (own_filters). Every insert and removal comes here,
    so it notes i as changed for the next pair pass."""
    mark_changed(self, i)
    if self.state.filter == NULL:
        return      # every object has the default filter, which f is
    self.state.n_filtered += (not is_default_filter(f)) - (not is_default_filter(&self.state.filter[i]))
    self.state.filter[i] = f[0]


cdef int32_t _check_id(SpatialIndexD self, object object_id) except -1:
    if not isinstance(object_id, int) or not 0 <= object_id < self.state.obj_hi \
            or not self.state.live[<Py_ssize_t>object_id]:
        raise KeyError(f"no object with id {object_id!r} in this index")
    return <int32_t>object_id


# ------------------------------------------------------------- single calls

cdef object insert_box_at(SpatialIndexD self, const double* at, const double* size,
                          object handle, object layer, object mask, object is_static):
    """Add the box from `at` to at + size; its id. What insert_rect (in 3D,
    insert_box) does once its numbers are read."""
    cdef Shape b
    cdef Filter f
    read_filter(layer, mask, is_static, &f)
    cdef Claim claim
    _claim(self, claim)
    _check_body(self, shape_from_rect(at, size, &b), &b, "", at, size)
    return _add(self, handle, &b, &f)


cdef object insert_circle_at(SpatialIndexD self, const double* center, double radius,
                             object handle, object layer, object mask, object is_static):
    """Add the circle (sphere) of centre `center`; its id."""
    cdef Shape b
    cdef Filter f
    read_filter(layer, mask, is_static, &f)
    cdef Claim claim
    _claim(self, claim)
    _check_circle(self, center, radius, &b)
    return _add(self, handle, &b, &f)


def update_bounds(SpatialIndexD self, object_id, bounds, str name="bounds"):
    """Move an object to a box given as one argument: numbers or a Godot $Bounds.

    Parameters
    ----------
    object_id : int
        The object's id.
    bounds : sequence of $twoD float or $Bounds
        $box: the min corner and the size, in world units.
    name : str, optional
        What an error message calls `bounds` (default "bounds").

    Raises
    ------
    TypeError
        Naming `bounds` as `name` if it is neither $twoD numbers nor a $Bounds.
    KeyError
        For an unknown id.
    ValueError
        For a bad number or a box out of range, naming it; the object stays as
        it was.
    MemoryError
        The object then stays as it was.
    RuntimeError
        If another thread's call holds the index.

    See Also
    --------
    $update_box : The same move with each number an argument.
    """
    cdef double at[D]
    cdef double size[D]
    bounds_into(bounds, name, at, size)
    _update_box(self, object_id, at, size)


cdef int _update_box(SpatialIndexD self, object_id, const double* at, const double* size) except -1:
    cdef Shape b
    cdef int32_t i
    cdef Claim claim
    _claim(self, claim)
    i = _check_id(self, object_id)
    _check_body(self, shape_from_rect(at, size, &b), &b, "", at, size)
    mark_changed(self, i)
    if _move(self, i, &b) < 0:
        raise MemoryError()
    _changed(self)
    return 0


cdef int update_circle_at(SpatialIndexD self, object_id, const double* center,
                          double radius) except -1:
    cdef Shape b
    cdef int32_t i
    cdef Claim claim
    _claim(self, claim)
    i = _check_id(self, object_id)
    _check_circle(self, center, radius, &b)
    mark_changed(self, i)
    if _move(self, i, &b) < 0:
        raise MemoryError()
    _changed(self)
    return 0


cdef void _release(SpatialIndexD self, int32_t i) noexcept nogil:
    _set_filter(self, i, &DEFAULT_FILTER)
    _detach(self, i)
    self.state.generation[i] += 1
    self.state.live[i] = 0
    self.state.free_ids[self.state.n_free] = i
    self.state.n_free += 1
    self.state.n_live -= 1


def remove(SpatialIndexD self, object_id):
    """Remove an object; its id may be handed out again.

    Parameters
    ----------
    object_id : int
        The object's id.

    Returns
    -------
    bool
        True, or False (changing nothing) if `object_id` names no live object.

    Raises
    ------
    RuntimeError
        If another thread's call holds the index.

    See Also
    --------
    remove_many : Many objects at once.
    """
    cdef Claim claim
    _claim(self, claim)
    if object_id not in self:
        return False
    _depart(self, object_id)
    _release(self, <int32_t>object_id)
    drop_handle(self.handles, object_id)
    return True


cdef void _empty(SpatialIndexD self) noexcept nogil:
    _reset(self)
    if self.state.obj_cap:
        memset(self.state.body, 0, self.state.obj_cap * sizeof(Shape))
        memset(self.state.live, 0, self.state.obj_cap)
        if self.state.filter != NULL:
            default_filters(self.state.filter, self.state.obj_cap)
    self.state.obj_hi = self.state.n_live = self.state.n_free = self.state.n_filtered = 0
    forget_pairs(self)


def clear(SpatialIndexD self):
    """Remove every object; ids start again from 0.

    The allocated storage is kept for reuse.

    Raises
    ------
    RuntimeError
        If another thread's call holds the index.
    """
    cdef Py_ssize_t i
    cdef Claim claim
    _claim(self, claim)
    for i in range(self.state.obj_hi):
        if self.state.live[i]:
            _depart(self, i)
            self.state.generation[i] += 1
    _empty(self)
    self.handles.clear()


def handle(SpatialIndexD self, object_id):
    """The handle stored with an id: what queries and `pairs` return for it.

    Parameters
    ----------
    object_id : int
        The object's id.

    Returns
    -------
    object
        The handle given when it was inserted, or the id if none was.

    Raises
    ------
    KeyError
        For an unknown id.
    RuntimeError
        If another thread's call holds the index.
    """
    _idle(self)
    _check_id(self, object_id)
    return handle_of(self.handles, object_id)


def bounds(SpatialIndexD self, object_id):
    """An object's box (a $round's bounding box), in world units.

    Parameters
    ----------
    object_id : int
        The object's id.

    Returns
    -------
    tuple of float
        $box.

    Raises
    ------
    KeyError
        For an unknown id.
    RuntimeError
        If another thread's call holds the index.
    """
    _idle(self)
    cdef Box b
    cdef double size[D]
    cdef int a
    shape_box(&self.state.body[_check_id(self, object_id)], &b)
    for a in range(D):
        size[a] = b.hi[a] - b.lo[a]
    return box_tuple(b.lo, size)


cdef object circle_tuple(SpatialIndexD self, object_id):
    """The centre's numbers then the radius of a circle (sphere), None for a box."""
    _idle(self)
    cdef const Shape* b = &self.state.body[_check_id(self, object_id)]
    if not shape_is_circle(b):
        return None
    if D == 2:
        return (b.p[0], b.p[1], b.p[D])
    return (b.p[0], b.p[1], b.p[2], b.p[D])


def ids(SpatialIndexD self):
    """The ids of every live object.

    Returns
    -------
    list of int
        Ascending.

    Raises
    ------
    RuntimeError
        If another thread's call holds the index.
    """
    cdef Py_ssize_t i
    cdef Claim claim
    _claim(self, claim)       # the list grows as it is read: Python code can run meanwhile
    return [i for i in range(self.state.obj_hi) if self.state.live[i]]


def is_colliding(SpatialIndexD self, a, b):
    """Whether `pairs` would report two objects.

    They overlap, by the exact test the pair pass uses, either one's mask has
    a bit of the other's layer, and they are not both static.

    Parameters
    ----------
    a, b : int
        The two objects' ids.

    Returns
    -------
    bool
        True if they collide; False when `a` == `b`.

    Raises
    ------
    KeyError
        For an unknown id.
    RuntimeError
        If another thread's call holds the index.
    """
    _idle(self)
    cdef int32_t i = _check_id(self, a), j = _check_id(self, b)
    return i != j and filters_pass(filter_of_id(self, i), filter_of_id(self, j)) \
        and shapes_meet(&self.state.body[i], &self.state.body[j])
