"""spatial_hash: exact, fast broad-phase collision detection for games.

The compiled core (`spatial_hash._core`) does the work; the classes here mirror
the GDScript designs game developers know (SpatialHash, OptimizedSpatialHash,
SpatialHashCollisionSystem) and a brute-force reference to check them against.
"""
import os

# Threads of the core (HierarchicalGrid(threads=2) and up) sleep as soon as a
# parallel loop ends instead of spinning for the next one: a game engine keeps
# every core busy, and spinning workers then stall the frame they wait for (a
# 10,000-object frame went from 0.9 ms to a 100 ms median with both cores busy).
# The OpenMP runtime reads this once, as the core loads it (hence the imports
# below it); a value already set is kept.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from spatial_hash._core import HierarchicalGrid, UniformGrid, read_rect, read_vec2  # noqa: E402
from spatial_hash.brute_force import BruteForce
from spatial_hash.collision_system import CollisionObject, SpatialHashCollisionSystem
from spatial_hash.object_hashes import HierarchicalSpatialHash, OptimizedSpatialHash, SpatialHash

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
