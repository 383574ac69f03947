# The 3D module's readers of Godot values and packed arrays: convert.pxi and
# arrays.pxi do the work.


def read_vec3(object v, str name="vector"):
    """(x, y, z) as floats from a 3-sequence or anything with .x, .y and .z (Godot
    Vector3). Raises TypeError, naming the value as `name`, for anything else or
    for items that are not numbers."""
    return read_vector(v, name)


def read_box(object r, str name="bounds"):
    """(x, y, z, width, height, depth) as floats from a 6-sequence or anything with
    .position and .size (Godot AABB). Raises TypeError, naming the value as
    `name`, for anything else or for items that are not numbers."""
    return read_bounds(r, name)


def box_rows_into(const position_float[:, ::1] positions, const size_float[:, ::1] sizes,
                  double[:, ::1] rows):
    """Write rows[k] = (x, y, z, width, height, depth) from the (n, 3) arrays `positions`
    and `sizes` (C-contiguous float32 or float64; `rows` (n, 6) float64) in one
    pass. Returns the first k whose numbers are not all finite or whose size is
    negative, or -1 when every row is good; rows from k on are then unwritten."""
    return rows_into(positions, sizes, rows)
