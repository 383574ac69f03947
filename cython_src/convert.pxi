# Conversions from what callers hand us (tuples, numpy rows, Godot Vector2/Rect2)
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


cdef inline int vec2_into(object v, str name, double* x, double* y) except -1:
    """(x, y) into C doubles from a 2-sequence or anything with .x and .y (Godot
    Vector2)."""
    if type(v) is tuple and len(<tuple>v) == 2:
        x[0] = as_number((<tuple>v)[0], name, ".x")
        y[0] = as_number((<tuple>v)[1], name, ".y")
        return 0
    if hasattr(v, "x") and hasattr(v, "y"):
        x[0] = as_number(v.x, name, ".x")
        y[0] = as_number(v.y, name, ".y")
        return 0
    if is_sequence(v):
        try:
            if len(v) == 2:
                x[0] = as_number(v[0], name, ".x")
                y[0] = as_number(v[1], name, ".y")
                return 0
        except TypeError:
            pass
    raise TypeError(f"{name} must be a Vector2 or an (x, y) pair, got {v!r}")


cpdef tuple read_vec2(object v, str name="vector"):
    """(x, y) as floats from a 2-sequence or anything with .x and .y (Godot
    Vector2). Raises TypeError, naming the value as `name`, for anything else or
    for items that are not numbers."""
    cdef double x, y
    vec2_into(v, name, &x, &y)
    return (x, y)


cdef inline int rect_into(object r, str name, double* x, double* y, double* w,
                          double* h) except -1:
    """(x, y, width, height) into C doubles from a 4-sequence or anything with
    .position and .size (Godot Rect2)."""
    if type(r) is tuple and len(<tuple>r) == 4:
        x[0] = as_number((<tuple>r)[0], name, ".x")
        y[0] = as_number((<tuple>r)[1], name, ".y")
        w[0] = as_number((<tuple>r)[2], name, ".width")
        h[0] = as_number((<tuple>r)[3], name, ".height")
        return 0
    if hasattr(r, "position") and hasattr(r, "size"):
        vec2_into(r.position, name + ".position", x, y)
        vec2_into(r.size, name + ".size", w, h)
        return 0
    if is_sequence(r):
        try:
            if len(r) == 4:
                x[0] = as_number(r[0], name, ".x")
                y[0] = as_number(r[1], name, ".y")
                w[0] = as_number(r[2], name, ".width")
                h[0] = as_number(r[3], name, ".height")
                return 0
        except TypeError:
            pass
    raise TypeError(f"{name} must be a Rect2 or an (x, y, width, height) tuple, got {r!r}")


cpdef tuple read_rect(object r, str name="bounds"):
    """(x, y, width, height) as floats from a 4-sequence or anything with
    .position and .size (Godot Rect2). Raises TypeError, naming the value as
    `name`, for anything else or for items that are not numbers."""
    cdef double x, y, w, h
    rect_into(r, name, &x, &y, &w, &h)
    return (x, y, w, h)
