"""The private Python object behind the SpatialHash2D and SpatialHash3D
GDScript nodes.

The nodes users add are GDScript (`class_name SpatialHash2D` and
`SpatialHash3D`, one face per dialect). A face keeps the objects (nodes and
ints) and their ids, refuses freed and unknown objects, buffers per-object
inserts, moves and removals, and calls this engine with numbers, ids and packed
arrays only: no Godot object, freed or not, ever reaches a Python plugin. Each engine script
(`godot3/`, `godot4/`, `py4godot/spatial_hash_engine.py`) makes one engine and
hands it every call through `NodeEngine.call(method, args)`, converting packed
arrays to numpy on the way in and results to Godot values on the way out. An
engine is of one dimension (2 or 3), named by the face's first call
(`NodeEngine.for_face`); its methods take each vector's D numbers in place.

The face calls a method by its number in PROTOCOL (method 0, `protocol()`,
gives the numbers by name): a GDScript String costs the plugins about 1 us to
turn into a Python str, an int nothing. Every method returns its result, or a
`str`: the message of why the call was refused (an argument and its value),
which the face reports through the engine's error channel as
`SpatialHash2D.<method>: <message>` (SpatialHash3D likewise). The only other
str results are query results (query_result), which start with IDS_MARK; no
message does. A refused call changes nothing.
"""
import inspect
from time import perf_counter

import numpy as np

from spatial_hash.node import debug
from spatial_hash.node.arguments import finite, flag, flag_rows, int_ids, layer_rows, rect_rows
from spatial_hash.node._ids_text import IDS_MARK, ids_text
from spatial_hash.node.dimensions import DIMENSIONS
from spatial_hash.node.settings import check_index_settings, make_grid, regrid

# Godot 4's custom monitors, spatial_hash/<name> (spatial_hash_3d/<name> for
# the 3D node): (name, key of stats(), scale). The editor's Monitors panel
# shows a quantity as a whole number, so each is in a unit in which it reads:
# times in microseconds, the mean objects per cell per 100 cells.
MONITORS = (
    ("total_objects", "objects", 1),
    ("active_cells", "active_cells", 1),
    ("objects_per_100_cells", "avg_objects_per_cell", 100),
    ("large_objects", "large_objects", 1),
    ("broad_phase_pairs", "broad_phase_pairs", 1),
    ("narrow_phase_checks", "narrow_phase_checks", 1),
    ("last_query_microseconds", "last_query_ms", 1000),
    ("last_pairs_microseconds", "last_pairs_ms", 1000),
)
# The keys of each level in the index's stats(); an empty hierarchical grid has no level.
LEVEL_KEYS = ("cell_size", "grid", "objects", "occupied_cells")


def numbers(dimension):
    """The arguments of each call that takes a vector's numbers, as the face of
    the Dimension names them: (name, least value) of a number that must be
    finite, None for anything else (an id, a mask, a flag). Their count is the
    call's."""
    def point(name):
        return tuple((f"{name}.{a}", None) for a in dimension.axes)

    def size(name):
        return tuple((f"{name}.{a}", 0.0) for a in dimension.axes)

    bounds, rect = dimension.argument("bounds"), dimension.argument("rect")
    return {
        "insert": (None,) + point("pos") + size("size"),
        "update": (None,) + point(bounds + ".position") + size(bounds + ".size"),
        "insert_circle": (None,) + point("center") + (("radius", 0.0),),
        "query_nearby": point("pos") + size("size") + (None,),
        "query_range": point(rect + ".position") + size(rect + ".size") + (None, None),
        "query_radius": point("center") + (("radius", 0.0), None),
        "query_point": point("point") + (None,),
        "query_nearest": point("point") + (None, None, None),
        "query_along_path": point("start") + point("end") + size("size") + (None,),
        "raycast": point("start") + point("end") + (None,),
        "raycast_all": point("start") + point("end") + (None,),
        "debug_geometry": (None,) * (2 * dimension.d + 1),
    }


