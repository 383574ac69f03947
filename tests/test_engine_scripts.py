"""The three engine scripts (godot4/, godot3/ and py4godot/spatial_hash_engine.py),
loaded against stand-in plugin modules that behave as the real plugins did in
real engines: each converts the face's packed arrays without an element loop,
hands back only what its plugin carries to GDScript whole, and never raises."""
import array
import ctypes
import gc
import importlib.util
import math
import pathlib
import sys
import types

import numpy as np
import pytest

from face_model import decode_ids
from spatial_hash.node.engine import PROTOCOL

ADDON = pathlib.Path(__file__).resolve().parent.parent / "addons" / "spatial_hash"
OP = {name: k for k, name in enumerate(PROTOCOL)}


class EngineCrash(BaseException):
    """What the real engine did: segfault or abort (not an exception Python sees)."""


# ------------------------------------------- godot-python-extension (Godot 4)

class ExtPacked(array.array):
    """The extension's packed arrays: the buffer protocol over their memory."""

    def resize(self, n):
        del self[n:]
        self.extend([0] * (n - len(self)))


def extension_module():
    godot = types.ModuleType("godot")
    variant_types = types.ModuleType("godot.variant_types")
    kinds = {"PackedVector2Array": "f", "PackedVector3Array": "f", "PackedInt32Array": "i",
             "PackedInt64Array": "q", "PackedFloat64Array": "d"}
    for name, code in kinds.items():
        setattr(variant_types, name,
                type(name, (ExtPacked,), {"__new__": lambda cls, v=(), c=code: array.array.__new__(cls, c, v)}))

    class RefCounted:
        def __init_subclass__(cls, **kwargs):        # expose_all_methods=True
            pass

    godot.RefCounted = RefCounted
    godot.expose_script_class = lambda cls: cls
    godot.writable_memoryview = memoryview
    godot.variant_types = variant_types
    return {"godot": godot, "godot.variant_types": variant_types}, variant_types


def extension_reaches(value, kinds):
    """What reached GDScript through the extension: lists and dicts convert, a
    numpy array aborted the engine."""
    if isinstance(value, np.ndarray):
        raise EngineCrash("a numpy array returned to GDScript: abort")
    if isinstance(value, (list, tuple)):
        return [extension_reaches(v, kinds) for v in value]
    if isinstance(value, dict):
        return {k: extension_reaches(v, kinds) for k, v in value.items()}
    if isinstance(value, ExtPacked):
        return list(value)
    return value


# ----------------------------------------------- pythonscript 0.50 (Godot 3)

class PoolArray:
    """pythonscript's pool arrays: no buffer protocol, each element read one by
    one (counted: no batch may), raw_access() gives the address."""
    ctype, width = None, 1

    def __init__(self, values=()):
        flat = [c for v in values for c in (v if self.width > 1 else (v,))]
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


class Godot3Array(list):
    pass


class Godot3Dictionary(dict):
    pass


def pythonscript_module():
    godot = types.ModuleType("godot")
    godot.PoolVector2Array = type("PoolVector2Array", (PoolArray,), {"ctype": ctypes.c_float, "width": 2})
    godot.PoolVector3Array = type("PoolVector3Array", (PoolArray,), {"ctype": ctypes.c_float, "width": 3})
    godot.PoolIntArray = type("PoolIntArray", (PoolArray,), {"ctype": ctypes.c_int32})
    godot.PoolRealArray = type("PoolRealArray", (PoolArray,), {"ctype": ctypes.c_float})
    godot.Array, godot.Dictionary = Godot3Array, Godot3Dictionary

    class Reference:
        pass

    godot.Reference = Reference
    godot.exposed = lambda cls: cls
    return {"godot": godot}, godot


def pythonscript_reaches(value, kinds):
    """Plain Python lists, tuples and dicts arrive in GDScript as null."""
    if isinstance(value, Godot3Dictionary):
        return {k: pythonscript_reaches(v, kinds) for k, v in value.items()}
    if isinstance(value, Godot3Array):
        return [pythonscript_reaches(v, kinds) for v in value]
    if isinstance(value, (list, tuple, dict, np.ndarray)):
        raise AssertionError(f"{type(value).__name__} reaches GDScript as null: {value!r}")
    if isinstance(value, PoolArray):
        return list(value.memory[:value.length * value.width])
    return value


# ---------------------------------------------- py4godot 4.6-alpha17 (Godot 4)

