"""The two engine scripts, loaded against stand-in `godot` modules that behave
like the real plugins did in real engines (Godot 3.2.3 + pythonscript 0.50,
Godot 4.6.3 + godot-python-extension): they must only declare, convert and
forward, nothing they are handed may make them raise, every error goes through
the engine's own error channel, and nothing freed is ever handed back."""
import array
import ctypes
import importlib.util
import inspect
import math
import pathlib
import sys
import types

import pytest

from spatial_hash.node import GDSCRIPT_METHODS, SETTINGS, SIGNALS

ADDON = pathlib.Path(__file__).resolve().parent.parent / "addons" / "spatial_hash"
API = sorted(GDSCRIPT_METHODS)


class EngineCrash(BaseException):
    """What the real engine did: segfault or abort (not an exception Python sees)."""


class Vector2:
    def __init__(self, x, y):
        self.x, self.y = x, y


class Rect2:
    def __init__(self, x, y, w, h):
        self.position, self.size = Vector2(x, y), Vector2(w, h)


class Dictionary:
    """Both plugins' Dictionary: no __iter__; a missing key reads as None."""

    def __init__(self, items=None):
        self.items_ = dict(items or {})

    def __len__(self):
        return len(self.items_)

    def __getitem__(self, key):
        if key in self.items_:
            return self.items_[key]
        raise EngineCrash(f"missing key {key!r} read: the engine hangs or the caller's value changes")

    def keys(self):
        return list(self.items_)


class Node2D:
    """Both engines' Node2D, with the signals and tree state the node uses."""

    def __init_subclass__(cls, **kwargs):     # Godot 4: expose_all_methods=True
        pass

    _next_id = 1000

    def __init__(self, name="Node", inside_tree=True):
        Node2D._next_id += 1
        self._instance_id = Node2D._next_id
        self.name = name
        self.inside_tree = inside_tree
        self.freed = False
        self.connections = []
        self.drawn = []
        self.children = []
        self.emitted = []

    def _alive(self):
        if self.freed:
            raise EngineCrash("signal 11: a freed object reached the plugin")

    def get_instance_id(self):
        self._alive()
        return self._instance_id

    def is_inside_tree(self):
        return self.inside_tree

    def get_path(self):
        return "/root/Main/" + self.name

    def get_class(self):
        return "Node2D"

    def free(self):
        """tree_exiting is emitted as a node in the tree is freed."""
        for connection in list(self.connections):
            connection.emit()
        self.freed = True

    def get_viewport_rect(self):
        return Rect2(0, 0, 200, 100)

    def draw_line(self, *args):
        self.drawn.append(("line",) + args)

    def draw_rect(self, *args):
        self.drawn.append(("rect",) + args)

    def queue_redraw(self):
        self.drawn.append("redraw")

    def update(self):
        self.drawn.append("redraw")

    def add_child(self, child):
        self.children.append(child)

    def get_child(self, k):
        return self.children[k]


def record_emit(node, name, args):
    """A signal reaching GDScript. Godot 3 handed a freed object on as another,
    live one; the node must never emit one."""
    if len(args) != 2:
        raise AssertionError(f"{name} emitted with {len(args)} arguments: the handler is skipped")
    if any(isinstance(a, Node2D) and a.freed for a in args):
        raise EngineCrash(f"{name} emitted a freed object")
    node.emitted.append((name,) + tuple(args))


class Connection:
    def __init__(self, target, method, binds):
        self.target, self.method, self.binds = target, method, binds

    def emit(self):
        getattr(self.target, self.method)(*self.binds)


class Godot3SignalField:
    """pythonscript's signal(): a name only, with no emit of its own."""


class Godot3Node(Node2D):
    def call(self, method, *args):
        """Variadic engine methods are reached only through call()."""
        assert method == "emit_signal"
        assert isinstance(getattr(type(self), args[0], None), Godot3SignalField), args[0]
        record_emit(self, args[0], args[1:])

    def connect(self, signal, target, method, binds):
        assert signal == "tree_exiting"
        if self.is_connected(signal, target, method):
            raise EngineCrash("connected twice")
        self.connections.append(Connection(target, method, list(binds)))

    def is_connected(self, signal, target, method):
        return any(c.target is target and c.method == method for c in self.connections)

    def disconnect(self, signal, target, method):
        self.connections = [c for c in self.connections
                            if not (c.target is target and c.method == method)]