NUMBERS = {d: numbers(dimension) for d, dimension in DIMENSIONS.items()}


def _named(error, spec, args):
    """The error of the first argument (of a call whose arguments are `spec`)
    that is not a finite number (or is below its least value), named as the
    face names it; else `error`, the core's own (a value out of the index's
    range, a bad mask or k)."""
    for value, named in zip(args, spec):
        if named is not None:
            try:
                finite(value, *named)
            except (TypeError, ValueError) as refusal:
                return refusal
    return error


def protocol_names(d):
    """The names of the protocol's methods, by number, as the face of
    dimension d calls them: the 3D node's insert_circle is insert_sphere."""
    return PROTOCOL if d == 2 else tuple("insert_sphere" if name == "insert_circle" else name
                                         for name in PROTOCOL)


def arity(name, d):
    """How many arguments the protocol's method `name` (2D's name) takes in
    dimension d."""
    if name in NUMBERS[d]:
        return len(NUMBERS[d][name])
    return len(inspect.signature(getattr(NodeEngine, name)).parameters) - 1


# The types of results every plugin hands to GDScript as they are.
SCALARS = frozenset({str, int, float, bool})


def query_result(ids):
    """A query's ids for the face: their text (ids_text), or an int32 array
    where an id is too large for a character."""
    text = ids_text(ids)
    return np.array(ids, dtype=np.int32) if text is None else text


def _packed_vectors(values, d):
    """What a packed vector array reads as, C-contiguous float32 rows of d (from
    (n, d), or flat as py4godot's engine reads a vector array's bytes); None
    for anything else."""
    if not (isinstance(values, np.ndarray) and values.dtype == np.float32
            and values.flags.c_contiguous):
        return None
    if values.ndim == 1 and values.size % d == 0:
        values = values.reshape(-1, d)
    return values if values.ndim == 2 and values.shape[1] == d else None


def _ray_rows(hits):
    """Ray hits as flat [id, fraction, x, y(, z), normal x, normal y(, normal z), ...] floats."""
    return [float(v) for object_id, fraction, point, normal in hits
            for v in (object_id, fraction) + tuple(point) + tuple(normal)]


