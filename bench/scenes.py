"""Benchmark scenes: objects with positions, sizes and velocities that move every
frame, in 2D or 3D. Each scene is a plain numpy structure so every method can
consume it. The 3D scenes are the 2D builders run with dim=3: spheres in a cube
at the same coverage, so the two dimensions differ in nothing else."""
import functools
import math

import numpy as np

from spatial_hash.tuning import CELLS_PER_DIAMETER

# Fraction of the world's area (volume in 3D) covered by objects in the
# constant-density scenes.
COVERAGE = 0.2


class Scene:
    """N objects in D dimensions (the width of `pos`): balls (center + radius:
    circles in 2D, spheres in 3D) or boxes (min corner + size), moving inside a
    world box and bouncing off its walls."""

    def __init__(self, name, kind, pos, extent, vel, world, cell_size):
        self.name = name
        self.kind = kind              # "circle" (a ball): extent is (n,) radii; "box": (n, D) sizes
        self.pos = np.ascontiguousarray(pos, dtype=np.float64)
        self.extent = np.ascontiguousarray(extent, dtype=np.float64)
        self.vel = np.ascontiguousarray(vel, dtype=np.float64)
        self.world = world            # (width, height[, depth])
        # What a user would tune a uniform grid to: the cell per diameter of
        # the small objects that tuning.suggest gives (measured fastest).
        self.cell_size = cell_size
        # What step() needs every frame, made once: the walls and scratch arrays.
        # Every wall as a full (n, D) array: numpy compares equal shapes several
        # times faster than it broadcasts a pair over the rows.
        hi = np.broadcast_to(np.asarray(world, dtype=np.float64), self.pos.shape)
        self._hi = np.ascontiguousarray(hi - self.extent if kind == "box" else hi)
        self._scratch = (np.empty_like(self.pos), np.empty(self.pos.shape, bool),
                         np.empty(self.pos.shape, bool))

    @property
    def dim(self):
        return self.pos.shape[1]

    def __len__(self):
        return len(self.pos)

    def copy(self):
        return Scene(self.name, self.kind, self.pos.copy(), self.extent.copy(),
                     self.vel.copy(), self.world, self.cell_size)

    def step(self, dt=1.0 / 60.0):
        """Move every object and bounce it off the world's walls (in place),
        allocating nothing for N objects."""
        delta, outside, above = self._scratch
        np.multiply(self.vel, dt, out=delta)
        self.pos += delta
        np.less(self.pos, 0.0, out=outside)
        np.greater(self.pos, self._hi, out=above)
        outside |= above
        if outside.any():     # only the few objects at a wall pay for the bounce
            # Flat indices into flat views: nonzero over a 2-D array is far slower.
            at = np.flatnonzero(outside)
            pos, vel = self.pos.reshape(-1), self.vel.reshape(-1)
            p = pos[at]
            pos[at] = np.where(p < 0.0, -p, 2.0 * self._hi.reshape(-1)[at] - p)
            vel[at] *= -1.0

    def bounds(self):
        """(n, 2D) rows of (x, y[, z], width, height[, depth])."""
        if self.kind == "box":
            return np.hstack([self.pos, self.extent])
        r = self.extent[:, None]
        return np.hstack([self.pos - r] + [2.0 * r] * self.dim)

    def max_extent(self):
        return float(self.extent.max()) if len(self) else 0.0


def _ball_volume(radius, dim):
    """A disc's area in 2D, a sphere's volume in 3D (radius: a number or an array)."""
    if dim == 2:
        return math.pi * radius * radius
    return 4.0 / 3.0 * math.pi * radius * radius * radius


def _side(volume, dim):
    """The side of a square (2D) or cube (3D) of that area or volume."""
    return math.sqrt(volume) if dim == 2 else volume ** (1.0 / 3.0)


def _world_for(n, mean_volume, dim):
    return (_side(n * mean_volume / COVERAGE, dim),) * dim


def _named(name, dim):
    return name if dim == 2 else f"{name}{dim}d"


def _tuned_cell(radius, dim):
    return CELLS_PER_DIAMETER[dim] * 2.0 * radius


def uniform(n, seed=0, radius=1.0, speed=30.0, dim=2):
    """Equal circles (spheres in 3D) at constant density: the world grows with N."""
    rng = np.random.default_rng(seed)
    world = _world_for(n, _ball_volume(radius, dim), dim)
    pos = rng.uniform(0.0, world, size=(n, dim))
    vel = rng.uniform(-speed, speed, size=(n, dim))
    return Scene(_named("uniform", dim), "circle", pos, np.full(n, radius), vel, world,
                 _tuned_cell(radius, dim))


def mixed(n, seed=0, radius=1.0, speed=30.0, dim=2):
    """Like uniform, but 5% of the circles (spheres) are 16-64x larger."""
    rng = np.random.default_rng(seed)
    radii = np.full(n, radius)
    big = rng.random(n) < 0.05
    radii[big] = radius * rng.uniform(16.0, 64.0, size=int(big.sum()))
    world = _world_for(n, float(np.mean(_ball_volume(radii, dim))), dim)
    pos = rng.uniform(0.0, world, size=(n, dim))
    vel = rng.uniform(-speed, speed, size=(n, dim))
    return Scene(_named("mixed", dim), "circle", pos, radii, vel, world, _tuned_cell(radius, dim))


def clustered(n, seed=0, radius=1.0, speed=10.0, dim=2):
    """Crowds: Gaussian clusters of equal circles (spheres), dense inside, empty between."""
    rng = np.random.default_rng(seed)
    world = _world_for(n, _ball_volume(radius, dim), dim)
    clusters = max(1, n // 500)
    centers = rng.uniform(0.0, world, size=(clusters, dim))
    # A cluster's 500 objects would cover half of a square (cube) twice this wide.
    spread = _side(500 * _ball_volume(radius, dim) / 0.5, dim) / 2.0
    pos = centers[rng.integers(0, clusters, n)] + rng.normal(0.0, spread, size=(n, dim))
    pos = np.clip(pos, 0.0, world)
    vel = rng.uniform(-speed, speed, size=(n, dim))
    return Scene(_named("clustered", dim), "circle", pos, np.full(n, radius), vel, world,
                 _tuned_cell(radius, dim))


def bullets(n=10_100, seed=0, enemies=100):
    """The bullet-hell stress scene: 10,000 4x4 bullets and 100 32x32 enemies in
    1920x1080, bullets flying at up to 100 px/s."""
    rng = np.random.default_rng(seed)
    n_bullets = n - enemies
    size = np.empty((n, 2))
    size[:n_bullets] = 4.0
    size[n_bullets:] = 32.0
    # Whole objects inside the world: one poking out would bounce every frame.
    pos = rng.uniform(0.0, 1.0, size=(n, 2)) * (np.array([1920.0, 1080.0]) - size)
    vel = np.zeros((n, 2))
    vel[:n_bullets] = rng.uniform(-100, 100, size=(n_bullets, 2))
    return Scene("bullets", "box", pos, size, vel, (1920.0, 1080.0), 32.0)


SCENES_2D = {"uniform": uniform, "mixed": mixed, "clustered": clustered, "bullets": bullets}
# The bullet-hell scene is a 2D game's: it has no 3D form.
SCENES_3D = {_named(name, 3): functools.partial(SCENES_2D[name], dim=3)
             for name in ("uniform", "clustered", "mixed")}
SCENES = {**SCENES_2D, **SCENES_3D}


def dimension(name):
    """How many axes the scene called `name` has, without building it."""
    return 3 if name in SCENES_3D else 2
