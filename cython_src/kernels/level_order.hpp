// One level of the hierarchical grid laid out in cell order for its pair pass
// (hierarchy_pairs.hpp): its ids from the cells' lists, then its shapes,
// which reads memory scattered and so takes the threads; and, where the pass
// asks for it, its cover: one bit per sub-cell (COVER_SPLIT per cell side,
// wrapped into a table of 1 << cover_bits a side) set where one of its
// objects' boxes reaches. A finer object whose sub-cells are all clear can
// meet none of the level's objects.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <vector>

#include "floor.hpp"
#include "layout.hpp"
#include "narrow_phase.hpp"
#include "threads.hpp"

namespace spatial_hash {

// One level of the hierarchical grid as its pair pass reads it.
struct PairLevel {
    const int32_t* head;        // per cell: the first object of its list, -1 if empty
    const uint64_t* occupied;   // one bit per cell, and one more word, zero
    std::ptrdiff_t n;           // its objects
    int wbits;                  // the table is (1 << wbits) cells a side
    double inv;                 // 1 / its cell size: every cell coordinate is floor(x * inv)
    double reach;               // none of its objects reaches farther past its cell's corner
};

// Threads for a loop over n objects in `chunks` pieces.
inline int workers_for(int threads, std::ptrdiff_t n, std::ptrdiff_t chunks) {
    return n < PARALLEL_WORK ? 1 : int(std::max<std::ptrdiff_t>(1, std::min<std::ptrdiff_t>(threads, chunks)));
}

// Sub-cell (sx, sy, sz)'s bit in a cover of 1 << shift sub-cells a side, wrapped.
inline int64_t cover_index(int shift, int64_t sx, int64_t sy, int64_t sz) {
    const int64_t m = (int64_t(1) << shift) - 1;
    return ((((sz & m) << shift) | (sy & m)) << shift) | (sx & m);
}

template <int D>
struct OrderedLevel {
    static constexpr int NUMBERS = 2 * D;
    static constexpr int COVER_SPLIT = 32 >> D;        // sub-cells per cell side: as many per object in 3D as in 2D
    static constexpr std::ptrdiff_t COVER_BITS_PER_OBJECT = 512;    // sparse enough that wrapping seldom aliases
    static constexpr int COVER_MAX_BITS = 24 / D;      // at most 2**24 sub-cells (2 MB) per level
    static constexpr std::ptrdiff_t PACK_CHUNK = 2048;
    static constexpr std::ptrdiff_t PREFETCH_AHEAD = 24;

    PairLevel level;
    int64_t mask;               // (1 << wbits) - 1
    std::vector<double> shape;  // NUMBERS per object
    std::vector<int32_t> id;
    std::vector<Filter> filter; // filled while some object has a filter of its own
    // The objects of cells c0 .. c1 are id[run_begin(c0) : run_begin(c1 + 1)],
    // run_begin(c) being cell_start at the number of occupied cells before c;
    // word_rank[w] counts the occupied cells before occupancy word w, so that
    // number is a popcount away however sparse the table.
    std::vector<int32_t> cell_start;
    std::vector<uint32_t> word_rank;
    std::vector<uint64_t> cover;
    int cover_bits = 0;         // 0: no cover
    double cover_inv = 0;

    std::ptrdiff_t words() const { return (std::ptrdiff_t(1) << (D * level.wbits)) >> 6; }
    std::ptrdiff_t run_begin(int64_t c) const {
        const int64_t w = c >> 6;
        return cell_start[word_rank[w] + __builtin_popcountll(level.occupied[w] & ((uint64_t(1) << (c & 63)) - 1))];
    }
    // The runs of objects in cells x0 .. x1 of row (y, z) (layout.hpp).
    int row_runs(int64_t x0, int64_t x1, int64_t y, int64_t z, std::ptrdiff_t* runs) const {
        return spatial_hash::row_runs([this](int64_t c) { return run_begin(c); }, level.wbits, x0, x1, y, z, runs);
    }
    const double* shape_of(std::ptrdiff_t k) const { return &shape[std::size_t(k) * NUMBERS]; }

    // The level's ids, cell starts and word ranks from its cells' lists
    // (`next` per id), then its shapes (`body`) and filters (unless nullptr)
    // in that order, on up to `threads` threads.
    void order(const PairLevel& L, const int32_t* next, const double* body, const Filter* filters, int threads) {
        SH_EXPECT(L.n >= 0 && L.wbits >= 2 && D * L.wbits <= 30);
        level = L;
        mask = (int64_t(1) << L.wbits) - 1;
        cover_bits = 0;
        SH_EXPECT(L.occupied[words()] == 0);
        if (L.n == 0) return;
        at_least(word_rank, std::size_t(words() + 1));
        at_least(cell_start, std::size_t(L.n + 1));
        at_least(id, std::size_t(L.n));
        at_least(shape, std::size_t(L.n * NUMBERS));
        if (filters) at_least(filter, std::size_t(L.n));
        std::ptrdiff_t k = 0, count = 0;
        for (std::ptrdiff_t w = 0; w < words(); ++w) {
            word_rank[w] = uint32_t(count);
            for (uint64_t bits = L.occupied[w]; bits; bits &= bits - 1) {
                const int64_t c = (int64_t(w) << 6) | __builtin_ctzll(bits);
                cell_start[count++] = int32_t(k);
                for (int32_t a = L.head[c]; a >= 0; a = next[a]) id[k++] = a;
            }
        }
        SH_EXPECT(k == L.n);
        word_rank[words()] = uint32_t(count);
        cell_start[count] = int32_t(k);
        const std::ptrdiff_t n_chunks = (L.n + PACK_CHUNK - 1) / PACK_CHUNK;
        std::atomic<std::ptrdiff_t> taken(0);
        in_parallel(workers_for(threads, L.n, n_chunks), [&](int) {
            for (std::ptrdiff_t j; (j = taken.fetch_add(1)) < n_chunks;)
                copy_shapes(body, filters, j * PACK_CHUNK, std::min(L.n, (j + 1) * PACK_CHUNK));
        });
    }

