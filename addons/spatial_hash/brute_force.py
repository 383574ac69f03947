"""Brute-force reference broad phase: every pair i < j whose collision layers
let it count is tested and counted in `collision_tests`. Plain Python, written for clarity; it is
the oracle the compiled indexes are checked against, and it uses the same closed
overlap rules (touching counts; shapes' bounds must meet before the exact test)
and the same collision layers (a pair counts when either object's mask has a
bit of the other's layer; a query's mask takes the objects on its layers).
"""
import math

from spatial_hash._core import ALL_LAYERS, read_rect, read_vec2
from spatial_hash._core3d import read_box, read_vec3

DEFAULT_FILTER = (1, ALL_LAYERS)

# Shapes here have any number of axes (2 or 3): a box is its min corner then its
# max corner, (minx, miny[, minz], maxx, maxy[, maxz]); a circle or sphere is its
# centre then its radius. Sums of squares run over the axes in order, as the
# compiled core adds them, so that both round alike.


def filters_pass(a, b):
    """Does a pair of (layer, mask) filters let the pair be reported?"""
    return bool((a[1] & b[0]) | (b[1] & a[0]))


def pair_allowed(a, b, a_static, b_static):
    """The whole pair rule: the filters let the pair through and the two are not
    both static (static objects never pair, as static bodies in Box2D and Godot)."""
    return filters_pass(a, b) and not (a_static and b_static)


def _boxes_meet(a, b):
    d = len(a) // 2
    return all(a[i] <= b[d + i] and b[i] <= a[d + i] for i in range(d))


def _squares(values):
    total = 0.0
    for v in values:
        total += v * v
    return total


def _circle_meets_box(c, b):
    d = len(b) // 2
    nearest = [min(max(c[i], b[i]), b[d + i]) for i in range(d)]
    return _squares(c[i] - nearest[i] for i in range(d)) <= c[d] * c[d]


def _circles_meet(a, b):
    d = len(a) - 1
    rr = a[d] + b[d]
    return _squares(a[i] - b[i] for i in range(d)) <= rr * rr


def shapes_touch(box_a, circle_a, box_b, circle_b):
    """Overlap of two shapes, each a box plus an optional circle or sphere that
    the box bounds."""
    if not _boxes_meet(box_a, box_b):
        return False
    if circle_a is not None:
        if circle_b is not None:
            return _circles_meet(circle_a, circle_b)
        return _circle_meets_box(circle_a, box_b)
    if circle_b is not None:
        return _circle_meets_box(circle_b, box_a)
    return True


def _window(qmin, qmax, d, bmin, bmax, t):
    if d == 0.0:
        return qmin <= bmax and bmin <= qmax
    lo = (bmin - qmax) / d
    hi = (bmax - qmin) / d
    if d < 0.0:
        lo, hi = hi, lo
    t[0] = max(t[0], lo)
    t[1] = min(t[1], hi)
    return t[0] <= t[1]


def swept_box_hits(box, motion, other):
    """Does `box` moved by t * motion, for some t in [0, 1], touch box `other`?
    Only within the box it sweeps over (the time windows alone can, by rounding,
    accept a box just beyond it)."""
    d = len(motion)
    reach = tuple(box[i] + motion[i] if motion[i] < 0 else box[i] for i in range(d)) \
        + tuple(box[d + i] if motion[i] < 0 else box[d + i] + motion[i] for i in range(d))
    t = [0.0, 1.0]
    return _boxes_meet(reach, other) and all(
        _window(box[i], box[d + i], motion[i], other[i], other[d + i], t) for i in range(d))


def distance_to(box, circle, *point):
    """Distance from the point to a shape (0 inside it), computed as the
    compiled core computes it."""
    d = len(point)
    if circle is not None:
        return max(0.0, math.sqrt(_squares(point[i] - circle[i] for i in range(d))) - circle[d])
    return math.sqrt(_squares(box[i] - point[i] if point[i] < box[i] else
                              (point[i] - box[d + i] if point[i] > box[d + i] else 0.0)
                              for i in range(d)))