class Callable:
    def __init__(self, target, method, binds=()):
        self.target, self.method, self.binds = target, method, tuple(binds)

    def bind(self, *binds):
        return Callable(self.target, self.method, self.binds + binds)

    def __eq__(self, other):
        return (self.target, self.method, self.binds) == (other.target, other.method, other.binds)


class Godot4Signal:
    """godot.signal(): declared by name; emitted by its own emit()."""

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, node, owner=None):
        return types.SimpleNamespace(emit=lambda *args: self.emit(node, args))

    def emit(self, node, args):
        record_emit(node, self.name, args)


class ExtensionSignal(Godot4Signal):
    """godot-python-extension's: with numpy imported, the engine crashed when a
    frame callback emitted a signal that nothing was connected to."""

    def emit(self, node, args):
        if not node.get_signal_connection_list(self.name):
            raise EngineCrash(f"{self.name} emitted with no connection: signal 11")
        super().emit(node, args)


class Godot4Node(Node2D):
    def emit_signal(self, *args):
        raise RuntimeError("args size mismatch")

    def set_name(self, name):
        self.name = name

    def callv(self, method, arguments):
        """The engine's own callv, reached through the extension's wrapper: a
        String method name crashed the engine there."""
        if type(method) is not GodotStringName:
            raise EngineCrash("callv with a String method name: signal 11")
        return getattr(Godot4Node, str(method))(self, *arguments)

    def call(self, method, *arguments):
        raise RuntimeError("args size mismatch")

    def connect(self, signal, callable_):
        if self.is_connected(signal, callable_):
            raise EngineCrash("connected twice")
        self.connections.append(Connection(callable_.target, callable_.method, callable_.binds))
        self.connections[-1].callable = callable_
        self.connections[-1].signal = signal

    def is_connected(self, signal, callable_):
        return any(c.signal == signal and c.callable == callable_ for c in self.connections)

    def disconnect(self, signal, callable_):
        self.connections = [c for c in self.connections
                            if not (c.signal == signal and c.callable == callable_)]

    def get_signal_connection_list(self, signal):
        return [{"signal": signal, "callable": c.callable}
                for c in self.connections if c.signal == signal]


# ----------------------------------------------------- Godot 3 stand-ins

class PoolArray:
    """pythonscript's pool arrays: no buffer protocol, elements read one by
    one (counted: the batch path must not), raw_access() gives the address."""
    ctype = None
    width = 1

    def __init__(self, values=()):
        flat = [c for v in values for c in ((v.x, v.y) if self.width == 2 else (v,))]
        self.memory = (self.ctype * max(1, len(flat)))(*flat)
        self.length = len(flat) // self.width
        self.element_reads = 0

    def __len__(self):
        return self.length

    def __getitem__(self, k):
        self.element_reads += 1
        return self.memory[k]

    def resize(self, n):
        self.memory = (self.ctype * max(1, n * self.width))()
        self.length = n

    def raw_access(self):
        pool = self

        class Access:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                return False

            def get_address(self):
                return ctypes.addressof(pool.memory)
        return Access()

    def tolist(self):
        return list(self.memory[:self.length * self.width])


class PoolVector2Array(PoolArray):
    ctype, width = ctypes.c_float, 2


class PoolIntArray(PoolArray):
    ctype = ctypes.c_int32


class PoolRealArray(PoolArray):
    ctype = ctypes.c_float


class Godot3Array(list):
    pass


class GDString:
    def __init__(self, text):
        self.text = text

    def __str__(self):
        return self.text


class Label:
    text = ""
    rect_position = None

    @classmethod
    def new(cls):
        return cls()


class PanelContainer(Node2D):
    rect_position = None

    @classmethod
    def new(cls):
        return cls()


class CanvasLayer(Node2D):
    layer = 0

    @classmethod
    def new(cls):
        return cls()

    def queue_free(self):
        self.freed = True


