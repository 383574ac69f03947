// The uniform grid's pair pass while no object of its table covers more than
// two cells a side. Each frame lays the table's objects out in cell order (a
// counting sort of their ids by home cell, cell_order.hpp, then a copy of
// their shapes, circles as centre and radius alone while all are circles,
// which reads memory scattered and so takes the threads), then each occupied cell
// tests its own objects against the rest of its cell and the objects of its
// forward half neighbourhood: the next cell of its row and the three cells
// around it in the next row (in 3D, the 13 cells of the forward half shell),
// in one pass over contiguous memory. Two objects whose cell ranges meet have homes
// at most one cell apart on each axis, so each such pair is met exactly
// once, from one side, however the table wraps the world (it is at least
// four cells a side).
//
// The search visits only the occupied cells, which the sort lists, and tests
// circles (spheres) by distance, their boxes after: circles_touch in halves.
//
// The pass tests the shapes alone: shapes that touch have boxes that meet,
// so their cell ranges meet too, and objects that only share a table cell by
// wrapping are far apart. How many candidates' ranges meet (the grid's
// narrow_phase_checks) is counted only when asked (count_meetings), from
// the ranges of the shapes the pass copied, which the caller places again: a
// frame at a million objects spends a sixth of its time less without
// copying them. A pass that keeps every candidate (keep_all) copies the
// ranges and tests them.
//
// Threads take chunks of objects (the copy) and then chunks of occupied
// cells (the search) in turn. Each chunk's pairs are kept apart and joined in
// chunk order, so the result does not depend on how many threads ran or
// which took what. The buffers live from frame to frame: a frame allocates
// only when the table or the pairs outgrow them.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <vector>

#include "cell_order.hpp"
#include "layout.hpp"
#include "narrow_phase.hpp"
#include "threads.hpp"

namespace spatial_hash {

template <int D>
class CellPairs {
  public:
    static constexpr int NUMBERS = 2 * D;
    // Work a thread takes at a time.
    static constexpr std::ptrdiff_t CHUNK_OBJECTS = 4096;
    static constexpr std::ptrdiff_t CHUNK_CELLS = 4096;
    static constexpr std::ptrdiff_t PREFETCH_AHEAD = 16;

    // Every pair of the table's objects whose shapes touch and whose filters
    // pass (with keep_all, every pair whose cell ranges meet and whose filters
    // pass); 0, or -1 if out of memory.
    int run(const TableInput<D>& in) noexcept {
        expect_table(in);
        try {
            cells_.order(in);
            n_ = cells_.size();
            filtered_ = in.filter != nullptr;
            if (in.keep_all) at_least(range_, std::size_t(n_));
            if (filtered_) at_least(filter_, std::size_t(n_));
            const int workers = n_ < PARALLEL_WORK ? 1 : std::max(1, in.threads);
            // Laid out as at the last pass, and again the other way when the
            // shapes are no longer (or are now) all circles.
            std::ptrdiff_t circles = copy_all(in, workers);
            if (all_circles_ != (circles == n_)) {
                all_circles_ = !all_circles_;
                circles = copy_all(in, workers);
            }
            if (all_circles_) search_shapes<CIRCLES>(in, workers);
            else if (circles == 0) search_shapes<BOXES>(in, workers);
            else search_shapes<MIXED>(in, workers);
            return 0;
        } catch (const std::bad_alloc&) {
            n_pairs_ = n_ = 0;
            cells_.forget();
            return -1;
        }
    }

    std::ptrdiff_t n_pairs() const noexcept { return n_pairs_; }
    // The last pass's pairs into `out` (room for n_pairs()): two ids a pair,
    // the smaller first, the chunks' pairs in chunk order.
    void write_pairs(int32_t* out) const noexcept {
        const int32_t* id = cells_.ids();
        for (const Chunk& k : chunks_) {
            const int32_t* found = &found_[k.worker][2 * k.first];
            for (std::ptrdiff_t p = 0; p < 2 * k.count; p += 2) {
                const int32_t a = id[found[p]], b = id[found[p + 1]];
                out[p] = a < b ? a : b;
                out[p + 1] = a < b ? b : a;
            }
            out += 2 * k.count;
        }
    }
    // How many objects the last pass packed, and the shape of the k-th in
    // cell order, into `out` (2 * D numbers, as the core keeps shapes).
    std::ptrdiff_t packed_n() const noexcept { return n_; }
    void packed_shape(std::ptrdiff_t k, double* out) const noexcept {
        const double* shape = &shape_[std::size_t(k) * stride()];
        for (int a = 0; a < NUMBERS; ++a)
            out[a] = a < stride() ? shape[a] : std::numeric_limits<double>::quiet_NaN();
    }

