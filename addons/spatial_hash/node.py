"""What the SpatialHash2D Godot node does, without Godot.

The engine-specific scripts (`godot4/spatial_hash_2d.py`, `godot3/spatial_hash_2d.py`)
only declare the node, its exported properties and type conversions; every call
lands here. A call from GDScript must never raise into the engine: an exception
escaping a pythonscript method can crash Godot 3, and one escaping a
godot-python-extension method aborts the calling GDScript function. So each
public method takes any number of arguments, checks the count itself, validates
everything, and on bad input reports a message naming the method, the argument
and the value, keeps it for get_last_error(), and returns an empty or false
result, leaving the index and the caller's values as they were.

Objects are ints or Godot nodes inside the scene tree (keyed by their instance
id, so any wrapper of the same object finds it). Both Python plugins crash the
engine when a freed object is passed to a Python method, before any Python code
runs, so nothing may ever need to pass one: the engine script watches each node
inserted here (its `tree_exiting` signal) and the node leaves the index as it
leaves the tree. Batch calls work on the index's own integer ids.
"""
import functools
import math
import sys
import time

import numpy as np

from spatial_hash._core import HierarchicalGrid, UniformGrid, read_rect, read_vec2

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
# The node's methods as GDScript sees them (each engine script forwards exactly these).
GDSCRIPT_METHODS = frozenset({
    "insert", "insert_circle", "update", "remove", "has", "get_id", "query_nearby",
    "query_range", "query_radius", "query_point", "query_along_path", "get_collision_pairs",
    "is_colliding", "clear", "get_stats", "get_last_error", "insert_batch", "update_batch",
    "remove_batch", "get_collision_pairs_packed",
})
# Methods whose list result the engine layers hand back as a packed int array.
PACKED_RESULTS = frozenset({"insert_batch", "get_collision_pairs_packed"})
# The exported properties and their defaults; the first three shape the index.
SETTINGS = {
    "cell_size": 64.0,
    "large_object_threshold": 4,
    "hierarchical": False,
    "debug_draw": False,
    "debug_candidates": True,
    "overlay": False,
    "monitors_enabled": True,
}
INDEX_SETTINGS = ("cell_size", "large_object_threshold", "hierarchical")
# Debug drawing stays readable and cheap: beyond this many objects no candidate lines.
MAX_CANDIDATE_LINES_OBJECTS = 2000
# Debug colours (r, g, b, a): grey grid, blue candidate lines, teal free and orange colliding boxes.
GRID_COLOR = (0.5, 0.5, 0.5, 0.35)
CANDIDATE_COLOR = (0.5, 0.65, 0.85, 0.6)
FREE_COLOR = (0.6, 0.76, 0.74, 1.0)
COLLIDING_COLOR = (0.89, 0.34, 0.18, 1.0)


def report_to_stderr(message):
    print("ERROR: " + message, file=sys.stderr, flush=True)


class PlainObjects:
    """The object watcher outside Godot: any object with get_instance_id() is
    accepted and nothing is watched (plain Python objects are never freed under
    us). The engine scripts pass their own, which refuses what the engine could
    free unseen and connects each node's `tree_exiting` signal."""

    def watch(self, obj, instance_id):
        return None

    def unwatch(self, obj, token):
        pass

    def describe(self, value):
        return repr(value)


class SceneTreeObjects(PlainObjects):
    """The engine scripts' watcher: only nodes inside the tree are taken, each
    dropped from the index as it leaves (its tree_exiting signal calls the
    owner's `_forget_object(instance_id)`), and values are named for messages by
    their node path. Subclasses say how their engine connects the signal."""

    node_class = None

    def __init__(self, owner):
        self.owner = owner

    def watch(self, obj, instance_id):
        if not isinstance(obj, self.node_class) or not obj.is_inside_tree():
            raise TypeError(f"obj must be an int or a Node inside the scene tree, "
                            f"got {self.describe(obj)}")
        return self.connect_exit(obj, instance_id)

    def describe(self, value):
        if isinstance(value, self.node_class):
            where = value.get_path() if value.is_inside_tree() else value.name
            return f"{value.get_class()} '{where}'"
        return repr(value)

    def connect_exit(self, obj, instance_id):
        """Connect obj's tree_exiting to the owner's _forget_object(instance_id);
        returns what unwatch needs to disconnect it."""
        raise NotImplementedError


