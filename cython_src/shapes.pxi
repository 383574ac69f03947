# Narrow-phase geometry shared by every index. Boxes are closed: touching counts.


cdef extern from "narrow_phase.hpp" namespace "spatial_hash" nogil:
    # The narrow phase, said once for this module and the kernels: shapes,
    # boxes (min corner, max corner) and circles or spheres (center, radius) as numbers.
    void circle_box_of "spatial_hash::circle_box_of<SPATIAL_HASH_DIMENSION>"(const double* center, double r, double* box)
    void box_of "spatial_hash::box_of<SPATIAL_HASH_DIMENSION>"(const double* shape, double* box)
    bint boxes_meet "spatial_hash::boxes_meet<SPATIAL_HASH_DIMENSION>"(const double* a, const double* b)
    bint circles_overlap "spatial_hash::circles_overlap<SPATIAL_HASH_DIMENSION>"(const double* a, const double* b)
    bint circles_touch_numbers "spatial_hash::circles_touch<SPATIAL_HASH_DIMENSION>"(const double* a, const double* b)
    bint boxes_touch_numbers "spatial_hash::boxes_touch<SPATIAL_HASH_DIMENSION>"(const double* a, const double* b)
    bint circle_box_numbers "spatial_hash::circle_box<SPATIAL_HASH_DIMENSION>"(const double* c, const double* box)
    bint shapes_touch_numbers "spatial_hash::shapes_touch<SPATIAL_HASH_DIMENSION>"(const double* a, const double* a_box,
                                                             const double* b)


cdef inline bint box_overlap(const Box* a, const Box* b) noexcept nogil:
    return boxes_meet(a.lo, b.lo)


cdef inline bint circle_circle(const Circle* a, const Circle* b) noexcept nogil:
    return circles_overlap(a.center, b.center)


cdef inline bint circle_box(const Circle* c, const Box* b) noexcept nogil:
    return circle_box_numbers(c.center, b.lo)


cdef inline void rect_shape(const double* at, const double* size, Shape* s) noexcept nogil:
    """The box from corner `at` of sizes `size`, its numbers checked."""
    cdef int a
    for a in range(D):
        s.p[a] = at[a]
        s.p[D + a] = at[a] + size[a]


cdef inline void circle_shape(const double* center, double r, Shape* s) noexcept nogil:
    """The circle (sphere) at `center` of radius r, its numbers checked."""
    cdef int a
    for a in range(D):
        s.p[a] = center[a]
    s.p[D] = r
    for a in range(D + 1, 2 * D):
        s.p[a] = NAN


cdef inline bint shape_is_circle(const Shape* s) noexcept nogil:
    return s.p[2 * D - 1] != s.p[2 * D - 1]


cdef inline void shape_box(const Shape* s, Box* b) noexcept nogil:
    box_of(s.p, b.lo)


cdef inline bint shapes_touch(const Shape* a, const Box* a_box, const Shape* b) noexcept nogil:
    """Do the shapes touch (a's box given)? Both shapes' bounds must meet first,
    so that "touching" never depends on which exact test rounding favours."""
    return shapes_touch_numbers(a.p, a_box.lo, b.p)


cdef inline bint circles_touch(const Shape* a, const Shape* b) noexcept nogil:
    """shapes_touch for two circles (spheres), with no branch at all."""
    return circles_touch_numbers(a.p, b.p)


cdef inline bint boxes_touch(const Shape* a, const Shape* b) noexcept nogil:
    """shapes_touch for two boxes."""
    return boxes_touch_numbers(a.p, b.p)


cdef inline bint shapes_meet(const Shape* a, const Shape* b) noexcept nogil:
    """shapes_touch, a's box worked out here."""
    cdef Box a_box
    shape_box(a, &a_box)
    return shapes_touch(a, &a_box, b)


cdef extern from "rays.hpp" namespace "spatial_hash" nogil:
    # Rays and swept boxes, numbers as in narrow_phase.hpp: where the segment
    # from `start` along `along` first meets a shape; what box q covers on its
    # way along `along`, and whether it meets box b there.
    bint ray_hits_shape "spatial_hash::ray_hits_shape<SPATIAL_HASH_DIMENSION>"(const double* shape, const double* start,
                                                         const double* along, RayHit* hit)
    void swept_reach "spatial_hash::swept_reach<SPATIAL_HASH_DIMENSION>"(const double* q, const double* along,
                                                   double* reach)
    bint swept_box_hits "spatial_hash::swept_box_hits<SPATIAL_HASH_DIMENSION>"(const double* q, const double* along,
                                                         const double* b)
    # In 2D only: the rows a swept box covers in a column (see the header).
    bint swept_rows(const double* q, const double* along, double xa, double xb, double* ylo,
                    double* yhi)


cdef inline int shape_from_rect(const double* at, const double* size, Shape* s) noexcept nogil:
    cdef Box box
    cdef int code = box_from_rect(at, size, &box)
    if code == INPUT_OK:
        rect_shape(at, size, s)
    return code


cdef inline int shape_from_circle(const double* center, double r, Shape* s) noexcept nogil:
    cdef Circle c
    cdef Box box
    cdef int code = box_from_circle(center, r, &c, &box)
    if code == INPUT_OK:
        circle_shape(center, r, s)
    return code
