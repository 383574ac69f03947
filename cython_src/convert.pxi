# Conversions from what callers hand us (tuples, numpy rows, Godot vectors and boxes)
# into plain floats. Shape errors are TypeError; value checks happen in the core.
# Names for messages are put together only when there is an error to report.

cdef inline double as_number(object v, str name, str part) except? -1.0:
    if type(v) is float:
        return <double>v
    if v is None or isinstance(v, (str, bytes)):
        raise TypeError(f"{name}{part} must be a number, got {v!r}")
    try:
        return float(v)
    except (TypeError, ValueError):
        raise TypeError(f"{name}{part} must be a number, got {v!r}") from None


cdef inline bint is_sequence(object v):
    """Indexable as a sequence without side effects. Strings are not, and neither
    is a mapping: Godot's Dictionaries answer a missing key such as 0 with null
    or by inserting it, so indexing one could change the caller's value."""
    return not isinstance(v, (str, bytes)) and not hasattr(v, "keys")


cdef inline int tuple_into(tuple items, Py_ssize_t first, str name, double* out,
                           str part_0, str part_1, str part_2) except -1:
    """items[first:first + D] into out[0:D]; the parts name the numbers in
    messages. Each number by its place, as the caller's tuple literal reads:
    the common case of every call that takes a vector or a box."""
    out[0] = as_number(items[first], name, part_0)
    out[1] = as_number(items[first + 1], name, part_1)
    if D == 3:
        out[D - 1] = as_number(items[first + D - 1], name, part_2)
    return 0


cdef inline int vector_into(object v, str name, double* out) except -1:
    """The D numbers of a D-sequence or of anything with .x, .y (and in 3D .z),
    a Godot Vector2 or Vector3, into out[0:D] as C doubles."""
    cdef int a
    if type(v) is tuple and len(<tuple>v) == D:
        tuple_into(<tuple>v, 0, name, out, ".x", ".y", ".z")
        return 0
    if hasattr(v, "x") and hasattr(v, "y") and (D == 2 or hasattr(v, "z")):
        # Each axis by name: an attribute named in the code is looked up by an
        # interned string, the fastest way to a Godot vector's numbers.
        out[0] = as_number(v.x, name, ".x")
        out[1] = as_number(v.y, name, ".y")
        if D == 3:
            out[D - 1] = as_number(v.z, name, ".z")
        return 0
    if is_sequence(v):
        try:
            if len(v) == D:
                for a in range(D):
                    out[a] = as_number(v[a], name, AXIS_PARTS[a])
                return 0
        except TypeError:
            pass
    raise TypeError(f"{name} must be a {VECTOR} or an ({', '.join(AXIS_NAMES[:D])}) "
                    f"{'pair' if D == 2 else 'triple'}, got {v!r}")


cdef inline int bounds_into(object r, str name, double* at, double* size) except -1:
    """A box's corner and sizes (D numbers each) into `at` and `size`, as C
    doubles, from a sequence of 2 * D numbers (x, y, width, height in 2D) or
    anything with .position and .size (a Godot Rect2 or AABB)."""
    cdef int a
    if type(r) is tuple and len(<tuple>r) == 2 * D:
        tuple_into(<tuple>r, 0, name, at, ".x", ".y", ".z")
        tuple_into(<tuple>r, D, name, size, ".width", ".height", ".depth")
        return 0
    if hasattr(r, "position") and hasattr(r, "size"):
        vector_into(r.position, name + ".position", at)
        vector_into(r.size, name + ".size", size)
        return 0
    if is_sequence(r):
        try:
            if len(r) == 2 * D:
                for a in range(D):
                    at[a] = as_number(r[a], name, AXIS_PARTS[a])
                for a in range(D):
                    size[a] = as_number(r[D + a], name, SIZE_PARTS[a])
                return 0
        except TypeError:
            pass
    raise TypeError(f"{name} must be {A_BOUNDS} or an ({', '.join(AXIS_NAMES[:D])}, "
                    f"{', '.join(SIZE_NAMES[:D])}) tuple, got {r!r}")


cdef tuple read_vector(object v, str name):
    cdef double at[D]
    vector_into(v, name, at)
    return axes_tuple(at)


cdef tuple read_bounds(object r, str name):
    cdef double at[D]
    cdef double size[D]
    bounds_into(r, name, at, size)
    return box_tuple(at, size)
