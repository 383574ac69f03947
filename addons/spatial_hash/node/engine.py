"""The private Python object behind the SpatialHash2D GDScript node.

The node users add is GDScript (`class_name SpatialHash2D`, one face per
dialect). The face keeps the objects (nodes and ints) and their ids, refuses
freed and unknown objects, buffers per-object inserts, moves and removals, and
calls this engine with numbers, ids and packed arrays only: no Godot object,
freed or not, ever reaches a Python plugin. Each engine script
(`godot3/`, `godot4/`, `py4godot/spatial_hash_engine.py`) makes one engine and
hands it every call through `NodeEngine.call(method, args)`, converting packed
arrays to numpy on the way in and results to Godot values on the way out.

The face calls a method by its number in PROTOCOL (method 0, `protocol()`,
gives the numbers by name): a GDScript String costs the plugins about 1 us to
turn into a Python str, an int nothing. Every method returns its result, or a
`str`: the message of why the call was refused (an argument and its value),
which the face reports through the engine's error channel as
`SpatialHash2D.<method>: <message>`. The only other str results are query
results (query_result), which start with IDS_MARK; no message does. A refused call
changes nothing.
"""
from time import perf_counter

import numpy as np

from spatial_hash._core import HierarchicalGrid, ids_text
from spatial_hash.node import debug
from spatial_hash.node.arguments import finite, flag, int_ids, layer_rows, rect_rows
from spatial_hash.node.settings import check_index_settings, make_grid, regrid

# (monitor name, key of stats()): Godot 4's custom monitors, spatial_hash/<name>.
MONITORS = {
    "total_objects": "objects",
    "active_cells": "active_cells",
    "avg_objects_per_cell": "avg_objects_per_cell",
    "large_objects": "large_objects",
    "broad_phase_pairs": "broad_phase_pairs",
    "narrow_phase_checks": "narrow_phase_checks",
    "last_query_ms": "last_query_ms",
    "last_pairs_ms": "last_pairs_ms",
}
# The keys of each level in the index's stats(); an empty hierarchical grid has no level.
LEVEL_KEYS = ("cell_size", "grid", "objects", "occupied_cells")


def _point(name):
    return ((name + ".x", None), (name + ".y", None))


def _size(name):
    return ((name + ".x", 0.0), (name + ".y", 0.0))


# The numbers of each call that takes them, as the face names its arguments:
# (name, least value) of a number that must be finite, None for anything else.
NUMBERS = {
    "insert": (None,) + _point("pos") + _size("size"),
    "update": (None,) + _point("bounds.position") + _size("bounds.size"),
    "insert_circle": (None,) + _point("center") + (("radius", 0.0),),
    "query_nearby": _point("pos") + _size("size") + (None,),
    "query_range": _point("rect.position") + _size("rect.size") + (None, None),
    "query_radius": _point("center") + (("radius", 0.0), None),
    "query_point": _point("point") + (None,),
    "query_nearest": _point("point") + (None, None, None),
    "query_along_path": _point("start") + _point("end") + _size("size") + (None,),
    "raycast": _point("start") + _point("end") + (None,),
    "raycast_all": _point("start") + _point("end") + (None,),
}


def _named(error, method, args):
    """The error of the first argument of `method` that is not a finite number
    (or is below its least value), named as the face names it; else `error`,
    the core's own (a value out of the index's range, a bad mask or k)."""
    for value, spec in zip(args, NUMBERS.get(method, ())):
        if spec is not None:
            try:
                finite(value, *spec)
            except (TypeError, ValueError) as named:
                return named
    return error


# Ids of query results travel as text (the core's ids_text: IDS_MARK, then
# chr(id + 2) for each id): every plugin hands a str to GDScript in one piece,
# where a list or a packed array costs 1 to 5 us more per call (py4godot,
# pythonscript). Ids too large for that go as an int32 array.
IDS_MARK = "\x01"
# The types of results every plugin hands to GDScript as they are.
SCALARS = frozenset({str, int, float, bool})


def query_result(ids):
    """A query's ids for the face: their text, or an int32 array."""
    text = ids_text(ids)
    return np.array(ids, dtype=np.int32) if text is None else text


