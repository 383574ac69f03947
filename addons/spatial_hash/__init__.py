"""spatial_hash: exact, fast broad-phase collision detection for games.

The compiled cores (`spatial_hash._core` in 2D, `spatial_hash._core3d` in 3D) do
the work; the classes here mirror the GDScript designs game developers know
(SpatialHash, OptimizedSpatialHash, SpatialHashCollisionSystem, and the same
ending in 3D) and a brute-force reference to check them against.
"""
from spatial_hash._core import HierarchicalGrid, UniformGrid, read_rect, read_vec2
from spatial_hash._core3d import HierarchicalGrid3D, UniformGrid3D, read_box, read_vec3
from spatial_hash.brute_force import BruteForce, BruteForce3D
from spatial_hash.collision_system import (CollisionObject, CollisionObject3D,
                                           SpatialHashCollisionSystem, SpatialHashCollisionSystem3D)
from spatial_hash.object_hashes import (HierarchicalSpatialHash, HierarchicalSpatialHash3D,
                                        OptimizedSpatialHash, OptimizedSpatialHash3D, SpatialHash,
                                        SpatialHash3D)

__all__ = [
    "BruteForce",
    "BruteForce3D",
    "CollisionObject",
    "CollisionObject3D",
    "HierarchicalGrid",
    "HierarchicalGrid3D",
    "HierarchicalSpatialHash",
    "HierarchicalSpatialHash3D",
    "OptimizedSpatialHash",
    "OptimizedSpatialHash3D",
    "SpatialHash",
    "SpatialHash3D",
    "SpatialHashCollisionSystem",
    "SpatialHashCollisionSystem3D",
    "UniformGrid",
    "UniformGrid3D",
    "read_box",
    "read_rect",
    "read_vec2",
    "read_vec3",
]
__version__ = "0.1.0"