def p4_returned(value):
    """What a py4godot 4.6-alpha17 builtin method returns: with one reference
    too many (its wrappers' call_with_return counts the new reference again),
    so that, left alone, it is never freed."""
    ctypes.pythonapi.Py_IncRef(ctypes.py_object(value))
    return value


class P4Packed:
    """py4godot's packed arrays: memory views over their own bytes (the memory
    view of an empty one crashed). `viewed` lists the memory of every array
    from the engine (the face's arguments, slice's results) that a memory
    view was taken of: while one such view lives, it cannot be resized.
    `lost` counts the packed arrays a builtin method returned (slice here,
    to_byte_array of the vector arrays): each carried a reference too many,
    so the plugin never freed it (0.14-0.17 kB a call in the engine)."""
    dtype = None
    viewed = []
    lost = 0

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

    def is_empty(self):
        return not self.memory

    def get_memory_view(self):
        if not self.memory:
            raise EngineCrash("get_memory_view() of an empty packed array: signal 11")
        if self.engine_made:
            self.viewed.append(self.memory)
        return p4_returned(memoryview(self.memory))

    def __del__(self):
        # py4godot frees a packed array with its Python object: its memory then
        # holds whatever comes next.
        self.memory[:] = b"\xff" * len(self.memory)

    def slice(self, begin, end=2147483647):
        copy = type(self)(engine_made=True)
        size = np.dtype(self.dtype).itemsize
        copy.memory = bytearray(self.memory[begin * size:min(end, self.size()) * size])
        P4Packed.lost += 1
        return p4_returned(copy)


class P4Array:
    def __init__(self):
        self.items = []

    @classmethod
    def new0(cls):
        return cls()

    def append(self, v):
        self.items.append(v)


class P4String:
    """A Godot String made in Python (String.new1)."""

    def __init__(self, text):
        self.text = text

    @classmethod
    def new1(cls, text):
        return cls(text)


class P4Dictionary:
    """py4godot's Dictionary: a key set from a Python str made a Godot String
    that was never freed (`strings_lost` counts them)."""
    strings_lost = 0

    def __init__(self):
        self.items = {}

    @classmethod
    def new0(cls):
        return cls()

    def __setitem__(self, k, v):
        if isinstance(k, str):
            P4Dictionary.strings_lost += 1
        self.items[k.text if isinstance(k, P4String) else k] = v


def py4godot_module():
    core = types.ModuleType("py4godot.classes.core")
    for name, dtype in (("PackedInt32Array", np.int32), ("PackedInt64Array", np.int64),
                        ("PackedFloat64Array", np.float64), ("PackedByteArray", np.uint8)):
        setattr(core, name, type(name, (P4Packed,), {"dtype": dtype}))

    class PackedVectorArray:
        """No memory view of its own, and indexing one from Python crashed."""
        width = None

        def __init__(self, rows=()):
            self.values = np.asarray(rows, dtype=np.float32).reshape(-1, self.width)

        def size(self):
            return len(self.values)

        def is_empty(self):
            return not len(self.values)

        def to_byte_array(self):
            P4Packed.lost += 1
            return p4_returned(core.PackedByteArray(np.frombuffer(self.values.tobytes(), dtype=np.uint8)))

        def __getitem__(self, k):
            raise EngineCrash(f"indexing a {type(self).__name__} from Python")

    core.PackedVector2Array = type("PackedVector2Array", (PackedVectorArray,), {"width": 2})
    core.PackedVector3Array = type("PackedVector3Array", (PackedVectorArray,), {"width": 3})
    core.Array, core.Dictionary, core.String = P4Array, P4Dictionary, P4String
    P4Packed.viewed = []
    P4Packed.lost = 0
    P4Dictionary.strings_lost = 0
    classes = types.ModuleType("py4godot.classes")
    classes.gdclass = lambda cls: cls
    refcounted = types.ModuleType("py4godot.classes.RefCounted")

    class RefCounted:
        pass

    refcounted.RefCounted = RefCounted
    package = types.ModuleType("py4godot")
    return ({"py4godot": package, "py4godot.classes": classes, "py4godot.classes.core": core,
             "py4godot.classes.RefCounted": refcounted}, core)


