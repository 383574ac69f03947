"""What the node draws when debug_draw is on."""
import itertools

import numpy as np

# Debug drawing stays readable and cheap: beyond this many objects no candidate lines.
MAX_CANDIDATE_LINES_OBJECTS = 2000
# 3D draws the occupied cells' edges (a full lattice of cells would hide
# everything): at most this many cells, 12 edges each.
MAX_DRAWN_CELLS = 500


def grid_lines(grid, view, dimension):
    """Cell borders crossing the view (the D corner coordinates, then the D
    sizes) as (start, end) segments: in 2D the lines between cells, in 3D the
    edges of the occupied cells; none for the hierarchical grid or when the
    cells are too small to see."""
    if not isinstance(grid, dimension.uniform):
        return []
    if dimension.d == 3:
        return cell_edges(grid, view)
    x, y, w, h = view
    s = grid.cell_size
    if w / s > 400 or h / s > 400:
        return []
    xs = np.arange(np.floor(x / s) * s, x + w + s, s)
    ys = np.arange(np.floor(y / s) * s, y + h + s, s)
    return [((float(v), y), (float(v), y + h)) for v in xs] + \
           [((x, float(v)), (x + w, float(v))) for v in ys]


def cell_edges(grid, view):
    """The edges of the occupied cells that meet the view box, nearest the
    view's centre first, up to MAX_DRAWN_CELLS cells."""
    s, d = grid.cell_size, 3
    origin = (grid.origin_x, grid.origin_y, grid.origin_z)
    low = [np.floor((view[k] - origin[k]) / s) for k in range(d)]
    high = [np.floor((view[k] + view[d + k] - origin[k]) / s) for k in range(d)]
    middle = [(lo + hi) / 2 for lo, hi in zip(low, high)]
    cells = [c for c in grid.cell_counts() if all(low[k] <= c[k] <= high[k] for k in range(d))]
    cells.sort(key=lambda c: sum((c[k] - middle[k]) ** 2 for k in range(d)))
    edges = []
    for cell in cells[:MAX_DRAWN_CELLS]:
        lo = [origin[k] + cell[k] * s for k in range(d)]
        for axis in range(d):
            others = [k for k in range(d) if k != axis]
            for ends in itertools.product((0.0, s), repeat=d - 1):
                start = list(lo)
                for k, e in zip(others, ends):
                    start[k] += e
                end = list(start)
                end[axis] += s
                edges.append((tuple(start), tuple(end)))
    return edges


def debug_geometry(grid, view, dimension, candidates=True):
    """What the node draws: {"grid": cell borders, "candidates": the pairs the
    broad phase hands to the narrow phase, center to center} as flat
    [x0, y0(, z0), x1, y1(, z1), ...] segments, and {"free": ..., "colliding": ...}
    boxes of the objects as flat [x, y(, z), w, h(, d), ...] numbers."""
    d = dimension.d
    ids = grid.ids()
    boxes = {i: grid.bounds(i) for i in ids}
    colliding = set(grid.pair_ids().ravel().tolist())
    lines = []
    if candidates and len(ids) <= MAX_CANDIDATE_LINES_OBJECTS:
        center = {i: tuple(b[k] + b[d + k] / 2 for k in range(d)) for i, b in boxes.items()}
        lines = [v for a, b in grid.candidate_ids().tolist() for v in center[a] + center[b]]
    return {"grid": [v for a, b in grid_lines(grid, view, dimension) for v in a + b],
            "candidates": lines,
            "free": [v for i, b in boxes.items() if i not in colliding for v in b],
            "colliding": [v for i, b in boxes.items() if i in colliding for v in b]}