def gdcall(default):
    """Make a method safe to call from GDScript with any arguments: a wrong count
    and any exception become a reported message and `default` (a fresh copy
    for lists and dicts). Each call starts with no error."""
    def wrap(method):
        code = method.__code__
        most = code.co_argcount - 1
        least = most - len(method.__defaults__ or ())
        names = ", ".join(code.co_varnames[1:most + 1])

        @functools.wraps(method)
        def call(self, *args):
            self.last_error = ""
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


# ------------------------------------------------------- argument readers

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


def read_point(value, name):
    """A finite Vector2 as (x, y)."""
    x, y = read_vec2(value, name)
    return finite(x, name + ".x"), finite(y, name + ".y")


def read_size(value, name):
    """A finite, non-negative Vector2 size as (w, h)."""
    w, h = read_vec2(value, name)
    return finite(w, name + ".x", 0.0), finite(h, name + ".y", 0.0)


def read_bounds(value, name):
    """A Rect2 with a finite position and a finite, non-negative size."""
    x, y, w, h = read_rect(value, name)
    return (finite(x, name + ".position.x"), finite(y, name + ".position.y"),
            finite(w, name + ".size.x", 0.0), finite(h, name + ".size.y", 0.0))


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


def vec2_rows(values, name):
    """(n, 2) float rows from an (n, 2) or flat [x0, y0, x1, ...] float array (the
    engine scripts turn packed Vector2 arrays into these), or a list of
    Vector2-likes. Their values are checked by rect_rows."""
    _array_kind(values, name, "a PackedVector2Array or an Array of Vector2")
    if isinstance(values, np.ndarray):
        if values.dtype.kind != "f":        # a packed int array is ids, not coordinates
            raise TypeError(f"{name} must be a PackedVector2Array or floats, got {values.dtype}")
        rows = values
    elif all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        rows = np.array(values, dtype=np.float64)
    else:
        rows = np.array([read_vec2(v, f"{name}[{k}]") for k, v in enumerate(values)],
                        dtype=np.float64).reshape(-1, 2)
    if rows.ndim == 1 and rows.size % 2 == 0:
        rows = rows.reshape(-1, 2)
    if rows.ndim != 2 or rows.shape[1] != 2:
        raise TypeError(f"{name} must be Vector2s or x, y number pairs, got shape {rows.shape}")
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


def check_setting(name, value):
    """The validated value of an exported property; raises naming it."""
    if name == "cell_size":
        size = number(value, name)
        if not (size > 0.0 and math.isfinite(size)):
            raise ValueError(f"cell_size must be a positive finite number, got {value!r}")
        return size
    if name == "large_object_threshold":
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
                or not 1 <= value <= 64:
            raise ValueError(f"large_object_threshold must be an int from 1 to 64, got {value!r}")
        return int(value)
    return flag(value, name)


