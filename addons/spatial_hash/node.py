"""What the SpatialHash2D Godot node does, without Godot.

The engine-specific scripts (`godot4/spatial_hash_2d.py`, `godot3/spatial_hash_2d.py`)
only declare the node, its exported properties and type conversions; every call
lands here. A call from GDScript must never raise into the engine (an exception
escaping a pythonscript method can crash Godot 3), so each public method checks
its argument count, validates everything, and on bad input reports a message
naming the value and returns an empty or false result, leaving the index as it was.

Objects are ints or Godot objects (keyed by their instance id, so any wrapper of
the same object finds it). Batch calls work on the index's own integer ids.
"""
import functools
import math
import sys
import time

import numpy as np

from spatial_hash._core import HierarchicalGrid, UniformGrid, read_rect, read_vec2
from spatial_hash.snapshot import candidate_pairs

# (monitor name, key of get_stats()) for Godot 4's custom monitors.
MONITORS = [
    ("total_objects", "objects"),
    ("active_cells", "active_cells"),
    ("avg_objects_per_cell", "avg_objects_per_cell"),
    ("large_objects", "large_objects"),
    ("broad_phase_pairs", "broad_phase_pairs"),
    ("narrow_phase_checks", "narrow_phase_checks"),
    ("last_query_ms", "last_query_ms"),
    ("last_pairs_ms", "last_pairs_ms"),
]
# Methods whose list result the engine layers hand back as a packed int array.
PACKED_RESULTS = frozenset({"insert_batch", "get_collision_pairs_packed"})
# Debug drawing stays readable and cheap: beyond this many objects no candidate lines.
MAX_CANDIDATE_LINES_OBJECTS = 2000
# Debug colours (r, g, b, a), as in the seed-000 demo.
GRID_COLOR = (0.5, 0.5, 0.5, 0.35)
CANDIDATE_COLOR = (0.5, 0.65, 0.85, 0.6)
FREE_COLOR = (0.6, 0.76, 0.74, 1.0)
COLLIDING_COLOR = (0.89, 0.34, 0.18, 1.0)


def report_to_stderr(message):
    print("ERROR: " + message, file=sys.stderr, flush=True)


def gdcall(default):
    """Make a method safe to call from GDScript: wrong argument counts and any
    exception become a reported message and `default` (a fresh copy for lists)."""
    def wrap(method):
        code = method.__code__
        most = code.co_argcount - 1
        least = most - len(method.__defaults__ or ())
        names = ", ".join(code.co_varnames[1:most + 1])

        @functools.wraps(method)
        def call(self, *args):
            if not least <= len(args) <= most:
                count = str(most) if least == most else f"{least} to {most}"
                return self._fail(f"{method.__name__}({names}) takes {count} arguments, "
                                  f"got {len(args)}", default)
            try:
                return method(self, *args)
            except Exception as error:      # the engine boundary: report, never raise
                return self._fail(f"{method.__name__}: {error}", default)
        call.gd_default = default
        return call
    return wrap


def object_key(obj):
    """Ints are their own key; Godot objects are keyed by instance id."""
    if isinstance(obj, bool) or obj is None:
        raise TypeError(f"obj must be an int or a Godot object, got {obj!r}")
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    get_instance_id = getattr(obj, "get_instance_id", None)
    if get_instance_id is None:
        raise TypeError(f"obj must be an int or a Godot object, got {obj!r}")
    return ("instance", int(get_instance_id()))


def vec2_rows(values, name):
    """(n, 2) float64 rows from a packed Vector2 array, a flat [x0, y0, x1, ...]
    number array, an (n, 2) array, or any sequence of Vector2-likes."""
    try:
        rows = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        rows = None
    if rows is None or rows.ndim == 0:
        rows = np.array([read_vec2(v, f"{name}[{k}]") for k, v in enumerate(values)],
                        dtype=np.float64)
    if rows.ndim == 1 and rows.size % 2 == 0:
        rows = rows.reshape(-1, 2)
    if rows.ndim != 2 or rows.shape[1] != 2:
        raise TypeError(f"{name} must be Vector2s or x, y number pairs, got shape {rows.shape}")
    return np.ascontiguousarray(rows)


def int_ids(values, name="ids"):
    ids = np.asarray(values)
    if ids.size == 0:
        return np.empty(0, dtype=np.int64)
    if ids.ndim != 1 or ids.dtype.kind not in "iu":
        raise TypeError(f"{name} must be integers, got {ids.dtype} with shape {ids.shape}")
    return ids.astype(np.int64)