def py4godot_reaches(value, kinds):
    """A Python list, tuple or dict returned to GDScript crashed the engine; in
    release export templates an Array of Dictionaries arrived empty, and a
    Dictionary holding one aborted the game. A packed array comes as the face
    keeps it: the engine's kept arrays hold the count, then the values, which
    the face copies out (_took)."""
    if isinstance(value, (list, tuple, dict, np.ndarray)):
        raise EngineCrash(f"a Python {type(value).__name__} returned to GDScript: signal 11")
    if isinstance(value, P4Packed):
        values = np.frombuffer(bytes(value.memory), dtype=value.dtype).tolist()
        assert not value.engine_made, "an array result is not one of the engine's kept arrays"
        return values[1:1 + int(values[0])]
    if isinstance(value, P4Array):
        if any(isinstance(v, P4Dictionary) for v in value.items):
            raise EngineCrash("an Array of Dictionaries in a release build: abort")
        return [py4godot_reaches(v, kinds) for v in value.items]
    if isinstance(value, P4Dictionary):
        return {k: py4godot_reaches(v, kinds) for k, v in value.items.items()}
    return value


# ------------------------------------------------------------- the harness

PLUGINS = {
    "extension": ("godot4", extension_module, extension_reaches),
    "pythonscript": ("godot3", pythonscript_module, pythonscript_reaches),
    "py4godot": ("py4godot", py4godot_module, py4godot_reaches),
}


