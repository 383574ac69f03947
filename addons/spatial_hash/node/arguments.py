"""Reading what the node's engine is handed: every value is checked, and a bad
one raises naming the argument and the value. Only arrays are read as arrays,
so a Godot Dictionary passed where an array belongs is refused without being
read."""
import math

import numpy as np


def number(value, name):
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, got {value!r}")
    return float(value)


def finite(value, name, at_least=None):
    v = number(value, name)
    if not math.isfinite(v) or (at_least is not None and v < at_least):
        bound = "" if at_least is None else f" >= {at_least:g}"
        raise ValueError(f"{name} must be a finite number{bound}, got {v!r}")
    return v


def flag(value, name):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be true or false, got {value!r}")
    return bool(value)


def _array_kind(values, name, what):
    """Only arrays are read as arrays: a Dictionary (or any other object) is
    refused before anything indexes or iterates it. Godot's Dictionaries answer
    a missing key with null or by inserting it, so reading one as a sequence can
    loop forever or change the caller's value."""
    if isinstance(values, np.ndarray) or type(values) in (list, tuple):
        return
    raise TypeError(f"{name} must be {what}, got {type(values).__name__} {values!r}")


def vec_rows(values, name, dimension):
    """(n, D) float rows from an (n, D) or flat [x0, y0, ..., x1, ...] float
    array (the engine scripts turn packed vector arrays into these), or a list
    of vector-likes (Vector2 or Vector3, as the Dimension's). Their values are
    checked by rect_rows."""
    d, vector = dimension.d, dimension.vector
    _array_kind(values, name, f"a Packed{vector}Array or an Array of {vector}")
    if isinstance(values, np.ndarray):
        if values.dtype.kind != "f":        # a packed int array is ids, not coordinates
            raise TypeError(f"{name} must be a Packed{vector}Array or floats, got {values.dtype}")
        rows = values
    elif all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        rows = np.array(values, dtype=np.float64)
    else:
        rows = np.array([dimension.read_vec(v, f"{name}[{k}]") for k, v in enumerate(values)],
                        dtype=np.float64).reshape(-1, d)
    if rows.ndim == 1 and rows.size % d == 0:
        rows = rows.reshape(-1, d)
    if rows.ndim != 2 or rows.shape[1] != d:
        pairs = "pairs" if d == 2 else "triples"
        raise TypeError(f"{name} must be {vector}s or {', '.join(dimension.axes)} number {pairs}, "
                        f"got shape {rows.shape}")
    return rows


def int_ids(values, name="ids"):
    """A 1-D integer array of ids from an integer array or a list of ints."""
    _array_kind(values, name, "a PackedInt32Array or an Array of ints")
    if not isinstance(values, np.ndarray):
        if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in values):
            raise TypeError(f"{name} must be integers, got {list(values)!r}")
        values = np.array(values, dtype=np.int64)
    if values.size == 0:
        return np.empty(0, dtype=np.int64)
    if values.ndim != 1 or values.dtype.kind not in "iu":
        raise TypeError(f"{name} must be integers, got {values.dtype} with shape {values.shape}")
    return values


def flag_rows(values, count, name, each="row"):
    """Yes-or-no values for `count` rows, for the core: one bool for all, or
    `count` of them as bools or ints 0 and 1 (the faces send an Array of bools
    as a packed int array)."""
    if isinstance(values, (bool, np.bool_)):
        return bool(values)
    _array_kind(values, name, "true, false or an Array of them")
    rows = np.asarray(values)
    if rows.ndim != 1:
        got = repr(rows.item()) if rows.ndim == 0 else f"shape {rows.shape}"
        raise TypeError(f"{name} must be true, false or an Array of them, got {got}")
    if rows.shape != (count,):
        raise ValueError(f"{name} must be true, false or one for each of the {count} {each}s, "
                         f"got {rows.size} values")
    good = np.isin(rows, (0, 1)) if rows.dtype.kind in "biu" else np.zeros(rows.shape, bool)
    if not good.all():
        k = int(np.argmin(good))
        raise ValueError(f"{name}[{k}] must be true or false, got {rows[k].item()!r}")
    return rows.astype(bool)


def layer_rows(values, name):
    """Layers or masks for a batch, for the core to check: one int for all, or
    an int array or a list of ints (n of them)."""
    if isinstance(values, (int, np.integer)) and not isinstance(values, bool):
        return values
    _array_kind(values, name, "an int, a PackedInt32Array, a PackedInt64Array or an Array of ints")
    return values


def _coordinates(values):
    """C-contiguous float32 or float64 rows as they are (what the engine scripts
    hand over); a float64 copy of anything else."""
    if values.flags.c_contiguous and values.dtype in (np.float32, np.float64):
        return values
    return np.ascontiguousarray(values, dtype=np.float64)


def rect_rows(dimension, positions, sizes, memory=None):
    """(n, 2D) float64 rows of the corner's D coordinates and the D sizes
    (x, y, w, h in 2D) from position and size arrays of one length of the
    Dimension: finite, sizes >= 0. One pass over the rows when they are good (the
    batch path of a 10,000-object frame); the bad row is named only if not.
    The rows are written into `memory`, a C-contiguous float64 array of rows of
    2D, if it has n rows or more (they are then a view of it), else into a new
    array: a caller that keeps it for its next batch allocates nothing."""
    xy = vec_rows(positions, "positions", dimension)
    wh = vec_rows(sizes, "sizes", dimension)
    if len(xy) != len(wh):
        raise ValueError(f"{len(xy)} positions but {len(wh)} sizes")
    rows = memory[:len(xy)] if memory is not None and len(memory) >= len(xy) \
        else np.empty((len(xy), 2 * dimension.d))
    bad = dimension.rows_into(_coordinates(xy), _coordinates(wh), rows)
    if bad < 0:
        return rows
    for name, values, least in (("positions", xy, None), ("sizes", wh, 0.0)):
        for axis, value in zip(dimension.axes, values[bad].tolist()):
            finite(value, f"{name}[{bad}].{axis}", least)
    raise AssertionError(f"row {bad} is good")   # unreachable: the checks agree