    // Of the last pass's candidates, how many have cell ranges that meet and
    // filters that pass, `ranges` being those of the packed shapes (packed_shape).
    std::ptrdiff_t count_meetings(const CellSpan<D>* ranges) const noexcept {
        std::ptrdiff_t met = 0;
        cells_.for_each_run([&](std::ptrdiff_t u, std::ptrdiff_t v0, std::ptrdiff_t v1) {
            for (std::ptrdiff_t v = v0; v < v1; ++v)
                met += ranges_meet(ranges[u], ranges[v]) & (!filtered_ || filters_pass(u, v));
        });
        return met;
    }

  private:
    enum Shapes { CIRCLES, BOXES, MIXED };

    struct Chunk {
        int worker;
        std::ptrdiff_t first, count;    // its pairs in the worker's buffer
    };

    CellOrder<D> cells_;                // the table's objects in cell order
    std::vector<double> shape_;         // the shapes in cell order; circles alone as center and radius
    bool all_circles_ = true;           // ... which the last pass's all were
    std::vector<CellSpan<D>> range_;    // copied for keep_all only
    std::vector<LayerFilter> filter_;   // filled while some object has a filter of its own
    std::vector<std::vector<int32_t>> found_;   // per worker: its chunks' pairs, as packed indices
    std::vector<Chunk> chunks_;
    std::ptrdiff_t n_pairs_ = 0, n_ = 0;    // pairs found, objects packed
    bool filtered_ = false;

    // Numbers a packed shape takes: a circle's center and radius, or a shape
    // as the core keeps it.
    static constexpr int CIRCLE_NUMBERS = D + 1;
    int stride() const noexcept { return all_circles_ ? CIRCLE_NUMBERS : NUMBERS; }

    static int ranges_meet(const CellSpan<D>& a, const CellSpan<D>& b) {
        int meet = 1;
        for (int k = 0; k < D; ++k) meet &= (a.lo[k] <= b.hi[k]) & (b.lo[k] <= a.hi[k]);
        return meet;
    }

    int filters_pass(std::ptrdiff_t u, std::ptrdiff_t v) const {
        const LayerFilter &f = filter_[u], &g = filter_[v];
        return (((f.mask & g.layer) | (g.mask & f.layer)) != 0) & !(f.is_static & g.is_static);
    }

    // Every packed object takes its shape, laid out as stride() says, and its
    // filter (and for keep_all its range); returns how many are circles. The
    // copy reads the shapes scattered: the time goes in waiting for memory,
    // which threads wait for side by side.
    std::ptrdiff_t copy_all(const TableInput<D>& in, int workers) {
        at_least(shape_, std::size_t(n_ * stride()));
        const std::ptrdiff_t n_chunks = (n_ + CHUNK_OBJECTS - 1) / CHUNK_OBJECTS;
        std::atomic<std::ptrdiff_t> next(0), circles(0);
        in_parallel(workers, [&](int) {
            for (std::ptrdiff_t k; (k = next.fetch_add(1)) < n_chunks;) {
                const std::ptrdiff_t k0 = k * CHUNK_OBJECTS, k1 = std::min(n_, k0 + CHUNK_OBJECTS);
                circles += all_circles_ ? copy<CIRCLE_NUMBERS>(in, k0, k1) : copy<NUMBERS>(in, k0, k1);
            }
        });
        return circles;
    }

    // copy_all's work for packed objects k0 .. k1-1, STRIDE numbers a shape
    // (laid out as circles, a shape that is not one only counts against
    // them, and the pass copies again).
    template <int STRIDE>
    std::ptrdiff_t copy(const TableInput<D>& in, std::ptrdiff_t k0, std::ptrdiff_t k1) {
        std::ptrdiff_t circles = 0;
        const int32_t* id = cells_.ids();
        for (std::ptrdiff_t k = k0; k < k1; ++k) {
            if (k + PREFETCH_AHEAD < k1) {
                __builtin_prefetch(&in.body[std::size_t(id[k + PREFETCH_AHEAD]) * NUMBERS]);
                if (in.keep_all) __builtin_prefetch(&in.range[id[k + PREFETCH_AHEAD]]);
            }
            const double* body = &in.body[std::size_t(id[k]) * NUMBERS];
            std::memcpy(&shape_[std::size_t(k) * STRIDE], body, sizeof(double) * STRIDE);
            if (in.keep_all) range_[k] = in.range[id[k]];
            if (in.filter) filter_[k] = in.filter[id[k]];
            circles += is_circle<D>(body);
        }
        return circles;
    }

