// Nearest-object searches: the k objects nearest to a point, nearest first by
// the exact distance to their circle (sphere) or box, ties in id order, none
// farther than a limit.
//
// Every object of a level is at home in one cell (its box's min corner's)
// and reaches at most `span` cells past it. A search visits the window of
// home cells around the point's cell, then widens it one cell a side at a
// time, visiting only the ring of cells each step adds. Once the window has
// grown r cells a side, every object whose box comes within about r cells
// of the point has been met, so the search of the level ends as soon as the
// k nearest objects met lie within that reach, or the reach passes the
// limit. Objects on no level (the uniform grid's large ones) are all tested
// first.
//
// A single search walks the level's own table (wrapped, each cell's objects
// on a list through the index's arrays), or scans the level, skipping the
// cells already visited, once its window would wrap around the table or
// cost more cells than the level has objects. A batch of many searches reads
// each level laid out anew (nearest_layout.hpp): on a grid of its own with
// cells a quarter as wide as the objects, shapes in cell order, so that a
// row of a window is one run of memory and holds few objects that cannot be
// answers (among discs of radius 8 kept in cells of 32, about 30 a search
// instead of 250).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "check.hpp"
#include "narrow_phase.hpp"
#include "nearest_layout.hpp"
#include "nearest_levels.hpp"

namespace spatial_hash {

// The search's steps on each object, kept in its loops.
#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

template <int D>
class NearestSearch {
  public:
    static constexpr int NUMBERS = 2 * D;

    NearestSearch(const NearestInput<D>& in, const double* point, std::ptrdiff_t k,
                  double limit, Nearby* best) noexcept
        : in_(in), p_(point), k_(k), limit_(limit), best_(best) {}

    // The answers into best[0 : returned] (best has room for k), nearest first.
    std::ptrdiff_t run() noexcept {
        if (k_ <= 0) return 0;
        for (std::ptrdiff_t j = 0; j < in_.n_loose; ++j) offer(in_.loose[j]);
        for (int l = 0; l < in_.n_levels; ++l) {
            const NearestLevel<D>& L = in_.levels[l];
            if (L.n == 0) continue;
            if (in_.packed && in_.packed[l].ready) search_packed(L, in_.packed[l]);
            else search_table(L);
        }
        if (k_ > INSERTED) std::sort_heap(best_, best_ + kept_, order);
        return kept_;
    }

  private:
    const NearestInput<D>& in_;
    const double* p_;
    const std::ptrdiff_t k_;
    const double limit_;
    // The answers so far: up to INSERTED of them in order, more as a heap
    // (farthest on top) until run() sorts it.
    static constexpr std::ptrdiff_t INSERTED = 16;
    Nearby* best_;
    std::ptrdiff_t kept_ = 0;

    enum Shapes { CIRCLES, BOXES, MIXED };

    static bool order(const Nearby& a, const Nearby& b) noexcept { return nearer(a, b); }

    const Nearby& farthest() const noexcept { return k_ <= INSERTED ? best_[k_ - 1] : best_[0]; }

    // No object farther than this can be an answer.
    double bound() const noexcept {
        return kept_ == k_ && farthest().distance < limit_ ? farthest().distance : limit_;
    }

    // What an object must pass to displace a kept one, which a search's
    // loops keep at hand and test objects against before offering them: no
    // farther than `distance` (infinite until k are kept), and while the
    // farthest kept lies at distance 0, an id below `id` (no distance is
    // below 0: the tie goes by id). Among overlapping discs, where a dozen
    // hold the point, the ids turn most of those away.
    struct Bar {
        double distance;
        int32_t id;
    };

    Bar bar() const noexcept {
        if (kept_ < k_) return {INFINITY, INT32_MAX};
        const Nearby& last = farthest();
        return {last.distance, last.distance > 0.0 ? INT32_MAX : last.id};
    }

