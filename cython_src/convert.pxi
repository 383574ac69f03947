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


# The largest id ids_text takes: chr(id + 2) is then never a surrogate, which no
# plugin's conversion to a Godot String would take.
cdef enum:
    TEXT_ID_LIMIT = 0xD7FD
    TEXT_ON_STACK = 64


def ids_text(list ids, Py_UCS4 mark=1):
    """`ids` (ints from 0 to TEXT_ID_LIMIT) as a str: `mark`, then chr(id + 2)
    for each id; None if an id is out of that range. A Godot plugin hands a
    str to GDScript in one piece, where String.to_utf32_buffer() reads it back
    natively: the cheapest way for a query's ids to reach GDScript."""
    cdef Py_ssize_t n = len(ids), k
    cdef Py_UCS4 on_stack[TEXT_ON_STACK]
    cdef Py_UCS4* text = on_stack
    cdef long v
    if n + 1 > TEXT_ON_STACK:
        text = <Py_UCS4*>malloc((n + 1) * sizeof(Py_UCS4))
        if text == NULL:
            raise MemoryError()
    try:
        text[0] = mark
        for k in range(n):
            v = ids[k]
            if v < 0 or v > TEXT_ID_LIMIT:
                return None
            text[k + 1] = <Py_UCS4>(v + 2)
        return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, text, n + 1)
    finally:
        if text != on_stack:
            free(text)
