"""The SpatialHash2D node's GDScript API, declared once.

Each GDScript dialect has its own face (`godot4/spatial_hash_2d.gd`,
`godot3/spatial_hash_2d.gd`: `class_name SpatialHash2D`), and the test suite
holds both to these tables: method names, argument names, types, defaults and
return types; properties; signals. Types are Godot 4's names; `godot3_type`
gives Godot 3's ("" for an untyped value). Defaults are GDScript expressions.
"""
from typing import NamedTuple, Optional, Tuple


class Arg(NamedTuple):
    name: str
    type: str                       # "Variant": any value, checked by the face
    default: Optional[str] = None


class Method(NamedTuple):
    name: str
    args: Tuple[Arg, ...]
    returns: str


class Property(NamedTuple):
    name: str
    type: str
    default: str
    dialects: Tuple[int, ...] = (3, 4)   # the Godot major versions that have it


class Signal(NamedTuple):
    name: str
    args: Tuple[str, ...]


OBJ = Arg("obj", "Variant")
MASK = Arg("mask", "int", "ALL_LAYERS")

METHODS = (
    Method("insert", (OBJ, Arg("pos", "Vector2"), Arg("size", "Vector2")), "bool"),
    Method("insert_circle", (OBJ, Arg("center", "Vector2"), Arg("radius", "float")), "bool"),
    Method("update", (OBJ, Arg("bounds", "Rect2")), "bool"),
    Method("remove", (OBJ,), "bool"),
    Method("has", (OBJ,), "bool"),
    Method("get_id", (OBJ,), "int"),
    Method("set_filter", (OBJ, Arg("layer", "int"), Arg("mask", "int")), "bool"),
    Method("query_nearby", (Arg("pos", "Vector2"), Arg("size", "Vector2"), MASK), "Array"),
    Method("query_range", (Arg("rect", "Rect2"), Arg("exact", "bool", "false"), MASK), "Array"),
    Method("query_radius", (Arg("center", "Vector2"), Arg("radius", "float"), MASK), "Array"),
    Method("query_point", (Arg("point", "Vector2"), MASK), "Array"),
    Method("query_nearest", (Arg("point", "Vector2"), Arg("k", "int", "1"),
                             Arg("max_distance", "float", "INF"), MASK), "Array"),
    Method("query_along_path", (Arg("start", "Vector2"), Arg("end", "Vector2"),
                                Arg("size", "Vector2"), MASK), "Array"),
    Method("raycast", (Arg("start", "Vector2"), Arg("end", "Vector2"), MASK), "Dictionary"),
    Method("raycast_all", (Arg("start", "Vector2"), Arg("end", "Vector2"), MASK), "Array"),
    Method("get_collision_pairs", (), "Array"),
    Method("is_colliding", (Arg("a", "Variant"), Arg("b", "Variant")), "bool"),
    Method("emit_collision_events", (), "int"),
    Method("clear", (), "void"),
    Method("get_stats", (), "Dictionary"),
    Method("get_last_error", (), "String"),
    Method("insert_batch", (Arg("positions", "Variant"), Arg("sizes", "Variant"),
                            Arg("layers", "Variant", "1"), Arg("masks", "Variant", "ALL_LAYERS")),
           "PackedInt32Array"),
    Method("update_batch", (Arg("ids", "Variant"), Arg("positions", "Variant"),
                            Arg("sizes", "Variant")), "bool"),
    Method("remove_batch", (Arg("ids", "Variant"),), "bool"),
    Method("set_filter_batch", (Arg("ids", "Variant"), Arg("layers", "Variant"),
                                Arg("masks", "Variant")), "bool"),
    Method("get_collision_pairs_packed", (), "PackedInt32Array"),
    Method("get_collision_events_packed", (), "Dictionary"),
)

PROPERTIES = (
    Property("cell_size", "float", "64.0"),
    Property("large_object_threshold", "int", "4"),
    Property("hierarchical", "bool", "false"),
    Property("debug_draw", "bool", "false"),
    Property("debug_candidates", "bool", "true"),
    Property("overlay", "bool", "false"),
    Property("monitors_enabled", "bool", "true", dialects=(4,)),     # Godot 3 has no custom monitors
)

SIGNALS = (
    Signal("collision_started", ("a", "b")),
    Signal("collision_ended", ("a", "b")),
)

_GODOT3_TYPES = {"Variant": "", "PackedInt32Array": "PoolIntArray",
                 "PackedVector2Array": "PoolVector2Array"}


def godot3_type(godot4_type):
    """Godot 3's name for a Godot 4 type ("" for an untyped value)."""
    return _GODOT3_TYPES.get(godot4_type, godot4_type)