    // Whether object i, of shape s, may pass the bar, told without a square
    // root (most objects a search meets may not): its squared distance from
    // point p, into `squared` (from the center of a circle or sphere, from a
    // box; the axes summed in order), is within the square of the bar's
    // distance (plus the radius) but for rounding.
    template <Shapes KIND = MIXED>
    static ALWAYS_INLINE bool passes(const double* s, int32_t i, const double* p, const Bar& bar,
                                     double* squared) noexcept {
        const bool circle = KIND == CIRCLES || (KIND == MIXED && is_circle<D>(s));
        double sum = 0.0;
        for (int a = 0; a < D; ++a) {
            const double d = circle ? p[a] - s[a]
                : (p[a] < s[a] ? s[a] - p[a] : (p[a] > s[D + a] ? p[a] - s[D + a] : 0.0));
            sum += d * d;
        }
        *squared = sum;
        const double reach = circle ? bar.distance + s[D] : bar.distance;
        return (i < bar.id) & (sum <= reach * reach * (1.0 + 1e-12) + 1e-300);
    }

    ALWAYS_INLINE void offer(int32_t i) noexcept {
        const double* s = in_.body + NUMBERS * std::ptrdiff_t(i);
        double squared;
        if (passes(s, i, p_, bar(), &squared)) offer(s, i, squared);
    }

    // Object i, of shape s at `squared` distance, which may be nearer than the
    // farthest kept.
    void offer(const double* s, int32_t i, double squared) noexcept {
        if (in_.filter && !(in_.filter[i].layer & in_.layers)) return;
        const Nearby found{distance(s, squared), i};
        if (!(found.distance <= limit_)) return;
        if (k_ <= INSERTED) {
            std::ptrdiff_t at;
            if (kept_ < k_) at = kept_++;
            else if (nearer(found, best_[k_ - 1])) at = k_ - 1;
            else return;
            for (; at > 0 && nearer(found, best_[at - 1]); --at) best_[at] = best_[at - 1];
            best_[at] = found;
        } else if (kept_ < k_) {
            best_[kept_++] = found;
            std::push_heap(best_, best_ + kept_, order);
        } else if (nearer(found, best_[0])) {
            std::pop_heap(best_, best_ + k_, order);
            best_[k_ - 1] = found;
            std::push_heap(best_, best_ + k_, order);
        }
    }

    // The distance from the point to shape s, 0 inside it, from its squared
    // distance: for a circle the distance from its center less its radius,
    // with no square root where it surely holds the point (overlapping discs
    // hold a search's point a dozen at a time).
    static double distance(const double* s, double squared) noexcept {
        if (!is_circle<D>(s)) return std::sqrt(squared);
        if (squared < s[D] * s[D] * (1.0 - 1e-12)) return 0.0;
        const double d = std::sqrt(squared) - s[D];
        return d > 0.0 ? d : 0.0;
    }

    // The point's cell in grid g; false if it cannot be named exactly.
    template <class Grid>
    bool cell_of_point(const Grid& g, int64_t* c, double* scale) const noexcept {
        *scale = 0.0;   // what the rounding of distances is relative to
        for (int a = 0; a < D; ++a) {
            const double t = in_cells(g, a, p_[a]);
            if (!(std::fabs(t) < PRECISE_CELLS)) return false;
            c[a] = floor_int(t);
            *scale += std::fabs(p_[a]) + std::fabs(g.origin[a]);
        }
        return true;
    }

    // How near the point every object of grid g lies that the window r
    // cells a side has not shown: an object within that distance has its
    // box within (padded for rounding) the point's cell +- r cells on every
    // axis, so its home in the window. Negative if the window guarantees
    // nothing.
    template <class Grid>
    double reach(const Grid& g, const int64_t* c, int64_t r, double scale) const noexcept {
        double edges = INFINITY;
        for (int a = 0; a < D; ++a) {
            const double below = p_[a] - (g.origin[a] + double(c[a] - r) * g.cell);
            const double above = (g.origin[a] + double(c[a] + r + 1) * g.cell) - p_[a];
            edges = std::min(edges, std::min(below, above));
        }
        // Far more than the rounding of a distance, a box or a cell's edge.
        const double pad = (scale + double(r + 1) * g.cell) * 1e-12 + 1e-150;
        double guaranteed = edges - 2.0 * pad;
        for (int tries = 0; tries < 4 && guaranteed >= 0.0; ++tries) {
            if (within_window(g, c, r, guaranteed + pad)) return guaranteed;
            guaranteed -= 2.0 * pad + 1e-9 * guaranteed;
        }
        return -1.0;
    }

