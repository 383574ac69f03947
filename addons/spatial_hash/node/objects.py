"""Which objects the node takes and how it knows when they go."""
import numpy as np


def instance_key(instance_id):
    """The registry key of a Godot object: its instance id, so any wrapper of
    the same object finds it."""
    return ("instance", int(instance_id))


def object_key(obj, name="obj"):
    """Ints (the caller's own ids) are their own key; Godot objects are keyed by
    instance id."""
    if isinstance(obj, (int, np.integer)) and not isinstance(obj, bool):
        return int(obj)
    get_instance_id = None if obj is None or isinstance(obj, bool) else \
        getattr(obj, "get_instance_id", None)
    if get_instance_id is None:
        raise TypeError(f"{name} must be an int or a Node, got {obj!r}")
    return instance_key(get_instance_id())


class SceneTreeObjects:
    """The engine scripts' watcher of the objects in the registry: only nodes
    inside the tree are taken, each dropped from the index as it leaves (its
    tree_exiting signal calls the owner's `_forget_object(instance_id)`), and
    values are named in messages by their node path. Subclasses say how their
    engine connects and disconnects the signal."""

    node_class = None

    def __init__(self, owner):
        self.owner = owner

    def watch(self, obj, key):
        """Start watching obj (ints are not watched); returns what stops it."""
        if not isinstance(key, tuple):
            return None
        if not isinstance(obj, self.node_class) or not obj.is_inside_tree():
            raise TypeError(f"obj must be an int or a Node inside the scene tree, "
                            f"got {self.describe(obj)}")
        token = self.connect_exit(obj, key[1])
        return lambda: self.unwatch(obj, token)

    def describe(self, value):
        if isinstance(value, self.node_class):
            where = value.get_path() if value.is_inside_tree() else value.name
            return f"{value.get_class()} '{where}'"
        return repr(value)

    def connect_exit(self, obj, instance_id):
        """Connect obj's tree_exiting to the owner's _forget_object(instance_id);
        returns what unwatch needs to disconnect it."""
        raise NotImplementedError

    def unwatch(self, obj, token):
        """Disconnect what connect_exit connected."""
        raise NotImplementedError
