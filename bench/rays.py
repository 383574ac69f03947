"""Ray casts against a brute-force numpy cast and shapely: each ray's first hit
among N boxes, by this library's batch cast on both grids, by a numpy slab test
of every ray against every box, and by shapely (an STRtree of the boxes queried
with the rays as lines, then each candidate's intersection), every index built
beforehand."""
import math
import time

import numpy as np

from spatial_hash import HierarchicalGrid, UniformGrid
from spatial_hash.bench import scenes

NUMPY, SHAPELY = "numpy brute force", "shapely STRtree"


def numpy_first_hits(boxes, rays):
    """Each ray's first hit among the (minx, miny, maxx, maxy) boxes, by the
    compiled core's slab test vectorised over the boxes: (index of the box, the
    lowest on a tie, or -1; fraction of the way, or inf)."""
    minx, miny, maxx, maxy = boxes.T
    hits, fractions = np.full(len(rays), -1), np.full(len(rays), math.inf)
    with np.errstate(divide="ignore", invalid="ignore"):
        for j, (sx, sy, ex, ey) in enumerate(rays.tolist()):
            dx, dy = ex - sx, ey - sy
            enter, leave = np.zeros(len(boxes)), np.ones(len(boxes))
            meets = np.ones(len(boxes), dtype=bool)
            for s, d, lo, hi in ((sx, dx, minx, maxx), (sy, dy, miny, maxy)):
                if d == 0.0:
                    meets &= (lo <= s) & (s <= hi)
                    continue
                ta, tb = (lo - s) / d, (hi - s) / d
                enter = np.maximum(enter, np.minimum(ta, tb))
                leave = np.minimum(leave, np.maximum(ta, tb))
            inside = (minx <= sx) & (sx <= maxx) & (miny <= sy) & (sy <= maxy)
            t = np.where(inside, 0.0, np.where(meets & (enter <= leave), enter, math.inf))
            first = int(np.argmin(t))
            if t[first] < math.inf:
                hits[j], fractions[j] = first, t[first]
    return hits, fractions


def shapely_first_fractions(boxes, rays):
    """Each ray's first hit fraction by shapely (inf where it meets nothing)."""
    import shapely
    tree = shapely.STRtree(shapely.box(*boxes.T))
    lines = shapely.linestrings(rays.reshape(-1, 2, 2))
    ray, box = tree.query(lines, predicate="intersects")
    starts = shapely.points(rays[ray, :2])
    reached = shapely.distance(starts, shapely.intersection(lines[ray], tree.geometries[box]))
    fractions = np.full(len(rays), math.inf)
    np.minimum.at(fractions, ray, reached / shapely.length(lines[ray]))
    return fractions


def ray_costs(n=100_000, rays=10_000, shapely_rays=2_000, numpy_rays=300, length_cells=20.0,
              rounds=3, seed=0):
    """{"n", "rays", "shapely_rays", "numpy_rays", "length_cells", "us_per_ray":
    {method: fastest of `rounds` runs}, "agree"}: the uniform scene's objects as
    boxes, rays from random points in random directions, `length_cells` cells
    long; the slow peers cast only the first shapely_rays and numpy_rays. Every
    method must find the same first hits (fractions within 1e-9: shapely
    computes its own intersections) on the first numpy_rays."""
    scene = scenes.uniform(n, seed)
    rects = scene.bounds()
    boxes = np.hstack([rects[:, :2], rects[:, :2] + rects[:, 2:]])
    rng = np.random.default_rng(seed + 1)
    starts = rng.uniform((0.0, 0.0), scene.world, (rays, 2))
    angles = rng.uniform(0.0, 2.0 * math.pi, rays)
    ends = starts + length_cells * scene.cell_size * np.column_stack([np.cos(angles), np.sin(angles)])
    segments = np.hstack([starts, ends])
    grids = {"uniform grid": UniformGrid(scene.cell_size), "hierarchical grid": HierarchicalGrid()}
    for grid in grids.values():
        grid.insert_rects(rects)

    def grid_cast(grid):
        offsets, ids, fractions = grid.raycast_many(segments)[:3]
        found = np.full(rays, math.inf)
        found[np.flatnonzero(np.diff(offsets))] = fractions
        return found

    runs = {name: (rays, lambda grid=grid: grid_cast(grid)) for name, grid in grids.items()}
    runs[NUMPY] = (numpy_rays, lambda: numpy_first_hits(boxes, segments[:numpy_rays])[1])
    runs[SHAPELY] = (shapely_rays, lambda: shapely_first_fractions(boxes, segments[:shapely_rays]))
    us = dict.fromkeys(runs, math.inf)
    answers = {}
    for _ in range(rounds):         # rounds over every method: interference spreads out
        for name, (count, run) in runs.items():
            start = time.perf_counter()
            answers[name] = run()[:numpy_rays]
            us[name] = min(us[name], 1e6 * (time.perf_counter() - start) / count)
    reference = answers[NUMPY]
    agree = all(np.array_equal(np.isinf(a), np.isinf(reference))
                and np.allclose(a[~np.isinf(a)], reference[~np.isinf(reference)], rtol=0, atol=1e-9)
                for a in answers.values())
    return {"n": n, "rays": rays, "shapely_rays": shapely_rays, "numpy_rays": numpy_rays,
            "length_cells": length_cells, "us_per_ray": us, "agree": agree}


def report(costs):
    """Lines for the run's summary: each method's µs per ray and its speed
    relative to the fastest grid."""
    best = min(costs["us_per_ray"][name] for name in ("uniform grid", "hierarchical grid"))
    lines = [f"ray casts: the first hit among {costs['n']:,} boxes, rays {costs['length_cells']:g} "
             f"cells long ({costs['rays']:,} rays; shapely {costs['shapely_rays']:,}, numpy "
             f"{costs['numpy_rays']:,}; same hits from every method: "
             f"{'yes' if costs['agree'] else 'NO'})"]
    for name, us in costs["us_per_ray"].items():
        lines.append(f"  {name:<20} {us:9.2f} µs/ray  ({us / best:.1f}x the fastest grid's time)")
    return "\n".join(lines)
