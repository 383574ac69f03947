# Narrow-phase geometry shared by every index. Boxes are closed: touching counts.


cdef inline void circle_bounds(double x, double y, double r, Box* b) noexcept nogil:
    """A circle's box. Every circle's box is made here, so one rebuilt from the
    circle is bit for bit the box it had."""
    b.minx = x - r
    b.miny = y - r
    b.maxx = x + r
    b.maxy = y + r


cdef inline bint box_overlap(const Box* a, const Box* b) noexcept nogil:
    # Bitwise, not short-circuit: candidates overlap about half the time on each
    # axis, so branches would mispredict; four compares are cheaper.
    return (a.minx <= b.maxx) & (b.minx <= a.maxx) & (a.miny <= b.maxy) & (b.miny <= a.maxy)


cdef inline bint circle_circle(const Circle* a, const Circle* b) noexcept nogil:
    cdef double dx = a.x - b.x, dy = a.y - b.y, rr = a.r + b.r
    return dx * dx + dy * dy <= rr * rr


cdef inline bint circle_box(const Circle* c, const Box* b) noexcept nogil:
    cdef double px = c.x, py = c.y
    if px < b.minx:
        px = b.minx
    elif px > b.maxx:
        px = b.maxx
    if py < b.miny:
        py = b.miny
    elif py > b.maxy:
        py = b.maxy
    px = c.x - px
    py = c.y - py
    return px * px + py * py <= c.r * c.r


cdef inline void rect_shape(double x, double y, double w, double h, Shape* s) noexcept nogil:
    """The box from (x, y) to (x + w, y + h), its numbers checked."""
    s.p0 = x
    s.p1 = y
    s.p2 = x + w
    s.p3 = y + h


cdef inline void circle_shape(double x, double y, double r, Shape* s) noexcept nogil:
    """The disc at (x, y) of radius r, its numbers checked."""
    s.p0 = x
    s.p1 = y
    s.p2 = r
    s.p3 = NAN


cdef inline bint shape_is_circle(const Shape* s) noexcept nogil:
    return s.p3 != s.p3


cdef inline void shape_box(const Shape* s, Box* b) noexcept nogil:
    if shape_is_circle(s):
        circle_bounds(s.p0, s.p1, s.p2, b)
    else:
        b[0] = (<const Box*>s)[0]


cdef inline bint shapes_touch(const Shape* a, const Box* a_box, const Shape* b) noexcept nogil:
    """Do the shapes touch (a's box given)? The box test comes first for every
    shape so that "touching" never depends on which exact test rounding favours:
    both shapes' bounds must meet. Two circles (the common pair) take no
    data-dependent branch: both of their tests are computed and combined."""
    cdef Box b_box
    cdef bint boxes
    shape_box(b, &b_box)
    boxes = box_overlap(a_box, &b_box)
    if shape_is_circle(a):
        if shape_is_circle(b):
            return boxes & circle_circle(<const Circle*>a, <const Circle*>b)
        return boxes and circle_box(<const Circle*>a, &b_box)
    if shape_is_circle(b):
        return boxes and circle_box(<const Circle*>b, a_box)
    return boxes


cdef extern from *:
    """
    /* Two doubles at a time: SSE2 on x86-64, NEON on arm64. */
    typedef double lanes2 __attribute__((vector_size(16)));
    typedef long long mask2 __attribute__((vector_size(16)));
    static inline int circles_touch_lanes(const double* a, const double* b) {
        lanes2 pa = {a[0], a[1]}, pb = {b[0], b[1]}, ra = {a[2], a[2]}, rb = {b[2], b[2]};
        mask2 boxes = ((pa - ra) <= (pb + rb)) & ((pb - rb) <= (pa + ra));
        lanes2 d = pa - pb;
        double rr = a[2] + b[2];
        d = d * d;
        return (int)(boxes[0] & boxes[1] & 1) & (d[0] + d[1] <= rr * rr);
    }
    static inline int boxes_touch_lanes(const double* a, const double* b) {
        lanes2 lo_a = {a[0], a[1]}, hi_a = {a[2], a[3]}, lo_b = {b[0], b[1]}, hi_b = {b[2], b[3]};
        mask2 m = (lo_a <= hi_b) & (lo_b <= hi_a);
        return (int)(m[0] & m[1] & 1);
    }
    """
    bint circles_touch_lanes(const double* a, const double* b) noexcept nogil
    bint boxes_touch_lanes(const double* a, const double* b) noexcept nogil


