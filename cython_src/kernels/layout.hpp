// The layout of the core's structs that the kernels read or write, field for
// field as the Cython side declares them.
#pragma once
#include <cstdint>

namespace spatial_hash {

// CellRange: the cells an object's box covers, its min corner's cell first.
template <int D>
struct CellSpan {
    int32_t lo[D];
    int32_t hi[D];
};

// Filter: an object's collision layer and mask.
struct LayerFilter {
    uint32_t layer;
    uint32_t mask;
};

// Nearby: one answer of a nearest-object search.
struct Nearby {
    double distance;
    int32_t id;
};

}  // namespace spatial_hash