class SpatialHashNode:
    """The SpatialHash2D node's behaviour: the GDScript-facing methods, the
    exported settings, stats and monitors, and the debug geometry."""

    def __init__(self, cell_size=64.0, large_threshold=4, hierarchical=False,
                 report=report_to_stderr, objects=None):
        self._report = report
        self._objects = objects or PlainObjects()
        self.last_error = ""
        self.last_query_ms = 0.0
        self.last_update_ms = 0.0
        self.last_pairs_ms = 0.0
        self._ids = {}          # object key -> index id
        self._keys = {}         # index id -> object key, for objects added one at a time
        self._watched = {}      # object key -> (object, the watcher's token)
        self.settings = dict(SETTINGS, cell_size=float(cell_size),
                             large_object_threshold=large_threshold, hierarchical=hierarchical)
        self._grid = self._make_grid(float(cell_size), large_threshold, hierarchical)

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

    def _id(self, obj, name="obj"):
        object_id = self._ids.get(object_key(obj, name))
        if object_id is None:
            raise KeyError(f"{name} {self._objects.describe(obj)} is not in this spatial hash")
        return object_id

    def _timed_query(self, run):
        found, self.last_query_ms = timed(run)
        return found

    # ------------------------------------------------------------- settings

    def setting(self, name):
        return self.settings[name]

    def set_setting(self, name, value):
        """Apply an exported property. A rejected value is reported once and the
        property keeps its last good value (and the index its objects)."""
        self.last_error = ""
        try:
            value = check_setting(name, value)
            self._regrid(dict(self.settings, **{name: value}))
        except Exception as error:      # the engine boundary: report, never raise
            return self._fail(f"{name}: {error}; it stays {self.settings[name]!r}", False)
        self.settings[name] = value
        return True

    def _regrid(self, wanted):
        """Move every object into a new index with the `wanted` settings; if they
        do not fit there (ValueError), the old index stays."""
        if all(wanted[k] == self.settings[k] for k in INDEX_SETTINGS):
            return
        grid = self._make_grid(*(wanted[k] for k in INDEX_SETTINGS))
        self._copy_objects(self._grid, grid)
        self._grid = grid

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

    # ------------------------------------------------------- object registry

    def _add(self, obj, key, insert):
        """Insert a new object: watched first (the watcher may refuse it), then
        placed; nothing stays behind if either step fails."""
        token = None
        if isinstance(key, tuple):
            token = self._objects.watch(obj, key[1])
        try:
            object_id = insert()
        except Exception:
            if isinstance(key, tuple):
                self._objects.unwatch(obj, token)
            raise
        self._ids[key] = object_id
        self._keys[object_id] = key
        if isinstance(key, tuple):
            self._watched[key] = (obj, token)

    def _drop(self, key):
        """Forget an object of the registry (the caller removes it from the grid)."""
        object_id = self._ids.pop(key)
        del self._keys[object_id]
        watched = self._watched.pop(key, None)
        if watched is not None:
            self._objects.unwatch(*watched)
        return object_id

    def forget(self, instance_id):
        """An inserted node is leaving the tree (and may be freed): drop it now,
        so that no query or pair list can hand it back. Called by the engine
        scripts from the node's tree_exiting signal."""
        key = ("instance", int(instance_id))
        if key in self._ids:
            self._grid.remove(self._drop(key))

    # ------------------------------------------------ the GDScript-facing API

    @gdcall(False)
    def insert(self, obj, pos, size):
        """Add obj (or move it if present) as the box at pos of the given size."""
        key = object_key(obj)
        x, y = read_point(pos, "pos")
        w, h = read_size(size, "size")
        object_id = self._ids.get(key)
        if object_id is None:
            self._add(obj, key, lambda: self._grid.insert_rect(x, y, w, h, obj))
        else:
            self._timed_update(lambda: self._grid.update_rect(object_id, x, y, w, h))
        return True

    @gdcall(False)
    def insert_circle(self, obj, center, radius):
        key = object_key(obj)
        x, y = read_point(center, "center")
        r = finite(radius, "radius", 0.0)
        object_id = self._ids.get(key)
        if object_id is None:
            self._add(obj, key, lambda: self._grid.insert_circle(x, y, r, obj))
        else:
            self._timed_update(lambda: self._grid.update_circle(object_id, x, y, r))
        return True

    @gdcall(False)
    def update(self, obj, bounds):
        """Move obj to new bounds (a Rect2); reports an error if obj is absent."""
        x, y, w, h = read_bounds(bounds, "bounds")
        object_id = self._id(obj)
        self._timed_update(lambda: self._grid.update_rect(object_id, x, y, w, h))
        return True

    @gdcall(False)
    def remove(self, obj):
        """False (and no error) if obj was not there."""
        key = object_key(obj)
        if key not in self._ids:
            return False
        return self._grid.remove(self._drop(key))

    @gdcall(False)
    def has(self, obj):
        return object_key(obj) in self._ids

    @gdcall(-1)
    def get_id(self, obj):
        """The index id of obj, as used by the batch methods; -1 if absent."""
        return self._ids.get(object_key(obj), -1)

    @gdcall([])
    def query_nearby(self, pos, size):
        x, y = read_point(pos, "pos")
        w, h = read_size(size, "size")
        return self._timed_query(lambda: self._grid.query_nearby(x, y, w, h))

    @gdcall([])
    def query_range(self, rect, exact=False):
        x, y, w, h = read_bounds(rect, "rect")
        exact = flag(exact, "exact")
        return self._timed_query(lambda: self._grid.query_rect(x, y, w, h, exact))

    @gdcall([])
    def query_radius(self, center, radius):
        x, y = read_point(center, "center")
        r = finite(radius, "radius", 0.0)
        return self._timed_query(lambda: self._grid.query_radius(x, y, r))

    @gdcall([])
    def query_point(self, point):
        x, y = read_point(point, "point")
        return self._timed_query(lambda: self._grid.query_point(x, y))

    @gdcall([])
    def query_along_path(self, start, end, size):
        x0, y0 = read_point(start, "start")
        x1, y1 = read_point(end, "end")
        w, h = read_size(size, "size")
        return self._timed_query(lambda: self._grid.query_swept(x0, y0, x1, y1, w, h))

    def _timed_update(self, run):
        _, self.last_update_ms = timed(run)

    def _pairs_now(self, run):
        found, self.last_pairs_ms = timed(run)
        return found

    @gdcall([])
    def get_collision_pairs(self):
        """Every overlapping pair once, as [a, b] lists of the objects."""
        return [[a, b] for a, b in self._pairs_now(self._grid.pairs)]

    @gdcall(False)
    def is_colliding(self, a, b):
        return self._grid.is_colliding(self._id(a, "a"), self._id(b, "b"))

    @gdcall(False)
    def clear(self):
        for key in list(self._ids):
            self._drop(key)
        self._grid.clear()
        return True

    @gdcall({})
    def get_stats(self):
        """The index's stats() (the same keys for both index kinds), which kind it
        is, and the timings (ms) of the last query, the last move inside the core
        and the last pair pass."""
        return dict(self._grid.stats(),
                    index="hierarchical" if isinstance(self._grid, HierarchicalGrid) else "uniform",
                    last_query_ms=self.last_query_ms, last_update_ms=self.last_update_ms,
                    last_pairs_ms=self.last_pairs_ms)

    @gdcall(None)
    def call(self, method, *arguments):
        """GDScript's call() reaching the node without a method name."""

    @gdcall(None)
    def callv(self, method, arguments):
        """GDScript's callv() reaching the node with other than two arguments, or
        with no Array of arguments."""
        raise TypeError(f"arguments must be an Array, got {arguments!r}")

    def get_last_error(self, *args):
        """The error of the last call ("" if it succeeded); never an error itself."""
        return self.last_error

    # ------------------------------------------------------------ batches

    @gdcall([])
    def insert_batch(self, positions, sizes):
        """Add n boxes (top-left positions and sizes, Vector2 arrays); returns their
        ids, which the other batch methods and get_collision_pairs_packed use."""
        return self._grid.insert_rects(rect_rows(positions, sizes))

    @gdcall(False)
    def update_batch(self, ids, positions, sizes):
        """Move the objects `ids` to new boxes; all rows are checked before any moves."""
        rows = rect_rows(positions, sizes)
        ids = int_ids(ids)
        self._timed_update(lambda: self._grid.update_rects(ids, rows))
        return True

    @gdcall(False)
    def remove_batch(self, ids):
        """Remove objects by id: those of insert_batch, and those added one at a
        time (their get_id())."""
        ids = int_ids(ids)
        self._grid.remove_many(ids)          # checks every id first
        for object_id in ids.tolist():
            key = self._keys.get(object_id)
            if key is not None:
                self._drop(key)
        return True

    @gdcall([])
    def get_collision_pairs_packed(self):
        """Every overlapping pair once as a flat [a0, b0, a1, b1, ...] int32 array of ids."""
        return self._pairs_now(self._grid.pair_ids).ravel()

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
            f"last query {stats['last_query_ms']:.3f} ms, last move {stats['last_update_ms']:.3f} ms, "
            f"last pairs {stats['last_pairs_ms']:.3f} ms",
        ])