cdef inline bint circles_touch(const Shape* a, const Shape* b) noexcept nogil:
    """shapes_touch for two circles, with no branch at all."""
    return circles_touch_lanes(&a.p0, &b.p0)


cdef inline bint boxes_touch(const Shape* a, const Shape* b) noexcept nogil:
    """shapes_touch for two boxes."""
    return boxes_touch_lanes(&a.p0, &b.p0)


cdef inline bint shapes_meet(const Shape* a, const Shape* b) noexcept nogil:
    """shapes_touch, a's box worked out here."""
    cdef Box a_box
    shape_box(a, &a_box)
    return shapes_touch(a, &a_box, b)


cdef inline double shape_distance(const Shape* s, double x, double y) noexcept nogil:
    """The distance from the point (x, y) to the shape's circle or box: 0 inside."""
    cdef double dx, dy, d
    if shape_is_circle(s):
        dx = x - s.p0
        dy = y - s.p1
        d = sqrt(dx * dx + dy * dy) - s.p2
        return d if d > 0.0 else 0.0
    dx = s.p0 - x if x < s.p0 else (x - s.p2 if x > s.p2 else 0.0)
    dy = s.p1 - y if y < s.p1 else (y - s.p3 if y > s.p3 else 0.0)
    return sqrt(dx * dx + dy * dy)


cdef inline bint ray_hits_box(const Box* b, double sx, double sy, double dx, double dy,
                              RayHit* hit) noexcept nogil:
    """Where the segment from (sx, sy) along (dx, dy) first meets the closed box:
    the slab entered last gives the normal (x on a tie, at a corner)."""
    cdef double t0 = 0.0, t1 = 1.0, ta, tb, tx = -1.0, ty = -1.0
    if b.minx <= sx <= b.maxx and b.miny <= sy <= b.maxy:
        hit.fraction, hit.x, hit.y, hit.nx, hit.ny = 0.0, sx, sy, 0.0, 0.0
        return True
    if dx == 0.0:
        if sx < b.minx or sx > b.maxx:
            return False
    else:
        ta = (b.minx - sx) / dx
        tb = (b.maxx - sx) / dx
        tx = ta if ta < tb else tb
        t1 = (tb if ta < tb else ta) if (tb if ta < tb else ta) < t1 else t1
        t0 = tx if tx > t0 else t0
    if dy == 0.0:
        if sy < b.miny or sy > b.maxy:
            return False
    else:
        ta = (b.miny - sy) / dy
        tb = (b.maxy - sy) / dy
        ty = ta if ta < tb else tb
        t1 = (tb if ta < tb else ta) if (tb if ta < tb else ta) < t1 else t1
        t0 = ty if ty > t0 else t0
    if t0 > t1:
        return False
    hit.fraction = t0
    hit.x = sx + t0 * dx
    hit.y = sy + t0 * dy
    if tx >= ty:
        hit.nx, hit.ny = (-1.0 if dx > 0.0 else 1.0), 0.0
    else:
        hit.nx, hit.ny = 0.0, (-1.0 if dy > 0.0 else 1.0)
    return True


