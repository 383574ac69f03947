"""Brute-force reference broad phase: every pair i < j whose collision layers
let it count is tested and counted in `collision_tests`. Plain Python, written for clarity; it is
the oracle the compiled indexes are checked against, and it uses the same closed
overlap rules (touching counts; shapes' bounds must meet before the exact test)
and the same collision layers (a pair counts when either object's mask has a
bit of the other's layer; a query's mask takes the objects on its layers).
"""
import math

from spatial_hash._core import ALL_LAYERS, read_rect, read_vec2

DEFAULT_FILTER = (1, ALL_LAYERS)


def filters_pass(a, b):
    """Does a pair of (layer, mask) filters let the pair be reported?"""
    return bool((a[1] & b[0]) | (b[1] & a[0]))


def _boxes_meet(a, b):
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _circle_meets_box(c, b):
    x, y, r = c
    px = min(max(x, b[0]), b[2])
    py = min(max(y, b[1]), b[3])
    dx = x - px
    dy = y - py
    return dx * dx + dy * dy <= r * r


def _circles_meet(a, b):
    dx = a[0] - b[0]
    dy = a[1] - b[1]
    rr = a[2] + b[2]
    return dx * dx + dy * dy <= rr * rr


def shapes_touch(box_a, circle_a, box_b, circle_b):
    """Overlap of two shapes, each a box (minx, miny, maxx, maxy) plus an optional
    circle (x, y, r) that the box bounds."""
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


def swept_box_hits(box, dx, dy, other):
    """Does `box` moved by t*(dx, dy), for some t in [0, 1], touch box `other`?
    Only within the box it sweeps over (the time windows alone can, by rounding,
    accept a box just beyond it)."""
    reach = (box[0] + dx if dx < 0 else box[0], box[1] + dy if dy < 0 else box[1],
             box[2] if dx < 0 else box[2] + dx, box[3] if dy < 0 else box[3] + dy)
    t = [0.0, 1.0]
    return (_boxes_meet(reach, other)
            and _window(box[0], box[2], dx, other[0], other[2], t)
            and _window(box[1], box[3], dy, other[1], other[3], t))


def distance_to(box, circle, x, y):
    """Distance from the point (x, y) to a shape (0 inside it), computed as the
    compiled core computes it."""
    if circle is not None:
        dx = x - circle[0]
        dy = y - circle[1]
        return max(0.0, math.sqrt(dx * dx + dy * dy) - circle[2])
    dx = box[0] - x if x < box[0] else (x - box[2] if x > box[2] else 0.0)
    dy = box[1] - y if y < box[1] else (y - box[3] if y > box[3] else 0.0)
    return math.sqrt(dx * dx + dy * dy)


def _ray_box(box, sx, sy, dx, dy):
    minx, miny, maxx, maxy = box
    if minx <= sx <= maxx and miny <= sy <= maxy:
        return 0.0, (sx, sy), (0.0, 0.0)
    t0, t1, tx, ty = 0.0, 1.0, -1.0, -1.0
    for s, d, lo, hi, axis in ((sx, dx, minx, maxx, "x"), (sy, dy, miny, maxy, "y")):
        if d == 0.0:
            if s < lo or s > hi:
                return None
            continue
        ta, tb = (lo - s) / d, (hi - s) / d
        enter, leave = min(ta, tb), max(ta, tb)
        if axis == "x":
            tx = enter
        else:
            ty = enter
        t1 = min(t1, leave)
        t0 = max(t0, enter)
    if t0 > t1:
        return None
    normal = ((-1.0 if dx > 0.0 else 1.0), 0.0) if tx >= ty else (0.0, (-1.0 if dy > 0.0 else 1.0))
    return t0, (sx + t0 * dx, sy + t0 * dy), normal


def _ray_circle(circle, sx, sy, dx, dy):
    cx, cy, r = circle
    fx, fy = sx - cx, sy - cy
    inside = fx * fx + fy * fy - r * r
    if inside <= 0.0:
        return 0.0, (sx, sy), (0.0, 0.0)
    a = dx * dx + dy * dy
    b = fx * dx + fy * dy
    disc = b * b - a * inside
    if a == 0.0 or b >= 0.0 or disc < 0.0:
        return None
    t = (-b - math.sqrt(disc)) / a
    if t > 1.0:
        return None
    x, y = sx + t * dx, sy + t * dy
    if r > 0.0:
        normal = ((x - cx) / r, (y - cy) / r)
    else:
        length = math.sqrt(a)
        normal = (-dx / length, -dy / length)
    return t, (x, y), normal


def ray_hit(box, circle, start, end):
    """(fraction, (x, y), (nx, ny)) where the segment from start to end first meets
    the shape (a box, plus the circle it bounds if any), or None; the rules of the
    compiled core: its box must be touched, a start inside is met at 0 with normal
    (0, 0)."""
    (sx, sy), (ex, ey) = start, end
    dx, dy = ex - sx, ey - sy
    if not swept_box_hits((sx, sy, sx, sy), dx, dy, box):
        return None
    return _ray_circle(circle, sx, sy, dx, dy) if circle else _ray_box(box, sx, sy, dx, dy)


