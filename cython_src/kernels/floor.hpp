// floor(x) as an integer for |x| < 2**62, inline (libm's floor is a call on
// plain x86-64). Every cell coordinate of the core, where an object is placed
// and where a search looks, is this floor.
#pragma once
#include <cstdint>

namespace spatial_hash {

// Cell coordinates below this (2 ** 48) in magnitude are exact to a small
// fraction of a cell; past it, a grid does not name a place's cell (the
// hierarchical grid moves an object to a coarser level, a nearest search
// scans the level instead).
constexpr double PRECISE_CELLS = 281474976710656.0;

inline int64_t floor_int(double x) noexcept {
    const int64_t q = int64_t(x);
    return q - (double(q) > x);
}

}  // namespace spatial_hash
