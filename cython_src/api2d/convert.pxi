# The 2D module's readers of Godot values and packed arrays: convert.pxi and
# arrays.pxi do the work.


def read_vec2(object v, str name="vector"):
    """(x, y) as floats from a 2-sequence or anything with .x and .y (Godot
    Vector2). Raises TypeError, naming the value as `name`, for anything else or
    for items that are not numbers."""
    return read_vector(v, name)


def read_rect(object r, str name="bounds"):
    """(x, y, width, height) as floats from a 4-sequence or anything with
    .position and .size (Godot Rect2). Raises TypeError, naming the value as
    `name`, for anything else or for items that are not numbers."""
    return read_bounds(r, name)


def rect_rows_into(const position_float[:, ::1] positions, const size_float[:, ::1] sizes,
                   double[:, ::1] rows):
    """Write rows[k] = (x, y, width, height) from the (n, 2) arrays `positions`
    and `sizes` (C-contiguous float32 or float64; `rows` (n, 4) float64) in one
    pass. Returns the first k whose numbers are not all finite or whose size is
    negative, or -1 when every row is good; rows from k on are then unwritten."""
    return rows_into(positions, sizes, rows)
