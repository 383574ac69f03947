// What a nearest-object search reads (see nearest.hpp): the core's per-id
// arrays, each level's table, and the levels as a batch of searches lays them
// out (nearest_layout.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "floor.hpp"
#include "layout.hpp"

namespace spatial_hash {

// One level as the search reads it.
template <int D>
struct NearestLevel {
    const int32_t* head;        // per table cell: the first object of its list, -1 if none
    const int32_t* members;     // the level's objects
    std::ptrdiff_t n;           // how many
    double origin[D];           // where cell (0, ..) starts
    double cell;                // a cell's side
    double inv;                 // 1 / cell
    bool divide;                // a coordinate v lies in cell floor((v - origin) / cell),
                                // not floor((v - origin) * inv), as the level places objects
    int32_t span[D];            // no object's box covers more cells past its home's
    int wbits;                  // the table is (1 << wbits) cells a side
};

// A level laid out for a batch of searches (nearest_layout.hpp): a grid of its
// own, `size` cells a side from `origin`, cell (x, y[, z]) at index
// x + size[0] * (y + size[1] * z).
template <int D>
struct PackedLevel {
    bool ready = false;
    double origin[D];
    double cell;
    double inv;
    bool divide = false;                // as NearestLevel's: cells are floor((v - origin) * inv)
    int32_t span[D];
    int64_t size[D];
    std::vector<double> shapes;         // 2 * D numbers an object, in cell order
    std::vector<int32_t> ids;
    std::vector<int32_t> cell_start;    // per cell, its first object; one more at the end
    std::vector<int32_t> home;          // while laying out: each member's cell
    std::size_t circles;                // how many of the shapes are circles
};

// What a search reads: the core's per-id arrays and its levels.
template <int D>
struct NearestInput {
    const double* body;             // per id: its shape, 2 * D numbers
    const int32_t* next;            // per id: the next object on its cell's list, -1 at the end
    const Filter* filter;           // per id; nullptr while every object counts
    uint32_t layers;                // with filter: only objects on one of these layers count
    const NearestLevel<D>* levels;  // searched in this order
    int n_levels;
    const int32_t* loose;           // objects on no level
    std::ptrdiff_t n_loose;
    const PackedLevel<D>* packed;   // per level, or nullptr: the tables are walked
};

// The order of answers: by distance, then by id.
inline bool nearer(const Nearby& a, const Nearby& b) noexcept {
    return a.distance < b.distance || (a.distance == b.distance && a.id < b.id);
}

// Coordinate v of axis a in the cells of a NearestLevel or PackedLevel (its
// cell is its floor_int).
template <class Grid>
inline double in_cells(const Grid& g, int a, double v) noexcept {
    const double d = v - g.origin[a];
    return g.divide ? d / g.cell : d * g.inv;
}

}  // namespace spatial_hash
