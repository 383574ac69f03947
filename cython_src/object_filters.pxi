# An object's collision layer, mask and static flag (the pair rule is
# layers.pxi's), one object at a time.


def set_filter(SpatialIndexD self, object_id, layer, mask):
    """Put an object on collision layers, and choose the layers it looks for.

    `pairs` reports two touching objects when either one's mask has a bit of
    the other's layer; a query with a mask returns only the objects on one of
    its layers. New objects have layer 1 and a mask of all bits.

    Parameters
    ----------
    object_id : int
        The object's id.
    layer : int
        The layers it is on, a 32-bit unsigned int (0 to 2**32 - 1).
    mask : int
        The layers it looks for, likewise.

    Raises
    ------
    KeyError
        For an unknown id.
    ValueError
        For a layer or mask that is not an int from 0 to 2**32 - 1.
    RuntimeError
        If another thread's call holds the index.

    See Also
    --------
    filter_of : An object's layer and mask.
    set_filters : The same for many objects.
    """
    cdef Filter f
    read_filter(layer, mask, False, &f)
    _idle(self)
    cdef int32_t i = _check_id(self, object_id)
    f.is_static = filter_of_id(self, i).is_static
    if not is_default_filter(&f) and own_filters(self, self.state.obj_hi) < 0:
        raise MemoryError()
    _set_filter(self, i, &f)


def set_static(SpatialIndexD self, object_id, is_static=True):
    """Mark an object static, or not.

    Two static objects never pair: not in `pairs`, the pair events or the
    counters, as static bodies never collide in Box2D or Godot. A static object
    pairs with every other object, answers queries and may be moved as before.
    A level's tiles and walls are static: a pair pass then costs what moved.

    Parameters
    ----------
    object_id : int
        The object's id.
    is_static : bool, optional
        True (the default) to make it static, False to make it move again.

    Raises
    ------
    KeyError
        For an unknown id.
    ValueError
        If `is_static` is not a bool.
    RuntimeError
        If another thread's call holds the index.

    See Also
    --------
    set_statics : The same for many objects.
    """
    cdef uint32_t flag = check_flag(is_static, "static")
    _idle(self)
    cdef int32_t i = _check_id(self, object_id)
    cdef Filter f = filter_of_id(self, i)[0]
    if f.is_static == flag:
        return
    f.is_static = flag
    if not is_default_filter(&f) and own_filters(self, self.state.obj_hi) < 0:
        raise MemoryError()
    _set_filter(self, i, &f)


def is_static(SpatialIndexD self, object_id):
    """Whether an object is static (see `set_static`).

    Parameters
    ----------
    object_id : int
        The object's id.

    Returns
    -------
    bool
        True if it is static.

    Raises
    ------
    KeyError
        For an unknown id.
    RuntimeError
        If another thread's call holds the index.
    """
    _idle(self)
    return filter_of_id(self, _check_id(self, object_id)).is_static == 1


def filter_of(SpatialIndexD self, object_id):
    """An object's collision layer and mask, as `set_filter` takes them.

    Parameters
    ----------
    object_id : int
        The object's id.

    Returns
    -------
    tuple of int
        (layer, mask).

    Raises
    ------
    KeyError
        For an unknown id.
    RuntimeError
        If another thread's call holds the index.
    """
    _idle(self)
    cdef Filter f = filter_of_id(self, _check_id(self, object_id))[0]
    return (f.layer, f.mask)
