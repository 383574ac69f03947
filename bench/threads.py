"""Threads never hurt: each grid on THREADS threads against the same grid on
one, on every benchmark scene, raced frame by frame (peers.race).

The figure is the median, over the pairs of frames taken side by side, of the
threaded frame's time over the one-thread frame's: a typical frame is what a
game feels, where the fastest can hide frames that wait for a core. Small
scenes get as many frames as fit in `min_seconds`, beyond the table's few.
"""
import statistics

from spatial_hash.bench import peers, scenes

# Per scene and load: small scenes keep taking frames until this much time has passed.
MIN_SECONDS = 0.3
# Per grid: its method on one thread and on THREADS.
PAIRED = {"uniform": (peers.BatchAPI, peers.ThreadedBatchAPI),
          "hierarchical": (peers.HierarchicalBatchAPI, peers.ThreadedHierarchicalBatchAPI)}


def thread_costs(sizes, frames, load, min_seconds=MIN_SECONDS):
    """One record per grid, scene and N of `sizes` ({scene: [N, ...]}), marked
    with `load`: every frame's ms on one thread and on THREADS threads
    (peers.race), their fastest and median, `ratio` (the median over the
    pairs of frames taken in turn of the threaded frame's time over the
    one-thread frame's), `fastest_ratio` (of the fastest frames), and whether
    both reported the same pairs. No records on a one-core machine (no threaded
    method)."""
    if peers.THREADS < 2:
        return []
    records = []
    for grid, paired in PAIRED.items():
        for name, ns in sizes.items():
            for n in ns:
                records.append(thread_cost(grid, paired, name, n, frames, load, min_seconds))
    return records


def thread_cost(grid, paired, name, n, frames, load, min_seconds):
    """thread_costs' record of one grid (its `paired` methods) on one scene."""
    (one, many), _, (pairs_one, pairs_many) = peers.race(scenes.SCENES[name](n), paired, frames,
                                                         min_seconds)
    return {"grid": grid, "scene": name, "n": n, "load": load, "frames": len(one),
            "one_thread_frame_ms": one, "threads_frame_ms": many,
            "one_thread_ms": min(one), "threads_ms": min(many),
            "one_thread_median_ms": statistics.median(one),
            "threads_median_ms": statistics.median(many),
            "ratio": statistics.median(t / o for o, t in zip(one, many)),
            "fastest_ratio": min(many) / min(one),
            "pairs_agree": bool(len(pairs_one) == len(pairs_many) and (pairs_one == pairs_many).all())}
