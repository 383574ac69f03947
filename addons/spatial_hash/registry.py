"""Which index id each object has: the object-keyed front over an index of
integer ids that the Python classes share."""


class ObjectRegistry:
    """Hashable objects to index ids and back; iterating gives the objects in
    the order added."""

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
        """The objects, in the order added (a snapshot: the registry may change meanwhile)."""
        return iter(list(self._ids))

    def id_of(self, obj, name="obj"):
        """The id of an object, or None if it is not here.

        Parameters
        ----------
        obj : hashable
        name : str, optional
            What the error message calls `obj`.

        Returns
        -------
        int or None

        Raises
        ------
        TypeError
            If `obj` is not hashable, naming it.
        """
        try:
            return self._ids.get(obj)
        except TypeError:
            raise TypeError(f"{name} must be hashable, got {obj!r}") from None

    def require(self, obj, name="obj"):
        """The id of an object that must be here.

        Parameters
        ----------
        obj : hashable
        name : str, optional
            What the error message calls `obj`.

        Returns
        -------
        int

        Raises
        ------
        KeyError
            If `obj` is not here, naming it.
        TypeError
            If `obj` is not hashable, naming it.
        """
        try:
            return self._ids[obj]
        except KeyError:
            raise KeyError(f"{name} {obj!r} is not in this spatial hash") from None
        except TypeError:
            raise TypeError(f"{name} must be hashable, got {obj!r}") from None

    def add(self, obj, insert):
        """Place an object that is not here yet.

        Parameters
        ----------
        obj : hashable
        insert : callable
            ``insert() -> int`` puts the object in the index and returns its
            id; if it raises, the registry is left as it was.

        Returns
        -------
        int
            The id.

        Raises
        ------
        TypeError
            If `obj` is not hashable (after `insert` ran: callers check with
            `id_of` first).
        """
        self._ids[obj] = object_id = insert()
        return object_id

    def drop(self, obj, name="obj"):
        """Forget an object; the caller removes its id from the index.

        Returns
        -------
        int or None
            Its id, or None if it was not here.

        Raises
        ------
        TypeError
            If `obj` is not hashable, naming it.
        """
        try:
            return self._ids.pop(obj, None)
        except TypeError:
            raise TypeError(f"{name} must be hashable, got {obj!r}") from None

    def clear(self):
        """Forget every object."""
        self._ids.clear()
