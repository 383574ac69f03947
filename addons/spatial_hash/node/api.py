"""The GDScript API of the SpatialHash2D and SpatialHash3D nodes, declared once.

Each node has a face per GDScript dialect (`godot4/spatial_hash_2d.gd`,
`godot3/spatial_hash_2d.gd`: `class_name SpatialHash2D`; `spatial_hash_3d.gd`:
`SpatialHash3D`), and the test suite holds each to its table here: method
names, argument names, types, defaults and return types; properties; signals.
The two tables come from one description (DESCRIPTION), in each dimension's
words (WORDS). Types are Godot 4's names; `godot3_type` gives Godot 3's (""
for an untyped value). Defaults are GDScript expressions.
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
# `static` is a GDScript keyword. The flags are checked by the face (a String
# is the library's error, not GDScript's), so they are untyped.
AS_STATIC = Arg("as_static", "Variant", "false")

# Names in braces are the dimension's (WORDS).
DESCRIPTION = (
    Method("insert", (OBJ, Arg("pos", "{vector}"), Arg("size", "{vector}"), AS_STATIC), "bool"),
    Method("insert_{circle}", (OBJ, Arg("center", "{vector}"), Arg("radius", "float"), AS_STATIC),
           "bool"),
    Method("update", (OBJ, Arg("{bounds}", "{box}")), "bool"),
    Method("remove", (OBJ,), "bool"),
    Method("has", (OBJ,), "bool"),
    Method("get_id", (OBJ,), "int"),
    Method("set_filter", (OBJ, Arg("layer", "int"), Arg("mask", "int")), "bool"),
    Method("set_static", (OBJ, Arg("enabled", "Variant")), "bool"),
    Method("is_static", (OBJ,), "bool"),
    Method("query_nearby", (Arg("pos", "{vector}"), Arg("size", "{vector}"), MASK), "Array"),
    Method("query_range", (Arg("{rect}", "{box}"), Arg("exact", "bool", "false"), MASK), "Array"),
    Method("query_radius", (Arg("center", "{vector}"), Arg("radius", "float"), MASK), "Array"),
    Method("query_point", (Arg("point", "{vector}"), MASK), "Array"),
    Method("query_nearest", (Arg("point", "{vector}"), Arg("k", "int", "1"),
                             Arg("max_distance", "float", "INF"), MASK), "Array"),
    Method("query_along_path", (Arg("start", "{vector}"), Arg("end", "{vector}"),
                                Arg("size", "{vector}"), MASK), "Array"),
    Method("raycast", (Arg("start", "{vector}"), Arg("end", "{vector}"), MASK), "Dictionary"),
    Method("raycast_all", (Arg("start", "{vector}"), Arg("end", "{vector}"), MASK), "Array"),
    Method("get_collision_pairs", (), "Array"),
    Method("is_colliding", (Arg("a", "Variant"), Arg("b", "Variant")), "bool"),
    Method("emit_collision_events", (), "int"),
    Method("clear", (), "void"),
    Method("get_stats", (), "Dictionary"),
    Method("get_last_error", (), "String"),
    Method("insert_batch", (Arg("positions", "Variant"), Arg("sizes", "Variant"),
                            Arg("layers", "Variant", "1"), Arg("masks", "Variant", "ALL_LAYERS"),
                            AS_STATIC),
           "PackedInt32Array"),
    Method("update_batch", (Arg("ids", "Variant"), Arg("positions", "Variant"),
                            Arg("sizes", "Variant")), "bool"),
    Method("remove_batch", (Arg("ids", "Variant"),), "bool"),
    Method("set_filter_batch", (Arg("ids", "Variant"), Arg("layers", "Variant"),
                                Arg("masks", "Variant")), "bool"),
    Method("set_static_batch", (Arg("ids", "Variant"), Arg("enabled", "Variant")), "bool"),
    Method("get_collision_pairs_packed", (), "PackedInt32Array"),
    Method("get_collision_events_packed", (), "Dictionary"),
    Method("query_range_batch", (Arg("positions", "Variant"), Arg("sizes", "Variant"),
                                 Arg("exact", "bool", "false"), MASK), "Dictionary"),
)

PROPERTY_DESCRIPTION = (
    Property("cell_size", "float", "{cell_size}"),
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

# Each dimension's words. The default cell fits each node's usual units: pixels
# in 2D, metres in 3D.
WORDS = {
    2: {"vector": "Vector2", "box": "Rect2", "circle": "circle", "bounds": "bounds",
        "rect": "rect", "cell_size": "64.0"},
    3: {"vector": "Vector3", "box": "AABB", "circle": "sphere", "bounds": "aabb",
        "rect": "aabb", "cell_size": "4.0"},
}


def _in_words(table, words):
    def arg(a):
        return a._replace(name=a.name.format(**words), type=a.type.format(**words))
    return tuple(m._replace(name=m.name.format(**words), args=tuple(arg(a) for a in m.args))
                 if isinstance(m, Method) else m._replace(default=m.default.format(**words))
                 for m in table)


TABLES = {d: (_in_words(DESCRIPTION, words), _in_words(PROPERTY_DESCRIPTION, words))
          for d, words in WORDS.items()}
METHODS, PROPERTIES = TABLES[2]
METHODS_3D, PROPERTIES_3D = TABLES[3]

# Godot 3's GDScript refuses a method named update with other arguments than
# CanvasItem.update()'s, the redraw request: the 2D face (a CanvasItem) names
# it update_object there. The 3D node is no CanvasItem.
GODOT3_NAMES = {2: {"update": "update_object"}, 3: {}}

_GODOT3_TYPES = {"Variant": "", "PackedInt32Array": "PoolIntArray",
                 "PackedVector2Array": "PoolVector2Array", "PackedVector3Array": "PoolVector3Array"}


def godot3_type(godot4_type):
    """Godot 3's name for a Godot 4 type ("" for an untyped value)."""
    return _GODOT3_TYPES.get(godot4_type, godot4_type)
