# The 3D module's readers of Godot values and packed arrays: convert.pxi and
# arrays.pxi do the work.


def read_vec3(object v, str name="vector"):
    """(x, y, z) as floats, from a triple or anything with .x, .y and .z (a Godot Vector3).

    Parameters
    ----------
    v : sequence of 3 float or Vector3
        The vector.
    name : str, optional
        What an error message calls it (default "vector").

    Returns
    -------
    tuple of float
        (x, y, z).

    Raises
    ------
    TypeError
        Naming the value as `name`, for anything else or for items that are
        not numbers.

    Examples
    --------
    >>> from spatial_hash import read_vec3
    >>> read_vec3([1, 2, 3])
    (1.0, 2.0, 3.0)
    """
    return read_vector(v, name)


def read_box(object r, str name="bounds"):
    """(x, y, z, width, height, depth) as floats, from 6 numbers or a Godot AABB.

    Parameters
    ----------
    r : sequence of 6 float or AABB
        The box: 6 numbers, or anything with .position and .size.
    name : str, optional
        What an error message calls it (default "bounds").

    Returns
    -------
    tuple of float
        (x, y, z, width, height, depth).

    Raises
    ------
    TypeError
        Naming the value as `name`, for anything else or for items that are
        not numbers.
    """
    return read_bounds(r, name)


def box_rows_into(const position_float[:, ::1] positions, const size_float[:, ::1] sizes,
                  double[:, ::1] rows):
    """Write rows[k] = (x, y, z, width, height, depth) from the (n, 3) arrays `positions`
    and `sizes` (C-contiguous float32 or float64; `rows` (n, 6) float64) in one
    pass. Returns the first k whose numbers are not all finite or whose size is
    negative, or -1 when every row is good; rows from k on are then unwritten."""
    return rows_into(positions, sizes, rows)
