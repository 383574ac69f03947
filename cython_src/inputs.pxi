# Validation of coordinates and the mapping from world coordinates to cells. The
# checks are nogil so batch calls can validate a whole array before touching the
# structure; `input_error` turns a failure code into a message naming the value.


# Cell indices stay far inside int32 so that spans and neighbours never overflow.
cdef double CELL_LIMIT = 1073741824.0


cdef extern from "floor.hpp" namespace "spatial_hash" nogil:
    # floor(x) as an integer for |x| < 2**62, inline, and the cell coordinates
    # named exactly (see the header).
    int64_t floor_int(double x)
    const double PRECISE_CELLS


cdef inline int cell_of(double v, double origin, double cell_size, int32_t* out) noexcept nogil:
    # floor, never round: a coordinate on a boundary belongs to the cell it starts.
    cdef double d = (v - origin) / cell_size
    if not (d >= -CELL_LIMIT and d < CELL_LIMIT + 1.0):
        return -1
    out[0] = <int32_t>floor_int(d)
    return 0


cdef inline int box_from_rect(const double* at, const double* size, Box* b) noexcept nogil:
    """The box from corner `at` of sizes `size` (D numbers each); INPUT_OK, or
    the code of the first bad number."""
    cdef int a
    for a in range(D):
        if not isfinite(at[a]):
            return BAD_AT + a
    for a in range(D):
        if not (size[a] >= 0.0 and isfinite(size[a]) and isfinite(at[a] + size[a])):
            return BAD_SIZE + a
    for a in range(D):
        b.lo[a] = at[a]
        b.hi[a] = at[a] + size[a]
    return INPUT_OK


cdef inline int box_from_circle(const double* center, double r, Circle* c, Box* b) noexcept nogil:
    """The circle (sphere) at `center` of radius r and its box; INPUT_OK, or the code
    of the first bad number."""
    cdef int a
    for a in range(D):
        if not isfinite(center[a]):
            return BAD_AT + a
    if not (r >= 0.0 and isfinite(r)):
        return BAD_RADIUS
    for a in range(D):
        if not (isfinite(center[a] - r) and isfinite(center[a] + r)):
            return BAD_RADIUS
        c.center[a] = center[a]
    c.r = r
    circle_box_of(c.center, r, b.lo)
    return INPUT_OK


cdef inline int range_of(const Box* b, const double* origin, double cell_size,
                         CellRange* r) noexcept nogil:
    cdef int a
    for a in range(D):
        if cell_of(b.lo[a], origin[a], cell_size, &r.lo[a]) \
                or cell_of(b.hi[a], origin[a], cell_size, &r.hi[a]):
            return TOO_FAR + a
    return INPUT_OK


cdef inline bint swept_column_rows(const Box* q, const double* along, double xa, double xb,
                                   double row_origin, double row_scale, bint scale_divides,
                                   int64_t first_row, int64_t last_row,
                                   int64_t* lo, int64_t* hi) noexcept nogil:
    """In 2D: the rows lo .. hi, within first_row .. last_row, of the cells that
    box q, moved by t * along for t in [0, 1], covers while it meets the column
    xa <= x <= xb; False if it never meets it. A y coordinate's row is
    floor((y - row_origin) / row_scale) if scale_divides, else
    floor((y - row_origin) * row_scale): the caller's own rule for placing
    objects, so a row holding a touched object is never cut off."""
    cdef double ylo, yhi
    if not swept_rows(q.lo, along, xa, xb, &ylo, &yhi):
        return False
    if scale_divides:
        ylo = floor((ylo - row_origin) / row_scale)
        yhi = floor((yhi - row_origin) / row_scale)
    else:
        ylo = floor((ylo - row_origin) * row_scale)
        yhi = floor((yhi - row_origin) * row_scale)
    lo[0] = first_row if ylo < first_row else <int64_t>ylo
    hi[0] = last_row if yhi > last_row else <int64_t>yhi
    return True


cdef tuple AXIS_NAMES = ("x", "y", "z")
cdef tuple SIZE_NAMES = ("width", "height", "depth")
# The same as parts of a value, for messages that name one: "pos.x".
cdef tuple AXIS_PARTS = (".x", ".y", ".z")
cdef tuple SIZE_PARTS = (".width", ".height", ".depth")


cdef object input_error(int code, str where, const double* at, const double* size,
                        double cell_size):
    """ValueError for a failed check of a box (corner `at`, sizes `size`) or of
    a circle or sphere (center `at`, radius size[0]; its other sizes 0)."""
    cdef int a
    axes = AXIS_NAMES[:D]
    if BAD_AT <= code < BAD_AT + D:
        a = code - BAD_AT
        msg = f"{axes[a]} must be a finite number, got {at[a]!r}"
    elif BAD_SIZE <= code < BAD_SIZE + D:
        a = code - BAD_SIZE
        msg = (f"{SIZE_NAMES[a]} must be a finite number >= 0 (with {axes[a]} + {SIZE_NAMES[a]} "
               f"finite), got {size[a]!r}")
    elif code == BAD_RADIUS:
        msg = f"radius must be a finite number >= 0 (with {', '.join(axes)} ± radius finite), got {size[0]!r}"
    elif code == OUT_OF_RANGE:
        msg = (f"object at {', '.join(f'{n}={v!r}' for n, v in zip(axes, axes_tuple(at)))} of size "
               f"{' x '.join(repr(s) for s in axes_tuple(size))} is out of range: the hierarchical "
               f"grid takes sizes up to 1e150 and coordinates up to 1e160")
    else:
        a = code - TOO_FAR
        msg = (f"{axes[a]}={at[a]!r} lies too far from the origin for "
               f"cell_size={cell_size!r}: cell indices are limited to ±2**30")
    return ValueError(where + msg)


cdef double check_cell_size(object cell_size) except -1.0:
    cdef double s
    try:
        s = float(cell_size)
    except (TypeError, ValueError):
        raise ValueError(f"cell_size must be a positive finite number, got {cell_size!r}") from None
    if not (s > 0.0 and isfinite(s)):
        raise ValueError(f"cell_size must be a positive finite number, got {cell_size!r}")
    return s


cdef int check_threads(object threads) except -1:
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 256:
        raise ValueError(f"threads must be an int from 1 to 256, got {threads!r}")
    return threads


cdef double check_finite(object value, str name) except? -1.0:
    cdef double v
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a finite number, got {value!r}") from None
    if not isfinite(v):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return v


cdef inline double* axes_of(double* into, double x, double y, double z=0.0) noexcept nogil:
    """`into`, its D numbers set to (x, y) in 2D or (x, y, z) in 3D: what a call
    that takes a number per axis hands on."""
    into[0] = x
    into[1] = y
    into[D - 1] = z if D == 3 else y
    return into


cdef inline bint all_finite(const double* v) noexcept nogil:
    """Are v's D numbers all finite?"""
    cdef int a
    cdef bint finite = True
    for a in range(D):
        finite &= isfinite(v[a]) != 0
    return finite


cdef inline tuple axes_tuple(const double* v):
    """v's D numbers as a tuple of floats."""
    if D == 2:
        return (v[0], v[1])
    return (v[0], v[1], v[2])


cdef inline tuple box_tuple(const double* at, const double* size):
    """A box's corner then its sizes (D numbers each) as one tuple of floats."""
    if D == 2:
        return (at[0], at[1], size[0], size[1])
    return (at[0], at[1], at[2], size[0], size[1], size[2])


cdef str shown(const double* v):
    """v's D numbers as a message shows them: their reprs, comma-separated."""
    return ", ".join([repr(x) for x in axes_tuple(v)])
