"""What the node draws when debug_draw is on, and the Godot 3 stats overlay."""
import numpy as np

from spatial_hash._core import UniformGrid

# Debug drawing stays readable and cheap: beyond this many objects no candidate lines.
MAX_CANDIDATE_LINES_OBJECTS = 2000
# Debug colours (r, g, b, a): grey grid, blue candidate lines, teal free and orange colliding boxes.
GRID_COLOR = (0.5, 0.5, 0.5, 0.35)
CANDIDATE_COLOR = (0.5, 0.65, 0.85, 0.6)
FREE_COLOR = (0.6, 0.76, 0.74, 1.0)
COLLIDING_COLOR = (0.89, 0.34, 0.18, 1.0)


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
    """What the node draws: grid lines, boxes of the objects (colliding or not)
    and, if asked, the pairs the broad phase hands to the narrow phase as
    center-to-center lines."""
    ids = grid.ids()
    boxes = [grid.bounds(i) for i in ids]
    colliding = set(grid.pair_ids().ravel().tolist())
    lines = []
    if candidates and len(ids) <= MAX_CANDIDATE_LINES_OBJECTS:
        center = {i: (b[0] + b[2] / 2, b[1] + b[3] / 2) for i, b in zip(ids, boxes)}
        lines = [(center[a], center[b]) for a, b in grid.candidate_ids().tolist()]
    return {"grid": grid_lines(grid, view), "candidates": lines,
            "boxes": [(b, i in colliding) for i, b in zip(ids, boxes)]}


def draw_list(grid, view, candidates=True):
    """debug_geometry as drawing commands, in drawing order: ("line", x0, y0,
    x1, y1, rgba) and ("rect", x, y, w, h, rgba) for an unfilled box."""
    shapes = debug_geometry(grid, view, candidates)
    return ([("line", *a, *b, GRID_COLOR) for a, b in shapes["grid"]]
            + [("line", *a, *b, CANDIDATE_COLOR) for a, b in shapes["candidates"]]
            + [("rect", *box, COLLIDING_COLOR if hit else FREE_COLOR)
               for box, hit in shapes["boxes"]])


def overlay_text(stats):
    """The Godot 3 overlay's lines for a node's get_stats()."""
    return "\n".join([
        f"spatial_hash ({stats['index']}): {stats['objects']} objects",
        f"active cells {stats['active_cells']}, {stats['avg_objects_per_cell']:.2f} per cell, "
        f"{stats['large_objects']} large",
        f"broad-phase pairs {stats['broad_phase_pairs']}, "
        f"narrow-phase checks {stats['narrow_phase_checks']}, hits {stats['hits']}",
        f"last query {stats['last_query_ms']:.3f} ms, last move {stats['last_update_ms']:.3f} ms, "
        f"last pairs {stats['last_pairs_ms']:.3f} ms",
    ])
