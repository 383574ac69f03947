// The core's per-object structs, defined here once: the Cython side declares
// them from this header (contract.pxi), and the kernels read and write them;
// and what every kernel does with its buffers.
#pragma once
#include <cstdint>
#include <vector>

#include "check.hpp"

namespace spatial_hash {

// A kernel's buffer, grown to hold at least n (kept from pass to pass).
template <typename T>
inline void at_least(std::vector<T>& v, std::size_t n) {
    if (v.size() < n) v.resize(n);
}

// The runs of objects in cells x0 .. x1 of row (y, z) of a wrapped table of
// 1 << wbits cells a side whose objects are laid out in cell order, cell c's
// beginning at begin(c) (for c up to the number of cells): one run, or two
// where the row wraps there (x0 .. x1 spans at most the table's side, so no
// cell comes twice). Written as begin, end pairs into `runs`; returns how
// many numbers it wrote.
template <class Begin>
inline int row_runs(const Begin& begin, int wbits, int64_t x0, int64_t x1, int64_t y, int64_t z,
                    std::ptrdiff_t* runs) {
    const int64_t mask = (int64_t(1) << wbits) - 1;
    const int64_t row = ((z & mask) << (2 * wbits)) | ((y & mask) << wbits), lo = x0 & mask, hi = x1 & mask;
    runs[0] = begin(row | lo);
    if (lo <= hi) {
        runs[1] = begin((row | hi) + 1);
        return 2;
    }
    runs[1] = begin(row + mask + 1);
    runs[2] = begin(row);
    runs[3] = begin((row | hi) + 1);
    return 4;
}

// The cells an object's box covers: the cell of its min corner, and of its max.
template <int D>
struct CellRange {
    int32_t lo[D];
    int32_t hi[D];
};

// An object's collision layer and mask, and whether it is static.
struct Filter {
    uint32_t layer;
    uint32_t mask;
    uint32_t is_static;     // 1 for a static object: two static objects never pair
};

// The pair rule: either one's mask has a bit of the other's layer, and the two
// are not both static. No branch on the data.
inline int filters_pass(const Filter* a, const Filter* b) noexcept {
    return (((a->mask & b->layer) | (b->mask & a->layer)) != 0) & ((a->is_static & b->is_static) == 0);
}

// What a pass reads: the core's per-id arrays and the table's members.
template <int D>
struct TableInput {
    const double* body;             // per id: its shape, 2 * D numbers
    const CellRange<D>* range;      // per id: the cells its box covers
    const Filter* filter;           // per id; nullptr while every object has the default
    const int32_t* home;            // per id: its home cell in the table
    const int32_t* members;         // the table's objects
    std::ptrdiff_t n;               // how many
    uint64_t membership;            // changes whenever an object enters the table (with n, it
                                    // tells whether the table holds the objects it held)
    int wbits;                      // the table is (1 << wbits) cells a side
    int32_t span[D];                // no object covers more cells than this past its home
    bool keep_all;                  // keep every pair whose ranges meet, touching or not
    int threads;
};

// What every pass over a table expects of it: its arrays there when it has
// members, a table of at least four cells a side whose cells an int32 counts
// and no narrower than a window of 2 * span + 1 cells, and (checked build)
// each member's home one of its cells and its range within the spans.
template <int D>
void expect_table(const TableInput<D>& in) noexcept {
    SH_EXPECT(in.n >= 0);
    SH_EXPECT(in.n == 0 || (in.body && in.range && in.home && in.members));
    SH_EXPECT(in.wbits >= 2 && D * in.wbits <= 30);
    for (int a = 0; a < D; ++a) SH_EXPECT(in.span[a] >= 0 && 2 * int64_t(in.span[a]) + 1 <= (int64_t(1) << in.wbits));
    SH_VALIDATE(
        for (std::ptrdiff_t k = 0; k < in.n; ++k) {
            SH_EXPECT(in.members[k] >= 0);
            SH_EXPECT(in.home[in.members[k]] >= 0 && in.home[in.members[k]] < (int32_t(1) << (D * in.wbits)));
            for (int a = 0; a < D; ++a)
                SH_EXPECT(in.range[in.members[k]].hi[a] - in.range[in.members[k]].lo[a] <= in.span[a]);
        }
    );
}

// Nearby: one answer of a nearest-object search.
struct Nearby {
    double distance;
    int32_t id;
};

}  // namespace spatial_hash
