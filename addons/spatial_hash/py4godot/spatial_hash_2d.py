"""SpatialHash2D for Godot 4.6 with py4godot (4.6-alpha17).

Declarations and conversions only: the behaviour is spatial_hash.node, which the
test suite runs without Godot. What this plugin does differently, and why the
code below looks the way it does:
- A script's class is named like its file.
- A Python list, dict or tuple returned to GDScript crashes the engine:
  results are built as the plugin's own Array and Dictionary.
- `None` returned reaches GDScript as 0.
- A packed array built in Python is only whole in GDScript as a copy made by
  the engine (`duplicate()`, `slice()`); one made with `from_memory_view` holds
  the wrong values.
- Packed arguments are read through their memory, which is the argument's own
  copy and freed after the call: numpy copies it at once. PackedVector2Array
  has no memory view of its own: its bytes (`to_byte_array()`) do, a copy that
  lives as long as its Python object, which the array read from it keeps. The
  memory view of an empty packed array crashes the engine: empty ones are not read.
- A signal's name is read from the text of the line that declares it.
"""
try:
    from py4godot.classes import gdclass
    from py4godot.classes.core import (Array, Callable, Color, Dictionary, PackedFloat32Array,
                                       PackedFloat64Array, PackedInt32Array, PackedInt64Array,
                                       PackedVector2Array, Rect2, Vector2)
    from py4godot.classes.Node import Node
    from py4godot.classes.Node2D import Node2D
    from py4godot.classes.Object import Object
    from py4godot.classes.Performance import Performance
    from py4godot.functions import push_error
    from py4godot.properties import gdproperty
    from py4godot.signals import SignalArg, signal
except ImportError:     # not py4godot: another plugin's editor scanning res://, or CPython
    gdclass = None