class Expression:
    """GDScript's Expression, which the Godot 3 script evaluates push_error with."""
    pushed = None

    def parse(self, text, names):
        self.text, self.names = text, list(names)
        return 0

    def execute(self, inputs, base, show_error):
        assert self.text == "push_error(message)" and self.names == ["message"]
        Expression.pushed.extend(inputs)


# ----------------------------------------------------- Godot 4 stand-ins

class PackedVector2Array(array.array):
    """The extension's packed arrays expose their memory (buffer protocol)."""

    def __new__(cls, vectors=()):
        return super().__new__(cls, "f", [c for v in vectors for c in (v.x, v.y)])


class PackedInt32Array(array.array):
    def __new__(cls, values=()):
        if isinstance(values, list) and len(values) > 100:
            raise AssertionError("built from a list: about 0.14 us per element in the engine")
        return super().__new__(cls, "i", values)

    def resize(self, n):
        del self[n:]
        self.extend([0] * (n - len(self)))


class PackedInt64Array(array.array):
    def __new__(cls, values=()):
        return super().__new__(cls, "q", values)


class PackedFloat32Array(array.array):
    def __new__(cls, values=()):
        return super().__new__(cls, "f", values)


class PackedFloat64Array(array.array):
    def __new__(cls, values=()):
        return super().__new__(cls, "d", values)


class Godot4Array:
    """The extension's Array: no __iter__; an index out of range reads as None."""

    def __init__(self, values):
        self.values = list(values)

    def __len__(self):
        return len(self.values)

    def __getitem__(self, k):
        return self.values[k] if 0 <= k < len(self.values) else None


class GodotString(str):
    pass


class GodotStringName(str):
    pass


class Performance:
    def __init__(self):
        self.monitors = {}

    def has_custom_monitor(self, monitor_id):
        return monitor_id in self.monitors

    def add_custom_monitor(self, monitor_id, reader):
        assert monitor_id not in self.monitors
        self.monitors[monitor_id] = reader

    def remove_custom_monitor(self, monitor_id):
        del self.monitors[monitor_id]


