"""Which index id each object has: the object-keyed front over an index of
integer ids that the Python classes share."""


class ObjectRegistry:
    """Hashable objects to index ids and back."""

    def __init__(self):
        self._ids = {}          # object -> index id (read through `ids`)

    def __len__(self):
        return len(self._ids)

    @property
    def ids(self):
        """The object -> id dict itself, for lookups on a per-object hot path (a
        dict lookup instead of a method call); change it only through add and
        drop."""
        return self._ids

    def __iter__(self):
        """The objects, in the order added."""
        return iter(list(self._ids))

    def id_of(self, obj, name="obj"):
        """The id of obj, or None if it is not here."""
        try:
            return self._ids.get(obj)
        except TypeError:
            raise TypeError(f"{name} must be hashable, got {obj!r}") from None

    def require(self, obj, name="obj"):
        """The id of obj; KeyError naming it if it is not here."""
        try:
            return self._ids[obj]
        except KeyError:
            raise KeyError(f"{name} {obj!r} is not in this spatial hash") from None
        except TypeError:
            raise TypeError(f"{name} must be hashable, got {obj!r}") from None

    def add(self, obj, insert):
        """Place obj, which is not here yet, with insert() -> id; nothing stays
        behind if that fails."""
        self._ids[obj] = object_id = insert()
        return object_id

    def drop(self, obj, name="obj"):
        """Forget obj, returning its id (the caller removes it from the index),
        or None if it is not here."""
        try:
            return self._ids.pop(obj, None)
        except TypeError:
            raise TypeError(f"{name} must be hashable, got {obj!r}") from None

    def clear(self):
        self._ids.clear()
