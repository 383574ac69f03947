// Things that move along a segment: where a ray first meets a shape (the
// narrow phase of ray casts), and what a box sweeps over (of swept
// queries). A segment starts at `start` (or a box at its place) and runs
// along `along`: its end is start + along. A shape is 2 * D numbers, a box
// its min corner then its max corner, as in narrow_phase.hpp. Shapes are
// closed: a ray that starts inside one meets it at fraction 0, at its start,
// with a normal of zeros.
#pragma once
#include <cmath>
#include <cstdint>
#include <utility>

#include "narrow_phase.hpp"

namespace spatial_hash {

template <int D>
struct RayHit {
    double fraction;        // of the way from the segment's start to its end
    double point[D];        // where it meets the shape
    double normal[D];       // the shape's unit normal there; zeros if it starts inside
    int32_t id;             // the object met (the caller's to set)
};

template <int D>
inline void hit_at_start(const double* start, RayHit<D>* hit) noexcept {
    hit->fraction = 0.0;
    for (int k = 0; k < D; ++k) {
        hit->point[k] = start[k];
        hit->normal[k] = 0.0;
    }
}

// A box (min corner, max corner). The slab the segment enters last gives the
// normal; on a tie (at an edge or a corner), the earlier axis: x, then y,
// then z.
template <int D>
inline bool ray_hits_box(const double* box, const double* start, const double* along,
                         RayHit<D>* hit) noexcept {
    bool inside = true;
    for (int k = 0; k < D; ++k) inside &= box[k] <= start[k] && start[k] <= box[D + k];
    if (inside) {
        hit_at_start<D>(start, hit);
        return true;
    }
    double t0 = 0.0, t1 = 1.0, entered[D];
    for (int k = 0; k < D; ++k) {
        entered[k] = -1.0;
        if (along[k] == 0.0) {
            if (start[k] < box[k] || start[k] > box[D + k]) return false;
            continue;
        }
        const double ta = (box[k] - start[k]) / along[k], tb = (box[D + k] - start[k]) / along[k];
        const double left = ta < tb ? tb : ta;
        entered[k] = ta < tb ? ta : tb;
        t1 = left < t1 ? left : t1;
        t0 = entered[k] > t0 ? entered[k] : t0;
    }
    if (t0 > t1) return false;
    int axis = 0;
    for (int k = 1; k < D; ++k)
        if (entered[k] > entered[axis]) axis = k;
    hit->fraction = t0;
    for (int k = 0; k < D; ++k) {
        hit->point[k] = start[k] + t0 * along[k];
        hit->normal[k] = 0.0;
    }
    hit->normal[axis] = along[axis] > 0.0 ? -1.0 : 1.0;
    return true;
}

// A circle (sphere): center, radius. The normal points from its center
// (against the segment, for a radius of 0).
template <int D>
inline bool ray_hits_circle(const double* circle, const double* start, const double* along,
                            RayHit<D>* hit) noexcept {
    double from[D], inside = 0.0, a = 0.0, b = 0.0;
    const double r = circle[D];
    for (int k = 0; k < D; ++k) {
        from[k] = start[k] - circle[k];
        inside += from[k] * from[k];
    }
    inside -= r * r;
    if (inside <= 0.0) {
        hit_at_start<D>(start, hit);
        return true;
    }
    for (int k = 0; k < D; ++k) a += along[k] * along[k];
    for (int k = 0; k < D; ++k) b += from[k] * along[k];
    const double disc = b * b - a * inside;
    if (a == 0.0 || b >= 0.0 || disc < 0.0) return false;
    const double t = (-b - std::sqrt(disc)) / a;
    if (t > 1.0) return false;
    hit->fraction = t;
    for (int k = 0; k < D; ++k) hit->point[k] = start[k] + t * along[k];
    if (r > 0.0) {
        for (int k = 0; k < D; ++k) hit->normal[k] = (hit->point[k] - circle[k]) / r;
    } else {
        const double length = std::sqrt(a);
        for (int k = 0; k < D; ++k) hit->normal[k] = -along[k] / length;
    }
    return true;
}

template <int D>
inline bool ray_hits_shape(const double* shape, const double* start, const double* along,
                           RayHit<D>* hit) noexcept {
    return is_circle<D>(shape) ? ray_hits_circle<D>(shape, start, along, hit)
                               : ray_hits_box<D>(shape, start, along, hit);
}

// The box that box q covers on its way along `along`: the cells a swept
// query visits.
template <int D>
inline void swept_reach(const double* q, const double* along, double* reach) noexcept {
    for (int k = 0; k < 2 * D; ++k) reach[k] = q[k];
    for (int k = 0; k < D; ++k) {
        if (along[k] < 0) reach[k] += along[k];
        else reach[D + k] += along[k];
    }
}

// Narrows [t0, t1] to the times when [qmin, qmax] + t * d meets [bmin, bmax].
inline bool axis_window(double qmin, double qmax, double d, double bmin, double bmax, double* t0,
                        double* t1) noexcept {
    if (d == 0.0) return qmin <= bmax && bmin <= qmax;
    double lo = (bmin - qmax) / d, hi = (bmax - qmin) / d;
    if (d < 0.0) std::swap(lo, hi);
    if (lo > *t0) *t0 = lo;
    if (hi < *t1) *t1 = hi;
    return *t0 <= *t1;
}

// Does box q, moved by t * along for some t in [0, 1], touch box b? Only
// within the box q sweeps over: rounding in the time windows alone can
// accept a box just beyond it, in a cell the query never visits.
template <int D>
inline bool swept_box_hits(const double* q, const double* along, const double* b) noexcept {
    double reach[2 * D], t0 = 0.0, t1 = 1.0;
    swept_reach<D>(q, along, reach);
    if (!boxes_meet<D>(reach, b)) return false;
    for (int k = 0; k < D; ++k)
        if (!axis_window(q[k], q[D + k], along[k], b[k], b[D + k], &t0, &t1)) return false;
    return true;
}

// In 2D: the y extent [*ylo, *yhi] that box q, moved by t * along for t in
// [0, 1], covers while it meets the column xa <= x <= xb; false if it never
// does. The extent is padded so that rounding can only widen it.
inline bool swept_rows(const double* q, const double* along, double xa, double xb, double* ylo,
                       double* yhi) noexcept {
    const double pad = (xb - xa) * 1e-7 + (std::fabs(xa) + std::fabs(q[1]) + std::fabs(q[3])) * 1e-13;
    double t0 = 0.0, t1 = 1.0;
    if (!axis_window(q[0], q[2], along[0], xa - pad, xb + pad, &t0, &t1)) return false;
    const double a = t0 * along[1], c = t1 * along[1];
    *ylo = q[1] + (a < c ? a : c) - pad;
    *yhi = q[3] + (a < c ? c : a) + pad;
    return true;
}

}  // namespace spatial_hash
