"""Which objects the node takes, how it knows when they go, and which index id
each has."""
import numpy as np


class PlainObjects:
    """The object watcher outside Godot: any object with get_instance_id() is
    accepted and nothing is watched (plain Python objects are never freed under
    us). The engine scripts pass their own, which refuses what the engine could
    free unseen and connects each node's `tree_exiting` signal."""

    def watch(self, obj, instance_id):
        return None

    def unwatch(self, obj, token):
        pass

    def describe(self, value):
        return repr(value)


class SceneTreeObjects(PlainObjects):
    """The engine scripts' watcher: only nodes inside the tree are taken, each
    dropped from the index as it leaves (its tree_exiting signal calls the
    owner's `_forget_object(instance_id)`), and values are named for messages by
    their node path. Subclasses say how their engine connects the signal."""

    node_class = None

    def __init__(self, owner):
        self.owner = owner

    def watch(self, obj, instance_id):
        if not isinstance(obj, self.node_class) or not obj.is_inside_tree():
            raise TypeError(f"obj must be an int or a Node inside the scene tree, "
                            f"got {self.describe(obj)}")
        return self.connect_exit(obj, instance_id)

    def describe(self, value):
        if isinstance(value, self.node_class):
            where = value.get_path() if value.is_inside_tree() else value.name
            return f"{value.get_class()} '{where}'"
        return repr(value)

    def connect_exit(self, obj, instance_id):
        """Connect obj's tree_exiting to the owner's _forget_object(instance_id);
        returns what unwatch needs to disconnect it."""
        raise NotImplementedError


def object_key(obj, name="obj"):
    """Ints are their own key; Godot objects are keyed by instance id, so any
    wrapper of the same object finds it."""
    if isinstance(obj, (int, np.integer)) and not isinstance(obj, bool):
        return int(obj)
    get_instance_id = None if obj is None or isinstance(obj, bool) else \
        getattr(obj, "get_instance_id", None)
    if get_instance_id is None:
        raise TypeError(f"{name} must be an int or a Node, got {obj!r}")
    return ("instance", int(get_instance_id()))


class ObjectRegistry:
    """Which index id each object added one at a time has, and back. Godot
    objects are watched by `watcher` from the moment they are added until they
    are dropped, so a node that leaves the tree can be dropped at once."""

    def __init__(self, watcher=None):
        self.watcher = watcher or PlainObjects()
        self._ids = {}          # object key -> index id
        self._keys = {}         # index id -> object key
        self._watched = {}      # object key -> (object, the watcher's token)

    def id_of(self, obj, name="obj"):
        """The id of obj, or None if it is not here."""
        return self._ids.get(object_key(obj, name))

    def require(self, obj, name="obj"):
        """The id of obj; KeyError naming it if it is not here."""
        object_id = self.id_of(obj, name)
        if object_id is None:
            raise KeyError(f"{name} {self.watcher.describe(obj)} is not in this spatial hash")
        return object_id

    def add(self, obj, insert):
        """Watch obj, then place it with insert() -> id; nothing stays behind if
        either step fails (the watcher refuses what the engine could free unseen)."""
        key = object_key(obj)
        watched = isinstance(key, tuple)
        token = self.watcher.watch(obj, key[1]) if watched else None
        try:
            object_id = insert()
        except Exception:
            if watched:
                self.watcher.unwatch(obj, token)
            raise
        self._ids[key] = object_id
        self._keys[object_id] = key
        if watched:
            self._watched[key] = (obj, token)
        return object_id

    def drop(self, key):
        """Forget the object of `key`, returning its id (the caller removes it
        from the index)."""
        object_id = self._ids.pop(key)
        del self._keys[object_id]
        watched = self._watched.pop(key, None)
        if watched is not None:
            self.watcher.unwatch(*watched)
        return object_id

    def drop_object(self, obj):
        """drop() for an object; None if it is not here."""
        key = object_key(obj)
        return self.drop(key) if key in self._ids else None

    def drop_ids(self, ids):
        """Forget the objects (if any were added one at a time) among these ids
        (an int array: a batch of batch ids costs nothing here)."""
        if not self._keys:
            return
        for object_id in ids.tolist():
            key = self._keys.get(object_id)
            if key is not None:
                self.drop(key)

    def drop_instance(self, instance_id):
        """drop() for a Godot object by instance id; None if it is not here."""
        key = ("instance", int(instance_id))
        return self.drop(key) if key in self._ids else None

    def clear(self):
        for key in list(self._ids):
            self.drop(key)
