"""SpatialHash2D for Godot 4.2+ with godot-python-extension.

Declarations and conversions only: the behaviour is spatial_hash.node, which the
test suite runs without Godot. Checked against the extension's API as described
in GODOT_NOTES (Godot 4.6.3, extension built for Python 3.14).
"""
try:
    import godot
    from godot.variant_types import Color, PackedInt32Array, Rect2, Vector2
except ImportError:     # not Godot 4: another engine's editor scanning res://, or CPython
    godot = None

if godot is not None:
    from spatial_hash.node import MonitorSet, NodeBridge

    def to_godot(value):
        return value     # lists become Arrays and dicts Dictionaries on the way out

    def to_packed(ints):
        return PackedInt32Array(ints)

    @godot.expose_script_class
    class SpatialHash2D(godot.Node2D, expose_all_methods=True):
        cell_size: float = godot.property(default=64.0)
        large_object_threshold: int = godot.property(default=4)
        hierarchical: bool = godot.property(default=False)
        monitors_enabled: bool = godot.property(default=True)
        debug_draw: bool = godot.property(default=False)
        debug_candidates: bool = godot.property(default=True)

        def _bridge(self):
            bridge = getattr(self, "_spatial_hash", None)
            if bridge is None:
                bridge = self._spatial_hash = NodeBridge(
                    lambda: (self.cell_size, self.large_object_threshold, self.hierarchical),
                    to_godot, to_packed)
            return bridge

        def _ready(self):
            bridge = self._bridge()
            if self.monitors_enabled:
                performance = godot.Performance
                bridge.monitors = MonitorSet(bridge.node, str(self.name),
                                             performance.has_custom_monitor)
                for monitor_id in bridge.monitors.ids:
                    performance.add_custom_monitor(monitor_id, bridge.monitors.reader(monitor_id))

        def _exit_tree(self):
            bridge = self._bridge()
            if bridge.monitors is not None:
                for monitor_id in bridge.monitors.ids:
                    if godot.Performance.has_custom_monitor(monitor_id):
                        godot.Performance.remove_custom_monitor(monitor_id)
                bridge.monitors = None

        def _process(self, delta):
            if self.debug_draw:
                self.queue_redraw()

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
                    self.draw_rect(Rect2(a, b, c, d), Color(*rgba), False, 1.0)

        # The GDScript API (see spatial_hash.node.SpatialHashNode). A missing
        # argument arrives as null and is reported by the node's checks.
        def insert(self, obj=None, pos=None, size=None):
            return self._bridge().call("insert", (obj, pos, size))

        def insert_circle(self, obj=None, center=None, radius=None):
            return self._bridge().call("insert_circle", (obj, center, radius))

        def update(self, obj=None, bounds=None):
            return self._bridge().call("update", (obj, bounds))

        def remove(self, obj=None):
            return self._bridge().call("remove", (obj,))

        def has(self, obj=None):
            return self._bridge().call("has", (obj,))

        def get_id(self, obj=None):
            return self._bridge().call("get_id", (obj,))

        def query_nearby(self, pos=None, size=None):
            return self._bridge().call("query_nearby", (pos, size))

        def query_range(self, rect=None, exact=False):
            return self._bridge().call("query_range", (rect, exact))

        def query_radius(self, center=None, radius=None):
            return self._bridge().call("query_radius", (center, radius))

        def query_point(self, point=None):
            return self._bridge().call("query_point", (point,))

        def query_along_path(self, start=None, end=None, size=None):
            return self._bridge().call("query_along_path", (start, end, size))

        def get_collision_pairs(self):
            return self._bridge().call("get_collision_pairs", ())

        def is_colliding(self, a=None, b=None):
            return self._bridge().call("is_colliding", (a, b))

        def clear(self):
            return self._bridge().call("clear", ())

        def get_stats(self):
            return self._bridge().call("get_stats", ())

        def get_last_error(self):
            return self._bridge().call("get_last_error", ())

        def insert_batch(self, positions=None, sizes=None):
            return self._bridge().call("insert_batch", (positions, sizes))

        def update_batch(self, ids=None, positions=None, sizes=None):
            return self._bridge().call("update_batch", (ids, positions, sizes))

        def remove_batch(self, ids=None):
            return self._bridge().call("remove_batch", (ids,))

        def get_collision_pairs_packed(self):
            return self._bridge().call("get_collision_pairs_packed", ())
