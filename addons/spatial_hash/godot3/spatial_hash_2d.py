"""SpatialHash2D for Godot 3.2+ with godot-python 0.50 (pythonscript, Python 3.8).

Declarations and conversions only: the behaviour is spatial_hash.node, which the
test suite runs without Godot. Every method takes *args and lets the node check
the count, because a TypeError raised while Godot 3 binds the arguments can
crash the engine. Godot 3 has no custom monitors: get_stats() and the on-screen
overlay (`overlay = true`) show the same numbers.
"""
try:
    from godot import (Array, Color, Dictionary, Label, Node2D, PoolIntArray, Rect2, Vector2,
                       export, exposed)
except ImportError:     # not Godot 3: another engine's editor scanning res://, or CPython
    exposed = None

if exposed is not None:
    from spatial_hash.node import NodeBridge

    def to_godot(value):
        """Plain lists and dicts arrive in GDScript as null: wrap them, nested ones too."""
        if isinstance(value, (list, tuple)):
            return Array([to_godot(v) for v in value])
        if isinstance(value, dict):
            return Dictionary({k: to_godot(v) for k, v in value.items()})
        return value

    def to_packed(ints):
        return PoolIntArray(ints)

    @exposed
    class SpatialHash2D(Node2D):
        cell_size = export(float, default=64.0)
        large_object_threshold = export(int, default=4)
        hierarchical = export(bool, default=False)
        debug_draw = export(bool, default=False)
        debug_candidates = export(bool, default=True)
        overlay = export(bool, default=False)

        # __init__ never runs for an exposed class: state is created on first use.
        def _bridge(self):
            bridge = getattr(self, "_spatial_hash", None)
            if bridge is None:
                bridge = self._spatial_hash = NodeBridge(
                    lambda: (self.cell_size, self.large_object_threshold, self.hierarchical),
                    to_godot, to_packed)
            return bridge

        def _ready(self):
            self._bridge()
            self._label = None
            if self.overlay:
                self._label = Label.new()
                self.add_child(self._label)

        def _process(self, delta):
            if self._label is not None:
                self._label.text = self._bridge().synced().overlay_text()
            if self.debug_draw:
                Node2D.update(self)     # the redraw request: `update` here is the API method

        def _draw(self):
            if not self.debug_draw:
                return
            r = self.get_viewport_rect()
            view = (r.position.x, r.position.y, r.size.x, r.size.y)
            commands = self._bridge().synced().draw_list(view, self.debug_candidates)
            for kind, a, b, c, d, rgba in commands:
                if kind == "line":
                    self.draw_line(Vector2(a, b), Vector2(c, d), Color(*rgba), 1.0)
                else:
                    self.draw_rect(Rect2(a, b, c, d), Color(*rgba), False)

        # The GDScript API (see spatial_hash.node.SpatialHashNode for the arguments).
        def insert(self, *args):
            return self._bridge().call("insert", args)

        def insert_circle(self, *args):
            return self._bridge().call("insert_circle", args)

        def update(self, *args):
            return self._bridge().call("update", args)

        def remove(self, *args):
            return self._bridge().call("remove", args)

        def has(self, *args):
            return self._bridge().call("has", args)

        def get_id(self, *args):
            return self._bridge().call("get_id", args)

        def query_nearby(self, *args):
            return self._bridge().call("query_nearby", args)

        def query_range(self, *args):
            return self._bridge().call("query_range", args)

        def query_radius(self, *args):
            return self._bridge().call("query_radius", args)

        def query_point(self, *args):
            return self._bridge().call("query_point", args)

        def query_along_path(self, *args):
            return self._bridge().call("query_along_path", args)

        def get_collision_pairs(self, *args):
            return self._bridge().call("get_collision_pairs", args)

        def is_colliding(self, *args):
            return self._bridge().call("is_colliding", args)

        def clear(self, *args):
            return self._bridge().call("clear", args)

        def get_stats(self, *args):
            return self._bridge().call("get_stats", args)

        def get_last_error(self, *args):
            return self._bridge().call("get_last_error", args)

        def insert_batch(self, *args):
            return self._bridge().call("insert_batch", args)

        def update_batch(self, *args):
            return self._bridge().call("update_batch", args)

        def remove_batch(self, *args):
            return self._bridge().call("remove_batch", args)

        def get_collision_pairs_packed(self, *args):
            return self._bridge().call("get_collision_pairs_packed", args)