def object_key(obj, name="obj"):
    """Ints are their own key; Godot objects are keyed by instance id."""
    if isinstance(obj, (int, np.integer)) and not isinstance(obj, bool):
        return int(obj)
    get_instance_id = None if obj is None or isinstance(obj, bool) else \
        getattr(obj, "get_instance_id", None)
    if get_instance_id is None:
        raise TypeError(f"{name} must be an int or a Node, got {obj!r}")
    return ("instance", int(get_instance_id()))


def rect_rows(positions, sizes):
    """(n, 4) float64 rows of x, y, w, h from position and size arrays of one
    length: finite, sizes >= 0. One pass over the rows when they are good (the
    batch path of a 10,000-object frame); the bad row is looked for only if not."""
    xy, wh = vec2_rows(positions, "positions"), vec2_rows(sizes, "sizes")
    if len(xy) != len(wh):
        raise ValueError(f"{len(xy)} positions but {len(wh)} sizes")
    rows = np.empty((len(xy), 4))
    # Copied as one 16-byte element per (x, y) pair: numpy's copy of a float
    # column pair into every other slot is several times slower.
    pairs = rows.view(np.complex128)
    pairs[:, 0] = np.ascontiguousarray(xy, dtype=np.float64).view(np.complex128)[:, 0]
    pairs[:, 1] = np.ascontiguousarray(wh, dtype=np.float64).view(np.complex128)[:, 0]
    if np.isfinite(rows).all() and (wh >= 0.0).all():
        return rows
    for name, values, least in (("positions", xy, None), ("sizes", wh, 0.0)):
        for k, (x, y) in enumerate(values.tolist()):
            finite(x, f"{name}[{k}].x", least)
            finite(y, f"{name}[{k}].y", least)
    raise AssertionError("a bad row was not found")   # unreachable: the checks agree


