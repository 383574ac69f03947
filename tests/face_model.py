"""What a SpatialHash2D or SpatialHash3D GDScript face does with its Python engine, in Python,
for driving spatial_hash.node.engine.NodeEngine the way the faces do: objects
map to ids by the index's own rule (the most recently freed id first, then the
next never used), calls whose numbers are within the engine's safe bound are
held and applied in one call before anything reads the index, others go at
once, and query results come back as the faces decode them. set_static, and
an insert but that of a new object that is not static, hold the object's
static flag, the last of an object winning. A box is its min corner's D
numbers then its D sizes; a circle (a sphere) its centre's then its radius."""
import math

import numpy as np

from spatial_hash.node.engine import IDS_MARK



def decode_ids(result):
    """A query result as the faces read it: ids, or the refusal (a str)."""
    if isinstance(result, str):
        if not result.startswith(IDS_MARK):
            return result
        return [ord(c) - 2 for c in result[1:]]
    return [int(i) for i in result]


class FaceModel:
    def __init__(self, engine):
        self.engine = engine
        self.d = engine.dim.d
        self.op = engine.call(0, () if self.d == 2 else (self.d,))
        self.safe = self.call("set_index", 64.0, 4, False)
        self.objects = {}           # object -> id
        self.handles = {}           # id -> object (a batch id: itself)
        self.free = []              # the index's free ids, the next one handed out last
        self.next_id = 0
        self.held = {"inserted": [], "insert_shapes": [], "insert_radii": [], "moved": [],
                     "move_shapes": [], "move_radii": [], "removed": [],
                     "statics": []}      # flat [id, 1 or 0, ...]
        self.signalling = False
        self.ended_at_once = []     # pairs ended by removals while signalling

    def call(self, name, *args):
        if name == "insert_circle" and self.d == 3:
            name = "insert_sphere"
        return self.engine.call(self.op[name], args)

    def set_index(self, cell_size, threshold, hierarchical):
        self.flush()
        bound = self.call("set_index", cell_size, threshold, hierarchical)
        if not isinstance(bound, str):
            self.safe = bound
        return bound

    def _within(self, *numbers, sizes=()):
        return all(abs(v) <= self.safe for v in numbers) and all(0 <= v <= self.safe for v in sizes)

    def _new_id(self, obj):
        if self.free:
            object_id = self.free.pop()
        else:
            object_id = self.next_id
            self.next_id += 1
        self.objects[obj] = object_id
        self.handles[object_id] = obj
        return object_id

    def _hold(self, obj, shape, radius=None):
        object_id = self.objects.get(obj)
        if object_id is None:
            self.held["inserted"].append(self._new_id(obj))
            kind = "insert"
        else:
            self.held["moved"].append(object_id)
            kind = "move"
        self.held[kind + "_shapes"].extend(shape)
        if radius is not None:
            self.held[kind + "_radii"].append(radius)

    def _place(self, method, obj, *numbers):
        self.flush()
        object_id = self.objects.get(obj, -1)
        placed = self.call(method, object_id, *numbers)
        if isinstance(placed, str):
            return placed
        if object_id < 0:
            self._handed_out(1)
            self.objects[obj] = placed
            self.handles[placed] = obj
        return True

    def _handed_out(self, count):
        recycled = min(count, len(self.free))
        del self.free[len(self.free) - recycled:]
        self.next_id += count - recycled

    def _hold_static(self, obj, enabled):
        self.held["statics"] += [self.objects[obj], int(enabled)]
        return True

    def insert(self, obj, *box, as_static=False):
        corner, size = box[:self.d], box[self.d:]
        if not self._within(*corner, sizes=size):
            placed = self._place("insert", obj, *box)
            return placed if placed is not True else self._hold_static(obj, as_static)
        new_object = obj not in self.objects
        self._hold(obj, [corner, size])
        return self._hold_static(obj, as_static) if as_static or not new_object else True

    def insert_circle(self, obj, *ball, as_static=False):
        if not self._within(*ball[:-1], sizes=ball[-1:]):
            placed = self._place("insert_circle", obj, *ball)
            return placed if placed is not True else self._hold_static(obj, as_static)
        new_object = obj not in self.objects
        self._hold(obj, [ball[:-1], (math.nan,) * self.d], ball[-1])
        return self._hold_static(obj, as_static) if as_static or not new_object else True

    def set_static(self, obj, enabled):
        return self._hold_static(obj, enabled)

    def is_static(self, obj):
        self.flush()
        return self.call("is_static", self.objects[obj])

    def update(self, obj, *box):
        corner, size = box[:self.d], box[self.d:]
        if not self._within(*corner, sizes=size):
            return self._place("update", obj, *box)
        self._hold(obj, [corner, size])
        return True

    def remove(self, obj):
        object_id = self.objects.pop(obj, None)
        if object_id is None:
            return False
        if self.signalling:
            self.flush()
            self.ended_at_once += self._pairs_of(self.call("end_pairs", np.array([object_id])))
        del self.handles[object_id]
        self.held["removed"].append(object_id)
        return True

    def flush(self):
        if not any(self.held.values()):
            return
        held = self.held
        done = self.call("apply", np.array(held["inserted"], np.int32),
                         np.array(held["insert_shapes"], np.float32).reshape(-1, self.d),
                         np.array(held["insert_radii"], np.float64),
                         np.array(held["moved"], np.int32),
                         np.array(held["move_shapes"], np.float32).reshape(-1, self.d),
                         np.array(held["move_radii"], np.float64),
                         np.array(held["removed"], np.int32),
                         np.array(held["statics"], np.int32))
        assert done is True, done
        self.free.extend(held["removed"])
        for values in held.values():
            values.clear()

    def query(self, name, *args):
        self.flush()
        ids = decode_ids(self.call(name, *args))
        return ids if isinstance(ids, str) else [self.handles[i] for i in ids]

    def query_range_batch(self, positions, sizes, exact, mask):
        """The face's query_range_batch: each window's objects, or the refusal."""
        self.flush()
        found = self.call("query_range_batch", np.asarray(positions, np.float32).reshape(-1, self.d),
                          np.asarray(sizes, np.float32).reshape(-1, self.d), exact, mask)
        if isinstance(found, str):
            return found
        offsets, ids = found[:len(positions) + 1].tolist(), found[len(positions) + 1:].tolist()
        return [[self.handles[i] for i in ids[offsets[k]:offsets[k + 1]]] for k in range(len(positions))]

    def _pairs_of(self, flat):
        flat = [int(i) for i in flat]
        return [(self.handles[a], self.handles[b]) for a, b in zip(flat[::2], flat[1::2])]

    def pairs(self):
        self.flush()
        return self._pairs_of(self.call("pairs"))

    def set_filter(self, obj, layer, mask):
        self.flush()
        return self.call("set_filter", self.objects[obj], layer, mask)

    def events(self):
        """(started, ended) object pairs since the last call, as the face emits them."""
        self.signalling = True
        self.flush()
        events = self.call("collision_events")
        return self._pairs_of(events["started"]), self._pairs_of(events["ended"])

    def insert_batch(self, positions, sizes, as_static=False):
        """as_static: one bool, or a list of them (sent as the faces send an
        Array of bools: int32 1s and 0s)."""
        self.flush()
        flags = as_static if isinstance(as_static, bool) else np.array(as_static, np.int32)
        ids = self.call("insert_batch", np.asarray(positions, np.float32),
                        np.asarray(sizes, np.float32), 1, 0xFFFFFFFF, flags)
        if isinstance(ids, str):
            return ids
        self._handed_out(len(ids))
        for object_id in ids.tolist():
            self.handles[object_id] = object_id
        return ids

    def set_static_batch(self, ids, enabled):
        self.flush()
        flags = enabled if isinstance(enabled, bool) else np.array(enabled, np.int32)
        return self.call("set_static_batch", np.asarray(ids, np.int64), flags)

    def remove_batch(self, ids):
        self.flush()
        done = self.call("remove_batch", np.asarray(ids))
        if isinstance(done, str):
            return done
        if self.signalling:
            self.ended_at_once += self._pairs_of(self.call("end_pairs", np.asarray(ids)))
        for object_id in ids:
            obj = self.handles.pop(object_id)
            if self.objects.get(obj) == object_id:
                del self.objects[obj]
            self.free.append(object_id)
        return True
