// floor(x) as an integer for |x| < 2**62, inline (libm's floor is a call on
// plain x86-64). Every cell coordinate of the core, where an object is placed
// and where a search looks, is this floor.
#pragma once
#include <cstdint>

namespace spatial_hash {

inline int64_t floor_int(double x) noexcept {
    const int64_t q = int64_t(x);
    return q - (double(q) > x);
}

}  // namespace spatial_hash
