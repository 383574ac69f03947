"""The Python engine of SpatialHash2D and SpatialHash3D for Godot 3.2+ with
godot-python 0.50 (pythonscript, Python 3.8).

The node is the GDScript face `spatial_hash_2d.gd` (or `spatial_hash_3d.gd`);
it makes one of these and
calls `run(method number, *args)` with numbers and pool arrays only. This
script converts them and the results; spatial_hash.node.engine does the rest.
What this plugin does differently:
- A TypeError raised while it binds a method's arguments can crash the engine:
  `run` takes any number of them, and nothing raises out of it.
- Plain Python lists and dicts reach GDScript as null: results are Arrays,
  Dictionaries and pool arrays.
- Its pool arrays have no buffer protocol and cost about 1 us per element read
  one by one; `raw_access()` gives their address, which numpy copies at once.
- `__init__` of an exposed class never runs: the engine is made on first use.
"""
try:
    from godot import (Array, Dictionary, PoolIntArray, PoolRealArray, PoolVector2Array,
                       PoolVector3Array, Reference, exposed)
except ImportError:     # not Godot 3: another engine's editor scanning res://, or CPython
    exposed = None

if exposed is not None:
    try:
        import numpy as np

        from spatial_hash.node.engine import SCALARS, NodeEngine
    except ImportError:     # the editor reads res:// before SpatialHash installs the package
        exposed = None

if exposed is not None:
    import ctypes

    # (numpy dtype, values per element) of each pool array the face hands over.
    POOLS = {PoolVector2Array: (np.float32, 2), PoolVector3Array: (np.float32, 3),
             PoolIntArray: (np.int32, 1), PoolRealArray: (np.float32, 1)}

    def read(pool):
        """A copy of a pool array's memory (an Array of ints: a list); `raw_access`
        locks it meanwhile (a shared pool is copied first, so the caller's array
        is never touched)."""
        if isinstance(pool, Array):
            return np.array([int(v) for v in pool], dtype=np.int64)
        dtype, width = POOLS[type(pool)]
        out = np.empty(len(pool) * width, dtype)
        if out.size:
            with pool.raw_access() as access:
                ctypes.memmove(out.ctypes.data, access.get_address(), out.nbytes)
        return out.reshape(-1, width) if width > 1 else out

    def ints(values):
        values = np.ascontiguousarray(values, dtype=np.int32)
        pool = PoolIntArray()
        pool.resize(values.size)
        if values.size:
            with pool.raw_access() as access:
                ctypes.memmove(access.get_address(), values.ctypes.data, values.nbytes)
        return pool

    def to_godot(value):
        """Ids (numpy, or a list of ints) as a PoolIntArray; other lists as Arrays,
        dicts as Dictionaries, nested ones too."""
        if type(value) in SCALARS:
            return value
        if isinstance(value, np.ndarray) or (isinstance(value, list) and value
                                             and type(value[0]) is int):
            return ints(value)
        if isinstance(value, (list, tuple)):
            return Array([to_godot(v) for v in value])
        if isinstance(value, dict):
            return Dictionary({k: to_godot(v) for k, v in value.items()})
        return value

    @exposed
    class SpatialHashEngine(Reference):
        def run(self, *args):
            try:
                engine = getattr(self, "_engine", None)
                if engine is None:
                    engine = self._engine = NodeEngine.for_face(read, args)
                return to_godot(engine.call(args[0], args[1:]))
            except Exception as error:      # the engine boundary: report, never raise
                return f"the engine failed: {error!r}"
