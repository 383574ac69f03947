"""Nearest-object queries against scipy's cKDTree: the k objects nearest to each
of many points, among N point objects, by this library's batch query on both
grids and by cKDTree.query, every index built beforehand."""
import math
import time

import numpy as np
from scipy.spatial import cKDTree

from spatial_hash import HierarchicalGrid, UniformGrid
from spatial_hash.bench import scenes

PEER = "scipy cKDTree"


def nearest_costs(n=100_000, queries=10_000, k=4, rounds=3, seed=0):
    """{"n", "queries", "k", "ms": {method: fastest of `rounds` runs}, "agree"}:
    the uniform scene's centres as zero-radius circles, query points spread over
    its world, and whether every method found the same distances."""
    scene = scenes.uniform(n, seed)
    points = np.random.default_rng(seed + 1).uniform((0.0, 0.0), scene.world, (queries, 2))
    grids = {"uniform grid": UniformGrid(scene.cell_size), "hierarchical grid": HierarchicalGrid()}
    for grid in grids.values():
        grid.insert_circles(scene.pos, 0.0)
    tree = cKDTree(scene.pos)
    runs = {name: (lambda grid=grid: grid.query_nearest_many(points, k)[2].reshape(-1, k))
            for name, grid in grids.items()}
    runs[PEER] = lambda: tree.query(points, k)[0]
    ms = dict.fromkeys(runs, math.inf)
    answers = {}
    for _ in range(rounds):         # rounds over every method: interference spreads out
        for name, run in runs.items():
            start = time.perf_counter()
            answers[name] = run()
            ms[name] = min(ms[name], 1e3 * (time.perf_counter() - start))
    agree = all(np.array_equal(a, answers[PEER]) for a in answers.values())
    return {"n": n, "queries": queries, "k": k, "ms": ms, "agree": agree}


def report(costs):
    """Lines for the run's summary: each method's ms and cKDTree's speed relative to it."""
    peer = costs["ms"][PEER]
    lines = [f"nearest objects: {costs['queries']:,} queries for the {costs['k']} nearest among "
             f"{costs['n']:,} points (fastest of 3 runs; same distances from every method: "
             f"{'yes' if costs['agree'] else 'NO'})"]
    for name, ms in costs["ms"].items():
        relative = "" if name == PEER else f"  ({ms / peer:.2f}x {PEER}'s time)"
        lines.append(f"  {name:<20} {ms:8.2f} ms{relative}")
    return "\n".join(lines)
