# Collision layers and masks, the rule Godot's areas detect by: each object is
# on the layers of its 32-bit `layer` and looks for those of its `mask`; a pair
# is reported when either one's mask has a bit of the other's layer, and a
# query's mask takes the objects on any of its layers. Static objects (a
# level's tiles and walls) never pair with each other, as static bodies never
# do in Box2D or Godot: part of the same rule (filters_pass, kernels/layout.hpp).


cdef enum:
    DEFAULT_LAYER = 1
cdef uint32_t EVERY_LAYER = 0xFFFFFFFF


cdef inline bint is_default_filter(const Filter* f) noexcept nogil:
    return f.layer == DEFAULT_LAYER and f.mask == EVERY_LAYER and not f.is_static


cdef uint32_t check_bits(object value, str name) except? 0:
    """A layer or mask from Python: an int from 0 to 2**32 - 1. Every query
    takes one, so an int is read in C, without Python comparisons."""
    cdef int64_t bits = -1
    if type(value) is int or isinstance(value, np.integer):      # not bool: its type is not int
        try:
            bits = value
        except OverflowError:
            pass
        if 0 <= bits <= 0xFFFFFFFF:
            return <uint32_t>bits
        raise ValueError(f"{name} must be an int from 0 to 2**32 - 1, got {int(value)!r}")
    raise ValueError(f"{name} must be an int from 0 to 2**32 - 1, got {value!r}")


cdef object as_bits(object values, Py_ssize_t n, uint32_t default, str name):
    """n layers or masks as a uint32 array: None (every one `default`), one int
    for all, or n ints from 0 to 2**32 - 1."""
    if values is None:
        return np.full(n, default, dtype=np.uint32)
    arr = np.asarray(values)
    if arr.ndim == 0:
        return np.full(n, check_bits(values, name), dtype=np.uint32)
    if arr.shape != (n,) or (arr.size and arr.dtype.kind not in "iu"):
        raise ValueError(f"{name} must be one int or {n} ints, got {arr.dtype} with shape {arr.shape}")
    if arr.size:
        bad = np.flatnonzero((arr < 0) | (arr > 0xFFFFFFFF))
        if bad.size:
            raise ValueError(f"{name}[{bad[0]}] must be an int from 0 to 2**32 - 1, "
                             f"got {arr[bad[0]].item()!r}")
    return np.ascontiguousarray(arr, dtype=np.uint32)


cdef Filter DEFAULT_FILTER = Filter(DEFAULT_LAYER, EVERY_LAYER, 0)


cdef inline const Filter* filter_of_id(SpatialIndexD index, Py_ssize_t i) noexcept nogil:
    """Object i's filter: the default one while the index keeps no array of them
    (no object has been given another since it was made; see own_filters)."""
    return &index.state.filter[i] if index.state.filter != NULL else &DEFAULT_FILTER


cdef inline void default_filters(Filter* f, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t k
    for k in range(n):
        f[k] = DEFAULT_FILTER


cdef bint all_default_filters(const uint32_t[::1] layers, const uint32_t[::1] masks) noexcept nogil:
    cdef Py_ssize_t k
    for k in range(layers.shape[0]):
        if layers[k] != DEFAULT_LAYER or masks[k] != EVERY_LAYER:
            return False
    return True


cdef bint none_set(const uint8_t[::1] flags) noexcept nogil:
    cdef Py_ssize_t k
    for k in range(flags.shape[0]):
        if flags[k]:
            return False
    return True


cdef int read_filter(object layer, object mask, object is_static, Filter* f) except -1:
    f.layer = check_bits(layer, "layer")
    f.mask = check_bits(mask, "mask")
    f.is_static = check_flag(is_static, "static")
    return 0


cdef uint32_t check_flag(object value, str name) except? 2:
    """A yes or no from Python: a bool (numpy's too), or the ints 0 and 1."""
    if value is True or value is False or isinstance(value, np.bool_) \
            or ((type(value) is int or isinstance(value, np.integer)) and value in (0, 1)):
        return 1 if value else 0
    raise ValueError(f"{name} must be True or False, got {value!r}")


cdef object as_flags(object values, Py_ssize_t n, str name):
    """n yes-or-no values as a uint8 array of 0 and 1: one bool for all, or n
    bools (or ints 0 and 1)."""
    arr = np.asarray(values)
    if arr.ndim == 0:
        return np.full(n, check_flag(values, name), dtype=np.uint8)
    if arr.shape != (n,) or (arr.size and arr.dtype.kind not in "biu"):
        raise ValueError(f"{name} must be one bool or {n} bools, got {arr.dtype} with shape {arr.shape}")
    if arr.size and arr.dtype.kind != "b":
        bad = np.flatnonzero((arr != 0) & (arr != 1))
        if bad.size:
            raise ValueError(f"{name}[{bad[0]}] must be True or False, got {arr[bad[0]].item()!r}")
    return np.ascontiguousarray(arr, dtype=np.uint8)
