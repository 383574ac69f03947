"""The Python engine of SpatialHash2D and SpatialHash3D for Godot 4.6 with
py4godot (4.6-alpha17).

The node is the GDScript face `godot4/spatial_hash_2d.gd` (or
`spatial_hash_3d.gd`); it makes one of
these and calls `run(method number, *args)` with numbers and packed arrays
only. This script converts them and the results; spatial_hash.node.engine
does the rest. What this plugin does differently:
- A script's class is named like its file.
- A Python list, dict or tuple returned to GDScript crashes the engine: results
  are packed arrays and the plugin's own Dictionary. (In release export
  templates, an Array of Dictionaries reached GDScript empty and a Dictionary
  holding one aborted the game: no result has one.)
- A packed array built in Python is only whole in GDScript as a copy made by
  the engine (`slice()`); one made with `from_memory_view` holds the wrong values.
- Packed arguments are read through their memory, which is the argument's own
  copy, freed with its Python object: the numpy array keeps that object (a
  buffer exporter, Python 3.12+; a copy before). PackedVector2Array and
  PackedVector3Array have no memory view of their own: their bytes
  (`to_byte_array()`) do. The memory view of
  an empty packed array crashes the engine: empty ones are not read.
- What a builtin value's method returns carries one reference too many
  (`call_with_return` in py4godot's generated wrappers counts the new
  reference it gets again), so it is never freed: a memory view 0.31 kB a
  call, a packed array from `slice` or `to_byte_array` 0.14 to 0.17 kB (its
  Python objects: the plugin frees its Godot memory). `without_extra_reference`
  gives a memory view's reference back. A packed array's cannot be given back: the plugin
  then frees its Godot memory twice (the engine crashed). The fix to
  py4godot's source in the manual's page on the plugins stops both.
- A Dictionary key made from a Python str is a new Godot String the plugin
  never frees (0.1 kB a key): keys are Strings made once and kept.
"""
try:
    from py4godot.classes import gdclass
    from py4godot.classes.core import (Dictionary, PackedFloat64Array, PackedInt32Array,
                                       PackedInt64Array, PackedVector2Array,
                                       PackedVector3Array, String)
    from py4godot.classes.RefCounted import RefCounted
except ImportError:     # not py4godot: another plugin's editor scanning res://, or CPython
    gdclass = None

if gdclass is not None:
    try:
        import numpy as np

        from spatial_hash.node.engine import SCALARS, NodeEngine
    except ImportError:     # the editor reads res:// before SpatialHash installs the package
        gdclass = None

if gdclass is not None:
    import ctypes
    import sys

    _release = ctypes.pythonapi.Py_DecRef
    _release.argtypes = [ctypes.py_object]
    _release.restype = None

    def _count(value):
        return sys.getrefcount(value)

    def _count_through(value):
        return _count(value)

    # What _count sees of an object nothing else holds, counted through as many
    # calls as without_extra_reference() makes (the count depends on the Python
    # version). Its callers pass the view straight in: a name for it would count.
    ALONE = _count_through(object())

    def without_extra_reference(view):
        """A memory view just returned by `get_memory_view()` and passed
        straight here, without the reference too many that py4godot
        4.6-alpha17 gives it; left alone where it has none (a fixed py4godot)."""
        if _count(view) == ALONE + 1:
            _release(view)
        return view

    # numpy dtype of each packed array the face hands over.
    DTYPES = {PackedInt32Array: np.int32, PackedInt64Array: np.int64,
              PackedFloat64Array: np.float64}

    class Owned:
        """A memory view of memory that `owner` holds and frees when it goes:
        numpy keeps this, and so the owner, for as long as its array."""

        def __init__(self, owner, view):
            self.owner, self.view = owner, view

        def __buffer__(self, flags):
            return self.view

    def numpy_view(owner, dtype):
        """`owner`'s memory as numpy, without a copy where Python (3.12+) reads
        the buffers of Python objects."""
        if sys.version_info >= (3, 12):
            return np.frombuffer(Owned(owner, without_extra_reference(owner.get_memory_view())),
                                 dtype=dtype)
        return np.frombuffer(without_extra_reference(owner.get_memory_view()),
                             dtype=dtype).copy()

    # The Dictionary keys of results, as the Godot Strings made for them.
    KEYS = {}

    # Floats per element of the packed vector arrays the face hands over.
    VECTORS = {PackedVector2Array: 2, PackedVector3Array: 3}

    def read(packed):
        width = VECTORS.get(type(packed))
        if width is not None:
            if packed.is_empty():
                return np.empty((0, width), dtype=np.float32)
            return numpy_view(packed.to_byte_array(), np.float32).reshape(-1, width)
        dtype = DTYPES[type(packed)]
        if packed.is_empty():
            return np.empty(0, dtype=dtype)
        return numpy_view(packed, dtype)

    class Packed:
        """Arrays for GDScript, written into one packed array of `kind` kept for
        the purpose (resized only to grow) and handed over as the engine's copy
        of their part of it (`slice`): whole in GDScript, in one engine call."""

        def __init__(self, kind, dtype):
            self.kind, self.dtype = kind, dtype
            self.kept = self.memory = None

        def __call__(self, values):
            values = np.ascontiguousarray(values, dtype=self.dtype).ravel()
            if not values.size:
                return self.kind.new0()
            if self.memory is None or len(self.memory) < values.size:
                self.kept = self.kind.new0()
                self.kept.resize(2 * values.size)
                self.memory = np.frombuffer(without_extra_reference(self.kept.get_memory_view()),
                                            dtype=self.dtype)
            self.memory[:values.size] = values
            return self.kept.slice(0, values.size)

    @gdclass
    class spatial_hash_engine(RefCounted):
        def run(self, *args):
            engine = getattr(self, "_engine", None)
            if engine is None:
                engine = self._engine = NodeEngine.for_face(read, args)
                self._ints = Packed(PackedInt32Array, np.int32)
                self._floats = Packed(PackedFloat64Array, np.float64)
            return self._to_godot(engine.call(args[0], args[1:]))

        def _to_godot(self, value):
            """Ids (numpy, or a list of ints) as packed int32 and a list of floats
            as packed float64 arrays (building an Array costs an engine call per
            item); dicts as the plugin's Dictionary."""
            if type(value) in SCALARS:
                return value
            if isinstance(value, (np.ndarray, list)):
                values = np.asarray(value)
                return self._floats(values) if values.dtype.kind == "f" else self._ints(values)
            if isinstance(value, dict):
                dictionary = Dictionary.new0()
                for key, item in value.items():
                    if key not in KEYS:
                        KEYS[key] = String.new1(key)
                    dictionary[KEYS[key]] = self._to_godot(item)
                return dictionary
            return value
