"""SpatialHash2D for Godot 4.2+ with godot-python-extension.

Declarations and conversions only: the behaviour is spatial_hash.node, which the
test suite runs without Godot. What this plugin does differently, and why the
code below looks the way it does:
- A call with more arguments than a Python method declares raises inside the
  extension before the method runs, and that aborts the engine: every method
  takes *args and the node checks the count.
- Its Array has no __iter__ and answers an index out of range with null, so
  arrays are read by index up to their length, never iterated.
- Its packed arrays expose their memory (the buffer protocol): numpy reads them
  and writes the packed results without a per-element loop.
- Signals are declared by name only (`godot.signal()`) and emitted with their
  own `emit(a, b)`: `emit_signal` with arguments fails ("args size mismatch").
- Once numpy is imported, emitting a signal that nothing is connected to from
  a frame callback (`_process`) crashed the engine (signal 11), so the node
  emits only signals with a connection.
- GDScript's `call()` and `callv()` on a Python node reach the script instance,
  where the extension's own wrappers of them fail on a String method name
  (`callv` with a String variable crashed the engine): the node routes them.
"""
try:
    import godot
    from godot.variant_types import (Color, PackedFloat32Array, PackedFloat64Array,
                                     PackedInt32Array, PackedInt64Array, PackedVector2Array,
                                     Rect2, Vector2)
except ImportError:     # not Godot 4: another engine's editor scanning res://, or CPython
    godot = None

if godot is not None:
    import numpy as np

    from spatial_hash.node import (GDSCRIPT_METHODS, SETTINGS, MonitorSet, NodeBridge,
                                   SceneTreeObjects)

    # Values per element of each packed array the batch methods read.
    PACKED = {PackedVector2Array: 2, PackedInt32Array: 1, PackedInt64Array: 1,
              PackedFloat32Array: 1, PackedFloat64Array: 1}

    def from_godot(value):
        width = PACKED.get(type(value))
        if width is not None:
            values = np.asarray(memoryview(value))   # read only, never kept past the call
            return values.reshape(-1, width) if width > 1 else values.ravel()
        if isinstance(value, godot.Array):
            return [from_godot(value[k]) for k in range(len(value))]
        if isinstance(value, (godot.String, godot.StringName)):
            return str(value)
        return value

    def to_godot(value):
        """Lists become Arrays and dicts Dictionaries on the way out."""
        return value.tolist() if isinstance(value, np.ndarray) else value

    def to_packed(ints):
        """Written through the array's memory: building one from a list costs
        about 0.14 us per element."""
        values = np.asarray(ints, dtype=np.int32)
        packed = PackedInt32Array()
        packed.resize(values.size)
        if values.size:
            np.asarray(godot.writable_memoryview(packed))[:] = values
        return packed

    class Godot4Objects(SceneTreeObjects):
        node_class = godot.Node

        def connect_exit(self, obj, instance_id):
            forget = godot.Callable(self.owner, "_forget_object").bind(instance_id)
            obj.connect("tree_exiting", forget)
            return forget

        def unwatch(self, obj, forget):
            if obj.is_connected("tree_exiting", forget):
                obj.disconnect("tree_exiting", forget)

    def emit_if_connected(node, name, a, b):
        # get_signal_connection_list only reads the node's own connections;
        # emitting the signal without one is what crashed.
        if len(node.get_signal_connection_list(name)):
            getattr(node, name).emit(a, b)

    def setting(name):
        """An exported property kept (and validated) by the node."""
        return godot.property(lambda self: self._bridge().node.setting(name),
                              lambda self, value: self._bridge().set(name, value),
                              default=SETTINGS[name])

    @godot.expose_script_class
    class SpatialHash2D(godot.Node2D, expose_all_methods=True):
        cell_size: float = setting("cell_size")
        large_object_threshold: int = setting("large_object_threshold")
        hierarchical: bool = setting("hierarchical")
        monitors_enabled: bool = setting("monitors_enabled")
        debug_draw: bool = setting("debug_draw")
        debug_candidates: bool = setting("debug_candidates")
        collision_started = godot.signal()  # (a, b): see SpatialHashNode.emit_collision_events
        collision_ended = godot.signal()

        def _bridge(self):
            bridge = getattr(self, "_spatial_hash", None)
            if bridge is None:
                bridge = self._spatial_hash = NodeBridge(
                    from_godot, to_godot, to_packed, report=godot.push_error,
                    objects=Godot4Objects(self), vector=Vector2,
                    emit=lambda name, a, b: emit_if_connected(self, name, a, b))
                self._drawn = False
            return bridge

        def _forget_object(self, *args):
            self._bridge().node.forget(*args)

        def _enter_tree(self):
            bridge = self._bridge()
            if bridge.node.setting("monitors_enabled"):
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
            if self._bridge().node.setting("debug_draw") or self._drawn:
                self.queue_redraw()

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
                    self.draw_rect(Rect2(a, b, c, d), Color(*rgba), False, 1.0)

        def call(self, *args):
            if not args:
                return self._bridge().call("call", args)
            return self._dynamic_call(args[0], list(args[1:]))

        def callv(self, *args):
            if len(args) != 2:
                return self._bridge().call("callv", args)
            return self._dynamic_call(args[0], from_godot(args[1]))

        def _dynamic_call(self, method, arguments):
            if not isinstance(arguments, list):
                return self._bridge().call("callv", (method, arguments))
            name = str(method)
            if name in GDSCRIPT_METHODS:
                return getattr(self, name)(*arguments)
            return godot.Node2D.callv(self, godot.StringName(name), arguments)

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
