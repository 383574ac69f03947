"""Benchmark scenes: objects with positions, sizes and velocities that move every
frame. Each scene is a plain numpy structure so every method can consume it."""
import math

import numpy as np

# Fraction of the world's area covered by objects in the constant-density scenes.
COVERAGE = 0.2


class Scene:
    """N objects: circles (center + radius) or boxes (top-left + size), moving
    inside a world rectangle and bouncing off its walls."""

    def __init__(self, name, kind, pos, extent, vel, world, cell_size):
        self.name = name
        self.kind = kind              # "circle": extent is (n,) radii; "box": (n, 2) sizes
        self.pos = np.ascontiguousarray(pos, dtype=np.float64)
        self.extent = np.ascontiguousarray(extent, dtype=np.float64)
        self.vel = np.ascontiguousarray(vel, dtype=np.float64)
        self.world = world            # (width, height)
        # What a user would tune a uniform grid to: twice the small objects'
        # diameter, the upper end of the usual 1-2x rule (measured fastest here).
        self.cell_size = cell_size
        # What step() needs every frame, made once: the walls and scratch arrays.
        # Every wall as a full (n, 2) array: numpy compares equal shapes several
        # times faster than it broadcasts a pair over the rows.
        hi = np.broadcast_to(np.asarray(world, dtype=np.float64), self.pos.shape)
        self._hi = np.ascontiguousarray(hi - self.extent if kind == "box" else hi)
        self._scratch = (np.empty_like(self.pos), np.empty(self.pos.shape, bool),
                         np.empty(self.pos.shape, bool))

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
        """(n, 4) rows of (x, y, width, height)."""
        if self.kind == "box":
            return np.hstack([self.pos, self.extent])
        r = self.extent[:, None]
        return np.hstack([self.pos - r, 2.0 * r, 2.0 * r])

    def max_extent(self):
        return float(self.extent.max()) if len(self) else 0.0


def _world_for(n, mean_area):
    side = math.sqrt(n * mean_area / COVERAGE)
    return side, side


def uniform(n, seed=0, radius=1.0, speed=30.0):
    """Equal circles at constant density: the world grows with N."""
    rng = np.random.default_rng(seed)
    w, h = _world_for(n, math.pi * radius * radius)
    pos = rng.uniform((0, 0), (w, h), size=(n, 2))
    vel = rng.uniform(-speed, speed, size=(n, 2))
    return Scene("uniform", "circle", pos, np.full(n, radius), vel, (w, h), 4.0 * radius)


def mixed(n, seed=0, radius=1.0, speed=30.0):
    """Like uniform, but 5% of the circles are 16-64x larger."""
    rng = np.random.default_rng(seed)
    radii = np.full(n, radius)
    big = rng.random(n) < 0.05
    radii[big] = radius * rng.uniform(16.0, 64.0, size=int(big.sum()))
    w, h = _world_for(n, float(np.mean(math.pi * radii * radii)))
    pos = rng.uniform((0, 0), (w, h), size=(n, 2))
    vel = rng.uniform(-speed, speed, size=(n, 2))
    return Scene("mixed", "circle", pos, radii, vel, (w, h), 4.0 * radius)


def clustered(n, seed=0, radius=1.0, speed=10.0):
    """Crowds: Gaussian clusters of equal circles, dense inside, empty between."""
    rng = np.random.default_rng(seed)
    w, h = _world_for(n, math.pi * radius * radius)
    clusters = max(1, n // 500)
    centers = rng.uniform((0, 0), (w, h), size=(clusters, 2))
    spread = math.sqrt(500 * math.pi * radius * radius / 0.5) / 2.0
    pos = centers[rng.integers(0, clusters, n)] + rng.normal(0.0, spread, size=(n, 2))
    pos = np.clip(pos, 0.0, (w, h))
    vel = rng.uniform(-speed, speed, size=(n, 2))
    return Scene("clustered", "circle", pos, np.full(n, radius), vel, (w, h), 4.0 * radius)


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


SCENES = {"uniform": uniform, "mixed": mixed, "clustered": clustered, "bullets": bullets}
