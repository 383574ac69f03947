# The 2D module's readers of Godot values and packed arrays: convert.pxi and
# arrays.pxi do the work.


def read_vec2(object v, str name="vector"):
    """(x, y) as floats, from a pair or anything with .x and .y (a Godot Vector2).

    Parameters
    ----------
    v : sequence of 2 float or Vector2
        The vector.
    name : str, optional
        What an error message calls it (default "vector").

    Returns
    -------
    tuple of float
        (x, y).

    Raises
    ------
    TypeError
        Naming the value as `name`, for anything else or for items that are
        not numbers.

    Examples
    --------
    >>> from spatial_hash import read_vec2
    >>> read_vec2([1, 2])
    (1.0, 2.0)
    """
    return read_vector(v, name)


def read_rect(object r, str name="bounds"):
    """(x, y, width, height) as floats, from 4 numbers or a Godot Rect2.

    Parameters
    ----------
    r : sequence of 4 float or Rect2
        The box: 4 numbers, or anything with .position and .size.
    name : str, optional
        What an error message calls it (default "bounds").

    Returns
    -------
    tuple of float
        (x, y, width, height).

    Raises
    ------
    TypeError
        Naming the value as `name`, for anything else or for items that are
        not numbers.
    """
    return read_bounds(r, name)


def rect_rows_into(const position_float[:, ::1] positions, const size_float[:, ::1] sizes,
                   double[:, ::1] rows):
    """Write rows[k] = (x, y, width, height) from the (n, 2) arrays `positions`
    and `sizes` (C-contiguous float32 or float64; `rows` (n, 4) float64) in one
    pass. Returns the first k whose numbers are not all finite or whose size is
    negative, or -1 when every row is good; rows from k on are then unwritten."""
    return rows_into(positions, sizes, rows)
