"""Which index id each object has: the object-keyed front over an index of
integer ids, shared by the Python classes and the Godot node."""


class ObjectRegistry:
    """Objects to index ids and back.

    An object is identified by `key(obj, name)` (default: the object itself,
    which must then be hashable). A `watcher`, if given, is told of each object
    as it is added: `watcher.watch(obj, key)` returns a callable that stops
    watching it (called when the object is dropped) or None, and may refuse the
    object by raising; `watcher.describe(obj)` names objects in messages.
    """

    def __init__(self, key=None, watcher=None):
        self._key = key
        self._watcher = watcher
        self._ids = {}          # key -> index id (read through `ids`)
        self._keys = {}         # index id -> key
        self._unwatch = {}      # key -> what stops watching its object

    def __len__(self):
        return len(self._ids)

    @property
    def ids(self):
        """The key -> id dict itself, for lookups on a per-object hot path (a
        dict lookup instead of a method call); change it only through add and
        drop."""
        return self._ids

    def __iter__(self):
        """The keys (for the default key, the objects), in the order added."""
        return iter(list(self._ids))

    def key_of(self, obj, name="obj"):
        return obj if self._key is None else self._key(obj, name)

    def id_of(self, obj, name="obj"):
        """The id of obj, or None if it is not here."""
        key = obj if self._key is None else self._key(obj, name)   # key_of, inlined: every call
                                                                    # of the object API comes here
        try:
            return self._ids.get(key)
        except TypeError:
            raise TypeError(f"{name} must be hashable, got {obj!r}") from None

    def require(self, obj, name="obj"):
        """The id of obj; KeyError naming it if it is not here."""
        key = obj if self._key is None else self._key(obj, name)
        try:
            return self._ids[key]
        except KeyError:
            described = self._watcher.describe(obj) if self._watcher else repr(obj)
            raise KeyError(f"{name} {described} is not in this spatial hash") from None
        except TypeError:
            raise TypeError(f"{name} must be hashable, got {obj!r}") from None

    def add(self, obj, insert):
        """Place obj, which is not here yet, with insert() -> id, watching it
        meanwhile; nothing stays behind if either step fails."""
        key = self.key_of(obj)
        unwatch = self._watcher.watch(obj, key) if self._watcher else None
        try:
            object_id = insert()
        except BaseException:
            if unwatch is not None:
                unwatch()
            raise
        self._ids[key] = object_id
        self._keys[object_id] = key
        if unwatch is not None:
            self._unwatch[key] = unwatch
        return object_id

    def drop_key(self, key):
        """Forget the object of `key`, returning its id (the caller removes it
        from the index), or None if it is not here."""
        object_id = self._ids.pop(key, None)
        if object_id is not None:
            del self._keys[object_id]
            unwatch = self._unwatch.pop(key, None)
            if unwatch is not None:
                unwatch()
        return object_id

    def drop(self, obj, name="obj"):
        """drop_key() for an object."""
        key = self.key_of(obj, name)
        try:
            return self.drop_key(key)
        except TypeError:
            raise TypeError(f"{name} must be hashable, got {obj!r}") from None

    def drop_ids(self, ids):
        """Forget the objects among these ids (an int array; ids placed by a
        batch call, which have no object here, cost nothing); returns the ids
        of those it forgot."""
        if not self._keys:
            return []
        dropped = [object_id for object_id in ids.tolist() if object_id in self._keys]
        for object_id in dropped:
            self.drop_key(self._keys[object_id])
        return dropped

    def clear(self):
        for key in list(self._ids):
            self.drop_key(key)
