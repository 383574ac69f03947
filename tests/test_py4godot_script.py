"""The py4godot script, loaded against stand-in `py4godot` modules that behave
like py4godot 4.6-alpha17 did in a real Godot 4.6.3: a Python list, dict or
tuple returned to GDScript crashes the engine, `None` arrives as 0, a packed
array built in Python is only whole as the engine's copy (`duplicate()`),
packed arguments are read through their memory (a PackedVector2Array through
its bytes; indexing one crashed), signals are emitted by their own `emit`, and
an argument count that does not fit prints a TypeError."""
import gc
import importlib.util
import math
import pathlib
import sys
import types

import numpy as np
import pytest

from spatial_hash.node import GDSCRIPT_METHODS, SIGNALS
from test_godot_scripts import (Callable, Dictionary, EngineCrash, Godot4Node, Godot4Signal,
                                Performance, Rect2, Vector2)

SCRIPT = pathlib.Path(__file__).resolve().parent.parent / "addons" / "spatial_hash" / "py4godot" / "spatial_hash_2d.py"


class P4Callable(Callable):
    @staticmethod
    def new2(target, method):
        return P4Callable(target, method)


class P4Array:
    """py4godot's Array: new0() and append; read by index up to size()."""

    def __init__(self, values=()):
        self.values = list(values)

    @classmethod
    def new0(cls):
        return cls()

    def append(self, value):
        self.values.append(value)

    def size(self):
        return len(self.values)

    def __getitem__(self, k):
        return self.values[k]


class P4Dictionary(Dictionary):
    @classmethod
    def new0(cls):
        return cls()

    def __setitem__(self, key, value):
        self.items_[key] = value


class P4Packed:
    """py4godot's packed arrays: memory views over their own bytes; one built in
    Python is whole in GDScript only as the engine's duplicate()."""
    dtype = None

    def __init__(self, values=(), engine_made=True):
        self.memory = bytearray(np.asarray(values, dtype=self.dtype).tobytes())
        self.engine_made = engine_made

    @classmethod
    def new0(cls):
        return cls(engine_made=False)

    def resize(self, n):
        self.memory = bytearray(n * np.dtype(self.dtype).itemsize)

    def size(self):
        return len(self.memory) // np.dtype(self.dtype).itemsize

    def get_memory_view(self):
        if not self.memory:
            raise EngineCrash("get_memory_view() of an empty packed array: signal 11")
        return memoryview(self.memory)

    def __del__(self):
        # py4godot frees a packed array with its Python object: its memory then
        # holds whatever comes next.
        self.memory[:] = b"\xff" * len(self.memory)

    def duplicate(self):
        return self.slice(0)

    def slice(self, begin, end=2147483647):
        copy = type(self)(engine_made=True)
        size = np.dtype(self.dtype).itemsize
        copy.memory = bytearray(self.memory[begin * size:min(end, self.size()) * size])
        return copy

    def tolist(self):
        return np.frombuffer(bytes(self.memory), dtype=self.dtype).tolist()


class PackedInt32Array(P4Packed):
    dtype = np.int32


class PackedInt64Array(P4Packed):
    dtype = np.int64


class PackedFloat32Array(P4Packed):
    dtype = np.float32


class PackedFloat64Array(P4Packed):
    dtype = np.float64


class PackedByteArray(P4Packed):
    dtype = np.uint8


class PackedVector2Array:
    """No memory view of its own, and indexing one from Python crashed."""

    def __init__(self, pairs=()):
        self.values = np.asarray(pairs, dtype=np.float32).reshape(-1, 2)

    def size(self):
        return len(self.values)

    def to_byte_array(self):
        return PackedByteArray(np.frombuffer(self.values.tobytes(), dtype=np.uint8))

    def __getitem__(self, k):
        raise EngineCrash("indexing a PackedVector2Array from Python")


def p4_vector(x, y):
    return Vector2(x, y)


