"""The GDScript-facing methods of the SpatialHash2D node."""
import math

from spatial_hash._core import ALL_LAYERS, HierarchicalGrid
from spatial_hash.node import debug
from spatial_hash.node.arguments import (finite, flag, int_ids, layer_rows, number, read_bounds,
                                         read_point, read_size, rect_rows)
from spatial_hash.node.calls import gdcall, report_to_stderr, timed
from spatial_hash.node.objects import instance_key, object_key
from spatial_hash.node.settings import INDEX_SETTINGS, SETTINGS, check_setting, make_grid, regrid
from spatial_hash.registry import ObjectRegistry


class SpatialHashNode:
    """The node's behaviour: the GDScript-facing methods over an index, an object
    registry and the exported settings, with timings for stats and monitors.
    `emit(signal, a, b)` emits the node's collision_started / collision_ended."""

    def __init__(self, cell_size=64.0, large_threshold=4, hierarchical=False,
                 report=report_to_stderr, objects=None, vector=None, emit=None):
        self._report = report
        self._vector = vector or (lambda x, y: (x, y))
        self._emit = emit or (lambda signal, a, b: None)
        self._signalling = False    # emit_collision_events has been called: pairs
                                    # that end by a removal are announced at once
        self._objects = ObjectRegistry(object_key, objects)
        self.last_error = ""
        self.last_query_ms = 0.0
        self.last_update_ms = 0.0
        self.last_pairs_ms = 0.0
        self.settings = dict(SETTINGS, cell_size=float(cell_size),
                             large_object_threshold=large_threshold, hierarchical=hierarchical)
        self._grid = make_grid(*(self.settings[k] for k in INDEX_SETTINGS))
        # The last batch's rows, written over by the next: a frame's 320 KB of
        # fresh pages cost more than the rest of the node's share of it.
        self._row_memory = None

    def _rect_rows(self, positions, sizes):
        rows = rect_rows(positions, sizes, self._row_memory)
        if rows.base is None:
            self._row_memory = rows
        return rows

    def _fail(self, message, default):
        self.last_error = "SpatialHash2D." + message
        self._report(self.last_error)
        return list(default) if isinstance(default, list) else \
            dict(default) if isinstance(default, dict) else default

    @property
    def grid(self):
        return self._grid

    def _timed_query(self, run):
        found, self.last_query_ms = timed(run)
        return found

    def _timed_update(self, run):
        _, self.last_update_ms = timed(run)

    def _timed_pairs(self, run):
        found, self.last_pairs_ms = timed(run)
        return found

    # ------------------------------------------------------------- settings

    def setting(self, name):
        return self.settings[name]

    def set_setting(self, name, value):
        """Apply an exported property. A rejected value is reported once and the
        property keeps its last good value (and the index its objects)."""
        self.last_error = ""
        try:
            wanted = dict(self.settings, **{name: check_setting(name, value)})
            if any(wanted[k] != self.settings[k] for k in INDEX_SETTINGS):
                self._grid = regrid(self._grid, wanted)
        except Exception as error:      # the engine boundary: report, never raise
            return self._fail(f"{name}: {error}; it stays {self.settings[name]!r}", False)
        self.settings = wanted
        return True

    def forget(self, instance_id):
        """An inserted node is leaving the tree (and may be freed): drop it now,
        so that no query or pair list can hand it back. Called by the engine
        scripts from the node's tree_exiting signal."""
        object_id = self._objects.drop_key(instance_key(instance_id))
        if object_id is not None:
            self._grid.remove(object_id)
            self._end_pairs(object_id)

    def _end_pairs(self, object_id):
        """Announce the end of a just removed object's pairs while it still
        exists: a node removed or leaving the tree may be freed before the next
        emit_collision_events, and a freed object must never be emitted."""
        if self._signalling:
            for a, b in self._grid.end_pairs_of(object_id):
                self._emit("collision_ended", a, b)

    # ------------------------------------------------ the GDScript-facing API

    @gdcall(False)
    def insert(self, obj, pos, size):
        """Add obj (or move it if present) as the box at pos of the given size."""
        object_id = self._objects.id_of(obj)
        x, y = read_point(pos, "pos")
        w, h = read_size(size, "size")
        if object_id is None:
            self._objects.add(obj, lambda: self._grid.insert_rect(x, y, w, h, obj))
        else:
            self._timed_update(lambda: self._grid.update_rect(object_id, x, y, w, h))
        return True

    @gdcall(False)
    def insert_circle(self, obj, center, radius):
        object_id = self._objects.id_of(obj)
        x, y = read_point(center, "center")
        r = finite(radius, "radius", 0.0)
        if object_id is None:
            self._objects.add(obj, lambda: self._grid.insert_circle(x, y, r, obj))
        else:
            self._timed_update(lambda: self._grid.update_circle(object_id, x, y, r))
        return True

    @gdcall(False)
    def update(self, obj, bounds):
        """Move obj to new bounds (a Rect2); reports an error if obj is absent."""
        x, y, w, h = read_bounds(bounds, "bounds")
        object_id = self._objects.require(obj)
        self._timed_update(lambda: self._grid.update_rect(object_id, x, y, w, h))
        return True

    @gdcall(False)
    def remove(self, obj):
        """False (and no error) if obj was not there."""
        object_id = self._objects.drop(obj)
        if object_id is None:
            return False
        self._grid.remove(object_id)
        self._end_pairs(object_id)
        return True

    @gdcall(False)
    def set_filter(self, obj, layer, mask):
        """Put obj on the collision layers `layer` and have it look for those of
        `mask` (ints from 0 to 2**32 - 1; new objects: layer 1, every bit of the
        mask). Two objects collide when either one's mask has a bit of the
        other's layer."""
        self._grid.set_filter(self._objects.require(obj), layer, mask)
        return True

    @gdcall(False)
    def has(self, obj):
        return self._objects.id_of(obj) is not None

    @gdcall(-1)
    def get_id(self, obj):
        """The index id of obj, as used by the batch methods; -1 if absent."""
        object_id = self._objects.id_of(obj)
        return -1 if object_id is None else object_id

    # Every query takes a last, optional `mask`: only objects on one of its
    # layers are returned (default: every layer).

    @gdcall([])
    def query_nearby(self, pos, size, mask=ALL_LAYERS):
        x, y = read_point(pos, "pos")
        w, h = read_size(size, "size")
        return self._timed_query(lambda: self._grid.query_nearby(x, y, w, h, mask))

    @gdcall([])
    def query_range(self, rect, exact=False, mask=ALL_LAYERS):
        x, y, w, h = read_bounds(rect, "rect")
        exact = flag(exact, "exact")
        return self._timed_query(lambda: self._grid.query_rect(x, y, w, h, exact, mask))

    @gdcall([])
    def query_radius(self, center, radius, mask=ALL_LAYERS):
        x, y = read_point(center, "center")
        r = finite(radius, "radius", 0.0)
        return self._timed_query(lambda: self._grid.query_radius(x, y, r, mask))

    @gdcall([])
    def query_point(self, point, mask=ALL_LAYERS):
        x, y = read_point(point, "point")
        return self._timed_query(lambda: self._grid.query_point(x, y, mask))

    @gdcall([])
    def query_nearest(self, point, k=1, max_distance=math.inf, mask=ALL_LAYERS):
        """The k objects nearest to point, nearest first by the exact distance to
        their circle or box (ties in id order), none farther than max_distance
        (INF: no limit)."""
        x, y = read_point(point, "point")
        limit = number(max_distance, "max_distance")
        return self._timed_query(lambda: self._grid.query_nearest(x, y, k, limit, mask))

    def _ray_result(self, hit):
        handle, fraction, (x, y), (nx, ny) = hit
        return {"collider": handle, "position": self._vector(x, y),
                "normal": self._vector(nx, ny), "fraction": fraction}

    def _cast(self, start, end, mask, method):
        x0, y0 = read_point(start, "start")
        x1, y1 = read_point(end, "end")
        return self._timed_query(lambda: method(x0, y0, x1, y1, mask))

    @gdcall({})
    def raycast(self, start, end, mask=ALL_LAYERS):
        """The first object the segment from start to end meets, as
        {"collider", "position", "normal", "fraction"} (Godot's ray-cast keys,
        and how far along, 0 to 1), or {} if none. A start inside an object
        meets it at fraction 0 with normal (0, 0)."""
        hit = self._cast(start, end, mask, self._grid.raycast)
        return {} if hit is None else self._ray_result(hit)

    @gdcall([])
    def raycast_all(self, start, end, mask=ALL_LAYERS):
        """Every object the segment meets, as raycast's dictionaries, earliest first."""
        return [self._ray_result(hit) for hit in self._cast(start, end, mask, self._grid.raycast_all)]

    @gdcall([])
    def query_along_path(self, start, end, size, mask=ALL_LAYERS):
        x0, y0 = read_point(start, "start")
        x1, y1 = read_point(end, "end")
        w, h = read_size(size, "size")
        return self._timed_query(lambda: self._grid.query_swept(x0, y0, x1, y1, w, h, mask))

    @gdcall([])
    def get_collision_pairs(self):
        """Every overlapping pair once, as [a, b] lists of the objects."""
        return [[a, b] for a, b in self._timed_pairs(self._grid.pairs)]

    @gdcall(False)
    def is_colliding(self, a, b):
        """Would a and b be a collision pair: they overlap, and their layers and
        masks let them collide."""
        return self._grid.is_colliding(self._objects.require(a, "a"),
                                       self._objects.require(b, "b"))

    @gdcall(0)
    def emit_collision_events(self):
        """Emit collision_ended(a, b) for every pair that stopped colliding since
        the last call (they parted, changed layers, or one was removed: removals
        are announced at once from then on), then collision_started(a, b) for
        every pair that began, each once, a being the object with the smaller
        id; returns how many were emitted."""
        self._signalling = True
        began, ended = self._timed_pairs(self._grid.pair_events)
        for a, b in ended:
            self._emit("collision_ended", a, b)
        for a, b in began:
            self._emit("collision_started", a, b)
        return len(began) + len(ended)

    @gdcall({})
    def get_collision_events_packed(self):
        """The pairs that began and ended colliding since the last call, as
        {"started": ..., "ended": ...}, each a flat [a0, b0, a1, b1, ...] int32
        array of ids (the batch form of emit_collision_events; the two share
        one record, so use one of them)."""
        began, ended = self._timed_pairs(self._grid.pair_event_ids)
        return {"started": began.ravel(), "ended": ended.ravel()}

    @gdcall(False)
    def clear(self):
        self._objects.clear()
        self._grid.clear()
        if self._signalling:
            self.emit_collision_events()
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
    def insert_batch(self, positions, sizes, layers=1, masks=ALL_LAYERS):
        """Add n boxes (top-left positions and sizes, Vector2 arrays), on the
        collision layers `layers` looking for `masks` (n ints each, or one for
        all); returns their ids, which the other batch methods and
        get_collision_pairs_packed use."""
        return self._grid.insert_rects(self._rect_rows(positions, sizes), None,
                                       layer_rows(layers, "layers"), layer_rows(masks, "masks"))

    @gdcall(False)
    def set_filter_batch(self, ids, layers, masks):
        """set_filter by id for many objects: `layers` and `masks` n ints each or one for all."""
        self._grid.set_filters(int_ids(ids), layer_rows(layers, "layers"), layer_rows(masks, "masks"))
        return True

    @gdcall(False)
    def update_batch(self, ids, positions, sizes):
        """Move the objects `ids` to new boxes; all rows are checked before any moves."""
        rows = self._rect_rows(positions, sizes)
        ids = int_ids(ids)
        self._timed_update(lambda: self._grid.update_rects(ids, rows))
        return True

    @gdcall(False)
    def remove_batch(self, ids):
        """Remove objects by id: those of insert_batch, and those added one at a
        time (their get_id())."""
        ids = int_ids(ids)
        self._grid.remove_many(ids)          # checks every id first
        for object_id in self._objects.drop_ids(ids):
            self._end_pairs(object_id)
        return True

    @gdcall([])
    def get_collision_pairs_packed(self):
        """Every overlapping pair once as a flat [a0, b0, a1, b1, ...] int32 array of ids."""
        return self._timed_pairs(self._grid.pair_ids).ravel()

    # -------------------------------------------------------- debug drawing

    def debug_geometry(self, view, candidates=True):
        return debug.debug_geometry(self._grid, view, candidates)

    def draw_list(self, view, candidates=True):
        return debug.draw_list(self._grid, view, candidates)

    def overlay_text(self):
        return debug.overlay_text(self.get_stats())