class SpatialHashNode:
    """The SpatialHash2D node's behaviour: the GDScript-facing methods, the
    exported settings, stats and monitors, and the debug geometry."""

    def __init__(self, cell_size=64.0, large_threshold=4, hierarchical=False,
                 report=report_to_stderr):
        self._report = report
        self.last_error = ""
        self.last_query_ms = 0.0
        self.last_pairs_ms = 0.0
        self._ids = {}          # object key -> index id
        self._grid = self._make_grid(cell_size, large_threshold, hierarchical)
        self._settings = (cell_size, large_threshold, hierarchical)

    # ------------------------------------------------------------- plumbing

    def _fail(self, message, default):
        self.last_error = "SpatialHash2D." + message
        self._report(self.last_error)
        return list(default) if isinstance(default, list) else \
            dict(default) if isinstance(default, dict) else default

    @staticmethod
    def _make_grid(cell_size, large_threshold, hierarchical):
        if hierarchical:
            return HierarchicalGrid()
        return UniformGrid(cell_size, (0.0, 0.0), large_threshold)

    @property
    def grid(self):
        return self._grid

    def _id(self, obj):
        object_id = self._ids.get(object_key(obj))
        if object_id is None:
            raise KeyError(f"{obj!r} is not in this spatial hash")
        return object_id

    def _timed_query(self, run):
        found, self.last_query_ms = timed(run)
        return found

    # ------------------------------------------------------------- settings

    @gdcall(False)
    def configure(self, cell_size, large_threshold, hierarchical):
        """Apply the exported properties. The objects move to the new index; if a
        setting is rejected the old index and settings stay."""
        if (cell_size, large_threshold, hierarchical) == self._settings:
            return True
        if isinstance(large_threshold, bool) or not isinstance(large_threshold, int):
            raise TypeError(f"large_object_threshold must be an int, got {large_threshold!r}")
        size = number(cell_size, "cell_size")
        if not (size > 0.0 and math.isfinite(size)):
            raise ValueError(f"cell_size must be a positive finite number, got {cell_size!r}")
        grid = self._make_grid(size, large_threshold, bool(hierarchical))
        self._copy_objects(self._grid, grid)
        self._grid = grid
        self._settings = (cell_size, large_threshold, hierarchical)
        return True

    @staticmethod
    def _copy_objects(old, new):
        """Every object of `old` into the empty `new` under the same id (batch ids
        are the caller's), holes filled by placeholders removed afterwards."""
        live = set(old.ids())
        top = max(live, default=-1)
        for object_id in range(top + 1):
            if object_id not in live:
                new.insert_rect(0.0, 0.0, 0.0, 0.0)
                continue
            circle = old.circle_of(object_id)
            handle = old.handle(object_id)
            if circle:
                new.insert_circle(*circle, handle)
            else:
                new.insert_rect(*old.bounds(object_id), handle)
        for object_id in range(top + 1):
            if object_id not in live:
                new.remove(object_id)

    # ------------------------------------------------ the GDScript-facing API

    @gdcall(False)
    def insert(self, obj, pos, size):
        """Add obj (or move it if present) as the box at pos of the given size."""
        key = object_key(obj)
        x, y = read_vec2(pos, "pos")
        w, h = read_vec2(size, "size")
        object_id = self._ids.get(key)
        if object_id is None:
            self._ids[key] = self._grid.insert_rect(x, y, w, h, obj)
        else:
            self._grid.update_rect(object_id, x, y, w, h)
        return True

    @gdcall(False)
    def insert_circle(self, obj, center, radius):
        key = object_key(obj)
        x, y = read_vec2(center, "center")
        object_id = self._ids.get(key)
        if object_id is None:
            self._ids[key] = self._grid.insert_circle(x, y, number(radius, "radius"), obj)
        else:
            self._grid.update_circle(object_id, x, y, number(radius, "radius"))
        return True

    @gdcall(False)
    def update(self, obj, bounds):
        """Move obj to new bounds (a Rect2); reports an error if obj is absent."""
        x, y, w, h = read_rect(bounds)
        self._grid.update_rect(self._id(obj), x, y, w, h)
        return True

    @gdcall(False)
    def remove(self, obj):
        """False (and no error) if obj was not there."""
        object_id = self._ids.pop(object_key(obj), None)
        return object_id is not None and self._grid.remove(object_id)

    @gdcall(False)
    def has(self, obj):
        return object_key(obj) in self._ids

    @gdcall(-1)
    def get_id(self, obj):
        """The index id of obj, as used by the batch methods; -1 if absent."""
        return self._ids.get(object_key(obj), -1)

    @gdcall([])
    def query_nearby(self, pos, size):
        x, y = read_vec2(pos, "pos")
        w, h = read_vec2(size, "size")
        return self._timed_query(lambda: self._grid.query_nearby(x, y, w, h))

    @gdcall([])
    def query_range(self, rect, exact=False):
        x, y, w, h = read_rect(rect, "rect")
        return self._timed_query(lambda: self._grid.query_rect(x, y, w, h, bool(exact)))

    @gdcall([])
    def query_radius(self, center, radius):
        x, y = read_vec2(center, "center")
        r = number(radius, "radius")
        return self._timed_query(lambda: self._grid.query_radius(x, y, r))

    @gdcall([])
    def query_point(self, point):
        x, y = read_vec2(point, "point")
        return self._timed_query(lambda: self._grid.query_point(x, y))

    @gdcall([])
    def query_along_path(self, start, end, size):
        x0, y0 = read_vec2(start, "start")
        x1, y1 = read_vec2(end, "end")
        w, h = read_vec2(size, "size")
        return self._timed_query(lambda: self._grid.query_swept(x0, y0, x1, y1, w, h))

    def _pairs_now(self, run):
        found, self.last_pairs_ms = timed(run)
        return found

    @gdcall([])
    def get_collision_pairs(self):
        """Every overlapping pair once, as [a, b] lists of the objects."""
        return [[a, b] for a, b in self._pairs_now(self._grid.pairs)]

    @gdcall(False)
    def is_colliding(self, a, b):
        return self._grid.is_colliding(self._id(a), self._id(b))

    @gdcall(False)
    def clear(self):
        self._grid.clear()
        self._ids.clear()
        return True

    @gdcall({})
    def get_stats(self):
        """The same numbers for both index kinds, plus the timings of the last
        query and pair pass."""
        raw = self._grid.stats()
        if "levels" in raw:
            cells = sum(level["occupied_cells"] for level in raw["levels"])
            raw = dict(raw, active_cells=cells, large_objects=0,
                       avg_objects_per_cell=raw["objects"] / cells if cells else 0.0,
                       levels=len(raw["levels"]))
        stats = {key: raw[key] for key in ("objects", "active_cells", "avg_objects_per_cell",
                                           "large_objects", "broad_phase_pairs",
                                           "narrow_phase_checks", "hits")}
        stats.update(max_objects_per_cell=raw.get("max_objects_per_cell", 0),
                     index="hierarchical" if isinstance(self._grid, HierarchicalGrid) else "uniform",
                     last_query_ms=self.last_query_ms, last_pairs_ms=self.last_pairs_ms)
        return stats

    @gdcall("")
    def get_last_error(self):
        return self.last_error

    # ------------------------------------------------------------ batches

    @gdcall([])
    def insert_batch(self, positions, sizes):
        """Add n boxes (top-left positions and sizes, Vector2 arrays); returns their
        ids, which the other batch methods and get_collision_pairs_packed use."""
        xy, wh = vec2_rows(positions, "positions"), vec2_rows(sizes, "sizes")
        _same_length(xy, wh)
        return self._grid.insert_rects(np.hstack([xy, wh])).tolist()

    @gdcall(False)
    def update_batch(self, ids, positions, sizes):
        """Move the objects `ids` to new boxes; all rows are checked before any moves."""
        xy, wh = vec2_rows(positions, "positions"), vec2_rows(sizes, "sizes")
        _same_length(xy, wh)
        self._grid.update_rects(int_ids(ids), np.hstack([xy, wh]))
        return True

    @gdcall(False)
    def remove_batch(self, ids):
        """Remove objects added by insert_batch (objects added one at a time go
        through remove(obj))."""
        ids = int_ids(ids)
        named = set(self._ids.values()).intersection(ids.tolist())
        if named:
            raise ValueError(f"ids {sorted(named)} belong to objects added with insert(): "
                             f"remove those with remove(obj)")
        self._grid.remove_many(ids)
        return True

    @gdcall([])
    def get_collision_pairs_packed(self):
        """Every overlapping pair once as a flat [a0, b0, a1, b1, ...] list of ids."""
        return self._pairs_now(self._grid.pair_ids).ravel().tolist()

    # -------------------------------------------------------- debug drawing

    def grid_lines(self, view):
        """Cell borders crossing the view rect (x, y, w, h) as ((x0, y0), (x1, y1))
        segments; none for the hierarchical grid or when the cells are too small
        to see."""
        if not isinstance(self._grid, UniformGrid):
            return []
        x, y, w, h = view
        s = self._grid.cell_size
        if w / s > 400 or h / s > 400:
            return []
        xs = np.arange(np.floor(x / s) * s, x + w + s, s)
        ys = np.arange(np.floor(y / s) * s, y + h + s, s)
        return [((float(v), y), (float(v), y + h)) for v in xs] + \
               [((x, float(v)), (x + w, float(v))) for v in ys]

    def debug_geometry(self, view, candidates=True):
        """What the node draws: grid lines, boxes of the objects (colliding or not)
        and, if asked, candidate pairs (objects sharing a cell) as center-to-center
        lines."""
        ids = self._grid.ids()
        boxes = [self._grid.bounds(i) for i in ids]
        hits = self._grid.pair_ids()
        colliding = set(hits.ravel().tolist())
        lines = []
        if candidates and isinstance(self._grid, UniformGrid) \
                and len(ids) <= MAX_CANDIDATE_LINES_OBJECTS:
            center = {i: (b[0] + b[2] / 2, b[1] + b[3] / 2) for i, b in zip(ids, boxes)}
            lines = [(center[a], center[b]) for a, b in candidate_pairs(self._grid, ids)]
        return {"grid": self.grid_lines(view), "candidates": lines,
                "boxes": [(b, i in colliding) for i, b in zip(ids, boxes)]}

    def draw_list(self, view, candidates=True):
        """debug_geometry as drawing commands, in drawing order: ("line", x0, y0,
        x1, y1, rgba) and ("rect", x, y, w, h, rgba) for an unfilled box."""
        shapes = self.debug_geometry(view, candidates)
        return ([("line", *a, *b, GRID_COLOR) for a, b in shapes["grid"]]
                + [("line", *a, *b, CANDIDATE_COLOR) for a, b in shapes["candidates"]]
                + [("rect", *box, COLLIDING_COLOR if hit else FREE_COLOR)
                   for box, hit in shapes["boxes"]])

    def overlay_text(self):
        stats = self.get_stats()
        return "\n".join([
            f"spatial_hash ({stats['index']}): {stats['objects']} objects",
            f"active cells {stats['active_cells']}, {stats['avg_objects_per_cell']:.2f} per cell, "
            f"{stats['large_objects']} large",
            f"broad-phase pairs {stats['broad_phase_pairs']}, "
            f"narrow-phase checks {stats['narrow_phase_checks']}, hits {stats['hits']}",
            f"last query {stats['last_query_ms']:.3f} ms, last pairs {stats['last_pairs_ms']:.3f} ms",
        ])


