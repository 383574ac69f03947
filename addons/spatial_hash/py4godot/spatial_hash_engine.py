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
- What a builtin value's method returns carries one reference too many
  (`call_with_return` in py4godot's generated wrappers counts the new
  reference it gets again), so it is never freed: a memory view 0.31 kB a
  call, a packed array from `slice` or `to_byte_array` 0.14 to 0.17 kB (its
  Python objects: the plugin frees its Godot memory). `without_extra_reference`
  gives a memory view's reference back. A packed array's cannot be given back:
  the plugin then frees its Godot memory twice (the engine crashed). So this
  script calls no builtin method that returns a new value on any call after
  the first few, and results and arguments take channels that leak nothing on
  the released plugin (demo_project/godot4/leaks.tscn measures each):
  - Array results are written into packed arrays this script keeps (`Kept`),
    their memory viewed once: the count first, then the values. The same
    array goes back on every call; GDScript sees Python's writes in it, and
    the face copies the values out at once (`_took`). (One made with
    `from_memory_view` holds the wrong values.)
  - The face hands vector arrays over as their bytes (`to_byte_array()` in
    GDScript), since PackedVector2Array and PackedVector3Array have no memory
    view of their own in Python.
  - Packed arguments are read through their memory, which is the argument's
    own copy, freed with its Python object: the numpy array keeps that object
    (a buffer exporter, Python 3.12+; a copy before). The memory view of an
    empty packed array crashes the engine: empty ones are not read.
  - A Dictionary key made from a Python str is a new Godot String the plugin
    never frees (0.1 kB a key): keys are Strings made once and kept.
The fix to py4godot's source in the manual's page on the plugins stops the
leaks themselves.
"""
try:
    from py4godot.classes import gdclass
    from py4godot.classes.core import (Dictionary, PackedByteArray, PackedFloat64Array,
                                       PackedInt32Array, PackedInt64Array, String)
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

    # numpy dtype of each packed array the face hands over; bytes are a vector
    # array's floats.
    DTYPES = {PackedInt32Array: np.int32, PackedInt64Array: np.int64,
              PackedFloat64Array: np.float64, PackedByteArray: np.float32}

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

    def read(packed):
        """A packed argument as flat numpy (a vector array's bytes as its floats)."""
        dtype = DTYPES[type(packed)]
        if packed.is_empty():
            return np.empty(0, dtype=dtype)
        return numpy_view(packed, dtype)

    class Kept:
        """Packed arrays of `kind` this script keeps for results, each made
        and viewed once (and again only to grow): `hand_over(values)` writes
        the count then the values into the next one of this call (`handed`
        counts them; run() starts each call at 0) and returns it."""

        def __init__(self, kind, dtype):
            self.kind, self.dtype = kind, dtype
            self.arrays, self.memory = [], []
            self.handed = 0

        def hand_over(self, values):
            values = np.ascontiguousarray(values, dtype=self.dtype).ravel()
            k = self.handed
            self.handed += 1
            if k == len(self.arrays):
                self.arrays.append(None)
                self.memory.append(np.empty(0, dtype=self.dtype))
            if len(self.memory[k]) < values.size + 1:
                self.arrays[k] = self.kind.new0()
                self.arrays[k].resize(2 * values.size + 16)
                self.memory[k] = np.frombuffer(
                    without_extra_reference(self.arrays[k].get_memory_view()), dtype=self.dtype)
            self.memory[k][0] = values.size
            self.memory[k][1:values.size + 1] = values
            return self.arrays[k]

    @gdclass
    class spatial_hash_engine(RefCounted):
        def run(self, *args):
            engine = getattr(self, "_engine", None)
            if engine is None:
                engine = self._engine = NodeEngine.for_face(read, args)
                self._ints = Kept(PackedInt32Array, np.int32)
                self._floats = Kept(PackedFloat64Array, np.float64)
            self._ints.handed = self._floats.handed = 0
            return self._to_godot(engine.call(args[0], args[1:]))

        def _to_godot(self, value):
            """Ids (numpy, or a list of ints) in a kept packed int32 array and
            a list of floats in a kept packed float64 array (one of each per
            array of the result: building an Array costs an engine call per
            item); dicts as the plugin's Dictionary."""
            if type(value) in SCALARS:
                return value
            if isinstance(value, (np.ndarray, list)):
                values = np.asarray(value)
                return (self._floats if values.dtype.kind == "f" else self._ints).hand_over(values)
            if isinstance(value, dict):
                dictionary = Dictionary.new0()
                for key, item in value.items():
                    if key not in KEYS:
                        KEYS[key] = String.new1(key)
                    dictionary[KEYS[key]] = self._to_godot(item)
                return dictionary
            return value
