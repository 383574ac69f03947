// Levels laid out for batches of nearest-object searches (see nearest.hpp).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

#include "narrow_phase.hpp"
#include "nearest_levels.hpp"

namespace spatial_hash {

// The layouts of an index's levels for batches of searches. A batch lays out
// each level that has at most PACK_PER_SEARCH objects per search of the
// batch (laying one out costs about as much as that many list steps). A
// layout serves every batch until the index changes; its memory is kept, so
// a batch allocates only when the index has outgrown it.
template <int D>
class NearestPacks {
  public:
    static constexpr int NUMBERS = 2 * D;
    static constexpr std::ptrdiff_t PACK_PER_SEARCH = 16;
    static constexpr std::ptrdiff_t PREFETCH_AHEAD = 16;
    // A layout has at most this many cells per object.
    static constexpr double CELLS_PER_OBJECT = 2.0;

    // Point in.packed at layouts of the levels of `in` worth it for m
    // searches: those laid out while the index was at its `changes` count
    // (nothing has moved since), else new ones. Out of memory, none is laid
    // out: the tables serve.
    void prepare(NearestInput<D>& in, std::ptrdiff_t m, uint64_t changes) noexcept {
        in.packed = nullptr;
        try {
            if (changes != changes_ || levels_.size() != std::size_t(in.n_levels)) {
                levels_.resize(in.n_levels);
                for (PackedLevel<D>& P : levels_) P.ready = false;
                changes_ = changes;
            }
            for (int l = 0; l < in.n_levels; ++l) {
                const NearestLevel<D>& L = in.levels[l];
                if (!levels_[l].ready && L.n > 0 && L.n <= PACK_PER_SEARCH * m)
                    levels_[l].ready = lay_out(in, L, levels_[l]);
            }
            in.packed = levels_.data();
        } catch (const std::bad_alloc&) {
            for (PackedLevel<D>& P : levels_) P.ready = false;
        }
    }

  private:
    std::vector<PackedLevel<D>> levels_;
    uint64_t changes_ = 0;

    // The level's objects on a grid of their own; false if they spread too
    // far for one to name their cells exactly.
    static bool lay_out(const NearestInput<D>& in, const NearestLevel<D>& L, PackedLevel<D>& P) {
        // The extent of the objects' min corners, and their longest side.
        double low[D], high[D], longest = 0.0;
        std::fill(low, low + D, INFINITY);
        std::fill(high, high + D, -INFINITY);
        for (std::ptrdiff_t j = 0; j < L.n; ++j) {
            double box[2 * D];
            box_of<D>(in.body + NUMBERS * std::ptrdiff_t(L.members[j]), box);
            for (int a = 0; a < D; ++a) {
                low[a] = std::min(low[a], box[a]);
                high[a] = std::max(high[a], box[a]);
                longest = std::max(longest, box[D + a] - box[a]);
            }
        }
        // Cells a quarter as wide as the objects (a window of 5 x 5 cells
        // around a point then holds the objects that can contain it), or
        // holding about one point each, and no more than CELLS_PER_OBJECT per
        // object.
        double volume = 1.0;
        for (int a = 0; a < D; ++a) {
            if (!std::isfinite(high[a] - low[a])) return false;     // too far apart to name cells
            volume *= std::max(high[a] - low[a], 1e-300);
        }
        double cell = std::max(longest / 4.0, std::pow(volume / double(L.n), 1.0 / D));
        if (!(cell > 0.0) || !std::isfinite(cell)) cell = std::max(longest, 1.0);
        for (;; cell *= 2.0) {
            double cells = 1.0;
            for (int a = 0; a < D; ++a) cells *= std::floor((high[a] - low[a]) / cell) + 1.0;
            if (cells <= CELLS_PER_OBJECT * double(L.n) + 64.0) break;
        }
        P.cell = cell;
        P.inv = 1.0 / cell;
        std::ptrdiff_t n_cells = 1;
        for (int a = 0; a < D; ++a) {
            P.origin[a] = low[a];
            const double size = double(floor_int(in_cells(P, a, high[a]))) + 1.0;
            if (!(size >= 1.0 && size < 1e9)) return false;
            P.size[a] = int64_t(size);
            P.span[a] = 0;
            n_cells *= P.size[a];
        }
        // Each object's cell (x fastest), counted per cell, then the objects
        // in cell order: ids first, then the shapes, whose scattered loads can
        // be prefetched once the order is known.
        P.home.resize(L.n);
        P.cell_start.assign(n_cells + 1, 0);
        for (std::ptrdiff_t j = 0; j < L.n; ++j) {
            double box[2 * D];
            box_of<D>(in.body + NUMBERS * std::ptrdiff_t(L.members[j]), box);
            int64_t index = 0;
            for (int a = D - 1; a >= 0; --a) {
                // Within 0 .. size - 1, as the corners lie within low .. high.
                const int64_t home = floor_int(in_cells(P, a, box[a]));
                const int64_t reach = floor_int(in_cells(P, a, box[D + a])) - home;
                P.span[a] = int32_t(std::max<int64_t>(P.span[a], reach));
                index = index * P.size[a] + home;
            }
            P.home[j] = int32_t(index);
            ++P.cell_start[index + 1];
        }
        for (std::ptrdiff_t k = 0; k < n_cells; ++k) P.cell_start[k + 1] += P.cell_start[k];
        P.ids.resize(L.n);
        for (std::ptrdiff_t j = 0; j < L.n; ++j) P.ids[P.cell_start[P.home[j]]++] = L.members[j];
        for (std::ptrdiff_t k = n_cells; k > 0; --k) P.cell_start[k] = P.cell_start[k - 1];
        P.cell_start[0] = 0;
        P.shapes.resize(NUMBERS * L.n);
        P.circles = 0;
        for (std::ptrdiff_t u = 0; u < L.n; ++u) {
            if (u + PREFETCH_AHEAD < L.n)
                __builtin_prefetch(in.body + NUMBERS * std::ptrdiff_t(P.ids[u + PREFETCH_AHEAD]));
            const double* s = in.body + NUMBERS * std::ptrdiff_t(P.ids[u]);
            double* to = &P.shapes[NUMBERS * u];
            for (int a = 0; a < NUMBERS; ++a) to[a] = s[a];
            P.circles += is_circle<D>(s);
        }
        return true;
    }
};

}  // namespace spatial_hash