def timed(run):
    """run()'s result and how long it took, in ms."""
    start = time.perf_counter()
    result = run()
    return result, 1e3 * (time.perf_counter() - start)


def _same_length(xy, wh):
    if len(xy) != len(wh):
        raise ValueError(f"{len(xy)} positions but {len(wh)} sizes")


def number(value, name):
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, got {value!r}")
    return float(value)


class MonitorSet:
    """Custom-monitor ids for one node: the first node registered gets the plain
    `spatial_hash/<name>` ids, later ones a distinct suffix (one slash only, so
    Godot keeps them in the spatial_hash category)."""

    def __init__(self, node, label, is_taken):
        self.node = node
        suffix = ""
        k = 1
        while any(is_taken(f"spatial_hash/{name}{suffix}") for name, _ in MONITORS):
            k += 1
            suffix = f" [{label} {k}]"
        self.ids = {f"spatial_hash/{name}{suffix}": key for name, key in MONITORS}

    def reader(self, monitor_id):
        """A callable returning the monitor's current value (never negative, never raises)."""
        key = self.ids[monitor_id]

        def read():
            try:
                return max(0.0, float(self.node.get_stats().get(key, 0.0)))
            except Exception:       # a monitor runs inside the engine's frame
                return 0.0
        return read


class NodeBridge:
    """What an engine script holds: the node's behaviour, the engine's settings
    and its type conversions. `settings()` reads the exported properties (applied
    before every call, so a property changed from GDScript takes effect at once);
    `to_engine` converts results, `to_packed` int lists for PACKED_RESULTS."""

    def __init__(self, settings, to_engine, to_packed, report=report_to_stderr):
        self.settings = settings
        self.to_engine = to_engine
        self.to_packed = to_packed
        self.node = SpatialHashNode(report=report)
        self.monitors = None

    def synced(self):
        """The node, with the current exported properties applied."""
        self.node.configure(*self.settings())
        return self.node

    def call(self, name, args):
        result = getattr(self.synced(), name)(*args)
        try:
            return self.to_packed(result) if name in PACKED_RESULTS else self.to_engine(result)
        except Exception as error:      # the engine boundary: report, never raise
            return self.node._fail(f"{name}: cannot convert the result: {error}", None)
