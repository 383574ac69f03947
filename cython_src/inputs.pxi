# Validation of coordinates and the mapping from world coordinates to cells. The
# checks are nogil so batch calls can validate a whole array before touching the
# structure; `input_error` turns a failure code into a message naming the value.


# Cell indices stay far inside int32 so that spans and neighbours never overflow.
cdef double CELL_LIMIT = 1073741824.0


cdef inline int64_t floor_int(double x) noexcept nogil:
    """floor(x) for |x| < 2**62, inline (libm's floor is a call on plain x86-64)."""
    cdef int64_t q = <int64_t>x
    return q - (q > x)


cdef inline int cell_of(double v, double origin, double cell_size, int32_t* out) noexcept nogil:
    # floor, never round: a coordinate on a boundary belongs to the cell it starts.
    cdef double d = (v - origin) / cell_size
    if not (d >= -CELL_LIMIT and d < CELL_LIMIT + 1.0):
        return -1
    out[0] = <int32_t>floor_int(d)
    return 0


cdef inline int box_from_rect(double x, double y, double w, double h, Box* b) noexcept nogil:
    if not isfinite(x):
        return BAD_X
    if not isfinite(y):
        return BAD_Y
    if not (w >= 0.0 and isfinite(w) and isfinite(x + w)):
        return BAD_WIDTH
    if not (h >= 0.0 and isfinite(h) and isfinite(y + h)):
        return BAD_HEIGHT
    b.minx = x
    b.miny = y
    b.maxx = x + w
    b.maxy = y + h
    return INPUT_OK


cdef inline int box_from_circle(double x, double y, double r, Circle* c, Box* b) noexcept nogil:
    if not isfinite(x):
        return BAD_X
    if not isfinite(y):
        return BAD_Y
    if not (r >= 0.0 and isfinite(r) and isfinite(x - r) and isfinite(x + r)
            and isfinite(y - r) and isfinite(y + r)):
        return BAD_RADIUS
    c.x = x
    c.y = y
    c.r = r
    circle_bounds(x, y, r, b)
    return INPUT_OK


cdef inline int range_of(const Box* b, double ox, double oy, double cell_size,
                         CellRange* r) noexcept nogil:
    if cell_of(b.minx, ox, cell_size, &r.x0) or cell_of(b.maxx, ox, cell_size, &r.x1):
        return FAR_X
    if cell_of(b.miny, oy, cell_size, &r.y0) or cell_of(b.maxy, oy, cell_size, &r.y1):
        return FAR_Y
    return INPUT_OK


cdef inline bint swept_column_rows(const Box* q, double dx, double dy, double xa, double xb,
                                   double row_origin, double row_scale, bint scale_divides,
                                   int64_t first_row, int64_t last_row,
                                   int64_t* lo, int64_t* hi) noexcept nogil:
    """The rows lo .. hi, within first_row .. last_row, of the cells that box q,
    moved by t*(dx, dy) for t in [0, 1], covers while it meets the column
    xa <= x <= xb; False if it never meets it. A y coordinate's row is
    floor((y - row_origin) / row_scale) if scale_divides, else
    floor((y - row_origin) * row_scale): the caller's own rule for placing
    objects, so a row holding a touched object is never cut off."""
    cdef double ylo, yhi
    if not swept_rows(q, dx, dy, xa, xb, &ylo, &yhi):
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


cdef object input_error(int code, str where, double x, double y, double a, double b,
                        double cell_size):
    """ValueError for a failed check of (x, y, a, b): a rect (a, b = width, height)
    or a circle (a = radius)."""
    if code == BAD_X:
        msg = f"x must be a finite number, got {x!r}"
    elif code == BAD_Y:
        msg = f"y must be a finite number, got {y!r}"
    elif code == BAD_WIDTH:
        msg = f"width must be a finite number >= 0 (with x + width finite), got {a!r}"
    elif code == BAD_HEIGHT:
        msg = f"height must be a finite number >= 0 (with y + height finite), got {b!r}"
    elif code == BAD_RADIUS:
        msg = f"radius must be a finite number >= 0 (with x ± radius finite), got {a!r}"
    elif code == OUT_OF_RANGE:
        msg = (f"object at x={x!r}, y={y!r} of size {a!r} x {b!r} is out of range: the "
               f"hierarchical grid takes sizes up to 1e150 and coordinates up to 1e160")
    else:
        axis = "x" if code == FAR_X else "y"
        msg = (f"{axis}={x if code == FAR_X else y!r} lies too far from the origin for "
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


cdef double check_finite(object value, str name) except? -1.0:
    cdef double v
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a finite number, got {value!r}") from None
    if not isfinite(v):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return v
