"""spatial_hash: exact, fast broad-phase collision detection for games.

The compiled core (`spatial_hash._core`) does the work; the classes here mirror
the GDScript designs game developers know (SpatialHash, OptimizedSpatialHash,
SpatialHashCollisionSystem) and a brute-force reference to check them against.
"""
from spatial_hash._core import HierarchicalGrid, UniformGrid, read_rect, read_vec2
from spatial_hash.brute_force import BruteForce
from spatial_hash.collision_system import CollisionObject, SpatialHashCollisionSystem
from spatial_hash.grid import HierarchicalSpatialHash, OptimizedSpatialHash, SpatialHash

__all__ = [
    "BruteForce",
    "CollisionObject",
    "HierarchicalGrid",
    "HierarchicalSpatialHash",
    "OptimizedSpatialHash",
    "SpatialHash",
    "SpatialHashCollisionSystem",
    "UniformGrid",
    "read_rect",
    "read_vec2",
]
__version__ = "0.1.0"
