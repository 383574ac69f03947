"""What the node draws when debug_draw is on."""
import numpy as np

from spatial_hash._core import UniformGrid

# Debug drawing stays readable and cheap: beyond this many objects no candidate lines.
MAX_CANDIDATE_LINES_OBJECTS = 2000


def grid_lines(grid, view):
    """Cell borders crossing the view rect (x, y, w, h) as ((x0, y0), (x1, y1))
    segments; none for the hierarchical grid or when the cells are too small
    to see."""
    if not isinstance(grid, UniformGrid):
        return []
    x, y, w, h = view
    s = grid.cell_size
    if w / s > 400 or h / s > 400:
        return []
    xs = np.arange(np.floor(x / s) * s, x + w + s, s)
    ys = np.arange(np.floor(y / s) * s, y + h + s, s)
    return [((float(v), y), (float(v), y + h)) for v in xs] + \
           [((x, float(v)), (x + w, float(v))) for v in ys]


def debug_geometry(grid, view, candidates=True):
    """What the node draws: {"grid": cell borders, "candidates": the pairs the
    broad phase hands to the narrow phase, center to center} as flat
    [x0, y0, x1, y1, ...] segments, and {"free": ..., "colliding": ...} boxes
    of the objects as flat [x, y, w, h, ...] numbers."""
    ids = grid.ids()
    boxes = {i: grid.bounds(i) for i in ids}
    colliding = set(grid.pair_ids().ravel().tolist())
    lines = []
    if candidates and len(ids) <= MAX_CANDIDATE_LINES_OBJECTS:
        center = {i: (b[0] + b[2] / 2, b[1] + b[3] / 2) for i, b in boxes.items()}
        lines = [v for a, b in grid.candidate_ids().tolist() for v in center[a] + center[b]]
    return {"grid": [v for a, b in grid_lines(grid, view) for v in a + b],
            "candidates": lines,
            "free": [v for i, b in boxes.items() if i not in colliding for v in b],
            "colliding": [v for i, b in boxes.items() if i in colliding for v in b]}
