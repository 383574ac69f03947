"""The Python half of leaks.tscn: each method is one way of passing numbers
between GDScript and Python, doing nothing else, so that leaks.gd can call it
many times and see what the plugin leaves behind. See leaks.gd.

It runs with py4godot and with godot-python-extension (whose editor imports
every .py under res:// and reports a script that exposes no class), and imports
harmlessly anywhere else.
"""
import sys

try:
    from py4godot.classes import gdclass
    from py4godot.classes.core import (Dictionary, PackedInt32Array,
                                       PackedVector2Array, PackedVector3Array)
    from py4godot.classes.RefCounted import RefCounted
    PLUGIN = "py4godot"
except ImportError:
    try:
        import godot
        from godot.variant_types import PackedInt32Array
        PLUGIN = "godot-python-extension"
    except ImportError:     # neither: CPython, or another plugin's editor
        PLUGIN = None

STATS_KEYS = ("objects", "cells", "cell_size", "last_update_ms", "last_pairs_ms",
              "pairs", "narrow_phase_checks", "largest_cell", "mean_cell", "rebuilds")

if PLUGIN == "py4godot":
    import ctypes

    _decref = ctypes.pythonapi.Py_DecRef
    _decref.argtypes = [ctypes.py_object]
    _decref.restype = None

    def _count(value):
        return sys.getrefcount(value)

    def _count_argument(value):
        return _count(value)

    # What the check below counts for an object with no other owner (it
    # depends on the Python version), measured the way it counts.
    _FRESH = _count_argument(object())

    def owned(value):
        """`value`, fresh from a py4godot builtin method and passed straight
        in, without the reference py4godot 4.6-alpha17 adds to what such a
        method returns (`<object>` in its wrappers' call_with_return
        increments the new reference switch_call_return hands back). Left
        alone where there is no such reference, as in a fixed py4godot. Only
        for memory views, as the node does: giving back a packed array's
        reference (slice, to_byte_array) made py4godot free its Godot memory
        twice, and the engine crashed."""
        if _count(value) == _FRESH + 1:     # not an immortal or shared object
            _decref(value)
        return value

    def byte_view(packed, fix=False):
        """The bytes of a packed array, as the node reads its arguments: the
        vector arrays have no memory view of their own."""
        if isinstance(packed, (PackedVector2Array, PackedVector3Array)):
            packed = packed.to_byte_array()     # its extra reference stays: see owned()
        view = owned(packed.get_memory_view()) if fix else packed.get_memory_view()
        return packed, view     # the view is only good while `packed` lives

    def writable_view(packed):
        """Memory Python writes and GDScript reads (a packed int32 array)."""
        return byte_view(packed, fix=True)[1]

    Base = RefCounted
    expose = gdclass
    class_options = {}

elif PLUGIN == "godot-python-extension":
    def byte_view(packed, fix=False):
        return packed, memoryview(packed)

    def writable_view(packed):
        return godot.writable_memoryview(packed)

    Base = godot.RefCounted
    expose = godot.expose_script_class
    class_options = {"expose_all_methods": True}

if PLUGIN is not None:
    @expose
    class leaks_probe(Base, **class_options):
        """One method per candidate of leaks.gd; arguments are as GDScript sends them."""

        def nothing(self):
            return None

        def take(self, value):
            return None

        def read(self, packed):
            packed, view = byte_view(packed)
            view.nbytes     # not view[0]: the extension's vector views have a struct format
            return None

        def read_fixed(self, packed):
            packed, view = byte_view(packed, fix=True)
            view.nbytes
            return None

        def _kept_slice(self, count):
            if getattr(self, "_kept_count", 0) < count:     # not kept.size(): see size()
                self._kept = PackedInt32Array()
                self._kept.resize(count)
                self._kept_count = count
            return self._kept.slice(0, count)

        def size(self, packed):
            """An int from a builtin method (py4godot 4.6-alpha17 leaks those
            beyond -5..256, as the node's read() does with size())."""
            packed.size()
            return None

        def ret_packed(self, count):
            return self._kept_slice(count)

        def ret_dict(self):
            if PLUGIN != "py4godot":
                return {key: 1.5 for key in STATS_KEYS}
            stats = Dictionary.new0()
            for key in STATS_KEYS:
                stats[key] = 1.5
            return stats

        def ret_dict_int_keys(self):
            if PLUGIN != "py4godot":
                return {index: 1.5 for index in range(len(STATS_KEYS))}
            stats = Dictionary.new0()
            for index in range(len(STATS_KEYS)):
                stats[index] = 1.5
            return stats

        def ret_int(self):
            self._n = getattr(self, "_n", 0) + 1
            return 1000000 + self._n

        def ret_float(self):
            self._n = getattr(self, "_n", 0) + 1
            return self._n * 0.5

        def ret_string(self):
            self._n = getattr(self, "_n", 0) + 1
            return "pairs %d" % self._n

        def share(self, packed):
            """Keep a packed array GDScript also keeps, and its memory view."""
            self._shared, self._shared_view = byte_view(packed, fix=True)
            return None

        def written_array(self):
            """A packed array Python keeps with its memory view, handed to
            GDScript once; write() then writes into it."""
            self._written = PackedInt32Array()
            self._written.resize(4)
            self._written_view = writable_view(self._written).cast("B").cast("i")
            return self._written

        def write(self, value):
            """Write `value` into the array written_array() handed over."""
            self._written_view[0] = value
            return None

        def write_and_return(self, value):
            """Write `value` first and last into a packed array of --size ints
            Python keeps, made and viewed once, and return that array."""
            if not hasattr(self, "_kept_out"):
                self._kept_out = PackedInt32Array()
                self._kept_out.resize(self._size)
                self._kept_out_view = writable_view(self._kept_out).cast("B").cast("i")
            self._kept_out_view[0] = self._kept_out_view[len(self._kept_out_view) - 1] = value
            return self._kept_out

        def set_size(self, size):
            self._size = size
            return None

        def peek(self):
            """The first byte of the kept array as Python sees it now."""
            return int(self._shared_view[0])