def _ray_box(box, start, motion):
    d = len(start)
    if all(box[i] <= start[i] <= box[d + i] for i in range(d)):
        return 0.0, start, (0.0,) * d
    t0, t1 = 0.0, 1.0
    enter = [-1.0] * d
    for i in range(d):
        if motion[i] == 0.0:
            if start[i] < box[i] or start[i] > box[d + i]:
                return None
            continue
        ta, tb = (box[i] - start[i]) / motion[i], (box[d + i] - start[i]) / motion[i]
        enter[i] = min(ta, tb)
        t1 = min(t1, max(ta, tb))
        t0 = max(t0, enter[i])
    if t0 > t1:
        return None
    # The slab entered last gives the normal; on a tie, the earlier axis.
    axis = max(range(d), key=lambda i: (enter[i], -i))
    normal = tuple((-1.0 if motion[i] > 0.0 else 1.0) if i == axis else 0.0 for i in range(d))
    return t0, tuple(start[i] + t0 * motion[i] for i in range(d)), normal


def _ray_circle(circle, start, motion):
    d = len(start)
    r = circle[d]
    offset = [start[i] - circle[i] for i in range(d)]
    inside = _squares(offset) - r * r
    if inside <= 0.0:
        return 0.0, start, (0.0,) * d
    a = _squares(motion)
    b = 0.0
    for i in range(d):
        b += offset[i] * motion[i]
    disc = b * b - a * inside
    if a == 0.0 or b >= 0.0 or disc < 0.0:
        return None
    t = (-b - math.sqrt(disc)) / a
    if t > 1.0:
        return None
    point = tuple(start[i] + t * motion[i] for i in range(d))
    if r > 0.0:
        normal = tuple((point[i] - circle[i]) / r for i in range(d))
    else:
        length = math.sqrt(a)
        normal = tuple(-motion[i] / length for i in range(d))
    return t, point, normal


def ray_hit(box, circle, start, end):
    """(fraction, point, normal) where the segment from start to end first meets
    the shape (a box, plus the circle or sphere it bounds if any), or None; the
    rules of the compiled core: its box must be touched, a start inside is met at
    0 with a zero normal."""
    motion = tuple(e - s for s, e in zip(start, end))
    if not swept_box_hits(tuple(start) * 2, motion, box):
        return None
    return _ray_circle(circle, start, motion) if circle else _ray_box(box, start, motion)


