// The uniform grid's table in cell order, as its pair pass (cell_pairs.hpp)
// reads it: the table's ids counting-sorted by home cell, where each cell's
// objects begin, the occupied cells in order, and the runs of packed objects
// that make a cell's forward half neighbourhood (the next cell of its row and
// the three cells around it in the next row; in 3D, the 13 cells of the
// forward half shell) or, where objects cover more cells, an object's window
// of homes; wrapped as the table wraps the world.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "layout.hpp"

namespace spatial_hash {

// Makes span[] exact for the n ranges, and says whether a wrapped window of
// homes (CellOrder's each_window_run) then holds only the homes it names in
// the world, in a table `side` cells a side: homes that differ by less than
// the side, less a window's reach along that axis (its span and a cell to
// spare), cannot meet in one after wrapping.
template <int D>
bool make_spans_exact(const CellRange<D>* ranges, std::ptrdiff_t n, int64_t side, int32_t* span) noexcept {
    int32_t low[D], high[D];
    for (int a = 0; a < D; ++a) {
        low[a] = high[a] = n ? ranges[0].lo[a] : 0;
        span[a] = 0;
    }
    for (std::ptrdiff_t k = 0; k < n; ++k)
        for (int a = 0; a < D; ++a) {
            span[a] = std::max(span[a], ranges[k].hi[a] - ranges[k].lo[a]);
            low[a] = std::min(low[a], ranges[k].lo[a]);
            high[a] = std::max(high[a], ranges[k].lo[a]);
        }
    bool exact = true;
    for (int a = 0; a < D; ++a) exact &= int64_t(high[a]) - low[a] + span[a] + 1 < side;
    return exact;
}

template <int D>
class CellOrder {
  public:
    // Numbers that the runs of a cell's forward half neighbourhood take at most.
    static constexpr int MAX_RUNS = 4 + 4 * (D == 2 ? 1 : 4);

    // The table's ids in cell order, and where each cell's begin: a counting
    // sort by home cell. While the table holds the objects it held at the
    // last pass (its `membership` is the same), the sort takes them in the
    // last pass's order: objects move little between frames, so the counts
    // and the ids then land nearly in sequence (over the members' order, each
    // lands anywhere in memory, which at a million objects took a fifth of
    // the pass).
    void order(const TableInput<D>& in) {
        const bool again = in.membership == membership_ && in.n == n_ && in.wbits == wbits_;
        wbits_ = in.wbits;
        mask_ = (int64_t(1) << in.wbits) - 1;
        n_ = in.n;
        membership_ = in.membership;
        const std::ptrdiff_t n_cells = std::ptrdiff_t(1) << (D * wbits_);
        at_least(start_, std::size_t(n_cells + 1));
        at_least(id_, std::size_t(n_));
        at_least(last_, std::size_t(n_));
        at_least(occupied_, std::size_t(n_ + 1));
        const int32_t* objects = in.members;
        if (again) {
            id_.swap(last_);
            objects = last_.data();
        }
        int32_t* start = start_.data();
        std::fill(start, start + n_cells + 1, 0);
        for (std::ptrdiff_t k = 0; k < n_; ++k) ++start[in.home[objects[k]] + 1];
        // The occupied cells, listed without a branch (the search skips the
        // empty ones without mispredicting which they are).
        std::ptrdiff_t n_occupied = 0;
        int32_t sum = 0;
        for (std::ptrdiff_t c = 0; c < n_cells; ++c) {
            const int32_t count = start[c + 1];
            occupied_[n_occupied] = int32_t(c);
            n_occupied += count != 0;
            sum += count;
            start[c + 1] = sum;
        }
        n_occupied_ = n_occupied;
        // In reverse, each to the end of its cell's room: the cell's entry
        // ends where its objects begin, and its objects keep their order.
        for (std::ptrdiff_t k = n_ - 1; k >= 0; --k) {
            const int32_t i = objects[k];
            id_[--start[in.home[i] + 1]] = i;
        }
        std::memmove(start, start + 1, sizeof(int32_t) * n_cells);
        start[n_cells] = int32_t(n_);
    }

    // The next order() starts from the members (after a pass that failed).
    void forget() noexcept { n_ = -1; }

    std::ptrdiff_t size() const noexcept { return n_ < 0 ? 0 : n_; }
    const int32_t* ids() const noexcept { return id_.data(); }
    std::ptrdiff_t n_occupied() const noexcept { return n_occupied_; }

    // One occupied cell's objects, begin .. end-1, and the runs of their
    // candidates: the rest of the cell (with the next cell of its row, one run
    // where the row does not wrap there), then the rest of its forward half
    // neighbourhood.
    struct Cell {
        std::ptrdiff_t begin, end, own_end;
        int first, n;                   // runs[first .. n-1], two numbers a run
        std::ptrdiff_t runs[MAX_RUNS];

        // each(u, v0, v1) for every object u of the cell and each run v0 .. v1-1
        // of its candidates.
        template <class Each>
        void each_run(const Each& each) const {
            for (std::ptrdiff_t u = begin; u < end; ++u) {
                each(u, u + 1, own_end);
                for (int r = first; r < n; r += 2) each(u, runs[r], runs[r + 1]);
            }
        }
        // At least as many as the pairs each_run offers.
        std::ptrdiff_t most_pairs() const {
            std::ptrdiff_t more = end - begin;
            for (int r = 0; r < n; r += 2) more += runs[r + 1] - runs[r];
            return (end - begin) * more;
        }
    };

