// The narrow phase of the pair passes: do two shapes touch? A shape is
// 2 * D doubles: a box as its min corner then its max corner, a circle
// (sphere) as its center, its radius, then NaN in the numbers left. Boxes
// are closed: touching counts. Every test compares the shapes' boxes first,
// so whether two shapes touch never depends on which exact test rounding
// favours, and the tests of two circles or two boxes take no branch on the
// data: candidates touch about half the time, and a branch would mispredict.
#pragma once
#include <cstddef>
#include <cstdint>

namespace spatial_hash {

template <int D>
inline bool is_circle(const double* s) noexcept {
    return s[D + 1] != s[D + 1];
}

// A circle's (sphere's) box, written as min corner then max corner. Every
// circle's box in the core is made here (or computed as here, where a test
// needs no box of its own), so one rebuilt from the circle is bit for bit
// the box it had.
template <int D>
inline void circle_box_of(const double* center, double r, double* box) noexcept {
    for (int a = 0; a < D; ++a) {
        box[a] = center[a] - r;
        box[D + a] = center[a] + r;
    }
}

// A shape's box, written as min corner then max corner.
template <int D>
inline void box_of(const double* s, double* box) noexcept {
    if (is_circle<D>(s)) {
        circle_box_of<D>(s, s[D], box);
    } else {
        for (int a = 0; a < 2 * D; ++a) box[a] = s[a];
    }
}

template <int D>
inline int boxes_meet(const double* a, const double* b) noexcept {
    int meet = 1;
    for (int k = 0; k < D; ++k) meet &= (a[k] <= b[D + k]) & (b[k] <= a[D + k]);
    return meet;
}

// Two circles (spheres) by their centers' distance alone. It sums the axes in
// order, as every distance test of the core does, so that they agree bit for
// bit.
template <int D>
inline int circles_overlap(const double* a, const double* b) noexcept {
    const double rr = a[D] + b[D];
    double distance = 0.0;
    for (int k = 0; k < D; ++k) {
        const double d = a[k] - b[k];
        distance += d * d;
    }
    return distance <= rr * rr;
}

// Whether the boxes of two circles (spheres) meet, each box made as box_of
// makes it.
template <int D>
inline int circle_boxes_meet(const double* a, const double* b) noexcept {
    const double ra = a[D], rb = b[D];
    int boxes = 1;
    for (int k = 0; k < D; ++k) boxes &= ((a[k] - ra) <= (b[k] + rb)) & ((b[k] - rb) <= (a[k] + ra));
    return boxes;
}

// Two circles (spheres), their boxes first.
template <int D>
inline int circles_touch(const double* a, const double* b) noexcept {
    return circle_boxes_meet<D>(a, b) & circles_overlap<D>(a, b);
}

template <int D>
inline int boxes_touch(const double* a, const double* b) noexcept {
    return boxes_meet<D>(a, b);
}

#if defined(__GNUC__) || defined(__clang__)
// In 2D, two doubles at a time (SSE2 on x86-64, NEON on arm64), the same
// numbers computed in the same order. (In 3D, four-lane vectors without AVX
// were built through the stack, and every test waited on a failed store
// forwarding: several times slower than one double at a time.)
typedef double lanes2 __attribute__((vector_size(16)));
typedef long long mask2 __attribute__((vector_size(16)));

template <>
inline int circles_touch<2>(const double* a, const double* b) noexcept {
    const lanes2 pa = {a[0], a[1]}, pb = {b[0], b[1]}, ra = {a[2], a[2]}, rb = {b[2], b[2]};
    const mask2 boxes = ((pa - ra) <= (pb + rb)) & ((pb - rb) <= (pa + ra));
    lanes2 d = pa - pb;
    const double rr = a[2] + b[2];
    d = d * d;
    return int(boxes[0] & boxes[1] & 1) & (d[0] + d[1] <= rr * rr);
}

template <>
inline int boxes_touch<2>(const double* a, const double* b) noexcept {
    const lanes2 lo_a = {a[0], a[1]}, hi_a = {a[2], a[3]}, lo_b = {b[0], b[1]}, hi_b = {b[2], b[3]};
    const mask2 m = (lo_a <= hi_b) & (lo_b <= hi_a);
    return int(m[0] & m[1] & 1);
}
#endif

// A circle and a box: the box's point nearest the center is within the radius.
template <int D>
inline int circle_box(const double* c, const double* box) noexcept {
    double distance = 0.0;
    for (int k = 0; k < D; ++k) {
        double p = c[k];
        p = p < box[k] ? box[k] : (p > box[D + k] ? box[D + k] : p);
        const double d = c[k] - p;
        distance += d * d;
    }
    return distance <= c[D] * c[D];
}

// Any two shapes, a's box given. Two circles (the common pair) take no branch
// on the data: both of their tests are computed and combined.
template <int D>
inline int shapes_touch(const double* a, const double* a_box, const double* b) noexcept {
    double b_box[2 * D];
    box_of<D>(b, b_box);
    const int boxes = boxes_meet<D>(a_box, b_box);
    if (is_circle<D>(a)) {
        if (is_circle<D>(b)) return boxes & circles_overlap<D>(a, b);
        return boxes && circle_box<D>(a, b_box);
    }
    if (is_circle<D>(b)) return boxes && circle_box<D>(b, a_box);
    return boxes;
}

// How a pair pass lays its packed shapes out: circles alone as centre and
// radius while all are circles (D + 1 numbers), or every shape as the core
// keeps it (2 * D).
enum Shapes { CIRCLES, BOXES, MIXED };

template <int D>
constexpr int packed_numbers(Shapes shapes) { return shapes == CIRCLES ? D + 1 : 2 * D; }

// Of the pairs first .. end-1 of packed objects (two indices a pair), keeps
// in order those whose shapes touch; returns the new end.
template <int D, Shapes SHAPES>
std::ptrdiff_t keep_touching(int32_t* pairs, std::ptrdiff_t first, std::ptrdiff_t end, const double* shape) {
    constexpr std::size_t STRIDE = packed_numbers<D>(SHAPES);
    std::ptrdiff_t kept = first;
    for (std::ptrdiff_t p = first; p < end; ++p) {
        const int32_t u = pairs[2 * p], v = pairs[2 * p + 1];
        const double *a = &shape[std::size_t(u) * STRIDE], *b = &shape[std::size_t(v) * STRIDE];
        int touch;
        if (SHAPES == CIRCLES) touch = circles_touch<D>(a, b);
        else if (SHAPES == BOXES) touch = boxes_touch<D>(a, b);
        else {
            double box[2 * D];
            box_of<D>(a, box);
            touch = shapes_touch<D>(a, box, b);
        }
        pairs[2 * kept] = u;
        pairs[2 * kept + 1] = v;
        kept += touch;
    }
    return kept;
}

// Of the pairs first .. end-1 of packed circles (spheres), keeps in order
// those whose boxes meet; returns the new end. With a test of their distance
// first, circles_touch in halves.
template <int D>
std::ptrdiff_t keep_meeting_boxes(int32_t* pairs, std::ptrdiff_t first, std::ptrdiff_t end, const double* shape) {
    constexpr std::size_t STRIDE = packed_numbers<D>(CIRCLES);
    std::ptrdiff_t kept = first;
    for (std::ptrdiff_t p = first; p < end; ++p) {
        const int32_t u = pairs[2 * p], v = pairs[2 * p + 1];
        pairs[2 * kept] = u;
        pairs[2 * kept + 1] = v;
        kept += circle_boxes_meet<D>(&shape[std::size_t(u) * STRIDE], &shape[std::size_t(v) * STRIDE]);
    }
    return kept;
}

}  // namespace spatial_hash
