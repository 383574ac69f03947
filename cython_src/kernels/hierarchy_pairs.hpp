// The hierarchical grid's pair pass. Each level's objects are laid out in
// cell order (level_order.hpp); the pairs within a level are
// found by looking back over half of each cell's neighbourhood, and each
// object meets the coarser levels only (never downward). The levels'
// occupied cells are cut into chunks, whatever the thread count, which the
// threads take in turn; each chunk's pairs are kept apart and joined in chunk
// order, so the result does not depend on how many threads ran or which took
// what. The buffers live from pass to pass.
//
// A coarser level with more objects in finer levels than its own gets a
// cover (level_order.hpp): a finer object whose sub-cells it leaves clear can
// meet none of the level's objects, so its upward search skips the level.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <new>
#include <vector>

#include "floor.hpp"
#include "layout.hpp"
#include "level_order.hpp"
#include "narrow_phase.hpp"
#include "threads.hpp"

namespace spatial_hash {

template <int D>
struct HierarchyInput {
    const double* body;         // per id: its shape, 2 * D numbers
    const int32_t* next;        // per id: the next object on its cell's list, -1 at its end
    const Filter* filter;       // per id; nullptr while every object has the default
    const PairLevel* levels;    // by ascending cell size
    int n_levels;
    bool keep_all;              // keep every pair tested
    int threads;
};

template <int D>
class HierarchyPairs {
  public:
    static constexpr std::ptrdiff_t LEVEL_CHUNKS = 32;  // a level's search in this many chunks at most
    static constexpr int UPWARD_GROUP = 8;             // coarser levels searched in one pass over a chunk

    // Every pair of objects whose shapes touch and whose filters pass (with
    // keep_all, every pair tested whose filters pass); 0, or -1 if out of memory.
    int run(const HierarchyInput<D>& in) noexcept {
        SH_EXPECT(in.n_levels >= 0 && (in.n_levels == 0 || (in.levels && in.body && in.next)));
        n_chunks_ = n_pairs_ = tested_ = filtered_out_ = 0;
        filtered_ = in.filter != nullptr;
        keep_all_ = in.keep_all;
        try {
            at_least(levels_, std::size_t(in.n_levels));
            std::ptrdiff_t finer = 0;
            for (int r = 0; r < in.n_levels; ++r) {
                OrderedLevel<D>& M = levels_[r];
                M.order(in.levels[r], in.next, in.body, in.filter, in.threads);
                // A cover costs a few bits per object of its level and saves a window
                // search per finer object it turns away: built only where those are many.
                if (M.level.n && finer >= M.level.n) M.make_cover();
                finer += M.level.n;
                if (M.level.n) add_chunks(r);
            }
            search(in, finer);
            return 0;
        } catch (const std::bad_alloc&) {
            n_chunks_ = n_pairs_ = tested_ = filtered_out_ = 0;
            return -1;
        }
    }

    std::ptrdiff_t n_pairs() const noexcept { return n_pairs_; }
    // Candidates tested (the grid's broad_phase_pairs), and of those, how
    // many were turned away by their filters.
    std::ptrdiff_t tested() const noexcept { return tested_; }
    std::ptrdiff_t filtered_out() const noexcept { return filtered_out_; }
    // The last pass's pairs into `out` (room for n_pairs()), in chunk order.
    void write_pairs(int32_t* out) const noexcept {
        for (std::ptrdiff_t k = 0; k < n_chunks_; ++k) {
            std::copy_n(chunks_[k].found.data(), 2 * chunks_[k].n_found, out);
            out += 2 * chunks_[k].n_found;
        }
    }

  private:
    struct Chunk {              // a stretch of one level's occupancy words, and what its search found
        int rank;               // the level's place by size
        std::ptrdiff_t w0, w1;
        std::vector<int32_t> found;         // two ids a pair
        std::ptrdiff_t n_found, tested, filtered_out;
        std::vector<std::ptrdiff_t> passed; // the upward search's objects each coarser level's cover let through
    };

    std::vector<OrderedLevel<D>> levels_;
    std::vector<Chunk> chunks_;             // never shrinks: their buffers are kept
    std::ptrdiff_t n_chunks_ = 0, n_pairs_ = 0, tested_ = 0, filtered_out_ = 0;
    bool filtered_ = false, keep_all_ = false;

