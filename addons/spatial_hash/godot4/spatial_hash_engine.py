"""The Python engine of SpatialHash2D and SpatialHash3D for Godot 4.2+ with
godot-python-extension.

The node is the GDScript face `spatial_hash_2d.gd` (or `spatial_hash_3d.gd`);
it makes one of these and
calls `run(method number, *args)` with numbers and packed arrays only. This script
converts them and the results; spatial_hash.node.engine does the rest. What
this plugin does differently:
- A call with more arguments than a Python method declares aborts the engine:
  `run` takes any.
- Its packed arrays expose their memory (the buffer protocol): numpy reads
  them, and packed results are written through it, without an element loop.
- A Python list becomes an Array and a dict a Dictionary on the way out.
- Its editor fails on a script that exposes no class (it imports every .py
  file under res://, before SpatialHash installs the package too): without the
  package, `run` answers why, and the face reports it.
"""
try:
    import godot
    from godot.variant_types import (PackedFloat64Array, PackedInt32Array, PackedInt64Array,
                                     PackedVector2Array, PackedVector3Array)
except ImportError:     # not Godot 4: another engine's editor scanning res://, or CPython
    godot = None

if godot is not None:
    try:
        import numpy as np

        from spatial_hash.node.engine import SCALARS, NodeEngine
    except ImportError as error:    # the editor reads res:// before SpatialHash installs it
        NodeEngine = None
        NOT_INSTALLED = ("the spatial_hash package is not installed for this Python (%s): "
                         "enable SpatialHash in Project Settings > Plugins" % error)

if godot is not None:
    # Values per element of each packed array the face hands over.
    WIDTHS = {PackedVector2Array: 2, PackedVector3Array: 3, PackedInt32Array: 1,
              PackedInt64Array: 1, PackedFloat64Array: 1}

    def read(packed):
        """A packed array's memory as numpy, read only, never kept past the call."""
        values = np.asarray(memoryview(packed))
        width = WIDTHS[type(packed)]
        return values.reshape(-1, width) if width > 1 else values.ravel()

    def to_godot(value):
        if type(value) in SCALARS:
            return value
        if isinstance(value, np.ndarray):       # int32 ids
            packed = PackedInt32Array()
            packed.resize(value.size)
            if value.size:
                np.asarray(godot.writable_memoryview(packed))[:] = value
            return packed
        if isinstance(value, dict):
            return {key: to_godot(item) for key, item in value.items()}
        return value

    @godot.expose_script_class
    class spatial_hash_engine(godot.RefCounted, expose_all_methods=True):
        def run(self, *args):
            engine = getattr(self, "_engine", None)
            if engine is None:
                if NodeEngine is None:      # this plugin's editor wants a class in every script
                    return NOT_INSTALLED
                engine = self._engine = NodeEngine.for_face(read, args)
            return to_godot(engine.call(args[0], args[1:]))