    // Whether grid g's cells of the point +- distance lie within the point's
    // cell +- r on every axis.
    template <class Grid>
    bool within_window(const Grid& g, const int64_t* c, int64_t r, double distance) const noexcept {
        for (int a = 0; a < D; ++a) {
            if (floor_int(in_cells(g, a, p_[a] + distance)) > c[a] + r
                    || floor_int(in_cells(g, a, p_[a] - distance)) < c[a] - r)
                return false;
        }
        return true;
    }

    // The rows of the cells that widening the window to r cells a side adds
    // (all of its cells where `whole`), those within rows lo[1] .. hi[1] (and
    // layers lo[2] .. hi[2]): home cells from the point's cell - span - r to
    // the point's cell + r on each axis. visit(y, z, x0, x1) takes the cells
    // x0 .. x1 of row y (of layer z in 3D).
    template <class Visit>
    static void ring_rows(const int64_t* c, const int32_t* span, int64_t r, bool whole,
                          const int64_t* lo, const int64_t* hi, Visit visit) noexcept {
        const int64_t x0 = c[0] - span[0] - r, x1 = c[0] + r;
        const int64_t y0 = c[1] - span[1] - r, y1 = c[1] + r;
        int64_t z0 = 0, z1 = 0;
        if constexpr (D == 3) {
            z0 = c[2] - span[2] - r;
            z1 = c[2] + r;
        }
        const int64_t z_end = D == 3 ? std::min(z1, hi[D - 1]) : 0;
        for (int64_t z = D == 3 ? std::max(z0, lo[D - 1]) : 0; z <= z_end; ++z) {
            const bool z_edge = D == 3 && (z == z0 || z == z1);
            for (int64_t y = std::max(y0, lo[1]), y_end = std::min(y1, hi[1]); y <= y_end; ++y) {
                if (whole || z_edge || y == y0 || y == y1) {
                    visit(y, z, x0, x1);
                } else {
                    visit(y, z, x0, x0);
                    visit(y, z, x1, x1);
                }
            }
        }
    }

    static constexpr int64_t EVERYWHERE_LOW[3] = {INT64_MIN, INT64_MIN, INT64_MIN};
    static constexpr int64_t EVERYWHERE_HIGH[3] = {INT64_MAX, INT64_MAX, INT64_MAX};

    void search_table(const NearestLevel<D>& L) noexcept {
        int64_t c[D];
        double scale;
        if (!cell_of_point(L, c, &scale)) return scan(L, c, -1);
        const int64_t side = int64_t(1) << L.wbits, mask = side - 1;
        const auto visit = [&](int64_t y, int64_t z, int64_t x0, int64_t x1) {
            const int64_t row = ((D == 3 ? (z & mask) << L.wbits : 0) | (y & mask)) << L.wbits;
            for (int64_t x = x0; x <= x1; ++x) visit_cell(L, row | (x & mask));
        };
        std::ptrdiff_t visited = 0;
        for (int64_t r = 0;; ++r) {
            std::ptrdiff_t cells = 1, before = 1;
            for (int a = 0; a < D; ++a) {
                const int64_t width = L.span[a] + 2 * r + 1;
                if (width > side) return scan(L, c, r - 1);
                cells *= width;
                before *= width - 2;
            }
            if (r) cells -= before;
            if (visited + cells > 2 * L.n + 64) return scan(L, c, r - 1);
            ring_rows(c, L.span, r, r == 0, EVERYWHERE_LOW, EVERYWHERE_HIGH, visit);
            walk();
            visited += cells;
            if (reach(L, c, r, scale) >= bound()) return;
        }
    }

    // Cells' lists are walked side by side, LANES at a time: each step of a
    // list waits for memory (the objects of a cell lie anywhere), and the
    // steps of different lists wait together.
    static constexpr int LANES = 8;
    int32_t walking_[LANES];
    int n_walking_ = 0;

    void visit_cell(const NearestLevel<D>& L, int64_t slot) noexcept {
        const int32_t first = L.head[slot];
        if (first < 0) return;
        walking_[n_walking_++] = first;
        if (n_walking_ == LANES) walk();
    }