class NodeEngine:
    """One SpatialHash2D or SpatialHash3D node's index, settings and timings.
    Objects are the index's own ids; the face maps them to nodes and ints.
    `read(packed)` turns a packed array the face hands over into numpy (the
    engine script's conversion; numpy's asarray by default). `dimension` is 2
    or 3."""

    def __init__(self, read=np.asarray, dimension=2):
        self.read = read
        self.dim = DIMENSIONS[dimension]
        self._numbers = NUMBERS[dimension]
        self.settings = check_index_settings(64.0, 4, False)
        self.grid = make_grid(self.dim, **self.settings)
        self.last_query_ms = self.last_update_ms = self.last_pairs_ms = 0.0
        self._row_memory = None     # the last batch's rows, written over by the next
        self._methods = tuple(getattr(self, name) for name in PROTOCOL)

    @classmethod
    def for_face(cls, read, args):
        """The engine a face's first call (its `run` arguments: the method's
        number, then its arguments) makes: protocol(dimension) names the
        node's dimension, and a call without one is the 2D node's."""
        named = len(args) == 2 and type(args[0]) is int and args[0] == 0 \
            and type(args[1]) is int and args[1] in DIMENSIONS
        return cls(read, args[1] if named else 2)

    def call(self, method, args):
        """The face's entry point: the method numbered `method` in PROTOCOL with
        `args`; its result or the reason it was refused (a str). Nothing raises
        out of here."""
        try:
            run = self._methods[method]
            spec = self._numbers.get(run.__name__)
            if spec is not None and len(args) != len(spec):
                return f"{run.__name__} takes {len(spec)} arguments, got {len(args)}"
            return run(*args)
        except KeyError as error:       # its str() is the repr of its message
            return str(error.args[0]) if error.args else "KeyError"
        except Exception as error:      # the engine boundary: report, never raise
            return str(error) or type(error).__name__

    def protocol(self, dimension=2):
        """The number of each method of the protocol, by the name the face of
        this engine's dimension calls it; refused if that is not `dimension`."""
        if dimension != self.dim.d:
            return f"this engine is {self.dim.d}D, not {dimension!r}D"
        return {name: number for number, name in enumerate(protocol_names(self.dim.d))}

    def _checked(self, method, args, run):
        """run(*args), a refusal naming the argument as the face does."""
        try:
            return run(*args)
        except (TypeError, ValueError) as error:
            raise _named(error, self._numbers.get(method, ()), args) from None

    def _query(self, method, args, run):
        start = perf_counter()
        try:
            found = run(*args)
        except (TypeError, ValueError) as error:
            raise _named(error, self._numbers.get(method, ()), args) from None
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
            self.grid = regrid(self.dim, self.grid, wanted)
            self.settings = wanted
        return self.safe_bound()

    def safe_bound(self):
        """Boxes (x, y(, z), w, h(, d)) or circles (x, y(, z), r) with every number within this
        in magnitude, sizes not negative, are accepted by the index as they are:
        the face holds those back without asking."""
        return self.grid.safe_magnitude

    def monitors(self):
        """Each monitor's name and its place in monitor_values()."""
        return {name: k for k, (name, _, _) in enumerate(MONITORS)}

    def monitor_values(self):
        """The monitors' values now, in MONITORS' order."""
        stats = self.stats()
        return [float(stats[key]) * scale for _, key, scale in MONITORS]

    # ------------------------------------------------- per-object calls

    def apply(self, inserted, insert_shapes, insert_radii, moved, move_shapes, move_radii,
              removed, statics):
        """The face's held calls at once, in this order: inserting the shapes
        `insert_shapes` / `insert_radii` (see _shapes), which take the ids
        `inserted` by the index's rule (see SpatialIndex); moving the ids `moved`
        to `move_shapes` / `move_radii` (the last move of an id wins); making
        objects static or not, `statics` being flat [id0, 1 or 0, id1, ...]
        (the last flag of an id wins); removing the ids `removed`, freed in
        that order. The face checked every shape against safe_bound() and
        every flag."""
        start = perf_counter()
        d, grid = self.dim.d, self.grid
        rows = self._shapes(insert_shapes, insert_radii)
        if len(rows):
            boxes = rows.copy()
            circles = np.isnan(rows[:, -1])
            boxes[circles, d:] = 0.0            # in row order, as points, then made circles
            ids = self.dim.method(grid, "insert_rects")(boxes)
            expected = int_ids(self.read(inserted), "inserted")
            if not np.array_equal(ids, expected):
                raise AssertionError(f"the index gave the ids {ids.tolist()}, the face expected "
                                     f"{expected.tolist()}")
            if circles.any():
                self.dim.method(grid, "update_circles")(ids[circles], rows[circles, :d],
                                                        rows[circles, d])
        moved_ids = int_ids(self.read(moved), "moved")
        if moved_ids.size:
            last = moved_ids.size - 1 - np.unique(moved_ids[::-1], return_index=True)[1]
            rows = self._shapes(move_shapes, move_radii)[last]
            ids, circles = moved_ids[last], np.isnan(rows[:, -1])
            if not circles.all():
                self.dim.method(grid, "update_rects")(ids[~circles], rows[~circles])
            if circles.any():
                self.dim.method(grid, "update_circles")(ids[circles], rows[circles, :d],
                                                        rows[circles, d])
        flags = int_ids(self.read(statics), "statics").reshape(-1, 2)
        if len(flags):
            last = len(flags) - 1 - np.unique(flags[::-1, 0], return_index=True)[1]
            grid.set_statics(flags[last, 0], flags[last, 1])
        removed_ids = int_ids(self.read(removed), "removed")
        if removed_ids.size:
            self.grid.remove_many(removed_ids)
        self.last_update_ms = 1e3 * (perf_counter() - start)
        return True

    def _shapes(self, shapes, radii):
        """(n, 2D) rows of the min corner and sizes (boxes) or the centre, the
        radius and NaNs (circles) from the face's packed shapes: two vectors
        each, the min corner and the size of a box, or the centre and NaNs of
        a circle, whose radius is the next of `radii` (kept apart: a vector
        holds 32-bit floats)."""
        d = self.dim.d
        xy = np.array(self.read(shapes), np.float64).reshape(-1, 2 * d)
        circles = np.isnan(xy[:, d])
        xy[circles, d] = np.asarray(self.read(radii), np.float64)
        return xy

    def insert(self, object_id, *numbers):
        """Insert the box with min corner (x, y(, z)) and sizes (w, h(, d))
        (object_id -1) or move the object there; returns its id."""
        return self._put("insert", (object_id,) + numbers, "insert_rect", "update_rect")

    def update(self, object_id, *numbers):
        return self._put("update", (object_id,) + numbers, None, "update_rect")

    def insert_circle(self, object_id, *numbers):
        """A circle (a sphere in 3D): the centre's numbers, then the radius."""
        return self._put("insert_circle", (object_id,) + numbers, "insert_circle", "update_circle")

    def _put(self, method, args, insert, move):
        if args[0] < 0:
            if insert is None:
                raise KeyError(f"no object with id {args[0]}")
            insert = self.dim.method(self.grid, insert)
            return self._checked(method, args, lambda _, *numbers: insert(*numbers))
        self._move(method, args, self.dim.method(self.grid, move))
        return args[0]

    def set_filter(self, object_id, layer, mask):
        self.grid.set_filter(object_id, layer, mask)
        return True

    def is_static(self, object_id):
        return self.grid.is_static(object_id)

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

    def query_nearby(self, *args):
        """pos, size, mask."""
        return query_result(self._query("query_nearby", args, self.grid.query_nearby))

    def query_range(self, *args):
        """The box's min corner and sizes, exact, mask."""
        query = self.dim.method(self.grid, "query_rect")
        return query_result(self._query("query_range", args, query))

    def query_radius(self, *args):
        """The centre, radius, mask."""
        return query_result(self._query("query_radius", args, self.grid.query_radius))

    def query_point(self, *args):
        return query_result(self._query("query_point", args, self.grid.query_point))

    def query_nearest(self, *args):
        """The point, k, max_distance, mask: nearest first by the exact
        distance to each circle or box (ties in id order), none farther than
        max_distance (INF: no limit)."""
        return query_result(self._query("query_nearest", args, self.grid.query_nearest))

    def query_along_path(self, *args):
        """start, end (the box's min corner), its sizes, mask."""
        return query_result(self._query("query_along_path", args, self.grid.query_swept))

    def raycast(self, *args):
        """start, end, mask: the first hit as [id, fraction, the point's D
        numbers, the normal's D numbers], [] if none."""
        hit = self._query("raycast", args, self.grid.raycast)
        return _ray_rows([] if hit is None else [hit])

    def raycast_all(self, *args):
        """Every hit, earliest first, as raycast's numbers each, flat."""
        return _ray_rows(self._query("raycast_all", args, self.grid.raycast_all))

    def query_range_batch(self, positions, sizes, exact, mask):
        """query_range for each window (min corners `positions`, `sizes`) in
        one call: the windows' m + 1 offsets, then their ids (window k's are
        ids[offsets[k]:offsets[k + 1]]), as one int32 array."""
        rows = self._rows(positions, sizes)
        offsets, ids = self._query("query_range_batch", (rows, exact, mask),
                                   self.dim.method(self.grid, "query_rects"))
        return np.concatenate((offsets.astype(np.int32), ids))

    # ------------------------------------------------------------- pairs

    def _timed_pairs(self, run):
        """run() and its time as last_pairs_ms, unless the index handed back
        the last pairs (nothing had changed): the time shown is then the last
        pair pass's, not a lookup's (a frame that asks for events and then
        pairs would otherwise show the second's microsecond)."""
        start = perf_counter()
        found = run()
        if self.grid.last_pair_pass() != "unchanged":
            self.last_pairs_ms = 1e3 * (perf_counter() - start)
        return found

    def pairs(self):
        """Every overlapping pair once: flat [a0, b0, a1, b1, ...] int32 ids."""
        return self._timed_pairs(self.grid.pair_ids).ravel()

    def collision_events(self):
        """The pairs that began and ended colliding since the last call, as
        {"started": ..., "ended": ...}, flat int32 ids, smaller first."""
        began, ended = self._timed_pairs(self.grid.pair_event_ids)
        return {"started": began.ravel(), "ended": ended.ravel()}

    # ------------------------------------------------------------ batches

    def _rows(self, positions, sizes):
        rows = rect_rows(self.dim, self.read(positions), self.read(sizes), self._row_memory)
        if rows.base is None:
            self._row_memory = rows
        return rows

    def _layers(self, values, name):
        return layer_rows(values if isinstance(values, int) else self.read(values), name)

    def _flags(self, values, count, name, each="row"):
        """One bool, or a packed int array of 1s and 0s: `count` of them."""
        return flag_rows(values if isinstance(values, bool) else self.read(values), count, name,
                         each)

    def insert_batch(self, positions, sizes, layers, masks, as_static):
        insert = self.dim.method(self.grid, "insert_rects")
        rows = self._rows(positions, sizes)
        return insert(rows, None, self._layers(layers, "layers"), self._layers(masks, "masks"),
                      self._flags(as_static, len(rows), "as_static")).astype(np.int32)

    def update_batch(self, ids, positions, sizes):
        ids = int_ids(self.read(ids))
        corners = _packed_vectors(self.read(positions), self.dim.d)
        extents = _packed_vectors(self.read(sizes), self.dim.d)
        if corners is not None and extents is not None:
            try:        # read where they are, in one pass of the core
                self._move("update_batch", (ids, corners, extents), self.grid.update_packed)
                return True
            except ValueError:
                pass    # refused: the rows below name what
        self._move("update_batch", (ids, self._rows(positions, sizes)),
                   self.dim.method(self.grid, "update_rects"))
        return True

    def remove_batch(self, ids):
        self.grid.remove_many(int_ids(self.read(ids)))      # checks every id first
        return True

    def set_filter_batch(self, ids, layers, masks):
        self.grid.set_filters(int_ids(self.read(ids)), self._layers(layers, "layers"),
                              self._layers(masks, "masks"))
        return True

    def set_static_batch(self, ids, enabled):
        ids = int_ids(self.read(ids))
        self.grid.set_statics(ids, self._flags(enabled, len(ids), "enabled", "id"))
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
        kind = "hierarchical" if isinstance(self.grid, self.dim.hierarchical) else "uniform"
        return dict(stats, index=kind,
                    last_query_ms=self.last_query_ms, last_update_ms=self.last_update_ms,
                    last_pairs_ms=self.last_pairs_ms)

    def debug_geometry(self, *args):
        """The view's min corner and sizes, then whether to draw the candidate
        pairs. What the face draws: {"grid", "candidates"}: flat
        [x0, y0(, z0), x1, y1(, z1), ...] segments; {"free", "colliding"}: flat
        [x, y(, z), w, h(, d), ...] boxes."""
        d = self.dim.d
        view = [finite(v, "view") for v in args[:2 * d]]
        return debug.debug_geometry(self.grid, view, self.dim, flag(args[2 * d], "candidates"))


# The methods the face calls, by number (NodeEngine.call): `protocol` first.
PROTOCOL = (
    "protocol", "set_index", "safe_bound", "monitors", "monitor_values", "apply", "insert", "update",
    "insert_circle", "set_filter", "is_static", "is_colliding", "end_pairs", "query_nearby",
    "query_range", "query_radius", "query_point", "query_nearest", "query_along_path", "raycast",
    "raycast_all", "query_range_batch", "pairs", "collision_events", "insert_batch", "update_batch", "remove_batch",
    "set_filter_batch", "set_static_batch", "clear", "stats", "debug_geometry",
)