class BruteForce:
    """Reference broad phase with the same object-keyed API as OptimizedSpatialHash."""

    def __init__(self):
        self._shapes = {}   # obj -> (box, circle or None); dicts keep insertion order
        self._filters = {}  # obj -> (layer, mask), for objects not on the default
        self.collision_tests = 0

    def __len__(self):
        return len(self._shapes)

    def __contains__(self, obj):
        return obj in self._shapes

    def insert(self, obj, bounds):
        x, y, w, h = read_rect(bounds)
        self._shapes[obj] = ((x, y, x + w, y + h), None)

    update = insert

    def insert_circle(self, obj, center, radius):
        x, y = read_vec2(center, "center")
        r = float(radius)
        self._shapes[obj] = ((x - r, y - r, x + r, y + r), (x, y, r))

    def remove(self, obj, *_ignored):
        self._filters.pop(obj, None)
        return self._shapes.pop(obj, None) is not None

    def clear(self):
        self._shapes.clear()
        self._filters.clear()

    def shape(self, obj):
        return self._shapes[obj]

    def set_filter(self, obj, layer, mask):
        if obj not in self._shapes:
            raise KeyError(obj)
        self._filters[obj] = (layer, mask)

    def filter_of(self, obj):
        if obj not in self._shapes:
            raise KeyError(obj)
        return self._filters.get(obj, DEFAULT_FILTER)

    def _on(self, mask):
        """The objects and shapes on a layer of `mask`, in insertion order."""
        return [(o, shape) for o, shape in self._shapes.items()
                if self._filters.get(o, DEFAULT_FILTER)[0] & mask]

    def pairs(self):
        """Every overlapping pair once, testing all i < j."""
        items = list(self._shapes.items())
        filters = [self._filters.get(o, DEFAULT_FILTER) for o, _ in items]
        found = []
        self.collision_tests = 0
        for i in range(len(items)):
            a, (box_a, circle_a) = items[i]
            for j in range(i + 1, len(items)):
                b, (box_b, circle_b) = items[j]
                if not filters_pass(filters[i], filters[j]):
                    continue
                self.collision_tests += 1
                if shapes_touch(box_a, circle_a, box_b, circle_b):
                    found.append((a, b))
        return found

    def query_range(self, bounds, mask=ALL_LAYERS):
        x, y, w, h = read_rect(bounds)
        box = (x, y, x + w, y + h)
        return [o for o, (b, c) in self._on(mask) if shapes_touch(box, None, b, c)]

    def query_point(self, point, mask=ALL_LAYERS):
        return self.query_range(read_vec2(point, "point") + (0.0, 0.0), mask)

    def query_radius(self, center, radius, mask=ALL_LAYERS):
        x, y = read_vec2(center, "center")
        r = float(radius)
        box = (x - r, y - r, x + r, y + r)
        return [o for o, (b, c) in self._on(mask) if shapes_touch(box, (x, y, r), b, c)]

    def query_along_path(self, start, end, size=(0.0, 0.0), mask=ALL_LAYERS):
        x0, y0 = read_vec2(start, "start")
        x1, y1 = read_vec2(end, "end")
        w, h = read_vec2(size, "size")
        box = (x0, y0, x0 + w, y0 + h)
        return [o for o, (b, _) in self._on(mask) if swept_box_hits(box, x1 - x0, y1 - y0, b)]

    def query_nearest(self, point, k=1, max_distance=math.inf, tie_order=None, mask=ALL_LAYERS):
        """The k objects on a layer of `mask` nearest to the point, nearest
        first, none farther than max_distance; objects at equal distances in
        insertion order, or by tie_order(obj) if given."""
        x, y = read_vec2(point, "point")
        ranked = sorted((distance_to(box, circle, x, y), tie_order(o) if tie_order else n, o)
                        for n, (o, (box, circle)) in enumerate(self._on(mask)))
        return [o for d, _, o in ranked if d <= max_distance][:k]

    def raycast_all(self, start, end, tie_order=None, mask=ALL_LAYERS):
        """Every object on a layer of `mask` the segment meets, as (obj,
        fraction, point, normal), earliest first; ties in insertion order, or by
        tie_order(obj)."""
        start, end = read_vec2(start, "start"), read_vec2(end, "end")
        hits = []
        for n, (o, (box, circle)) in enumerate(self._on(mask)):
            hit = ray_hit(box, circle, start, end)
            if hit is not None:
                hits.append((hit[0], tie_order(o) if tie_order else n, (o,) + hit))
        return [h for _, _, h in sorted(hits, key=lambda h: h[:2])]

    def raycast(self, start, end, tie_order=None, mask=ALL_LAYERS):
        """The first of raycast_all, or None."""
        hits = self.raycast_all(start, end, tie_order, mask)
        return hits[0] if hits else None

    def is_colliding(self, a, b):
        return a != b and filters_pass(self._filters.get(a, DEFAULT_FILTER),
                                       self._filters.get(b, DEFAULT_FILTER)) \
            and shapes_touch(*self._shapes[a], *self._shapes[b])