class Engine:
    """An engine script's object, called as its face calls it, results as GDScript sees them."""

    def __init__(self, monkeypatch, plugin):
        folder, make_module, self.reaches = PLUGINS[plugin]
        modules, self.kinds = make_module()
        for name, module in modules.items():
            monkeypatch.setitem(sys.modules, name, module)
        spec = importlib.util.spec_from_file_location(f"engine_{plugin}",
                                                      ADDON / folder / "spatial_hash_engine.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        exposed = [v for v in vars(module).values() if isinstance(v, type) and hasattr(v, "run")]
        assert len(exposed) == 1
        self.script = exposed[0].__new__(exposed[0])     # pythonscript never runs __init__
        self.plugin = plugin

    def run(self, method, *args):
        return self.reaches(self.script.run(OP[method], *args), self.kinds)

    def vectors(self, rows, d=2):
        """Vectors as the face hands them over: on py4godot, their bytes."""
        k = self.kinds
        if self.plugin == "extension":
            return getattr(k, f"PackedVector{d}Array")([c for p in rows for c in p])
        if self.plugin == "pythonscript":
            return getattr(k, f"PoolVector{d}Array")(rows)
        return k.PackedByteArray(np.frombuffer(np.asarray(rows, np.float32).tobytes(), np.uint8))

    def ints(self, values):
        k = self.kinds
        return k.PoolIntArray(values) if self.plugin == "pythonscript" else k.PackedInt32Array(values)

    def floats(self, values):
        k = self.kinds
        if self.plugin == "pythonscript":
            return k.PoolRealArray(values)
        return k.PackedFloat64Array(values)


@pytest.fixture(params=sorted(PLUGINS))
def engine(request, monkeypatch):
    return Engine(monkeypatch, request.param)


def test_scripts_import_harmlessly_without_their_plugin():
    for folder in ("godot4", "godot3", "py4godot"):
        spec = importlib.util.spec_from_file_location("x", ADDON / folder / "spatial_hash_engine.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)       # the editor of another engine imports every .py


@pytest.mark.parametrize("plugin", sorted(PLUGINS))
def test_scripts_import_harmlessly_before_the_package_is_installed(monkeypatch, plugin):
    """Seen in Godot 4 with godot-python-extension: the editor imports every .py
    file under res:// as the bundle is unzipped, before enabling SpatialHash
    installs the package, and logged a traceback (no module named numpy) for the
    engine script. With the plugin there but not the package, the script
    imports; the extension's editor fails on a script without a class, so its
    script's run() answers what to enable, the others expose none (the face
    then says what to enable)."""
    folder, make_module, _ = PLUGINS[plugin]
    modules, _ = make_module()
    for name, module in modules.items():
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.setitem(sys.modules, "spatial_hash.node.engine", None)    # import fails
    spec = importlib.util.spec_from_file_location("x", ADDON / folder / "spatial_hash_engine.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    exposed = [v for v in vars(module).values() if isinstance(v, type) and hasattr(v, "run")]
    if plugin == "extension":
        answer = exposed[0]().run(0)
        assert answer.startswith("the spatial_hash package is not installed for this Python (")
        assert answer.endswith("enable SpatialHash in Project Settings > Plugins")
    else:
        assert exposed == []


def test_a_face_session_through_each_script(engine):
    assert engine.run("protocol") == dict(OP)
    bound = engine.run("set_index", 16.0, 4, False)
    assert bound > 1e9
    shapes = engine.vectors([(0.0, 0.0), (10.0, 10.0), (10.5, 5.0), (math.nan, math.nan)])
    radii = engine.floats([0.75])
    assert engine.run("apply", engine.ints([0, 1]), shapes, radii, engine.ints([]),
                      engine.vectors([]), engine.floats([]), engine.ints([]), engine.ints([])) is True
    assert sorted(decode_ids(engine.run("query_range", 0.0, 0.0, 20.0, 20.0, True, 0xFFFFFFFF))) == [0, 1]
    assert decode_ids(engine.run("query_radius", 11.5, 5.0, 0.25, 0xFFFFFFFF)) == [1]   # touching
    assert engine.run("pairs") == [0, 1]
    assert engine.run("collision_events") == {"started": [0, 1], "ended": []}
    ids = engine.run("insert_batch", engine.vectors([(1.0, 1.0), (2.0, 2.0)]),
                     engine.vectors([(1.0, 1.0), (1.0, 1.0)]), 1, 0xFFFFFFFF, False)
    assert ids == [2, 3]
    assert engine.run("update_batch", engine.ints(ids), engine.vectors([(50.0, 50.0), (60.0, 60.0)]),
                      engine.vectors([(1.0, 1.0), (1.0, 1.0)])) is True
    assert engine.run("end_pairs", engine.ints([1])) == [0, 1]
    assert engine.run("remove_batch", engine.ints([3])) is True
    hit = engine.run("raycast", -5.0, 2.0, 30.0, 2.0, 0xFFFFFFFF)
    assert [round(v, 9) for v in hit] == [0.0, round(1 / 7, 9), 0.0, 2.0, -1.0, 0.0]
    stats = engine.run("stats")
    assert stats["objects"] == 3 and stats["levels"]["cell_size"] == [16.0]
    shapes = engine.run("debug_geometry", 0.0, 0.0, 32.0, 32.0, True)
    assert set(shapes) == {"grid", "candidates", "free", "colliding"}
    assert engine.run("monitors")["total_objects"] == 0
    assert engine.run("monitor_values")[0] == float(engine.run("stats")["objects"])


def test_a_3d_face_session_through_each_script(engine):
    """The 3D face's first call names the dimension; its vectors are packed
    Vector3 arrays, which each plugin hands over as its Vector2 ones."""
    numbers = engine.reaches(engine.script.run(0, 3), engine.kinds)
    assert numbers["insert_sphere"] == OP["insert_circle"] and "insert_circle" not in numbers
    assert engine.run("set_index", 4.0, 4, False) > 1e8
    nan = math.nan
    shapes = engine.vectors([(0.0, 0.0, 0.0), (10.0, 10.0, 10.0), (10.5, 5.0, 5.0), (nan, nan, nan)], 3)
    assert engine.run("apply", engine.ints([0, 1]), shapes, engine.floats([0.75]), engine.ints([]),
                      engine.vectors([], 3), engine.floats([]), engine.ints([]), engine.ints([])) is True
    assert engine.script._engine.grid.sphere_of(1) == (10.5, 5.0, 5.0, 0.75)
    assert decode_ids(engine.run("query_radius", 11.5, 5.0, 5.0, 0.25, 0xFFFFFFFF)) == [1]
    assert decode_ids(engine.run("query_point", 1.0, 1.0, 11.0, 0xFFFFFFFF)) == []
    assert engine.run("pairs") == [0, 1]
    ids = engine.run("insert_batch", engine.vectors([(1.0, 1.0, 30.0), (2.0, 2.0, 30.5)], 3),
                     engine.vectors([(1.0, 1.0, 1.0)] * 2, 3), 1, 0xFFFFFFFF, False)
    assert ids == [2, 3] and engine.run("pairs") == [0, 1, 2, 3]
    assert engine.run("update_batch", engine.ints(ids), engine.vectors([(50.0, 0.0, 0.0), (60.0, 0.0, 0.0)], 3),
                      engine.vectors([(1.0, 1.0, 1.0)] * 2, 3)) is True
    assert engine.run("pairs") == [0, 1]
    assert "sizes[1].z" in engine.run("update_batch", engine.ints(ids),
                                      engine.vectors([(0.0, 0.0, 0.0)] * 2, 3),
                                      engine.vectors([(1.0, 1.0, 1.0), (1.0, 1.0, -1.0)], 3))
    assert "positions must be Vector3s" in engine.run("insert_batch", engine.vectors([(1.0, 1.0)]),
                                                      engine.vectors([(1.0, 1.0)]), 1, 1, False)
    hit = engine.run("raycast", -5.0, 2.0, 3.0, 30.0, 2.0, 3.0, 0xFFFFFFFF)
    assert [round(v, 9) for v in hit] == [0.0, round(1 / 7, 9), 0.0, 2.0, 3.0, -1.0, 0.0, 0.0]
    assert "pos.z must be a finite number" in engine.run("insert", -1, 0.0, 0.0, nan, 1.0, 1.0, 1.0)
    stats = engine.run("stats")
    assert stats["objects"] == 4 and stats["levels"]["cell_size"] == [4.0]
    shapes = engine.run("debug_geometry", -8.0, -8.0, -8.0, 16.0, 16.0, 16.0, True)
    assert len(shapes["free"]) + len(shapes["colliding"]) == 6 * 4
    assert len(shapes["grid"]) % (6 * 12) == 0 and shapes["grid"]


def test_refusals_come_back_as_text_and_nothing_raises(engine):
    engine.run("set_index", 16.0, 4, False)
    assert "pos.x must be a finite number" in engine.run("insert", -1, math.nan, 0.0, 1.0, 1.0)
    assert "positions[0].y" in engine.run("insert_batch", engine.vectors([(1.0, math.inf)]),
                                          engine.vectors([(1.0, 1.0)]), 1, 1, False)
    assert "no object with id 9" in engine.run("remove_batch", engine.ints([9]))
    for name in PROTOCOL:
        for args in ((), (None,) * 8, (engine.ints([]),) * 3):
            engine.run(name, *args)           # refused or done, never raised


def test_static_objects_through_each_script(engine):
    """The static flags travel as the faces send them: a bool, or a packed
    int array of 1s and 0s (an Array of bools), and flat [id, flag] pairs in
    the held calls."""
    engine.run("set_index", 16.0, 4, False)
    tiles = engine.run("insert_batch", engine.vectors([(0.0, 0.0), (10.0, 0.0), (20.0, 0.0)]),
                       engine.vectors([(10.0, 10.0)] * 3), 1, 0xFFFFFFFF, engine.ints([1, 1, 0]))
    assert tiles == [0, 1, 2] and engine.run("pairs") == [1, 2]
    assert engine.run("is_static", 0) is True and engine.run("is_static", 2) is False
    assert engine.run("set_static_batch", engine.ints([1, 2]), True) is True
    assert engine.run("pairs") == []
    shapes = engine.vectors([(5.0, 5.0), (1.0, 1.0)])
    assert engine.run("apply", engine.ints([3]), shapes, engine.floats([]), engine.ints([]),
                      engine.vectors([]), engine.floats([]), engine.ints([]),
                      engine.ints([3, 1, 0, 0, 3, 0])) is True       # the last flag of 3 wins
    assert engine.run("pairs") == [0, 1, 0, 3] and engine.run("is_static", 0) is False
    assert "as_static[1] must be true or false, got 2" in engine.run(
        "insert_batch", engine.vectors([(0.0, 0.0)] * 2), engine.vectors([(1.0, 1.0)] * 2), 1, 1,
        engine.ints([0, 2]))
    assert "enabled must be true, false or one for each of the 2 ids, got 3 values" in engine.run(
        "set_static_batch", engine.ints([0, 1]), engine.ints([1, 1, 1]))
    assert "no object with id 9" in engine.run("is_static", 9)
    assert engine.run("stats")["objects"] == 4


def test_empty_packed_arrays_are_not_read_through_their_memory(engine):
    """py4godot crashed on the memory view of an empty packed array."""
    engine.run("set_index", 16.0, 4, False)
    assert engine.run("apply", engine.ints([]), engine.vectors([]), engine.floats([]), engine.ints([]),
                      engine.vectors([]), engine.floats([]), engine.ints([]), engine.ints([])) is True
    assert engine.run("insert_batch", engine.vectors([]), engine.vectors([]), 1, 1, engine.ints([])) == []


def test_pool_arrays_are_read_without_an_element_loop(monkeypatch):
    engine = Engine(monkeypatch, "pythonscript")
    engine.run("set_index", 16.0, 4, False)
    positions = engine.vectors([(float(k), 0.0) for k in range(500)])
    sizes = engine.vectors([(1.0, 1.0)] * 500)
    ids = engine.script.run(OP["insert_batch"], positions, sizes, 1, 0xFFFFFFFF, False)
    assert engine.script.run(OP["update_batch"], ids, positions, sizes) is True
    assert positions.element_reads == sizes.element_reads == ids.element_reads == 0


def test_the_callers_arrays_are_never_written(engine):
    engine.run("set_index", 16.0, 4, False)
    positions = engine.vectors([(1.0, 2.0), (3.0, 4.0)])
    sizes = engine.vectors([(5.0, 6.0), (-1.0, 8.0)])          # refused
    before = (engine.reaches(positions, engine.kinds) if engine.plugin != "py4godot"
              else bytes(positions.memory))
    engine.run("insert_batch", positions, sizes, 1, 1, False)
    after = (engine.reaches(positions, engine.kinds) if engine.plugin != "py4godot"
             else bytes(positions.memory))
    assert before == after


def test_py4godot_frames_leave_nothing_behind(monkeypatch):
    """Seen in Godot 4.6 with py4godot 4.6-alpha17: the bullet-hell scene grew by
    about 4 kB a frame, and on the released plugin still 0.75 kB, the
    per-object scene 5.7 kB. Each memory view py4godot handed back held a
    reference too many, so it was never freed; so did each packed array a
    builtin method returned (slice for results, to_byte_array for vectors);
    and each Dictionary key set from a Python str was a Godot String it never
    freed. After frames of the node's calls, no memory view the script took of
    the engine's arrays is alive, no builtin method returned a packed array,
    and no key was a str."""
    engine = Engine(monkeypatch, "py4godot")
    engine.run("set_index", 16.0, 4, False)
    positions = engine.vectors([(float(k), 0.0) for k in range(50)])
    sizes = engine.vectors([(1.5, 1.0)] * 50)
    ids = engine.ints(engine.run("insert_batch", positions, sizes, 1, 0xFFFFFFFF, False))
    for frame in range(3):
        assert engine.script.run(OP["update_batch"], ids, positions, sizes) is True
        pairs = engine.run("pairs")
        assert sorted(zip(pairs[::2], pairs[1::2])) == [(i, i + 1) for i in range(49)]
        assert engine.run("stats")["objects"] == 50
        engine.run("collision_events")
        assert engine.run("raycast_all", -1.0, 0.5, 60.0, 0.5, 0xFFFFFFFF)[:2] == [0.0, 1.0 / 61.0]
    gc.collect()
    assert len(P4Packed.viewed) == 2 + 3 * 3     # insert_batch, then update_batch a frame
    for memory in P4Packed.viewed:
        memory.append(0)                     # BufferError while a view of it lives
    assert P4Packed.lost == 0
    assert P4Dictionary.strings_lost == 0


def test_py4godot_results_come_in_the_arrays_the_script_keeps(monkeypatch):
    """The face copies each array result out of the packed array the script
    keeps for it, which the next call writes again (in the engine, GDScript saw
    every write of 60,000): the same arrays come back, current each time, one
    per array of a result, grown only when too small."""
    engine = Engine(monkeypatch, "py4godot")
    engine.run("set_index", 16.0, 4, False)
    first = engine.script.run(OP["insert_batch"], engine.vectors([(0.0, 0.0)] * 3),
                              engine.vectors([(1.0, 1.0)] * 3), 1, 0xFFFFFFFF, False)
    assert py4godot_reaches(first, engine.kinds) == [0, 1, 2]
    second = engine.script.run(OP["insert_batch"], engine.vectors([(0.0, 0.0)] * 2),
                               engine.vectors([(1.0, 1.0)] * 2), 1, 0xFFFFFFFF, False)
    assert second is first and py4godot_reaches(first, engine.kinds) == [3, 4]
    engine.script.run(OP["collision_events"])
    engine.script.run(OP["remove_batch"], engine.ints([0, 1, 2, 3, 4]))
    events = engine.script.run(OP["collision_events"])
    started, ended = events.items["started"], events.items["ended"]
    assert started is not ended
    assert py4godot_reaches(started, engine.kinds) == []
    assert sorted(py4godot_reaches(ended, engine.kinds)) == sorted(
        [v for a in range(5) for b in range(a + 1, 5) for v in (a, b)])
    assert P4Packed.lost == 0