cdef inline bint ray_hits_circle(const Circle* c, double sx, double sy, double dx, double dy,
                                 RayHit* hit) noexcept nogil:
    """Where the segment from (sx, sy) along (dx, dy) first meets the closed disc;
    the normal points from its centre (against the ray, for a radius of 0)."""
    cdef double fx = sx - c.x, fy = sy - c.y, a, b, inside, disc, t, length
    inside = fx * fx + fy * fy - c.r * c.r
    if inside <= 0.0:
        hit.fraction, hit.x, hit.y, hit.nx, hit.ny = 0.0, sx, sy, 0.0, 0.0
        return True
    a = dx * dx + dy * dy
    b = fx * dx + fy * dy
    disc = b * b - a * inside
    if a == 0.0 or b >= 0.0 or disc < 0.0:
        return False
    t = (-b - sqrt(disc)) / a
    if t > 1.0:
        return False
    hit.fraction = t
    hit.x = sx + t * dx
    hit.y = sy + t * dy
    if c.r > 0.0:
        hit.nx = (hit.x - c.x) / c.r
        hit.ny = (hit.y - c.y) / c.r
    else:
        length = sqrt(a)
        hit.nx = -dx / length
        hit.ny = -dy / length
    return True


cdef inline bint ray_hits_shape(const Shape* s, double sx, double sy, double dx, double dy,
                                RayHit* hit) noexcept nogil:
    if shape_is_circle(s):
        return ray_hits_circle(<const Circle*>s, sx, sy, dx, dy, hit)
    return ray_hits_box(<const Box*>s, sx, sy, dx, dy, hit)


cdef inline bint axis_window(double qmin, double qmax, double d, double bmin, double bmax,
                             double* t0, double* t1) noexcept nogil:
    """Narrow [t0, t1] to the times when [qmin, qmax] + t*d meets [bmin, bmax]."""
    cdef double lo, hi
    if d == 0.0:
        return qmin <= bmax and bmin <= qmax
    lo = (bmin - qmax) / d
    hi = (bmax - qmin) / d
    if d < 0.0:
        lo, hi = hi, lo
    if lo > t0[0]:
        t0[0] = lo
    if hi < t1[0]:
        t1[0] = hi
    return t0[0] <= t1[0]


cdef inline void swept_reach(const Box* q, double dx, double dy, Box* reach) noexcept nogil:
    """The box that q covers on its way along (dx, dy): the cells a swept query visits."""
    reach[0] = q[0]
    if dx < 0:
        reach.minx += dx
    else:
        reach.maxx += dx
    if dy < 0:
        reach.miny += dy
    else:
        reach.maxy += dy


cdef inline bint swept_box_hits(const Box* q, double dx, double dy, const Box* b) noexcept nogil:
    """Does box q, moved by t*(dx, dy) for some t in [0, 1], touch box b? Only
    within the box q sweeps over: rounding in the time windows alone can accept
    a box just beyond it, in a cell the query never visits."""
    cdef double t0 = 0.0, t1 = 1.0
    cdef Box reach
    swept_reach(q, dx, dy, &reach)
    return (box_overlap(&reach, b)
            and axis_window(q.minx, q.maxx, dx, b.minx, b.maxx, &t0, &t1)
            and axis_window(q.miny, q.maxy, dy, b.miny, b.maxy, &t0, &t1))


cdef inline bint swept_rows(const Box* q, double dx, double dy, double xa, double xb,
                            double* ylo, double* yhi) noexcept nogil:
    """The y extent [ylo, yhi] that box q, moved by t*(dx, dy) for t in [0, 1],
    covers while it meets the column xa <= x <= xb; False if it never does. The
    extent is padded so that rounding can only widen it."""
    cdef double pad = (xb - xa) * 1e-7 + (fabs(xa) + fabs(q.miny) + fabs(q.maxy)) * 1e-13
    cdef double t0 = 0.0, t1 = 1.0, a, c
    if not axis_window(q.minx, q.maxx, dx, xa - pad, xb + pad, &t0, &t1):
        return False
    a = t0 * dy
    c = t1 * dy
    ylo[0] = q.miny + (a if a < c else c) - pad
    yhi[0] = q.maxy + (c if a < c else a) + pad
    return True