if gdclass is not None:
    import sys

    import numpy as np

    from spatial_hash.node import SETTINGS, MonitorSet, NodeBridge, SceneTreeObjects

    # numpy dtype of each packed array the batch methods read through its memory.
    PACKED = {PackedInt32Array: np.int32, PackedInt64Array: np.int64,
              PackedFloat32Array: np.float32, PackedFloat64Array: np.float64}

    class Owned:
        """A memory view of memory that `owner` holds and frees when it goes:
        numpy keeps this, and so the owner, for as long as its array."""

        def __init__(self, owner, view):
            self.owner, self.view = owner, view

        def __buffer__(self, flags):
            return self.view

    def owned_memory(owner, dtype):
        """`owner`'s memory as numpy, without a copy where Python (3.12+) reads
        the buffers of Python objects."""
        if sys.version_info >= (3, 12):
            return np.frombuffer(Owned(owner, owner.get_memory_view()), dtype=dtype)
        return np.frombuffer(owner.get_memory_view(), dtype=dtype).copy()

    def from_godot(value):
        if isinstance(value, PackedVector2Array):
            if not value.size():
                return np.empty((0, 2), dtype=np.float32)
            return owned_memory(value.to_byte_array(), np.float32).reshape(-1, 2)
        dtype = PACKED.get(type(value))
        if dtype is not None:
            if not value.size():
                return np.empty(0, dtype=dtype)
            return np.frombuffer(value.get_memory_view(), dtype=dtype).copy()
        if isinstance(value, Array):
            return [from_godot(value[k]) for k in range(value.size())]
        return value

    def to_godot(value):
        if isinstance(value, np.ndarray):
            value = value.tolist()
        if isinstance(value, (list, tuple)):
            array = Array.new0()
            for item in value:
                array.append(to_godot(item))
            return array
        if isinstance(value, dict):
            dictionary = Dictionary.new0()
            for key, item in value.items():
                dictionary[key] = to_godot(item)
            return dictionary
        return value

    class PackedInts:
        """Int arrays for GDScript, written into one packed array kept for the
        purpose (resized only to grow) and handed over as the engine's copy of
        their part of it (`slice`): whole in GDScript, in one engine call."""

        def __init__(self):
            self.kept = self.memory = None

        def __call__(self, ints):
            values = np.ascontiguousarray(ints, dtype=np.int32).ravel()
            if not values.size:
                return PackedInt32Array.new0()
            if self.memory is None or len(self.memory) < values.size:
                self.kept = PackedInt32Array.new0()
                self.kept.resize(2 * values.size)
                self.memory = np.frombuffer(self.kept.get_memory_view(), dtype=np.int32)
            self.memory[:values.size] = values
            return self.kept.slice(0, values.size)

    class Py4godotObjects(SceneTreeObjects):
        node_class = Node

        def connect_exit(self, obj, instance_id):
            forget = Callable.new2(self.owner, "_forget_object").bind(instance_id)
            obj.connect("tree_exiting", forget)
            return forget

        def unwatch(self, obj, forget):
            if obj.is_connected("tree_exiting", forget):
                obj.disconnect("tree_exiting", forget)

    def setting(name):
        """An exported property kept (and validated) by the node; it follows
        the gdproperty line that registers it."""
        return property(lambda self: self._bridge().node.setting(name),
                        lambda self, value: self._bridge().set(name, value))

    @gdclass
    class spatial_hash_2d(Node2D):
        collision_started = signal([SignalArg("a", Object), SignalArg("b", Object)])
        collision_ended = signal([SignalArg("a", Object), SignalArg("b", Object)])
        cell_size: float = gdproperty(float, SETTINGS["cell_size"])
        cell_size = setting("cell_size")
        large_object_threshold: int = gdproperty(int, SETTINGS["large_object_threshold"])
        large_object_threshold = setting("large_object_threshold")
        hierarchical: bool = gdproperty(bool, SETTINGS["hierarchical"])
        hierarchical = setting("hierarchical")
        monitors_enabled: bool = gdproperty(bool, SETTINGS["monitors_enabled"])
        monitors_enabled = setting("monitors_enabled")
        debug_draw: bool = gdproperty(bool, SETTINGS["debug_draw"])
        debug_draw = setting("debug_draw")
        debug_candidates: bool = gdproperty(bool, SETTINGS["debug_candidates"])
        debug_candidates = setting("debug_candidates")

        def _bridge(self):
            bridge = getattr(self, "_spatial_hash", None)
            if bridge is None:
                bridge = self._spatial_hash = NodeBridge(
                    from_godot, to_godot, PackedInts(), report=push_error,
                    objects=Py4godotObjects(self), vector=Vector2.new3,
                    emit=lambda name, a, b: getattr(self, name).emit(a, b))
                self._drawn = False
            return bridge

        def _forget_object(self, instance_id):
            self._bridge().node.forget(instance_id)

        def _enter_tree(self):
            bridge = self._bridge()
            if bridge.node.setting("monitors_enabled"):
                performance = Performance.instance()
                bridge.monitors = MonitorSet(bridge.node, str(self.name),
                                             performance.has_custom_monitor)
                for monitor_id in bridge.monitors.ids:
                    performance.add_custom_monitor(monitor_id, Callable.new2(self, "_monitor").bind(monitor_id))

        def _monitor(self, monitor_id):
            return self._bridge().monitors.reader(monitor_id)()

        def _exit_tree(self):
            bridge = self._bridge()
            if bridge.monitors is not None:
                performance = Performance.instance()
                for monitor_id in bridge.monitors.ids:
                    if performance.has_custom_monitor(monitor_id):
                        performance.remove_custom_monitor(monitor_id)
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
                    self.draw_line(Vector2.new3(a, b), Vector2.new3(c, d), Color.new4(*rgba), 1.0)
                else:
                    self.draw_rect(Rect2.new4(a, b, c, d), Color.new4(*rgba), False, 1.0)

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

        def set_filter(self, *args):
            return self._bridge().call("set_filter", args)

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
