"""SpatialHash2D for Godot 3.2+ with godot-python 0.50 (pythonscript, Python 3.8).

Declarations and conversions only: the behaviour is spatial_hash.node, which the
test suite runs without Godot. What this plugin does differently, and why the
code below looks the way it does:
- A TypeError raised while it binds a method's arguments can crash the engine,
  so every method takes *args and the node checks the count.
- Plain Python lists and dicts reach GDScript as null: results are wrapped in
  Array and Dictionary.
- Its pool arrays have no buffer protocol and cost about 1 us per element read
  one by one; `raw_access()` gives their address, which numpy copies at once.
- It binds no `push_error`: errors go through an Expression calling it, so
  they reach the editor's error list and the debugger.
- It binds no variadic engine method (`emit_signal`): signals are declared
  by name with `signal()` and emitted through `call("emit_signal", ...)`.
- A method named `update` replaces CanvasItem.update(), the redraw request:
  `update()` with no arguments still redraws.
- `__init__` of an exposed class never runs: state is created on first use.
Godot 3 has no custom monitors: get_stats() and `overlay = true` show the numbers.
"""
try:
    from godot import (Array, CanvasLayer, Color, Dictionary, Expression, GDString, Label, Node,
                       Node2D, PanelContainer, PoolIntArray, PoolRealArray, PoolStringArray,
                       PoolVector2Array, Rect2, Vector2, export, exposed, signal)
except ImportError:     # not Godot 3: another engine's editor scanning res://, or CPython
    exposed = None

if exposed is not None:
    import ctypes

    import numpy as np

    from spatial_hash.node import SETTINGS, NodeBridge, SceneTreeObjects, report_to_stderr

    # (numpy dtype, values per element) of each pool array the batch methods read.
    POOLS = {PoolVector2Array: (np.float32, 2), PoolIntArray: (np.int32, 1),
             PoolRealArray: (np.float32, 1)}

    def pool_to_numpy(pool, dtype, width):
        """A copy of a pool array's memory; `raw_access` locks it meanwhile (a
        shared pool is copied first, so the caller's array is never touched)."""
        out = np.empty(len(pool) * width, dtype)
        if out.size:
            with pool.raw_access() as access:
                ctypes.memmove(out.ctypes.data, access.get_address(), out.nbytes)
        return out.reshape(-1, width) if width > 1 else out

    def from_godot(value):
        kind = POOLS.get(type(value))
        if kind is not None:
            return pool_to_numpy(value, *kind)
        if isinstance(value, Array):
            return [from_godot(v) for v in value]
        if isinstance(value, GDString):
            return str(value)
        return value

    def to_godot(value):
        """Plain lists and dicts arrive in GDScript as null: wrap them, nested ones too."""
        if isinstance(value, np.ndarray):
            value = value.tolist()
        if isinstance(value, (list, tuple)):
            return Array([to_godot(v) for v in value])
        if isinstance(value, dict):
            return Dictionary({k: to_godot(v) for k, v in value.items()})
        return value

    def to_packed(ints):
        values = np.ascontiguousarray(ints, dtype=np.int32)
        pool = PoolIntArray()
        pool.resize(values.size)
        if values.size:
            with pool.raw_access() as access:
                ctypes.memmove(access.get_address(), values.ctypes.data, values.nbytes)
        return pool

    class Godot3Objects(SceneTreeObjects):
        node_class = Node

        def connect_exit(self, obj, instance_id):
            obj.connect("tree_exiting", self.owner, "_forget_object", Array([instance_id]))

        def unwatch(self, obj, token):
            if obj.is_connected("tree_exiting", self.owner, "_forget_object"):
                obj.disconnect("tree_exiting", self.owner, "_forget_object")

    def setting(kind, name):
        """An exported property kept (and validated) by the node."""
        return export(kind, default=SETTINGS[name])(property(
            lambda self: self._bridge().node.setting(name),
            lambda self, value: self._bridge().set(name, value)))

    @exposed
    class SpatialHash2D(Node2D):
        cell_size = setting(float, "cell_size")
        large_object_threshold = setting(int, "large_object_threshold")
        hierarchical = setting(bool, "hierarchical")
        debug_draw = setting(bool, "debug_draw")
        debug_candidates = setting(bool, "debug_candidates")
        overlay = setting(bool, "overlay")
        collision_started = signal()    # (a, b): see SpatialHashNode.emit_collision_events
        collision_ended = signal()

        def _bridge(self):
            bridge = getattr(self, "_spatial_hash", None)
            if bridge is None:
                bridge = self._spatial_hash = NodeBridge(
                    from_godot, to_godot, to_packed, report=self._report_error,
                    objects=Godot3Objects(self), vector=Vector2,
                    emit=lambda name, a, b: self.call("emit_signal", name, a, b))
                self._overlay = None
                self._drawn = False
            return bridge

        def _report_error(self, message):
            """push_error through an Expression: pythonscript binds no push_error,
            and instancing a GDScript helper from Python crashed the engine."""
            try:
                expression = Expression()
                if expression.parse("push_error(message)", PoolStringArray(["message"])) != 0:
                    raise RuntimeError(str(expression.get_error_text()))
                expression.execute(Array([message]), None, False)
            except Exception:           # never let reporting raise into the engine
                report_to_stderr(message)

        def _forget_object(self, instance_id):
            self._bridge().node.forget(instance_id)

        def _process(self, delta):
            node = self._bridge().node
            if node.setting("overlay") != (self._overlay is not None):
                self._show_overlay(node.setting("overlay"))
            if self._overlay is not None:
                self._overlay_label.text = node.overlay_text()
            if node.setting("debug_draw") or self._drawn:
                Node2D.update(self)

        def _show_overlay(self, shown):
            """The stats on a panel in screen space (a canvas layer of their own)."""
            if shown:
                self._overlay = CanvasLayer.new()
                self._overlay.layer = 100
                panel = PanelContainer.new()
                panel.rect_position = Vector2(8, 8)
                self._overlay_label = Label.new()
                panel.add_child(self._overlay_label)
                self._overlay.add_child(panel)
                self.add_child(self._overlay)
            else:
                self._overlay.queue_free()
                self._overlay = None

        def _draw(self):
            node = self._bridge().node
            self._drawn = node.setting("debug_draw")
            if not self._drawn:
                return
            r = self.get_viewport_rect()
            view = (r.position.x, r.position.y, r.size.x, r.size.y)
            for kind, a, b, c, d, rgba in node.draw_list(view, node.setting("debug_candidates")):
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
            if not args:        # CanvasItem.update(): the redraw request
                return Node2D.update(self)
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

        def query_nearest(self, *args):
            return self._bridge().call("query_nearest", args)

        def raycast(self, *args):
            return self._bridge().call("raycast", args)

        def raycast_all(self, *args):
            return self._bridge().call("raycast_all", args)

        def query_along_path(self, *args):
            return self._bridge().call("query_along_path", args)

        def get_collision_pairs(self, *args):
            return self._bridge().call("get_collision_pairs", args)

        def is_colliding(self, *args):
            return self._bridge().call("is_colliding", args)

        def set_filter(self, *args):
            return self._bridge().call("set_filter", args)

        def emit_collision_events(self, *args):
            return self._bridge().call("emit_collision_events", args)

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

        def set_filter_batch(self, *args):
            return self._bridge().call("set_filter_batch", args)

        def get_collision_pairs_packed(self, *args):
            return self._bridge().call("get_collision_pairs_packed", args)

        def get_collision_events_packed(self, *args):
            return self._bridge().call("get_collision_events_packed", args)
