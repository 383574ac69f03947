"""Nearest-object queries against scipy's cKDTree: the k objects nearest to each
of many points, among N equal circles (points, or discs of radius 8), by this
library's batch query on both grids and by cKDTree.query on the centres (for
equal discs the same order), every index built beforehand."""
import math
import time

import numpy as np
from scipy.spatial import cKDTree

from spatial_hash import HierarchicalGrid, UniformGrid
from spatial_hash.bench import scenes
from spatial_hash.tuning import suggest

PEER = "scipy cKDTree"
RADII = (0.0, 8.0)      # points, and discs 16 units wide, at the uniform scene's centres


def nearest_costs(n=100_000, queries=10_000, k=4, rounds=3, seed=0, radius=0.0):
    """{"n", "queries", "k", "radius", "cell_size", "ms": {method: fastest of
    `rounds` runs}, "first_ms": {method: the first run}, "agree"}: the uniform
    scene's centres as circles of `radius`, query points spread over its
    world, and whether every method found the same distances. The uniform grid
    has the scene's cells for points and what tuning.suggest recommends for
    discs. A grid's first batch after a change also lays its objects out for
    the searches (kept until the next change), as cKDTree's build, done
    beforehand here, lays out the tree."""
    scene = scenes.uniform(n, seed)
    points = np.random.default_rng(seed + 1).uniform((0.0, 0.0), scene.world, (queries, 2))
    cell = suggest(np.full(n, 2.0 * radius))["cell_size"] if radius else scene.cell_size
    grids = {"uniform grid": UniformGrid(cell), "hierarchical grid": HierarchicalGrid()}
    for grid in grids.values():
        grid.insert_circles(scene.pos, radius)
    tree = cKDTree(scene.pos)
    runs = {name: (lambda grid=grid: grid.query_nearest_many(points, k)[2].reshape(-1, k))
            for name, grid in grids.items()}
    runs[PEER] = lambda: np.maximum(tree.query(points, k)[0] - radius, 0.0)
    ms = dict.fromkeys(runs, math.inf)
    first_ms = {}
    answers = {}
    for _ in range(rounds):         # rounds over every method: interference spreads out
        for name, run in runs.items():
            start = time.perf_counter()
            answers[name] = run()
            ms[name] = min(ms[name], 1e3 * (time.perf_counter() - start))
            first_ms.setdefault(name, ms[name])
    agree = all(np.allclose(a, answers[PEER], rtol=1e-12, atol=1e-9) if radius
                else np.array_equal(a, answers[PEER]) for a in answers.values())
    return {"n": n, "queries": queries, "k": k, "radius": radius, "cell_size": cell, "ms": ms,
            "first_ms": first_ms, "agree": agree}


def report(costs):
    """Lines for the run's summary: each method's ms and cKDTree's speed relative to it."""
    peer = costs["ms"][PEER]
    among = f"{costs['n']:,} points" if not costs["radius"] else \
        f"{costs['n']:,} discs of radius {costs['radius']:g} (uniform grid: cells of {costs['cell_size']:g})"
    lines = [f"nearest objects: {costs['queries']:,} queries for the {costs['k']} nearest among "
             f"{among} (fastest of 3 runs; same distances from every method: "
             f"{'yes' if costs['agree'] else 'NO'})"]
    for name, ms in costs["ms"].items():
        relative = "" if name == PEER else \
            f"  ({ms / peer:.2f}x {PEER}'s time; first run, laying the grid out: " \
            f"{costs['first_ms'][name]:.2f} ms)"
        lines.append(f"  {name:<20} {ms:8.2f} ms{relative}")
    return "\n".join(lines)
