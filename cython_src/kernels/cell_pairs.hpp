// The uniform grid's pair pass. Each frame lays the table's objects out in
// cell order (a counting sort of their ids by home cell, cell_order.hpp, then
// a copy of their shapes, circles as centre and radius alone while all are
// circles, which reads memory scattered and so takes the threads), then
// searches the occupied cells in one pass over contiguous memory, one of two
// ways.
//
// While no object of the table covers more than two cells a side, each
// occupied cell tests its own objects against the rest of its cell and the
// objects of its forward half neighbourhood: the next cell of its row and
// the three cells around it in the next row (in 3D, the 13 cells of the
// forward half shell). Two objects whose cell ranges meet have homes at most
// one cell apart on each axis, so each such pair is met exactly once, from
// one side, however the table wraps the world (it is at least four cells a
// side). The search tests the shapes alone: shapes that touch have boxes
// that meet, so their cell ranges meet too, and objects that only share a
// table cell by wrapping are far apart. Circles (spheres) are tested by
// distance, their boxes after: circles_touch in halves. How many candidates'
// ranges meet (the grid's narrow_phase_checks) is counted only when asked
// (count_candidates), from the ranges of the shapes the pass copied, which the
// caller places again: a frame at a million objects spends a sixth of its
// time less without copying them. A pass that keeps every candidate
// (keep_all) copies the ranges and tests them.
//
// Where objects cover more cells (the table's spans), the ranges are copied
// too and each object meets the homes of its window (CellOrder's
// each_window_run): first the pairs whose ranges meet and whose filters pass,
// without a branch per candidate (their count is narrow_phase_checks), then
// of those, the pairs whose shapes touch. The pass makes the spans exact
// again for the next.
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
            wide_ = false;
            for (int a = 0; a < D; ++a) {
                span_[a] = in.span[a];
                wide_ |= in.span[a] > 1;
            }
            with_ranges_ = in.keep_all || wide_;
            if (with_ranges_) at_least(range_, std::size_t(n_));
            if (filtered_) at_least(filter_, std::size_t(n_));
            const int workers = n_ < PARALLEL_WORK ? 1 : std::max(1, in.threads);
            // Laid out as at the last pass, and again the other way when the
            // shapes are no longer (or are now) all circles.
            std::ptrdiff_t circles = copy_all(in, workers);
            if (all_circles_ != (circles == n_)) {
                all_circles_ = !all_circles_;
                circles = copy_all(in, workers);
            }
            if (wide_) exact_homes_ = make_spans_exact(range_.data(), n_, cells_.side(), span_) && !filtered_;
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
    // The last pass's count of candidates whose ranges meet and whose filters
    // pass, or -1 where it is left to count_candidates.
    std::ptrdiff_t meetings() const noexcept { return wide_ ? meetings_ : -1; }
    // The spans the last pass searched with: made exact where they were wide.
    const int32_t* spans() const noexcept { return span_; }
    // The last pass's pairs into `out` (room for n_pairs()): two ids a pair,
    // the smaller first, the chunks' pairs in chunk order.
    void write_pairs(int32_t* out) const noexcept {
        const int32_t* id = cells_.ids();
        for (const Chunk& k : chunks_) {
            // Not found_[w][i]: a worker that met no candidate has no buffer.
            const int32_t* found = found_[k.worker].data() + 2 * k.first;
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

    // Of the last pass's candidates, `ranges` being those of its packed shapes
    // (packed_shape's, placed again): how many have ranges that meet and
    // filters that pass (the grid's narrow_phase_checks), and how many cells
    // the pairs whose ranges meet share, filters or not (its
    // broad_phase_pairs: over every cell, the pairs of ranges that cover it,
    // counted without listing the cells).
    void count_candidates(const CellRange<D>* ranges, std::ptrdiff_t& meetings, std::ptrdiff_t& shared) const noexcept {
        meetings = shared = 0;
        const auto count = [&](std::ptrdiff_t u, std::ptrdiff_t v0, std::ptrdiff_t v1) {
            for (std::ptrdiff_t v = v0; v < v1; ++v) {
                const std::ptrdiff_t cells = shared_cells(ranges[u], ranges[v]);
                shared += cells;
                meetings += (cells != 0) & (!filtered_ || filters_pass(u, v));
            }
        };
        if (!wide_) {
            cells_.for_each_run(count);
            return;
        }
        std::ptrdiff_t begin, end;
        for (std::ptrdiff_t k = 0; k < cells_.n_occupied(); ++k) {
            cells_.occupied_objects(k, begin, end);
            for (std::ptrdiff_t u = begin; u < end; ++u)
                cells_.each_window_run(u, end, ranges[u], span_,
                                       [&](std::ptrdiff_t v0, std::ptrdiff_t v1) { count(u, v0, v1); });
        }
    }

  private:
    struct Chunk {
        int worker;
        std::ptrdiff_t first, count;    // its pairs in the worker's buffer
        std::ptrdiff_t meetings;        // wide: its candidates whose ranges meet and filters pass
    };

    CellOrder<D> cells_;                // the table's objects in cell order
    std::vector<double> shape_;         // the shapes in cell order; circles alone as center and radius
    bool all_circles_ = true;           // ... which the last pass's all were
    std::vector<CellRange<D>> range_;   // copied for keep_all and wide tables only
    std::vector<Filter> filter_;        // filled while some object has a filter of its own
    std::vector<std::vector<int32_t>> found_;   // per worker: its chunks' pairs, as packed indices
    std::vector<Chunk> chunks_;
    std::ptrdiff_t n_pairs_ = 0, n_ = 0;    // pairs found, objects packed
    std::ptrdiff_t meetings_ = 0;
    bool filtered_ = false;
    bool wide_ = false;                 // some object may cover over two cells a side
    bool with_ranges_ = false;          // the ranges are copied
    bool exact_homes_ = false;          // wide: a wrapped window holds only the homes it names
    int32_t span_[D] = {};

    // Numbers a packed shape takes: a circle's center and radius, or a shape
    // as the core keeps it.
    static constexpr int CIRCLE_NUMBERS = packed_numbers<D>(CIRCLES);
    int stride() const noexcept { return all_circles_ ? CIRCLE_NUMBERS : NUMBERS; }

    // The cells two ranges share (none where they do not meet). The table's
    // objects cover at most 64 cells a side: no product overflows.
    static std::ptrdiff_t shared_cells(const CellRange<D>& a, const CellRange<D>& b) {
        std::ptrdiff_t cells = 1;
        for (int k = 0; k < D; ++k)
            cells *= std::max<std::ptrdiff_t>(0, std::ptrdiff_t(std::min(a.hi[k], b.hi[k])) - std::max(a.lo[k], b.lo[k]) + 1);
        return cells;
    }

    static int ranges_meet(const CellRange<D>& a, const CellRange<D>& b) {
        int meet = 1;
        for (int k = 0; k < D; ++k) meet &= (a.lo[k] <= b.hi[k]) & (b.lo[k] <= a.hi[k]);
        return meet;
    }

    int filters_pass(std::ptrdiff_t u, std::ptrdiff_t v) const {
        return spatial_hash::filters_pass(&filter_[u], &filter_[v]);
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
                if (with_ranges_) __builtin_prefetch(&in.range[id[k + PREFETCH_AHEAD]]);
            }
            const double* body = &in.body[std::size_t(id[k]) * NUMBERS];
            std::memcpy(&shape_[std::size_t(k) * STRIDE], body, sizeof(double) * STRIDE);
            if (with_ranges_) range_[k] = in.range[id[k]];
            if (in.filter) filter_[k] = in.filter[id[k]];
            circles += is_circle<D>(body);
        }
        return circles;
    }

    // Packed object u against packed objects v0 .. v1-1: keeps (u, v) at
    // pairs[2 * kept] where their shapes touch (circles: are near enough; with
    // KEEP_ALL, where their ranges meet) and their filters pass, without a
    // branch on the data; returns the new kept. pairs has room for v1 - v0.
    template <Shapes SHAPES, bool FILTERED, bool KEEP_ALL>
    std::ptrdiff_t test_run(std::ptrdiff_t u, std::ptrdiff_t v0, std::ptrdiff_t v1, int32_t* pairs,
                            std::ptrdiff_t kept) const {
        constexpr std::size_t STRIDE = packed_numbers<D>(SHAPES);
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

    // Packed object u against the homes v0 .. v1-1 of its window: keeps (u, v)
    // at pairs[2 * kept] where their ranges meet and their filters pass,
    // without a branch on the data; returns the new kept. pairs has room for
    // v1 - v0. With exact homes (no filters), the ranges meet unless the
    // other one ends left of u's or (in 3D, in a later layer) before its first
    // row: the window holds no home past u's range.
    template <bool FILTERED>
    std::ptrdiff_t meet_run(std::ptrdiff_t u, std::ptrdiff_t v0, std::ptrdiff_t v1, int32_t* pairs,
                            std::ptrdiff_t kept) const {
        // Locals, not reads through pointers: the pairs written are int32s too,
        // so the compiler would otherwise read the ranges again after each.
        int32_t lo[D], hi[D];
        for (int a = 0; a < D; ++a) {
            lo[a] = range_[u].lo[a];
            hi[a] = range_[u].hi[a];
        }
        const CellRange<D>* range = range_.data();
        if (!FILTERED && exact_homes_) {
            for (std::ptrdiff_t v = v0; v < v1; ++v) {
                int meet = range[v].hi[0] >= lo[0];
                if (D == 3) meet &= range[v].hi[1] >= lo[1];
                pairs[2 * kept] = int32_t(u);
                pairs[2 * kept + 1] = int32_t(v);
                kept += meet;
            }
            return kept;
        }
        for (std::ptrdiff_t v = v0; v < v1; ++v) {
            int meet = 1;
            for (int a = 0; a < D; ++a) meet &= (lo[a] <= range[v].hi[a]) & (range[v].lo[a] <= hi[a]);
            if (FILTERED) meet &= filters_pass(u, v);
            pairs[2 * kept] = int32_t(u);
            pairs[2 * kept + 1] = int32_t(v);
            kept += meet;
        }
        return kept;
    }

    // Occupied cells k0 .. k1-1 of a wide table: each object's meetings in its
    // window into worker w's buffer from `kept` pairs on; returns the
    // buffer's new count.
    template <bool FILTERED>
    std::ptrdiff_t meet_windows(int w, std::ptrdiff_t k0, std::ptrdiff_t k1, std::ptrdiff_t kept) {
        std::vector<int32_t>& found = found_[w];
        std::ptrdiff_t begin, end;
        for (std::ptrdiff_t k = k0; k < k1; ++k) {
            cells_.occupied_objects(k, begin, end);
            for (std::ptrdiff_t u = begin; u < end; ++u)
                cells_.each_window_run(u, end, range_[u], span_, [&](std::ptrdiff_t v0, std::ptrdiff_t v1) {
                    at_least(found, std::size_t(2 * (kept + v1 - v0)));
                    kept = meet_run<FILTERED>(u, v0, v1, found.data(), kept);
                });
        }
        return kept;
    }

    // Occupied cells k0 .. k1-1 (of the list) into worker w's buffer from
    // `kept` pairs on; returns the buffer's new count.
    template <Shapes SHAPES, bool FILTERED, bool KEEP_ALL>
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
    template <Shapes SHAPES, bool FILTERED, bool KEEP_ALL, bool WIDE>
    void search(int workers) {
        const std::ptrdiff_t n_chunks = (cells_.n_occupied() + CHUNK_CELLS - 1) / CHUNK_CELLS;
        chunks_.assign(std::size_t(n_chunks), Chunk{0, 0, 0, 0});
        at_least(found_, std::size_t(workers));
        std::atomic<std::ptrdiff_t> next(0);
        std::atomic<bool> failed(false);
        in_parallel(workers, [&](int w) {
            std::ptrdiff_t kept = 0;
            try {
                for (std::ptrdiff_t k; (k = next.fetch_add(1)) < n_chunks;) {
                    const std::ptrdiff_t k0 = k * CHUNK_CELLS, k1 = std::min(k0 + CHUNK_CELLS, cells_.n_occupied());
                    std::ptrdiff_t end, met = 0;
                    if (WIDE) {
                        end = meet_windows<FILTERED>(w, k0, k1, kept);
                        met = end - kept;
                        if (!KEEP_ALL) end = keep_touching<D, SHAPES>(found_[w].data(), kept, end, shape_.data());
                    } else {
                        end = search_cells<SHAPES, FILTERED, KEEP_ALL>(w, k0, k1, kept);
                        if (SHAPES == CIRCLES && !KEEP_ALL)
                            end = keep_meeting_boxes<D>(found_[w].data(), kept, end, shape_.data());
                    }
                    chunks_[k] = Chunk{w, kept, end - kept, met};
                    kept = end;
                }
            } catch (const std::bad_alloc&) {
                failed = true;
                next = n_chunks;        // the others stop too
            }
        });
        if (failed) throw std::bad_alloc();
        n_pairs_ = meetings_ = 0;
        for (const Chunk& k : chunks_) {
            n_pairs_ += k.count;
            meetings_ += k.meetings;
        }
    }

    template <Shapes SHAPES, bool WIDE>
    void search_filtered(const TableInput<D>& in, int workers) {
        if (in.filter) {
            if (in.keep_all) search<SHAPES, true, true, WIDE>(workers);
            else search<SHAPES, true, false, WIDE>(workers);
        } else {
            if (in.keep_all) search<SHAPES, false, true, WIDE>(workers);
            else search<SHAPES, false, false, WIDE>(workers);
        }
    }

    template <Shapes SHAPES>
    void search_shapes(const TableInput<D>& in, int workers) {
        if (wide_) search_filtered<SHAPES, true>(in, workers);
        else search_filtered<SHAPES, false>(in, workers);
    }
};

}  // namespace spatial_hash
