"""What an engine script holds."""
from spatial_hash.node.calls import report_to_stderr
from spatial_hash.node.spatial_hash_node import SpatialHashNode

# The node's methods as GDScript sees them (each engine script forwards exactly these).
GDSCRIPT_METHODS = frozenset({
    "insert", "insert_circle", "update", "remove", "has", "get_id", "set_filter",
    "query_nearby", "query_range", "query_radius", "query_point", "query_nearest",
    "query_along_path", "raycast", "raycast_all", "get_collision_pairs", "is_colliding",
    "emit_collision_events", "clear", "get_stats", "get_last_error", "insert_batch",
    "update_batch", "remove_batch", "set_filter_batch", "get_collision_pairs_packed",
    "get_collision_events_packed",
})
# Methods whose int array result (or dict of them) the engine layers hand back
# as packed int arrays.
PACKED_RESULTS = frozenset({"insert_batch", "get_collision_pairs_packed",
                            "get_collision_events_packed"})
# The node's signals, each with two objects: the pair.
SIGNALS = ("collision_started", "collision_ended")


class NodeBridge:
    """What an engine script holds: the node's behaviour and the engine's type
    conversions. `from_engine` turns each argument into plain Python or numpy
    (packed arrays into arrays without a per-element loop), `to_engine` converts
    results, `to_packed` int arrays for PACKED_RESULTS, `vector(x, y)` makes
    the engine's Vector2 for points in results, `emit(signal, a, b)` emits one
    of SIGNALS."""

    def __init__(self, from_engine, to_engine, to_packed, report=report_to_stderr, objects=None,
                 vector=None, emit=None):
        self.from_engine = from_engine
        self.to_engine = to_engine
        self.to_packed = to_packed
        self.node = SpatialHashNode(report=report, objects=objects, vector=vector, emit=emit)
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
            if name not in PACKED_RESULTS:
                return self.to_engine(result)
            if isinstance(result, dict):
                return self.to_engine({key: self.to_packed(v) for key, v in result.items()})
            return self.to_packed(result)
        except Exception as error:      # the engine boundary: report, never raise
            return node._fail(f"{name}: cannot convert the result: {error}", None)

    def set(self, name, value):
        """An exported property set from the engine (or a scene file)."""
        try:
            value = self.from_engine(value)
        except Exception:           # left as it came: check_setting names it
            pass
        self.node.set_setting(name, value)
