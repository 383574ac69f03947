// The number of axes a core module is built for. The build names it for each
// module (setup.py: 2 for spatial_hash._core, 3 for spatial_hash._core3d), and
// the module's Cython source reads it as D, so one source serves both.
#pragma once

#ifndef SPATIAL_HASH_DIMENSION
#error "build each core with SPATIAL_HASH_DIMENSION defined as 2 or 3"
#endif
static_assert(SPATIAL_HASH_DIMENSION == 2 || SPATIAL_HASH_DIMENSION == 3,
              "a core is 2D or 3D");