def load_script(monkeypatch):
    errors = []
    modules = {name: types.ModuleType(name) for name in (
        "py4godot", "py4godot.classes", "py4godot.classes.core", "py4godot.classes.Node",
        "py4godot.classes.Node2D", "py4godot.classes.Object", "py4godot.classes.Performance",
        "py4godot.functions", "py4godot.properties", "py4godot.signals")}
    modules["py4godot.classes"].gdclass = lambda cls: cls
    core = modules["py4godot.classes.core"]
    core.Array, core.Dictionary, core.Callable = P4Array, P4Dictionary, P4Callable
    core.PackedInt32Array, core.PackedInt64Array = PackedInt32Array, PackedInt64Array
    core.PackedFloat32Array, core.PackedFloat64Array = PackedFloat32Array, PackedFloat64Array
    core.PackedVector2Array = PackedVector2Array
    core.Vector2 = types.SimpleNamespace(new3=p4_vector)
    core.Color = types.SimpleNamespace(new4=lambda *c: c)
    core.Rect2 = types.SimpleNamespace(new4=Rect2)
    modules["py4godot.classes.Node"].Node = Godot4Node
    modules["py4godot.classes.Node2D"].Node2D = Godot4Node
    modules["py4godot.classes.Object"].Object = object
    performance = Performance()
    modules["py4godot.classes.Performance"].Performance = types.SimpleNamespace(
        instance=lambda: performance)
    modules["py4godot.functions"].push_error = errors.append
    modules["py4godot.properties"].gdproperty = lambda kind, default: default
    modules["py4godot.signals"].signal = lambda args: Godot4Signal()
    modules["py4godot.signals"].SignalArg = lambda name, kind: (name, kind)
    for name, module in modules.items():
        monkeypatch.setitem(sys.modules, name, module)
    spec = importlib.util.spec_from_file_location("spatial_hash_2d_py4godot", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, member in list(vars(module.spatial_hash_2d).items()):
        if isinstance(member, Godot4Signal):
            member.__set_name__(module.spatial_hash_2d, name)
    return module, errors, performance


def reaching_gdscript(value):
    """What GDScript gets back, or EngineCrash where the real engine crashed."""
    if value is None:
        return 0
    if isinstance(value, (list, tuple, dict)):
        raise EngineCrash(f"a Python {type(value).__name__} returned to GDScript")
    if isinstance(value, P4Packed) and not value.engine_made and value.size():
        raise AssertionError("a packed array built in Python reached GDScript unduplicated")
    if isinstance(value, P4Array):
        for item in value.values:
            reaching_gdscript(item)
    if isinstance(value, P4Dictionary):
        for item in value.items_.values():
            reaching_gdscript(item)
    return value


def call(node, name, *args):
    return reaching_gdscript(getattr(node, name)(*args))


@pytest.fixture
def loaded(monkeypatch):
    module, errors, performance = load_script(monkeypatch)
    node = module.spatial_hash_2d()
    node._enter_tree()
    return node, errors, performance


def test_the_script_imports_harmlessly_without_py4godot():
    spec = importlib.util.spec_from_file_location("plain", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert not hasattr(module, "spatial_hash_2d")


def test_the_script_forwards_exactly_the_api_and_declares_the_signals(monkeypatch):
    module, _, _ = load_script(monkeypatch)
    cls = module.spatial_hash_2d
    forwarded = sorted(name for name, member in vars(cls).items()
                       if callable(member) and not name.startswith("_"))
    assert forwarded == sorted(GDSCRIPT_METHODS)
    assert sorted(n for n, m in vars(cls).items() if isinstance(m, Godot4Signal)) == sorted(SIGNALS)


JUNK = [None, 0, -1, 2.5, math.nan, True, "text", P4Dictionary({"x": 1}), P4Array([1, 2]),
        Vector2(math.nan, 1), Rect2(0, 0, -1, 1), PackedInt32Array([-1, 7]),
        PackedVector2Array([(1, 2)])]


def test_no_argument_crashes_and_every_error_goes_to_push_error(loaded, capsys):
    node, errors, _ = loaded
    other = Godot4Node("Other")
    call(node, "insert", other, Vector2(0, 0), Vector2(5, 5))
    for name in sorted(GDSCRIPT_METHODS):
        for count in range(5):
            for k in range(len(JUNK)):
                call(node, name, *[JUNK[(k + j) % len(JUNK)] for j in range(count)])
    assert len(errors) > 500 and all(e.startswith("SpatialHash2D.") for e in errors)
    assert capsys.readouterr().err == ""
    assert call(node, "insert", other, Vector2(0, 0), Vector2(5, 5))       # clear() ran
    assert call(node, "query_point", Vector2(1, 1)).values == [other]


def test_results_reach_gdscript_as_the_plugins_own_types(loaded):
    node, errors, _ = loaded
    a, b = Godot4Node("A"), Godot4Node("B")
    call(node, "insert", a, Vector2(0, 0), Vector2(10, 10))
    call(node, "insert", b, Vector2(5, 5), Vector2(10, 10))
    pairs = call(node, "get_collision_pairs")
    assert isinstance(pairs, P4Array) and pairs.values[0].values == [a, b]
    ids = call(node, "insert_batch", PackedVector2Array([(8, 8)]), PackedVector2Array([(1, 1)]))
    assert isinstance(ids, PackedInt32Array) and ids.tolist() == [2]
    flat = call(node, "get_collision_pairs_packed").tolist()
    assert sorted(zip(flat[0::2], flat[1::2])) == [(0, 1), (0, 2), (1, 2)]
    events = call(node, "get_collision_events_packed")
    assert isinstance(events, P4Dictionary) and len(events["started"].tolist()) == 6
    hit = call(node, "raycast", Vector2(-5, 1), Vector2(20, 1))
    assert hit["collider"] == a and hit["position"].x == 0.0 and hit["normal"].x == -1.0
    assert call(node, "get_collision_events_packed")["ended"].size() == 0
    assert isinstance(call(node, "get_stats"), P4Dictionary)
    assert call(node, "get_id", a) == 0 and call(node, "get_id", Godot4Node("Stranger")) == -1
    assert errors == []


def test_batches_read_packed_memory_and_leave_the_callers_arrays(loaded):
    node, errors, _ = loaded
    positions = PackedVector2Array([(k * 3.0, 0.5 * k) for k in range(500)])
    sizes = PackedVector2Array([(4.0, 4.0)] * 500)
    ids = call(node, "insert_batch", positions, sizes, PackedInt64Array([1] * 500), 0xFFFFFFFF)
    assert ids.tolist() == list(range(500))
    engine_ids = PackedInt32Array(ids.tolist())
    moved = PackedVector2Array([(k * 3.0, 1000.0) for k in range(500)])
    assert call(node, "update_batch", engine_ids, moved, sizes) is True
    assert len(call(node, "query_point", Vector2(4.0, 1001.0)).values) == 2
    assert moved.values[:2].tolist() == [[0.0, 1000.0], [3.0, 1000.0]]
    assert call(node, "set_filter_batch", engine_ids, 2, PackedInt32Array([0] * 500)) is True
    assert call(node, "get_collision_pairs_packed").size() == 0
    assert errors == []
    # Empty packed arrays: their memory view crashed the engine, so they are not read.
    empty = call(node, "insert_batch", PackedVector2Array(), PackedVector2Array())
    assert empty.size() == 0
    assert call(node, "remove_batch", PackedInt32Array()) is True
    assert call(node, "update_batch", PackedInt64Array(), PackedVector2Array(),
                PackedVector2Array()) is True
    assert errors == [] and len(call(node, "query_point", Vector2(4.0, 1001.0)).values) == 2


def test_vector_arrays_are_read_from_bytes_that_live_as_long_as_the_array(monkeypatch):
    """A PackedVector2Array is read from its to_byte_array() copy, which py4godot
    frees with its Python object: the array read from it keeps that alive."""
    module, _, _ = load_script(monkeypatch)
    pairs = [(k * 0.5, -k * 2.0) for k in range(300)]
    read = module.from_godot(PackedVector2Array(pairs))
    gc.collect()
    assert read.shape == (300, 2) and read.tolist() == [list(p) for p in pairs]


def test_packed_results_are_whole_and_their_own_as_their_sizes_change(loaded):
    """Each packed result is the engine's copy of its part of the one array the
    script writes into: results of every size (growing, shrinking, none) hold
    the pairs the index reports, and a later call leaves an earlier one alone."""
    node, errors, _ = loaded
    rng = np.random.default_rng(9)
    ids = call(node, "insert_batch", PackedVector2Array(rng.uniform(0, 400, (300, 2))),
               PackedVector2Array([(3.0, 3.0)] * 300))
    engine_ids = PackedInt32Array(ids.tolist())
    kept = []
    for box in (3.0, 40.0, 8.0, 0.0, 60.0, 1.0):
        sizes = PackedVector2Array([(box, box)] * 300)
        assert call(node, "update_batch", engine_ids, PackedVector2Array(
            rng.uniform(0, 400, (300, 2))), sizes) is True
        packed = call(node, "get_collision_pairs_packed")
        expected = node._bridge().node.grid.pair_ids().ravel().tolist()
        assert packed.tolist() == expected
        kept.append((packed, expected))
    lengths = [len(e) for _, e in kept]
    assert 0 in lengths and lengths[1] > lengths[0] < lengths[2] < lengths[1] < lengths[4]
    assert all(packed.tolist() == expected for packed, expected in kept)
    assert errors == []


def test_signals_and_a_freed_node(loaded):
    node, errors, _ = loaded
    a, b = Godot4Node("A"), Godot4Node("B")
    call(node, "insert", a, Vector2(0, 0), Vector2(4, 4))
    call(node, "insert", b, Vector2(1, 1), Vector2(4, 4))
    assert call(node, "emit_collision_events") == 1
    assert node.emitted == [("collision_started", a, b)]
    b.free()                 # tree_exiting through the bound Callable: ended while b exists
    assert node.emitted[-1] == ("collision_ended", a, b)
    assert call(node, "query_point", Vector2(2, 2)).values == [a]
    assert errors == []


def test_properties_validate_and_monitors_are_registered(loaded):
    node, errors, performance = loaded
    node.cell_size = -5
    assert node.cell_size == 64.0 and "cell_size" in errors[-1]
    node.hierarchical = True
    assert call(node, "get_stats")["index"] == "hierarchical"
    assert performance.monitors and all(m.startswith("spatial_hash/") for m in performance.monitors)
    node._exit_tree()
    assert performance.monitors == {}