    // Its cover bits: every sub-cell each of its objects' boxes overlaps.
    void make_cover() {
        int bits = 6 / D;
        while ((std::ptrdiff_t(1) << (D * bits)) < COVER_BITS_PER_OBJECT * level.n && bits < COVER_MAX_BITS) ++bits;
        cover_bits = bits;
        cover_inv = level.inv * COVER_SPLIT;
        const std::ptrdiff_t n_words = (std::ptrdiff_t(1) << (D * bits)) >> 6;
        at_least(cover, std::size_t(n_words));
        std::fill(cover.begin(), cover.begin() + n_words, 0);
        int64_t s0[3] = {0, 0, 0}, s1[3] = {0, 0, 0};
        double box[2 * D];
        for (std::ptrdiff_t k = 0; k < level.n; ++k) {
            box_of<D>(shape_of(k), box);
            for (int a = 0; a < D; ++a) {
                s0[a] = floor_int(box[a] * cover_inv);
                // A box wider than the table sets every column: clip, not wrap twice.
                s1[a] = std::min(floor_int(box[D + a] * cover_inv), s0[a] + (int64_t(1) << bits) - 1);
            }
            for (int64_t sz = s0[2]; sz <= s1[2]; ++sz)
                for (int64_t sy = s0[1]; sy <= s1[1]; ++sy)
                    for (int64_t sx = s0[0]; sx <= s1[0]; ++sx) {
                        const int64_t b = cover_index(bits, sx, sy, sz);
                        cover[b >> 6] |= uint64_t(1) << (b & 63);
                    }
        }
    }

  private:
    void copy_shapes(const double* body, const Filter* filters, std::ptrdiff_t k0, std::ptrdiff_t k1) {
        for (std::ptrdiff_t k = k0; k < k1; ++k) {
            if (k + PREFETCH_AHEAD < k1) __builtin_prefetch(&body[std::size_t(id[k + PREFETCH_AHEAD]) * NUMBERS]);
            std::memcpy(&shape[std::size_t(k) * NUMBERS], &body[std::size_t(id[k]) * NUMBERS], sizeof(double) * NUMBERS);
            if (filters) filter[k] = filters[id[k]];
        }
    }
};

// A level's cover as the upward search reads it, copied where no write of
// the search can alias it.
template <int D>
struct CoverView {
    static constexpr int64_t COVER_CHECKS = 16;        // an object over more sub-cells is let through untested

    const uint64_t* bits = nullptr;     // nullptr: the level has no cover
    double inv = 0;
    int shift = 0;

    static CoverView of(const OrderedLevel<D>& M) {
        return CoverView{M.cover_bits ? M.cover.data() : nullptr, M.cover_inv, M.cover_bits};
    }

    uint64_t bit(int64_t sx, int64_t sy, int64_t sz) const {
        const int64_t b = cover_index(shift, sx, sy, sz);
        return (bits[b >> 6] >> (b & 63)) & 1;
    }

    // Does the cover let an object with this box through? Most finer objects
    // lie in one sub-cell.
    bool lets_through(const double* box) const {
        if (!bits) return true;
        int64_t s0[3] = {0, 0, 0}, s1[3] = {0, 0, 0};
        bool one = true;
        for (int a = 0; a < D; ++a) {
            s0[a] = floor_int(box[a] * inv);
            s1[a] = floor_int(box[D + a] * inv);
            one &= s0[a] == s1[a];
        }
        if (one) return bit(s0[0], s0[1], s0[2]);
        int64_t cells = 1;
        for (int a = 0; a < D; ++a) {
            const int64_t width = s1[a] - s0[a] + 1;
            if (width > COVER_CHECKS) return true;      // before the product could overflow
            cells *= width;
        }
        if (cells > COVER_CHECKS) return true;
        uint64_t hit = 0;
        for (int64_t sz = s0[2]; sz <= s1[2]; ++sz)
            for (int64_t sy = s0[1]; sy <= s1[1]; ++sy)
                for (int64_t sx = s0[0]; sx <= s1[0]; ++sx) hit |= bit(sx, sy, sz);
        return hit;
    }
};

}  // namespace spatial_hash