    // Level r's occupancy words in min(words, LEVEL_CHUNKS) chunks.
    void add_chunks(int r) {
        const std::ptrdiff_t words = levels_[r].words(), pieces = std::min(words, LEVEL_CHUNKS);
        if (std::ptrdiff_t(chunks_.size()) < n_chunks_ + pieces) chunks_.resize(std::size_t(n_chunks_ + pieces));
        for (std::ptrdiff_t k = 0; k < pieces; ++k) {
            Chunk& c = chunks_[n_chunks_++];
            c.rank = r;
            c.w0 = words * k / pieces;
            c.w1 = words * (k + 1) / pieces;
        }
    }

    // The chunks on the threads (`live` objects in all), then their counts summed.
    void search(const HierarchyInput<D>& in, std::ptrdiff_t live) {
        std::atomic<std::ptrdiff_t> next(0);
        std::atomic<bool> failed(false);
        in_parallel(workers_for(in.threads, live, n_chunks_), [&](int) {
            try {
                for (std::ptrdiff_t k; (k = next.fetch_add(1)) < n_chunks_;) chunk_pairs(chunks_[k], in.n_levels);
            } catch (const std::bad_alloc&) {
                failed = true;
                next = n_chunks_;       // the others stop too
            }
        });
        if (failed) throw std::bad_alloc();
        for (std::ptrdiff_t k = 0; k < n_chunks_; ++k) {
            n_pairs_ += chunks_[k].n_found;
            tested_ += chunks_[k].tested;
            filtered_out_ += chunks_[k].filtered_out;
        }
    }

    // Object u of level L (its shape and box) against M's packed objects
    // v .. end-1 whose filters pass with its own, keeping in `out` the pairs
    // that touch (all of them, with keep_all); counts the candidates tested.
    template <bool FILTERED>
    void test_run(const OrderedLevel<D>& L, std::ptrdiff_t u, const double* box, const OrderedLevel<D>& M, std::ptrdiff_t v,
                  std::ptrdiff_t end, Chunk& out) const {
        if (end <= v) return;
        out.tested += end - v;
        at_least(out.found, std::size_t(2 * (out.n_found + end - v)));
        int32_t* pairs = out.found.data();
        const double* shape = L.shape_of(u);
        const int32_t a = L.id[u];
        std::ptrdiff_t kept = out.n_found;
        for (; v < end; ++v) {
            if (FILTERED && !filters_pass(&L.filter[u], &M.filter[v])) {
                ++out.filtered_out;
                continue;
            }
            const int32_t b = M.id[v];
            pairs[2 * kept] = a < b ? a : b;
            pairs[2 * kept + 1] = a < b ? b : a;
            kept += shapes_touch<D>(shape, box, M.shape_of(v)) | keep_all_;
        }
        out.n_found = kept;
    }

    void chunk_pairs(Chunk& out, int n_levels) {
        out.n_found = out.tested = out.filtered_out = 0;
        if (filtered_) chunk_pairs<true>(out, n_levels);
        else chunk_pairs<false>(out, n_levels);
    }