    void walk() noexcept {
        const double* body = in_.body;
        const int32_t* next = in_.next;
        double p[D];
        std::copy(p_, p_ + D, p);
        Bar now = bar();
        int n = n_walking_;
        while (n) {
            for (int j = 0; j < n;) {
                const int32_t i = walking_[j], after = next[i];
                const double* s = body + NUMBERS * std::ptrdiff_t(i);
                double squared;
                if (passes(s, i, p, now, &squared)) {
                    offer(s, i, squared);
                    now = bar();
                }
                if (after >= 0) walking_[j++] = after;
                else walking_[j] = walking_[--n];
            }
        }
        n_walking_ = 0;
    }

    // Offers every object of the level but those at home in the window r
    // cells a side, already visited (none if r < 0), each home found from
    // its box as the level placed it.
    void scan(const NearestLevel<D>& L, const int64_t* c, int64_t r) noexcept {
        const int64_t mask = (int64_t(1) << L.wbits) - 1;
        for (std::ptrdiff_t j = 0; j < L.n; ++j) {
            const int32_t i = L.members[j];
            if (r >= 0) {
                double box[2 * D];
                box_of<D>(in_.body + NUMBERS * std::ptrdiff_t(i), box);
                bool seen = true;
                for (int a = 0; a < D && seen; ++a) {
                    const int64_t home = floor_int(in_cells(L, a, box[a]));
                    seen = ((home - (c[a] - L.span[a] - r)) & mask) < L.span[a] + 2 * r + 1;
                }
                if (seen) continue;
            }
            offer(i);
        }
    }

    void search_packed(const NearestLevel<D>& L, const PackedLevel<D>& P) noexcept {
        int64_t c[D];
        double scale;
        if (!cell_of_point(P, c, &scale)) return scan(L, c, -1);
        if (P.circles == P.ids.size()) search_packed<CIRCLES>(P, c, scale);
        else if (P.circles == 0) search_packed<BOXES>(P, c, scale);
        else search_packed<MIXED>(P, c, scale);
    }

    // search_packed for a level of such shapes.
    template <Shapes KIND>
    void search_packed(const PackedLevel<D>& P, const int64_t* c, double scale) noexcept {
        // The first window that reaches the grid; whether a window holds all of it.
        int64_t first = 0;
        for (int a = 0; a < D; ++a)
            first = std::max({first, c[a] - P.span[a] - (P.size[a] - 1), -c[a]});
        const auto holds_all = [&](int64_t r) {
            for (int a = 0; a < D; ++a)
                if (c[a] - P.span[a] - r > 0 || c[a] + r < P.size[a] - 1) return false;
            return true;
        };
        const double* shapes = P.shapes.data();
        const int32_t* ids = P.ids.data();
        const int32_t* start = P.cell_start.data();
        int64_t lo[D], hi[D];
        for (int a = 0; a < D; ++a) {
            lo[a] = 0;
            hi[a] = P.size[a] - 1;
        }
        const auto visit = [&](int64_t y, int64_t z, int64_t x0, int64_t x1) {
            x0 = std::max<int64_t>(x0, 0);
            x1 = std::min<int64_t>(x1, P.size[0] - 1);
            if (x0 > x1) return;
            const int64_t row = P.size[0] * (y + P.size[1] * z);
            double p[D];
            std::copy(p_, p_ + D, p);
            Bar now = bar();
            for (std::ptrdiff_t u = start[row + x0], end = start[row + x1 + 1]; u < end; ++u) {
                const double* s = shapes + NUMBERS * u;
                double squared;
                if (passes<KIND>(s, ids[u], p, now, &squared)) {
                    offer(s, ids[u], squared);
                    now = bar();
                }
            }
        };
        for (int64_t r = first;; ++r) {
            ring_rows(c, P.span, r, r == first, lo, hi, visit);
            if (holds_all(r) || reach(P, c, r, scale) >= bound()) return;
        }
    }
};

template <int D>
std::ptrdiff_t nearest_objects(const NearestInput<D>& in, const double* point, std::ptrdiff_t k,
                               double limit, Nearby* best) noexcept {
    SH_EXPECT(point != nullptr && k >= 0 && (k == 0 || best != nullptr));
    SH_EXPECT(!(limit < 0.0));      // the front refuses a negative or NaN distance
    return NearestSearch<D>(in, point, k, limit, best).run();
}

}  // namespace spatial_hash