    // Where the k-th occupied cell's objects begin and end.
    void occupied_objects(std::ptrdiff_t k, std::ptrdiff_t& begin, std::ptrdiff_t& end) const {
        begin = start_[occupied_[k]];
        end = start_[occupied_[k] + 1];
    }

    // The k-th occupied cell (of n_occupied()) into `cell`.
    void occupied_cell(std::ptrdiff_t k, Cell& cell) const {
        occupied_objects(k, cell.begin, cell.end);
        cell.n = neighbourhood(occupied_[k], cell.runs);
        // The next cell's run follows the cell's own where the row does not
        // wrap there: one run for both.
        cell.first = cell.runs[0] == cell.end ? 2 : 0;
        cell.own_end = cell.first ? cell.runs[1] : cell.end;
    }

    // each(u, v0, v1) for every packed object u and each run v0 .. v1-1 of its
    // candidates, cell by cell.
    template <class Each>
    void for_each_run(const Each& each) const {
        Cell cell;
        for (std::ptrdiff_t k = 0; k < n_occupied_; ++k) {
            occupied_cell(k, cell);
            cell.each_run(each);
        }
    }

    // each(v0, v1) for each run of the packed objects at home in the window
    // of packed object u, whose range is r, its cell's objects ending at
    // own_end, in a table whose objects cover at most span cells past their
    // homes: the rest of its home cell and the homes of its range's first row;
    // the homes from span[0] cells left of its range to its end in the later
    // rows of its range's first layer; in 3D, also from span[1] rows before its
    // range, in its later layers. Of two objects whose ranges meet, the later
    // home is in the earlier one's window and not the other way round, and no
    // window holds a table cell twice (the table is at least 2 * span + 1
    // cells a side), so each such pair comes once, wrapped or not.
    template <class Each>
    void each_window_run(std::ptrdiff_t u, std::ptrdiff_t own_end, const CellRange<D>& r,
                         const int32_t* span, const Each& each) const {
        std::ptrdiff_t runs[4];
        const int64_t z0 = D == 3 ? r.lo[D - 1] : 0, z1 = D == 3 ? r.hi[D - 1] : 0;
        const int64_t left = int64_t(r.lo[0]) - span[0];
        int n = 2;
        if (r.hi[0] == r.lo[0]) runs[1] = own_end;
        else n = row_runs(r.lo[0], r.hi[0], r.lo[1], z0, runs);
        runs[0] = u + 1;
        each_of(runs, n, each);
        for (int64_t y = int64_t(r.lo[1]) + 1; y <= r.hi[1]; ++y)
            each_of(runs, row_runs(left, r.hi[0], y, z0, runs), each);
        for (int64_t z = z0 + 1; z <= z1; ++z)
            for (int64_t y = int64_t(r.lo[1]) - span[1]; y <= r.hi[1]; ++y)
                each_of(runs, row_runs(left, r.hi[0], y, z, runs), each);
    }

    int64_t side() const noexcept { return mask_ + 1; }

  private:
    template <class Each>
    static void each_of(const std::ptrdiff_t* runs, int n, const Each& each) {
        for (int k = 0; k < n; k += 2) each(runs[k], runs[k + 1]);
    }

    // The forward half neighbourhood of cell c as runs of packed objects:
    // runs[0] .. runs[1] - 1 the next cell of its row, then the rows after it
    // (wrapped: a row is one run unless it wraps there). Returns how many
    // numbers it wrote.
    int neighbourhood(int64_t c, std::ptrdiff_t* runs) const {
        const int64_t cx = c & mask_, cy = (c >> wbits_) & mask_;
        const int64_t cz = D == 3 ? c >> (2 * wbits_) : 0;
        int n = row_runs(cx + 1, cx + 1, cy, cz, runs);
        n += row_runs(cx - 1, cx + 1, cy + 1, cz, runs + n);
        if (D == 3)
            for (int64_t dy = -1; dy <= 1; ++dy) n += row_runs(cx - 1, cx + 1, cy + dy, cz + 1, runs + n);
        return n;
    }

    // The runs of packed objects in cells x0 .. x1 of row (y, z) (layout.hpp).
    int row_runs(int64_t x0, int64_t x1, int64_t y, int64_t z, std::ptrdiff_t* runs) const {
        const int32_t* start = start_.data();
        return spatial_hash::row_runs([start](int64_t c) { return start[c]; }, wbits_, x0, x1, y, z, runs);
    }

    std::vector<int32_t> start_;        // per table cell: where its objects begin; one more at the end
    std::vector<int32_t> id_;           // the table's objects in cell order
    std::vector<int32_t> last_;         // ... and at the pass before
    std::vector<int32_t> occupied_;     // the cells that hold objects, in order
    std::ptrdiff_t n_ = -1, n_occupied_ = 0;
    uint64_t membership_ = 0;
    int64_t mask_ = 0;
    int wbits_ = 0;
};

}  // namespace spatial_hash