class BruteForce:
    """Reference broad phase with the object-keyed API of OptimizedSpatialHash.

    Every pair and query is found by testing every object (O(n^2) pairs), in
    plain Python. It checks the form of its arguments (a vector or bounds of
    the wrong length raises TypeError) but not their values: it is the
    reference for valid input, and takes NaN or negative sizes as given.
    Objects come back in insertion order.

    Attributes
    ----------
    collision_tests : int
        How many pairs the last `pairs` call tested exactly (those whose
        layers let them count).

    Examples
    --------
    >>> from spatial_hash import BruteForce
    >>> reference = BruteForce()
    >>> reference.insert("ship", (10, 10, 32, 32))
    >>> reference.insert_circle("mine", (40, 40), 8)
    >>> reference.insert("rock", (200, 0, 8, 8))
    >>> reference.pairs(), reference.collision_tests
    ([('ship', 'mine')], 3)
    """

    _read_vector = staticmethod(read_vec2)
    _read_bounds = staticmethod(read_rect)

    def __init__(self):
        self._shapes = {}   # obj -> (box, circle or None); dicts keep insertion order
        self._filters = {}  # obj -> (layer, mask), for objects not on the default
        self._static = set()
        self.collision_tests = 0

    def __len__(self):
        return len(self._shapes)

    def __contains__(self, obj):
        return obj in self._shapes

    def _box(self, bounds):
        numbers = self._read_bounds(bounds)
        d = len(numbers) // 2
        return numbers[:d] + tuple(numbers[i] + numbers[d + i] for i in range(d))

    def insert(self, obj, bounds, static=False):
        """Add a box, or move an object already present to it.

        Parameters
        ----------
        obj : hashable
            The object, handed back by queries and `pairs`.
        bounds : (x, y, width, height) or Rect2; 3D: (x, y, z, width, height, depth) or AABB
            Min corner and size, in world units.
        static : bool, optional
            Whether it is static (see `set_static`).

        Raises
        ------
        TypeError
            For an unhashable `obj`, or bounds of the wrong length or kind.
        """
        self._shapes[obj] = (self._box(bounds), None)
        self.set_static(obj, static)

    def update(self, obj, bounds):
        """Move an object to a box; it stays static or not.

        Parameters
        ----------
        obj : hashable
            An object in the reference.
        bounds : (x, y, width, height) or Rect2; 3D: (x, y, z, width, height, depth) or AABB
            The new min corner and size, in world units.
        """
        self._shapes[obj] = (self._box(bounds), None)

    def _ball(self, center, radius):
        """The box and the circle (or sphere) of the given centre and radius."""
        c, r = self._read_vector(center, "center"), float(radius)
        return tuple(v - r for v in c) + tuple(v + r for v in c), c + (r,)

    def insert_circle(self, obj, center, radius, static=False):
        """Add a disc (3D: a sphere), or move an object already present to it.

        Parameters
        ----------
        obj : hashable
            The object, handed back by queries and `pairs`.
        center : (x, y) or Vector2; 3D: (x, y, z) or Vector3
            In world units.
        radius : float
            In world units.
        static : bool, optional
            Whether it is static (see `set_static`).

        Raises
        ------
        TypeError
            For an unhashable `obj` or a centre of the wrong length or kind.
        ValueError
            For a radius that is not a number.
        """
        self._shapes[obj] = self._ball(center, radius)
        self.set_static(obj, static)

    def set_static(self, obj, static=True):
        """Mark an object static, or not: two static objects never pair.

        Parameters
        ----------
        obj : hashable
            An object in the reference.
        static : bool, optional
            True (the default) to make it static, False to make it move again.

        Raises
        ------
        KeyError
            If `obj` is not there.
        """
        if obj not in self._shapes:
            raise KeyError(obj)
        if static:
            self._static.add(obj)
        else:
            self._static.discard(obj)

    def is_static(self, obj):
        """Whether an object is static.

        Parameters
        ----------
        obj : hashable
            An object in the reference.

        Returns
        -------
        bool
            True if it is static.

        Raises
        ------
        KeyError
            If `obj` is not there.
        """
        if obj not in self._shapes:
            raise KeyError(obj)
        return obj in self._static

    def remove(self, obj, *_ignored):
        """Remove an object.

        Parameters
        ----------
        obj : hashable
            The object to remove.
        *_ignored
            The `pos` and `size` that `SpatialHash.remove` of the GDScript
            design takes (see :ref:`gdscript-design`), ignored.

        Returns
        -------
        bool
            True if it was removed, False if it was not there.

        Raises
        ------
        TypeError
            For an unhashable `obj`.
        """
        self._filters.pop(obj, None)
        self._static.discard(obj)
        return self._shapes.pop(obj, None) is not None

    def clear(self):
        """Remove every object."""
        self._shapes.clear()
        self._filters.clear()
        self._static.clear()

    def shape(self, obj):
        """An object's shape as the tests compare it.

        Parameters
        ----------
        obj : hashable
            An object in the reference.

        Returns
        -------
        tuple
            ``(box, circle)``: the box as its min corner then its max corner,
            ``(minx, miny, maxx, maxy)`` (3D: six numbers); the circle (3D: the
            sphere) as ``(x, y, radius)`` (3D: four numbers), or None for a box.

        Raises
        ------
        KeyError
            If `obj` is not there.
        """
        return self._shapes[obj]

    def set_filter(self, obj, layer, mask):
        """Put an object on collision layers and set the layers it looks for.

        Parameters
        ----------
        obj : hashable
            An object in the reference.
        layer, mask : int
            One bit a layer (not checked).

        Raises
        ------
        KeyError
            If `obj` is not there.
        """
        if obj not in self._shapes:
            raise KeyError(obj)
        self._filters[obj] = (layer, mask)

    def filter_of(self, obj):
        """An object's collision layers and mask.

        Parameters
        ----------
        obj : hashable
            An object in the reference.

        Returns
        -------
        tuple of int
            ``(layer, mask)``; ``(1, 2**32 - 1)`` unless set.

        Raises
        ------
        KeyError
            If `obj` is not there.
        """
        if obj not in self._shapes:
            raise KeyError(obj)
        return self._filters.get(obj, DEFAULT_FILTER)

    def _on(self, mask):
        """The objects and shapes on a layer of `mask`, in insertion order."""
        return [(o, shape) for o, shape in self._shapes.items()
                if self._filters.get(o, DEFAULT_FILTER)[0] & mask]

    def pairs(self):
        """Every overlapping pair once, testing all i < j whose filters let
        them pair and that are not both static.

        Returns
        -------
        list of tuple
            ``(a, b)`` with `a` inserted before `b`, in insertion order of `a`
            then `b`; touching counts.
        """
        items = list(self._shapes.items())
        filters = [self._filters.get(o, DEFAULT_FILTER) for o, _ in items]
        static = [o in self._static for o, _ in items]
        found = []
        self.collision_tests = 0
        for i in range(len(items)):
            a, (box_a, circle_a) = items[i]
            for j in range(i + 1, len(items)):
                b, (box_b, circle_b) = items[j]
                if not pair_allowed(filters[i], filters[j], static[i], static[j]):
                    continue
                self.collision_tests += 1
                if shapes_touch(box_a, circle_a, box_b, circle_b):
                    found.append((a, b))
        return found

    def query_range(self, bounds, mask=ALL_LAYERS):
        """The objects whose shape overlaps a box (touching counts), in insertion order.

        Parameters
        ----------
        bounds : (x, y, width, height) or Rect2; 3D: (x, y, z, width, height, depth) or AABB
            The box's min corner and size, in world units.
        mask : int, optional
            Only objects on one of these layers.

        Returns
        -------
        list of hashable
            The objects found.
        """
        box = self._box(bounds)
        return [o for o, (b, c) in self._on(mask) if shapes_touch(box, None, b, c)]

    def query_point(self, point, mask=ALL_LAYERS):
        """The objects whose shape contains a point (edge included), in insertion order.

        Parameters
        ----------
        point : (x, y) or Vector2; 3D: (x, y, z) or Vector3
            The point, in world units.
        mask : int, optional
            Only objects on one of these layers.

        Returns
        -------
        list of hashable
            The objects found.
        """
        point = self._read_vector(point, "point")
        return self.query_range(point + (0.0,) * len(point), mask)

    def query_radius(self, center, radius, mask=ALL_LAYERS):
        """The objects whose shape overlaps a disc (3D: a sphere), in insertion order.

        Parameters
        ----------
        center : (x, y) or Vector2; 3D: (x, y, z) or Vector3
            The centre, in world units.
        radius : float
            The radius, in world units.
        mask : int, optional
            Only objects on one of these layers.

        Returns
        -------
        list of hashable
            The objects found.
        """
        box, ball = self._ball(center, radius)
        return [o for o, (b, c) in self._on(mask) if shapes_touch(box, ball, b, c)]

    def query_along_path(self, start, end, size=None, mask=ALL_LAYERS):
        """The objects whose box a box of `size` (None: a point) touches while
        its min corner moves from `start` to `end`, in insertion order.

        Parameters
        ----------
        start, end : (x, y) or Vector2; 3D: (x, y, z) or Vector3
            The moving box's min corner at the start and at the end, in world units.
        size : (width, height) or Vector2; 3D: (width, height, depth) or Vector3, optional
            The moving box's size (None: a point).
        mask : int, optional
            Only objects on one of these layers.

        Returns
        -------
        list of hashable
            The objects found.
        """
        start, end = self._read_vector(start, "start"), self._read_vector(end, "end")
        size = (0.0,) * len(start) if size is None else self._read_vector(size, "size")
        box = start + tuple(s + w for s, w in zip(start, size))
        motion = tuple(e - s for s, e in zip(start, end))
        return [o for o, (b, _) in self._on(mask) if swept_box_hits(box, motion, b)]

    def query_nearest(self, point, k=1, max_distance=math.inf, tie_order=None, mask=ALL_LAYERS):
        """The `k` objects nearest to a point, nearest first.

        Parameters
        ----------
        point : (x, y) or Vector2; 3D: (x, y, z) or Vector3
            The point, in world units.
        k : int, optional
            How many to find (default 1).
        max_distance : float, optional
            Leave out objects farther than this (world units).
        tie_order : callable, optional
            Objects at equal distances in the order of ``tie_order(obj)``;
            insertion order if None.
        mask : int, optional
            Only objects on one of these layers.

        Returns
        -------
        list
            At most `k` objects.
        """
        point = self._read_vector(point, "point")
        ranked = sorted((distance_to(box, circle, *point), tie_order(o) if tie_order else n, o)
                        for n, (o, (box, circle)) in enumerate(self._on(mask)))
        return [o for d, _, o in ranked if d <= max_distance][:k]

    def raycast_all(self, start, end, tie_order=None, mask=ALL_LAYERS):
        """Every object the segment from `start` to `end` meets, earliest first.

        Parameters
        ----------
        start, end : (x, y) or Vector2; 3D: (x, y, z) or Vector3
            The segment's ends, in world units.
        tie_order : callable, optional
            Hits at equal fractions in the order of ``tie_order(obj)``;
            insertion order if None.
        mask : int, optional
            Only objects on one of these layers.

        Returns
        -------
        list of tuple
            ``(obj, fraction, point, normal)`` as `OptimizedSpatialHash.raycast` gives them.
        """
        start, end = self._read_vector(start, "start"), self._read_vector(end, "end")
        hits = []
        for n, (o, (box, circle)) in enumerate(self._on(mask)):
            hit = ray_hit(box, circle, start, end)
            if hit is not None:
                hits.append((hit[0], tie_order(o) if tie_order else n, (o,) + hit))
        return [h for _, _, h in sorted(hits, key=lambda h: h[:2])]

    def raycast(self, start, end, tie_order=None, mask=ALL_LAYERS):
        """The first object the segment from `start` to `end` meets.

        Parameters
        ----------
        start, end : (x, y) or Vector2; 3D: (x, y, z) or Vector3
            The segment's ends, in world units.
        tie_order : callable, optional
            As in `raycast_all`.
        mask : int, optional
            Only objects on one of these layers.

        Returns
        -------
        tuple or None
            The first of `raycast_all`, or None.
        """
        hits = self.raycast_all(start, end, tie_order, mask)
        return hits[0] if hits else None

    def is_colliding(self, a, b):
        """Whether `pairs` would report two objects.

        Parameters
        ----------
        a, b : hashable
            Two objects in the reference.

        Returns
        -------
        bool
            False for an object with itself.

        Raises
        ------
        KeyError
            If `a` and `b` differ and either is not there.
        """
        return a != b and pair_allowed(self._filters.get(a, DEFAULT_FILTER),
                                       self._filters.get(b, DEFAULT_FILTER),
                                       a in self._static, b in self._static) \
            and shapes_touch(*self._shapes[a], *self._shapes[b])


class BruteForce3D(BruteForce):
    """BruteForce in 3D: boxes (x, y, z, width, height, depth) or AABBs, points
    (x, y, z) or Vector3s, and spheres (insert_sphere)."""

    _read_vector = staticmethod(read_vec3)
    _read_bounds = staticmethod(read_box)

    def insert_sphere(self, obj, center, radius, static=False):
        """Add a sphere, or move an object already present to it (`insert_circle`).

        Parameters
        ----------
        obj : hashable
            The object, handed back by queries and `pairs`.
        center : (x, y, z) or Vector3
            In world units.
        radius : float
            In world units.
        static : bool, optional
            Whether it is static (see `set_static`).
        """
        self.insert_circle(obj, center, radius, static)