    // Packed object u against packed objects v0 .. v1-1: keeps (u, v) at
    // pairs[2 * kept] where their shapes touch (circles: are near enough; with
    // KEEP_ALL, where their ranges meet) and their filters pass, without a
    // branch on the data; returns the new kept. pairs has room for v1 - v0.
    template <int SHAPES, bool FILTERED, bool KEEP_ALL>
    std::ptrdiff_t test_run(std::ptrdiff_t u, std::ptrdiff_t v0, std::ptrdiff_t v1, int32_t* pairs,
                            std::ptrdiff_t kept) const {
        constexpr std::size_t STRIDE = SHAPES == CIRCLES ? CIRCLE_NUMBERS : NUMBERS;
        const double* shape = &shape_[std::size_t(u) * STRIDE];
        double box[2 * D];
        if (SHAPES == MIXED && !KEEP_ALL) box_of<D>(shape, box);
        for (std::ptrdiff_t v = v0; v < v1; ++v) {
            int keep;
            if (KEEP_ALL) keep = ranges_meet(range_[u], range_[v]);
            else if (SHAPES == CIRCLES) keep = circles_overlap<D>(shape, &shape_[v * STRIDE]);
            else if (SHAPES == BOXES) keep = boxes_touch<D>(shape, &shape_[std::size_t(v) * NUMBERS]);
            else keep = shapes_touch<D>(shape, box, &shape_[std::size_t(v) * NUMBERS]);
            if (FILTERED) keep &= filters_pass(u, v);
            pairs[2 * kept] = int32_t(u);
            pairs[2 * kept + 1] = int32_t(v);
            kept += keep;
        }
        return kept;
    }

    // Of worker w's pairs first .. end-1, keeps (in order) those whose circles'
    // boxes meet, on shapes the search has just read; returns the new end.
    std::ptrdiff_t keep_meeting_boxes(int w, std::ptrdiff_t first, std::ptrdiff_t end) {
        int32_t* pairs = found_[w].data();
        const double* shape = shape_.data();
        std::ptrdiff_t kept = first;
        for (std::ptrdiff_t p = first; p < end; ++p) {
            const int32_t u = pairs[2 * p], v = pairs[2 * p + 1];
            pairs[2 * kept] = u;
            pairs[2 * kept + 1] = v;
            kept += circle_boxes_meet<D>(&shape[std::size_t(u) * CIRCLE_NUMBERS],
                                         &shape[std::size_t(v) * CIRCLE_NUMBERS]);
        }
        return kept;
    }

    // Occupied cells k0 .. k1-1 (of the list) into worker w's buffer from
    // `kept` pairs on; returns the buffer's new count.
    template <int SHAPES, bool FILTERED, bool KEEP_ALL>
    std::ptrdiff_t search_cells(int w, std::ptrdiff_t k0, std::ptrdiff_t k1, std::ptrdiff_t kept) {
        std::vector<int32_t>& found = found_[w];
        typename CellOrder<D>::Cell cell;
        for (std::ptrdiff_t k = k0; k < k1; ++k) {
            cells_.occupied_cell(k, cell);
            at_least(found, std::size_t(2 * (kept + cell.most_pairs())));    // room to keep them all
            int32_t* pairs = found.data();
            cell.each_run([&](std::ptrdiff_t u, std::ptrdiff_t v0, std::ptrdiff_t v1) {
                kept = test_run<SHAPES, FILTERED, KEEP_ALL>(u, v0, v1, pairs, kept);
            });
        }
        return kept;
    }

    // The pairs, in chunks of cells that the workers take in turn, then joined
    // in chunk order as ids.
    template <int SHAPES, bool FILTERED, bool KEEP_ALL>
    void search(int workers) {
        const std::ptrdiff_t n_chunks = (cells_.n_occupied() + CHUNK_CELLS - 1) / CHUNK_CELLS;
        chunks_.assign(std::size_t(n_chunks), Chunk{0, 0, 0});
        at_least(found_, std::size_t(workers));
        std::atomic<std::ptrdiff_t> next(0);
        std::atomic<bool> failed(false);
        in_parallel(workers, [&](int w) {
            std::ptrdiff_t kept = 0;
            try {
                for (std::ptrdiff_t k; (k = next.fetch_add(1)) < n_chunks;) {
                    const std::ptrdiff_t k0 = k * CHUNK_CELLS, k1 = std::min(k0 + CHUNK_CELLS, cells_.n_occupied());
                    std::ptrdiff_t end = search_cells<SHAPES, FILTERED, KEEP_ALL>(w, k0, k1, kept);
                    if (SHAPES == CIRCLES && !KEEP_ALL) end = keep_meeting_boxes(w, kept, end);
                    chunks_[k] = Chunk{w, kept, end - kept};
                    kept = end;
                }
            } catch (const std::bad_alloc&) {
                failed = true;
                next = n_chunks;        // the others stop too
            }
        });
        if (failed) throw std::bad_alloc();
        n_pairs_ = 0;
        for (const Chunk& k : chunks_) n_pairs_ += k.count;
    }

    template <int SHAPES>
    void search_shapes(const TableInput<D>& in, int workers) {
        if (in.filter) {
            if (in.keep_all) search<SHAPES, true, true>(workers);
            else search<SHAPES, true, false>(workers);
        } else {
            if (in.keep_all) search<SHAPES, false, true>(workers);
            else search<SHAPES, false, false>(workers);
        }
    }
};

}  // namespace spatial_hash
