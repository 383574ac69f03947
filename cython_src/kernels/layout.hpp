// The layout of the core's structs that the kernels read or write, field for
// field as the Cython side declares them.
#pragma once
#include <cstdint>

#include "check.hpp"

namespace spatial_hash {

// CellRange: the cells an object's box covers, its min corner's cell first.
template <int D>
struct CellSpan {
    int32_t lo[D];
    int32_t hi[D];
};

// Filter: an object's collision layer and mask, and whether it is static.
struct LayerFilter {
    uint32_t layer;
    uint32_t mask;
    uint32_t is_static;
};

// What a pass reads: the core's per-id arrays and the table's members.
template <int D>
struct TableInput {
    const double* body;             // per id: its shape, 2 * D numbers
    const CellSpan<D>* range;       // per id: the cells its box covers
    const LayerFilter* filter;      // per id; nullptr while every object has the default
    const int32_t* home;            // per id: its home cell in the table
    const int32_t* members;         // the table's objects
    std::ptrdiff_t n;               // how many
    uint64_t membership;            // changes whenever an object enters the table (with n, it
                                    // tells whether the table holds the objects it held)
    int wbits;                      // the table is (1 << wbits) cells a side
    bool keep_all;                  // keep every pair whose ranges meet, touching or not
    int threads;
};

// What every pass over a table expects of it: its arrays there when it has
// members, a table of at least four cells a side whose cells an int32 counts,
// and (checked build) each member's home one of its cells.
template <int D>
void expect_table(const TableInput<D>& in) noexcept {
    SH_EXPECT(in.n >= 0);
    SH_EXPECT(in.n == 0 || (in.body && in.range && in.home && in.members));
    SH_EXPECT(in.wbits >= 2 && D * in.wbits <= 30);
    SH_VALIDATE(
        for (std::ptrdiff_t k = 0; k < in.n; ++k) {
            SH_EXPECT(in.members[k] >= 0);
            SH_EXPECT(in.home[in.members[k]] >= 0 && in.home[in.members[k]] < (int32_t(1) << (D * in.wbits)));
        }
    );
}

// Nearby: one answer of a nearest-object search.
struct Nearby {
    double distance;
    int32_t id;
};

}  // namespace spatial_hash