def _vector2s(values):
    """Is this what a packed Vector2 array reads as: (n, 2) C-contiguous float32?"""
    return isinstance(values, np.ndarray) and values.dtype == np.float32 and values.ndim == 2 \
        and values.shape[1] == 2 and values.flags.c_contiguous


def _ray_rows(hits):
    """Ray hits as flat [id, fraction, x, y, normal x, normal y, ...] floats."""
    return [float(v) for object_id, fraction, (x, y), (nx, ny) in hits
            for v in (object_id, fraction, x, y, nx, ny)]


class NodeEngine:
    """One SpatialHash2D node's index, settings and timings. Objects are the
    index's own ids; the face maps them to nodes and ints. `read(packed)` turns
    a packed array the face hands over into numpy (the engine script's
    conversion; numpy's asarray by default)."""

    def __init__(self, read=np.asarray):
        self.read = read
        self.settings = check_index_settings(64.0, 4, False)
        self.grid = make_grid(**self.settings)
        self.last_query_ms = self.last_update_ms = self.last_pairs_ms = 0.0
        self._row_memory = None     # the last batch's rows, written over by the next
        self._methods = tuple(getattr(self, name) for name in PROTOCOL)

    def call(self, method, args):
        """The face's entry point: the method numbered `method` in PROTOCOL with
        `args`; its result or the reason it was refused (a str). Nothing raises
        out of here."""
        try:
            return self._methods[method](*args)
        except KeyError as error:       # its str() is the repr of its message
            return str(error.args[0]) if error.args else "KeyError"
        except Exception as error:      # the engine boundary: report, never raise
            return str(error) or type(error).__name__

    @staticmethod
    def protocol():
        """The number of each method of the protocol, by name."""
        return {name: number for number, name in enumerate(PROTOCOL)}

    @staticmethod
    def _checked(method, args, run):
        """run(*args), a refusal naming the argument as the face does."""
        try:
            return run(*args)
        except (TypeError, ValueError) as error:
            raise _named(error, method, args) from None

    def _query(self, method, args, run):
        start = perf_counter()
        try:
            found = run(*args)
        except (TypeError, ValueError) as error:
            raise _named(error, method, args) from None
        self.last_query_ms = 1e3 * (perf_counter() - start)
        return found

    def _move(self, method, args, run):
        start = perf_counter()
        self._checked(method, args, run)
        self.last_update_ms = 1e3 * (perf_counter() - start)

    # ------------------------------------------------------------ settings

    def set_index(self, cell_size, large_object_threshold, hierarchical):
        """Rebuild the index with new settings, every object keeping its id;
        returns safe_bound() for them. Refused (the index as it was) if a
        setting is out of range or the objects do not fit the new cells."""
        wanted = check_index_settings(cell_size, large_object_threshold, hierarchical)
        if wanted != self.settings:
            self.grid = regrid(self.grid, wanted)
            self.settings = wanted
        return self.safe_bound()

    def safe_bound(self):
        """Boxes (x, y, w, h) or circles (x, y, r) with every number within this
        in magnitude, sizes not negative, are accepted by the index as they are:
        the face holds those back without asking."""
        return self.grid.safe_magnitude

    def monitors(self):
        return dict(MONITORS)

    # ------------------------------------------------- per-object calls

    def apply(self, inserted, insert_shapes, insert_radii, moved, move_shapes, move_radii,
              removed):
        """The face's held calls at once, in this order: inserting the shapes
        `insert_shapes` / `insert_radii` (see _shapes), which take the ids
        `inserted` by the index's rule (see SpatialIndex); moving the ids `moved`
        to `move_shapes` / `move_radii` (the last move of an id wins); removing
        the ids `removed`, freed in that order. The face checked every shape
        against safe_bound()."""
        start = perf_counter()
        rows = self._shapes(insert_shapes, insert_radii)
        if len(rows):
            boxes = rows.copy()
            circles = np.isnan(rows[:, 3])
            boxes[circles, 2:] = 0.0            # in row order, as points, then made circles
            ids = self.grid.insert_rects(boxes)
            expected = int_ids(self.read(inserted), "inserted")
            if not np.array_equal(ids, expected):
                raise AssertionError(f"the index gave the ids {ids.tolist()}, the face expected "
                                     f"{expected.tolist()}")
            if circles.any():
                self.grid.update_circles(ids[circles], rows[circles, :2], rows[circles, 2])
        moved_ids = int_ids(self.read(moved), "moved")
        if moved_ids.size:
            last = moved_ids.size - 1 - np.unique(moved_ids[::-1], return_index=True)[1]
            rows = self._shapes(move_shapes, move_radii)[last]
            ids, circles = moved_ids[last], np.isnan(rows[:, 3])
            if not circles.all():
                self.grid.update_rects(ids[~circles], rows[~circles])
            if circles.any():
                self.grid.update_circles(ids[circles], rows[circles, :2], rows[circles, 2])
        removed_ids = int_ids(self.read(removed), "removed")
        if removed_ids.size:
            self.grid.remove_many(removed_ids)
        self.last_update_ms = 1e3 * (perf_counter() - start)
        return True

    def _shapes(self, shapes, radii):
        """(n, 4) rows of x, y, w, h (boxes) or x, y, radius, NaN (circles) from
        the face's packed shapes: two Vector2 each, the top-left corner and the
        size of a box, or the centre and (NaN, NaN) of a circle, whose radius is
        the next of `radii` (kept apart: a Vector2 holds 32-bit floats)."""
        xy = np.array(self.read(shapes), np.float64).reshape(-1, 4)
        circles = np.isnan(xy[:, 2])
        xy[circles, 2] = np.asarray(self.read(radii), np.float64)
        return xy

    def insert(self, object_id, x, y, w, h):
        """Insert the box at (x, y) of size (w, h) (object_id -1) or move the
        object there; returns its id."""
        return self._put("insert", (object_id, x, y, w, h), self.grid.insert_rect,
                         self.grid.update_rect)

    def update(self, object_id, x, y, w, h):
        return self._put("update", (object_id, x, y, w, h), None, self.grid.update_rect)

    def insert_circle(self, object_id, x, y, radius):
        return self._put("insert_circle", (object_id, x, y, radius), self.grid.insert_circle,
                         self.grid.update_circle)

    def _put(self, method, args, insert, move):
        if args[0] < 0:
            return self._checked(method, args, lambda _, *numbers: insert(*numbers))
        self._move(method, args, move)
        return args[0]

    def set_filter(self, object_id, layer, mask):
        self.grid.set_filter(object_id, layer, mask)
        return True

    def is_colliding(self, a, b):
        return self.grid.is_colliding(a, b)

    def end_pairs(self, ids):
        """End now the pairs the last collision_events reported of the objects
        `ids` (being removed): flat [a0, b0, a1, b1, ...] ids, smaller first."""
        ended = [pair for object_id in int_ids(self.read(ids)).tolist()
                 for pair in self.grid.end_pairs_of(object_id)]
        return np.array(ended, dtype=np.int32).ravel()

    # ------------------------------------------------------------ queries
    # Every query returns the ids (query_result) of the objects on a layer of `mask`.

    def query_nearby(self, x, y, w, h, mask):
        return query_result(self._query("query_nearby", (x, y, w, h, mask), self.grid.query_nearby))

    def query_range(self, x, y, w, h, exact, mask):
        return query_result(self._query("query_range", (x, y, w, h, exact, mask), self.grid.query_rect))

    def query_radius(self, x, y, radius, mask):
        return query_result(self._query("query_radius", (x, y, radius, mask), self.grid.query_radius))

    def query_point(self, x, y, mask):
        return query_result(self._query("query_point", (x, y, mask), self.grid.query_point))

    def query_nearest(self, x, y, k, max_distance, mask):
        """Nearest first by the exact distance to each circle or box (ties in
        id order), none farther than max_distance (INF: no limit)."""
        return query_result(self._query("query_nearest", (x, y, k, max_distance, mask),
                                    self.grid.query_nearest))

    def query_along_path(self, x0, y0, x1, y1, w, h, mask):
        return query_result(self._query("query_along_path", (x0, y0, x1, y1, w, h, mask),
                                    self.grid.query_swept))

    def raycast(self, x0, y0, x1, y1, mask):
        """The first hit as [id, fraction, x, y, normal x, normal y], [] if none."""
        hit = self._query("raycast", (x0, y0, x1, y1, mask), self.grid.raycast)
        return _ray_rows([] if hit is None else [hit])

    def raycast_all(self, x0, y0, x1, y1, mask):
        """Every hit, earliest first, as raycast's six numbers each, flat."""
        return _ray_rows(self._query("raycast_all", (x0, y0, x1, y1, mask),
                                     self.grid.raycast_all))

    # ------------------------------------------------------------- pairs

    def pairs(self):
        """Every overlapping pair once: flat [a0, b0, a1, b1, ...] int32 ids."""
        start = perf_counter()
        found = self.grid.pair_ids().ravel()
        self.last_pairs_ms = 1e3 * (perf_counter() - start)
        return found

    def collision_events(self):
        """The pairs that began and ended colliding since the last call, as
        {"started": ..., "ended": ...}, flat int32 ids, smaller first."""
        start = perf_counter()
        began, ended = self.grid.pair_event_ids()
        self.last_pairs_ms = 1e3 * (perf_counter() - start)
        return {"started": began.ravel(), "ended": ended.ravel()}

    # ------------------------------------------------------------ batches

    def _rows(self, positions, sizes):
        rows = rect_rows(self.read(positions), self.read(sizes), self._row_memory)
        if rows.base is None:
            self._row_memory = rows
        return rows

    def _layers(self, values, name):
        return layer_rows(values if isinstance(values, int) else self.read(values), name)

    def insert_batch(self, positions, sizes, layers, masks):
        return self.grid.insert_rects(self._rows(positions, sizes), None,
                                      self._layers(layers, "layers"),
                                      self._layers(masks, "masks")).astype(np.int32)

    def update_batch(self, ids, positions, sizes):
        ids, corners, extents = int_ids(self.read(ids)), self.read(positions), self.read(sizes)
        if _vector2s(corners) and _vector2s(extents):
            try:        # read where they are, in one pass of the core
                self._move("update_batch", (ids, corners, extents), self.grid.update_boxes)
                return True
            except ValueError:
                pass    # refused: the rows below name what
        self._move("update_batch", (ids, self._rows(positions, sizes)), self.grid.update_rects)
        return True

    def remove_batch(self, ids):
        self.grid.remove_many(int_ids(self.read(ids)))      # checks every id first
        return True

    def set_filter_batch(self, ids, layers, masks):
        self.grid.set_filters(int_ids(self.read(ids)), self._layers(layers, "layers"),
                              self._layers(masks, "masks"))
        return True

    # -------------------------------------------------------------- the rest

    def clear(self):
        self.grid.clear()
        return True

    def stats(self):
        """The index's stats() (the same keys for both kinds), its levels as
        {key: [one value per level, finest first]} (py4godot's release builds
        corrupt an Array of Dictionaries), which kind it is, and the timings
        (ms) of the last query, move and pair pass."""
        stats = self.grid.stats()
        levels = stats["levels"]
        stats["levels"] = {key: [level[key] for level in levels] for key in LEVEL_KEYS}
        return dict(stats,
                    index="hierarchical" if isinstance(self.grid, HierarchicalGrid) else "uniform",
                    last_query_ms=self.last_query_ms, last_update_ms=self.last_update_ms,
                    last_pairs_ms=self.last_pairs_ms)

    def debug_geometry(self, x, y, w, h, candidates):
        """What the face draws: {"grid", "candidates"}: flat [x0, y0, x1, y1, ...]
        segments; {"free", "colliding"}: flat [x, y, w, h, ...] boxes."""
        return debug.debug_geometry(self.grid, (x, y, w, h), flag(candidates, "candidates"))


# The methods the face calls, by number (NodeEngine.call): `protocol` first.
PROTOCOL = (
    "protocol", "set_index", "safe_bound", "monitors", "apply", "insert", "update",
    "insert_circle", "set_filter", "is_colliding", "end_pairs", "query_nearby", "query_range",
    "query_radius", "query_point", "query_nearest", "query_along_path", "raycast",
    "raycast_all", "pairs", "collision_events", "insert_batch", "update_batch", "remove_batch",
    "set_filter_batch", "clear", "stats", "debug_geometry",
)