def candidate_pairs(grid, ids):
    """Pairs of objects that share at least one cell: what the narrow phase sees."""
    members = {}
    for i in ids:
        x0, y0, x1, y1 = grid.cells_of(int(i))
        for cx in range(x0, x1 + 1):
            for cy in range(y0, y1 + 1):
                members.setdefault((cx, cy), []).append(int(i))
    pairs = set()
    for objs in members.values():
        for a in range(len(objs)):
            for b in range(a + 1, len(objs)):
                pairs.add((min(objs[a], objs[b]), max(objs[a], objs[b])))
    return sorted(pairs)


def timed(run):
    """run()'s result and how long it took, in ms."""
    start = time.perf_counter()
    result = run()
    return result, 1e3 * (time.perf_counter() - start)


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
    """What an engine script holds: the node's behaviour and the engine's type
    conversions. `from_engine` turns each argument into plain Python or numpy
    (packed arrays into arrays without a per-element loop), `to_engine` converts
    results, `to_packed` int arrays for PACKED_RESULTS."""

    def __init__(self, from_engine, to_engine, to_packed, report=report_to_stderr, objects=None):
        self.from_engine = from_engine
        self.to_engine = to_engine
        self.to_packed = to_packed
        self.node = SpatialHashNode(report=report, objects=objects)
        self.monitors = None

    def call(self, name, args):
        node = self.node
        try:
            args = [self.from_engine(a) for a in args]
        except Exception as error:      # the engine boundary: report, never raise
            return node._fail(f"{name}: cannot read the arguments: {error}",
                              getattr(getattr(node, name), "gd_default", None))
        result = getattr(node, name)(*args)
        try:
            return self.to_packed(result) if name in PACKED_RESULTS else self.to_engine(result)
        except Exception as error:      # the engine boundary: report, never raise
            return node._fail(f"{name}: cannot convert the result: {error}", None)

    def set(self, name, value):
        """An exported property set from the engine (or a scene file)."""
        try:
            value = self.from_engine(value)
        except Exception:           # left as it came: check_setting names it
            pass
        self.node.set_setting(name, value)