def load_script(monkeypatch, engine):
    errors = []
    if engine == 4:
        godot = types.ModuleType("godot")
        variant_types = types.ModuleType("godot.variant_types")
        variant_types.Color = lambda *c: c
        for cls in (PackedInt32Array, PackedInt64Array, PackedFloat32Array, PackedFloat64Array,
                    PackedVector2Array, Rect2, Vector2):
            setattr(variant_types, cls.__name__, cls)
        godot.variant_types = variant_types
        godot.Node, godot.Node2D = Godot4Node, Godot4Node
        godot.Array, godot.String, godot.StringName = Godot4Array, GodotString, GodotStringName
        godot.Callable = Callable
        godot.signal = ExtensionSignal
        godot.expose_script_class = lambda cls: cls
        godot.property = lambda fget, fset, default: property(fget, fset)
        godot.Performance = Performance()
        godot.push_error = errors.append
        godot.writable_memoryview = memoryview
        monkeypatch.setitem(sys.modules, "godot.variant_types", variant_types)
        node_class = Godot4Node
    else:
        godot = types.ModuleType("godot")
        godot.Array, godot.Dictionary, godot.GDString = Godot3Array, Dictionary, GDString
        godot.PoolIntArray, godot.PoolRealArray = PoolIntArray, PoolRealArray
        godot.PoolVector2Array = PoolVector2Array
        godot.Color = lambda *c: c
        godot.CanvasLayer, godot.Label, godot.PanelContainer = CanvasLayer, Label, PanelContainer
        godot.Node, godot.Node2D, godot.Rect2, godot.Vector2 = Godot3Node, Godot3Node, Rect2, Vector2
        godot.Expression, godot.PoolStringArray = Expression, list
        Expression.pushed = errors
        godot.export = lambda kind, default: (lambda prop: prop)
        godot.exposed = lambda cls: cls
        godot.signal = Godot3SignalField
        node_class = Godot3Node
    monkeypatch.setitem(sys.modules, "godot", godot)
    path = ADDON / f"godot{engine}" / "spatial_hash_2d.py"
    spec = importlib.util.spec_from_file_location(f"spatial_hash_2d_godot{engine}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, godot, node_class, errors


def gdscript_call(node, name, *args):
    """A call from GDScript: godot-python-extension aborts the engine when the
    arguments do not fit the Python signature (pythonscript can crash too)."""
    method = getattr(node, name)
    try:
        inspect.signature(method).bind(*args)
    except TypeError:
        raise EngineCrash(f"{name}{args}: the plugin raised binding the arguments") from None
    return method(*args)


def packed_vectors(engine, pairs):
    cls = PackedVector2Array if engine == 4 else PoolVector2Array
    return cls([Vector2(x, y) for x, y in pairs])


def as_list(packed):
    return packed.tolist()


def new_node(monkeypatch, engine):
    module, godot, node_class, errors = load_script(monkeypatch, engine)
    node = module.SpatialHash2D()
    node._enter_tree() if engine == 4 else node._process(0.0)
    return module, godot, node_class, errors, node


@pytest.mark.parametrize("engine", [3, 4])
def test_scripts_import_harmlessly_without_their_engine(engine):
    spec = importlib.util.spec_from_file_location("plain", ADDON / f"godot{engine}" / "spatial_hash_2d.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)           # no godot module here: declares nothing
    assert not hasattr(module, "SpatialHash2D")


@pytest.mark.parametrize("engine", [3, 4])
def test_scripts_forward_exactly_the_api_with_any_arguments(monkeypatch, engine):
    module, *_ = load_script(monkeypatch, engine)
    forwarded = sorted(name for name, member in vars(module.SpatialHash2D).items()
                       if inspect.isfunction(member) and not name.startswith("_"))
    assert forwarded == sorted(API + (["call", "callv"] if engine == 4 else []))
    declared = sorted(name for name, member in vars(module.SpatialHash2D).items()
                      if isinstance(member, (Godot3SignalField, Godot4Signal)))
    assert declared == sorted(SIGNALS)
    for name in API:         # *args only: the node, not the plugin, checks the count
        params = list(inspect.signature(getattr(module.SpatialHash2D, name)).parameters.values())
        assert [p.kind for p in params] == [inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                            inspect.Parameter.VAR_POSITIONAL], name


JUNK = [None, 0, -1, 2.5, math.nan, math.inf, -1e308, True, "text", Dictionary({"x": 1, "y": 2}),
        Dictionary({0: 1, 1: 2}), [], [1, 2], [Vector2(0, 0)], Vector2(math.nan, 1), Rect2(0, 0, -1, 1)]


@pytest.mark.parametrize("engine", [3, 4])
def test_no_arguments_crash_and_every_error_goes_to_the_engine(monkeypatch, capsys, engine):
    _, godot, node_class, errors, node = new_node(monkeypatch, engine)
    other = node_class("Other")
    node.insert(other, Vector2(0, 0), Vector2(5, 5))
    node.insert_batch(packed_vectors(engine, [(1, 1)]), packed_vectors(engine, [(1, 1)]))
    junk = JUNK + [Godot4Array([1]) if engine == 4 else Godot3Array([1]),
                   packed_vectors(engine, [(1, 2)]), node_class("Stranger", inside_tree=False)]
    reported = len(errors)
    for name in API:
        for count in range(5):
            for k in range(len(junk)):
                args = [junk[(k + j) % len(junk)] for j in range(count)]
                gdscript_call(node, name, *args)
    assert len(errors) > reported + 500 and all(e.startswith("SpatialHash2D.") for e in errors)
    assert capsys.readouterr().err == ""          # nothing bypassed the engine's channel
    assert node.insert(other, Vector2(0, 0), Vector2(5, 5))
    assert list(node.query_point(Vector2(1, 1))) == [other]


@pytest.mark.parametrize("engine", [3, 4])
def test_results_convert_and_bad_input_is_named(monkeypatch, engine):
    _, godot, node_class, errors, node = new_node(monkeypatch, engine)
    a, b = node_class("A"), node_class("B")
    assert node.insert(a, Vector2(0, 0), Vector2(10, 10)) is True
    assert node.insert(b, Vector2(5, 5), Vector2(10, 10)) is True
    pairs = node.get_collision_pairs()
    assert [list(p) for p in pairs] == [[a, b]]
    ids = node.insert_batch(packed_vectors(engine, [(8, 8)]), packed_vectors(engine, [(1, 1)]))
    assert type(ids) is (PackedInt32Array if engine == 4 else PoolIntArray) and as_list(ids) == [2]
    packed = as_list(node.get_collision_pairs_packed())
    assert sorted(zip(packed[0::2], packed[1::2])) == [(0, 1), (0, 2), (1, 2)]
    stats = node.get_stats()
    assert stats["objects"] == 3
    if engine == 3:     # Godot 3 turns plain lists and dicts into null: all wrapped
        assert type(pairs) is Godot3Array and type(pairs[0]) is Godot3Array
        assert type(stats) is sys.modules["godot"].Dictionary
    assert node.query_range(Rect2(0, 0, 5, 5), "no") in ([], Godot3Array())
    assert errors[-1] == "SpatialHash2D.query_range: exact must be true or false, got 'no'"
    assert not node.is_colliding(node_class("Ghost"), a)
    assert "'/root/Main/Ghost' is not in this spatial hash" in errors[-1]
    assert not node.insert(node_class("Loose", inside_tree=False), Vector2(0, 0), Vector2(1, 1))
    assert "Node inside the scene tree, got Node2D 'Loose'" in errors[-1]
    assert node.get_last_error() == errors[-1]
    assert node.get_stats()["objects"] == 3 and node.get_last_error() == ""


@pytest.mark.parametrize("engine", [3, 4])
def test_batches_read_packed_arrays_without_an_element_loop(monkeypatch, engine):
    _, godot, node_class, errors, node = new_node(monkeypatch, engine)
    positions = packed_vectors(engine, [(k * 3.0, 0.5 * k) for k in range(500)])
    sizes = packed_vectors(engine, [(4.0, 4.0)] * 500)
    ids = node.insert_batch(positions, sizes)
    assert as_list(ids) == list(range(500))
    moved = packed_vectors(engine, [(k * 3.0, 1000.0) for k in range(500)])
    assert node.update_batch(ids, moved, sizes) is True
    if engine == 3:
        assert positions.element_reads == moved.element_reads == sizes.element_reads == 0
        assert ids.element_reads == 0
    assert node.query_point(Vector2(3.0, 0.5)) in ([], Godot3Array())
    assert len(node.query_point(Vector2(4.0, 1001.0))) == 2
    assert as_list(moved)[:4] == [0.0, 1000.0, 3.0, 1000.0]      # the caller's array as it was
    flat = as_list(node.get_collision_pairs_packed())
    assert len(flat) == 2 * 499
    reals = PackedFloat64Array([1.0, 2.0]) if engine == 4 else PoolRealArray([1.0, 2.0])
    assert node.update_batch(ids, reals, sizes) is False and "500 sizes" in errors[-1]
    assert not node.remove_batch(moved) and "ids must be integers" in errors[-1]
    assert errors[:-2] == []


@pytest.mark.parametrize("engine", [3, 4])
def test_a_freed_node_leaves_the_index_by_itself(monkeypatch, engine):
    _, godot, node_class, errors, node = new_node(monkeypatch, engine)
    a, b, c = node_class("A"), node_class("B"), node_class("C")
    for obj in (a, b, c):
        assert node.insert(obj, Vector2(0, 0), Vector2(4, 4))
    b_id = node.get_id(b)
    b.free()                 # emits tree_exiting, then touching b crashes the engine
    seen = [o for pair in node.get_collision_pairs() for o in pair]
    assert b not in seen and len(seen) == 2
    assert b not in list(node.query_nearby(Vector2(0, 0), Vector2(4, 4)))
    assert node.get_stats()["objects"] == 2
    assert not node.remove_batch([b_id]) and str(b_id) in errors[-1]
    a_id = node.get_id(a)
    assert node.remove_batch([a_id]) and a.connections == [] and not node.has(a)
    a.free()
    assert node.remove(c) and c.connections == []
    node.insert(c, Vector2(0, 0), Vector2(1, 1))     # watched again, once
    assert len(c.connections) == 1
    node.clear()
    assert c.connections == [] and node.get_stats()["objects"] == 0


def listen(node, engine, *signals):
    """Connect GDScript handlers to the node's signals (Godot 3's stand-in
    delivers every signal as if connected)."""
    if engine == 4:
        for name in signals:
            node.connect(name, Callable(node, "_on_" + name))


def test_godot4_emits_only_signals_something_is_connected_to(monkeypatch):
    # godot-python-extension (numpy imported) crashed on the first
    # collision_ended of a scene that connected only collision_started.
    _, godot, node_class, errors, node = new_node(monkeypatch, 4)
    a, b = node_class("A"), node_class("B")
    node.insert(a, Vector2(0, 0), Vector2(4, 4))
    node.insert(b, Vector2(1, 1), Vector2(4, 4))
    assert node.emit_collision_events() == 1 and node.emitted == []
    listen(node, 4, "collision_started")
    assert node.update(b, Rect2(9, 9, 4, 4))
    assert node.emit_collision_events() == 1 and node.emitted == []     # ended: not connected
    assert node.update(b, Rect2(1, 1, 4, 4))
    assert node.emit_collision_events() == 1
    assert node.emitted == [("collision_started", a, b)]
    assert errors == []


@pytest.mark.parametrize("engine", [3, 4])
def test_collision_signals_reach_the_engine_once_and_never_with_a_freed_node(monkeypatch, engine):
    _, godot, node_class, errors, node = new_node(monkeypatch, engine)
    listen(node, engine, "collision_started", "collision_ended")
    a, b, c = node_class("A"), node_class("B"), node_class("C")
    for obj in (a, b, c):
        node.insert(obj, Vector2(0, 0), Vector2(4, 4))
    assert node.emit_collision_events() == 3
    assert node.emitted == [("collision_started", a, b), ("collision_started", a, c),
                                    ("collision_started", b, c)]
    node.emitted.clear()
    assert node.emit_collision_events() == 0 and node.emitted == []
    assert node.set_filter(c, 2, 2) and node.set_filter(b, 1, 1)
    node.emit_collision_events()
    assert node.emitted == [("collision_ended", b, c)]
    node.emitted.clear()
    b.free()                 # leaving the tree ends b's pairs while b still exists
    assert node.emitted == [("collision_ended", a, b)]
    node.remove(c)
    assert node.emitted[1:] == [("collision_ended", a, c)]
    c.free()
    node.emitted.clear()
    assert node.emit_collision_events() == 0
    d = node_class("D")
    node.insert(d, Vector2(1, 1), Vector2(1, 1))
    node.emit_collision_events()
    node.clear()             # every pair ends at once too
    d.free()
    assert node.emitted == [("collision_started", a, d), ("collision_ended", a, d)]
    assert errors == []


@pytest.mark.parametrize("engine", [3, 4])
def test_layers_masks_and_packed_events_through_the_scripts(monkeypatch, engine):
    _, godot, node_class, errors, node = new_node(monkeypatch, engine)
    ints = PackedInt32Array if engine == 4 else PoolIntArray
    ids = node.insert_batch(packed_vectors(engine, [(0, 0), (1, 1), (2, 2)]),
                            packed_vectors(engine, [(4, 4)] * 3), ints([1, 2, 4]), 0)
    events = node.get_collision_events_packed()
    assert as_list(events["started"]) == [] and as_list(events["ended"]) == []
    assert node.set_filter_batch(ids, ints([1, 2, 4]), ints([2, 4, 1]))
    events = node.get_collision_events_packed()
    assert type(events["started"]) is ints and as_list(events["ended"]) == []
    assert as_list(events["started"]) == [0, 1, 0, 2, 1, 2]
    assert sorted(node.query_point(Vector2(3, 3), 6)) == [1, 2]
    hit = node.raycast(Vector2(-1, 3), Vector2(9, 3), 4)
    assert hit["collider"] == 2 and hit["position"].x == 2.0
    assert not node.set_filter_batch(ids, ints([1, -2, 4]), 1)
    assert errors[-1] == "SpatialHash2D.set_filter_batch: layers[1] must be an int from 0 to " \
                         "2**32 - 1, got -2"
    assert not node.query_point(Vector2(3, 3), -1)
    assert errors[-1] == "SpatialHash2D.query_point: mask must be an int from 0 to 2**32 - 1, got -1"
    assert not node.set_filter_batch(ids, Dictionary({0: 1}), 1) and "layers must be" in errors[-1]
    assert as_list(node.get_collision_events_packed()["started"]) == []


@pytest.mark.parametrize("engine", [3, 4])
def test_properties_validate_once_and_apply_at_run_time(monkeypatch, engine):
    _, godot, node_class, errors, node = new_node(monkeypatch, engine)
    assert {name: getattr(node, name) for name in SETTINGS if hasattr(type(node), name)} == \
        {name: value for name, value in SETTINGS.items() if hasattr(type(node), name)}
    node.insert(1, Vector2(0, 0), Vector2(10, 10))
    node.cell_size = -5
    assert node.cell_size == 64.0 and len(errors) == 1 and "-5" in errors[0]
    node.get_stats()
    node.insert(2, Vector2(1, 1), Vector2(1, 1))
    assert len(errors) == 1 and node.get_last_error() == ""
    node.hierarchical = True
    assert node.get_stats()["index"] == "hierarchical" and node.hierarchical is True
    node.cell_size = 7
    assert node.cell_size == 7.0
    node.hierarchical = False
    assert node._bridge().node.grid.cell_size == 7.0
    node.debug_draw = True
    node._process(0.016)
    node._draw()
    assert sum(1 for d in node.drawn if d[0] == "rect") == 2 and "redraw" in node.drawn
    node.debug_draw = False
    node.drawn.clear()
    node._process(0.016)              # one more redraw clears the drawing
    node._draw()
    assert node.drawn == ["redraw"]
    node._process(0.016)
    assert node.drawn == ["redraw"]
    if engine == 3:
        node.overlay = True
        node._process(0.016)
        layer = node.children[-1]
        assert type(layer) is CanvasLayer and "2 objects" in layer.get_child(0).get_child(0).text
        node.overlay = False
        node._process(0.016)
        assert layer.freed


def test_godot3_update_without_arguments_is_still_the_redraw_request(monkeypatch):
    _, godot, node_class, errors, node = new_node(monkeypatch, 3)
    node.drawn.clear()
    node.update()
    assert node.drawn == ["redraw"] and errors == []
    node.insert(1, Vector2(0, 0), Vector2(1, 1))
    assert node.update(1, Rect2(5, 5, 1, 1)) is True
    assert list(node.query_point(Vector2(5.5, 5.5))) == [1]


def test_godot4_monitors_are_distinct_per_node_and_removed(monkeypatch):
    module, godot, node_class, errors = load_script(monkeypatch, 4)
    first, second = module.SpatialHash2D(), module.SpatialHash2D()
    first._enter_tree()
    second._enter_tree()
    monitors = godot.Performance.monitors
    assert len(monitors) == 16 and "spatial_hash/active_cells" in monitors
    first.insert(7, Vector2(0, 0), Vector2(1, 1))
    assert monitors["spatial_hash/total_objects"]() == 1.0
    second_ids = [i for i in monitors if i.endswith("]")]
    assert len(second_ids) == 8 and all(monitors[i]() == 0.0 for i in second_ids if "total" in i)
    first._exit_tree()
    assert sorted(monitors) == sorted(second_ids)
    second._exit_tree()
    assert monitors == {}
    second.monitors_enabled = False
    second._enter_tree()
    assert monitors == {}


def test_godot4_call_and_callv_with_a_string_reach_the_right_method(monkeypatch):
    _, godot, node_class, errors, node = new_node(monkeypatch, 4)
    assert node.call(GodotString("insert"), 5, Vector2(0, 0), Vector2(2, 2)) is True
    assert node.callv(GodotString("get_id"), Godot4Array([5])) == 0
    assert node.callv(GodotString("query_point"), Godot4Array([Vector2(1, 1)])) == [5]
    node.callv(GodotString("set_name"), Godot4Array(["Renamed"]))     # the engine's own methods
    assert node.name == "Renamed" and errors == []
    assert node.call() is None and "call(method) takes 1 arguments, got 0" in errors[-1]
    assert node.callv(GodotString("get_id")) is None and "takes 2 arguments, got 1" in errors[-1]
    assert node.callv(GodotString("get_id"), Dictionary({0: 1})) is None
    assert "arguments must be an Array" in errors[-1]
