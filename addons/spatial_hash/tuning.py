"""Which index, and which cell size, for a set of object sizes.

The usual rules: a uniform grid wants cells of about 1-2x the typical object
diameter (measured fastest in the benchmark: 2x in 2D; 1x in 3D, where a cell
twice as wide holds eight times the objects instead of four); objects spanning
more than `large_threshold` cells on a side go to the large-object list, which
every pair pass walks cell by cell. When that walk costs more than the grid
itself, the hierarchical grid (cells of sqrt(2) x an object's longest side, so
no object covers more than 2 cells a side of its level) is the better choice.
"""
import numpy as np

# Cell side per typical object diameter, by dimension.
CELLS_PER_DIAMETER = {2: 2.0, 3: 1.0}


def longest_sides(sizes):
    """The longest side of each object.

    Parameters
    ----------
    sizes : array_like of float, shape (n,), (n, 2) or (n, 3)
        n diameters, or widths and heights, or widths, heights and depths, in
        world units (finite, >= 0).

    Returns
    -------
    numpy.ndarray of float64, shape (n,)
        Each object's longest side, in world units.

    Raises
    ------
    ValueError
        For another shape, no objects, or a size that is not finite and >= 0
        (naming its index).

    Examples
    --------
    >>> from spatial_hash.tuning import longest_sides
    >>> longest_sides([[8, 2], [3, 5]]).tolist()
    [8.0, 5.0]
    """
    arr = np.asarray(sizes, dtype=np.float64)
    if arr.ndim == 2 and arr.shape[1] in (2, 3):
        sides = arr.max(axis=1)
    elif arr.ndim == 1:
        sides = arr
    else:
        raise ValueError(f"sizes must be n diameters or (n, 2) or (n, 3) sizes, got shape {arr.shape}")
    if sides.size == 0:
        raise ValueError("sizes is empty: nothing to suggest a cell size for")
    if not (np.isfinite(sides).all() and (sides >= 0).all()):
        bad = int(np.flatnonzero(~(np.isfinite(sides) & (sides >= 0)))[0])
        raise ValueError(f"sizes[{bad}] must be finite and >= 0, got {float(sides[bad])!r}")
    return sides


def suggest(sizes, large_threshold=4, dimension=None):
    """Recommend an index, and its cell size, for objects of these sizes.

    Parameters
    ----------
    sizes : array_like of float, shape (n,), (n, 2) or (n, 3)
        n diameters, or widths and heights, or widths, heights and depths, in
        world units (finite, >= 0).
    large_threshold : int, optional
        The uniform grid's `large_threshold` the recommendation is for.
    dimension : {2, 3}, optional
        That of the sizes' columns; for diameters, 2 unless given.

    Returns
    -------
    dict
        ``"index"``: ``"uniform"`` or ``"hierarchical"``; ``"cell_size"``: the
        uniform grid's cell side in world units (float), None for the
        hierarchical grid; ``"reason"``: the figures it decided on (str).

    Raises
    ------
    ValueError
        For sizes `longest_sides` refuses, or a dimension other than 2 or 3
        or than the sizes' columns.

    Examples
    --------
    >>> from spatial_hash.tuning import suggest

    One large object among 1,000 costs the uniform grid's pair pass ~729 cell
    visits (27 cells a side of 16), less than the objects themselves; among
    100, more:

    >>> advice = suggest([8.0] * 999 + [400.0])
    >>> advice["index"], advice["cell_size"]
    ('uniform', 16.0)
    >>> suggest([8.0] * 99 + [400.0])["index"]
    'hierarchical'
    """
    sides = longest_sides(sizes)
    shape = np.shape(sizes)
    if dimension is None:
        dimension = shape[1] if len(shape) == 2 else 2
    if dimension not in CELLS_PER_DIAMETER or (len(shape) == 2 and shape[1] != dimension):
        raise ValueError(f"dimension must be 2 or 3 (and match the sizes' columns), got {dimension!r}")
    typical = float(np.median(sides))
    if typical == 0.0:
        typical = float(sides.max()) or 1.0
    per_diameter = CELLS_PER_DIAMETER[dimension]
    cell = per_diameter * typical
    spans = np.floor(sides / cell) + 2.0          # cells per side, at worst
    large = spans > large_threshold
    large_cells = float((spans[large] ** dimension).sum())
    n = len(sides)
    facts = (f"{n:,} objects, median longest side {typical:g}, largest {sides.max():g}; "
             f"cells of {per_diameter:g}x the median = {cell:g}")
    if large_cells > n:
        return {"index": "hierarchical", "cell_size": None, "reason": (
            f"{facts}: {int(large.sum()):,} objects would span more than {large_threshold} "
            f"cells on a side and the large-object list would walk ~{large_cells:,.0f} cells "
            f"per pair pass, more than the {n:,} objects themselves; the hierarchical grid "
            f"gives each size its own level (cells sqrt(2)x its longest side, at most "
            f"{2 ** dimension} cells per object) and needs no tuning")}
    reason = f"{facts}: a uniform grid fits"
    if large.any():
        reason += (f"; the {int(large.sum()):,} larger objects go to the large-object list, "
                   f"which costs ~{large_cells:,.0f} cell visits per pair pass, less than "
                   f"the {n:,} objects themselves")
    return {"index": "uniform", "cell_size": cell, "reason": reason}


def load_sizes(path):
    """Sizes from a text file, for `suggest`.

    Parameters
    ----------
    path : str or os.PathLike
        A text file of one object a line: ``diameter`` or ``width height``
        (spaces or a comma between), every line alike; blank lines and lines
        starting with ``#`` are skipped.

    Returns
    -------
    numpy.ndarray of float64, shape (n,) or (n, 2)
        The sizes the file holds: a diameter per line, or a (width, height)
        per line.

    Raises
    ------
    OSError
        If the file cannot be read.
    ValueError
        For no sizes, or a line that is not one or two numbers, or has another
        count of numbers than the first line: the message names the file, the
        line and what is wrong with it.
    """
    rows, first = [], None
    with open(path) as f:
        for number, line in enumerate(f, 1):
            words = line.replace(",", " ").split()
            if not words or words[0].startswith("#"):
                continue
            where = f"{path}, line {number}"
            if len(words) > 2:
                raise ValueError(f"{where}: expected 'diameter' or 'width height', got {line.strip()!r}")
            try:
                values = [float(w) for w in words]
            except ValueError:
                raise ValueError(f"{where}: {line.strip()!r} is not one or two numbers") from None
            if first is None:
                first = (number, len(values))
            elif len(values) != first[1]:
                raise ValueError(f"{where}: {len(values)} numbers, but line {first[0]} has {first[1]}: "
                                 "every line must be a 'diameter' or every line 'width height'")
            rows.append(values)
    if not rows:
        raise ValueError(f"{path}: no sizes (one 'diameter' or 'width height' a line)")
    arr = np.array(rows, dtype=np.float64)
    return arr[:, 0] if arr.shape[1] == 1 else arr


def sizes_of_scene(scene):
    """Object sizes of a benchmark scene (`spatial_hash.bench`), for `suggest`.

    Parameters
    ----------
    scene : spatial_hash.bench.scenes.Scene

    Returns
    -------
    numpy.ndarray of float64
        The circles' diameters, shape (n,), or the boxes' sizes, shape (n, 2).
    """
    return 2.0 * scene.extent if scene.kind == "circle" else scene.extent