    // The pairs of the objects in one chunk of one level's occupied cells:
    // within the level the rest of each cell and the half of its
    // neighbourhood behind it (in 3D the nine cells of the layer below; the
    // three cells of the row above, the cell to the left), so each pair of
    // cells meets once (the table is at least 16 cells a side, so no two of a
    // cell's neighbours are one cell); then across levels, upward only,
    // UPWARD_GROUP coarser levels at a time.
    template <bool FILTERED>
    void chunk_pairs(Chunk& out, int n_levels) {
        const OrderedLevel<D>& L = levels_[out.rank];
        if (out.w0 >= out.w1) return;
        std::ptrdiff_t behind[20];
        double box[2 * D];
        std::ptrdiff_t nth = L.word_rank[out.w0];     // this chunk's first occupied cell
        for (std::ptrdiff_t w = out.w0; w < out.w1; ++w) {
            for (uint64_t word = L.level.occupied[w]; word; word &= word - 1) {
                const int64_t c = (int64_t(w) << 6) | __builtin_ctzll(word);
                const std::ptrdiff_t start = L.cell_start[nth], end = L.cell_start[nth + 1];
                ++nth;
                const int64_t x = c & L.mask, y = (c >> L.level.wbits) & L.mask, z = c >> (2 * L.level.wbits);
                int n_behind = 0;
                if (D == 3)
                    for (int k = -1; k <= 1; ++k) n_behind += L.row_runs(x - 1, x + 1, y + k, z - 1, behind + n_behind);
                n_behind += L.row_runs(x - 1, x + 1, y - 1, z, behind + n_behind);
                n_behind += L.row_runs(x - 1, x - 1, y, z, behind + n_behind);
                for (std::ptrdiff_t u = start; u < end; ++u) {
                    box_of<D>(L.shape_of(u), box);
                    test_run<FILTERED>(L, u, box, L, u + 1, end, out);
                    for (int k = 0; k < n_behind; k += 2) test_run<FILTERED>(L, u, box, L, behind[k], behind[k + 1], out);
                }
            }
        }
        const std::ptrdiff_t start = L.cell_start[L.word_rank[out.w0]], end = L.cell_start[L.word_rank[out.w1]];
        const OrderedLevel<D>* ups[UPWARD_GROUP];
        int n_up = 0;
        for (int up = out.rank + 1; up < n_levels; ++up) {
            if (levels_[up].level.n) ups[n_up++] = &levels_[up];
            if (n_up == UPWARD_GROUP || (n_up && up == n_levels - 1)) {
                upward_pairs<FILTERED>(L, start, end, ups, n_up, out);
                n_up = 0;
            }
        }
    }

    // L's packed objects start .. end-1 against the coarser levels ups: each
    // object against the objects of the cells that can reach it, unless the
    // level's cover says none can. Two passes: the cheap cover test of every
    // object and level, noting the objects that pass for each level; then
    // their searches, level by level.
    template <bool FILTERED>
    void upward_pairs(const OrderedLevel<D>& L, std::ptrdiff_t start, std::ptrdiff_t end, const OrderedLevel<D>* const* ups, int n_up,
                      Chunk& out) const {
        const std::ptrdiff_t n = end - start;
        at_least(out.passed, std::size_t(n * n_up));
        std::ptrdiff_t n_passed[UPWARD_GROUP] = {};
        std::ptrdiff_t* passed_of = out.passed.data();
        double box[2 * D];
        CoverView<D> covers[UPWARD_GROUP];
        for (int m = 0; m < n_up; ++m) covers[m] = CoverView<D>::of(*ups[m]);
        for (std::ptrdiff_t u = start; u < end; ++u) {
            box_of<D>(L.shape_of(u), box);
            for (int m = 0; m < n_up; ++m) {
                passed_of[m * n + n_passed[m]] = u;
                n_passed[m] += covers[m].lets_through(box);
            }
        }
        std::ptrdiff_t runs[4];
        int64_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
        for (int m = 0; m < n_up; ++m) {
            const OrderedLevel<D>& M = *ups[m];
            // M's objects reach at most M.reach past their cell's corner (padded
            // for the shaved sides and rounding).
            const double pad = M.level.reach * 1.001;
            const int64_t side = M.mask + 1;
            // Not passed[m * n]: a chunk of no objects may have no buffer.
            const std::ptrdiff_t* passed = out.passed.data() + m * n;
            for (std::ptrdiff_t j = 0; j < n_passed[m]; ++j) {
                const std::ptrdiff_t u = passed[j];
                box_of<D>(L.shape_of(u), box);
                for (int a = 0; a < D; ++a) {
                    lo[a] = floor_int((box[a] - pad) * M.level.inv);
                    hi[a] = std::min(floor_int(box[D + a] * M.level.inv), lo[a] + side - 1);
                }
                for (int64_t uz = lo[2]; uz <= hi[2]; ++uz)
                    for (int64_t uy = lo[1]; uy <= hi[1]; ++uy) {
                        const int n_runs = M.row_runs(lo[0], hi[0], uy, uz, runs);
                        for (int k = 0; k < n_runs; k += 2) test_run<FILTERED>(L, u, box, M, runs[k], runs[k + 1], out);
                    }
            }
        }
    }
};

}  // namespace spatial_hash
