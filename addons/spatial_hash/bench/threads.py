"""Threads never hurt: the hierarchical grid on THREADS threads against the same
grid on one, on every benchmark scene, their frames taken in turn.

One frame of each, the order alternating, so that both see the machine as it is
at that moment, and the figure is the median, over those pairs of frames, of
one's time over the other's. Timed one after the other, the two would also
measure how the machine's speed drifted in between, which on a shared virtual
machine can be more than the difference being measured; and a typical frame is
what a game feels, where the fastest can hide frames that wait for a core.
Small scenes get as many frames as fit in `min_seconds`.
"""
import statistics
import time

from spatial_hash.bench import peers, scenes

# Per scene and load: small scenes keep taking frames until this much time has passed.
MIN_SECONDS = 0.3
PAIRED = (peers.HierarchicalBatchAPI, peers.ThreadedHierarchicalBatchAPI)


def interleaved_frames(scene, methods, frames, min_seconds):
    """ms per frame of each method on its own copy of `scene`, after one warm-up
    frame each: at least `frames` frames each and at least `min_seconds` in all,
    one frame of each method in turn (first one order, then the other). Also
    each method's pairs on the last frame, in canonical form."""
    runs = [method_cls.ready(scene) for method_cls in methods]
    times = [[] for _ in runs]
    results = [None] * len(runs)
    taken = 0
    started = time.perf_counter()
    while taken < frames or time.perf_counter() - started < min_seconds:
        for k in range(len(runs)) if taken % 2 == 0 else reversed(range(len(runs))):
            method, own = runs[k]
            ms, results[k] = method.timed_frame(own)
            times[k].append(ms)
        taken += 1
    return times, [method.canonical(result) for (method, _), result in zip(runs, results)]


def thread_costs(sizes, frames, load, min_seconds=MIN_SECONDS):
    """One record per scene and N of `sizes` ({scene: [N, ...]}), marked with
    `load`: every frame's ms on one thread and on THREADS threads
    (interleaved_frames), their fastest and median, `ratio` (the median over the
    pairs of frames taken in turn of the threaded frame's time over the
    one-thread frame's), `fastest_ratio` (of the fastest frames), and whether
    both reported the same pairs. No records on a one-core machine (no threaded
    method)."""
    if peers.THREADS < 2:
        return []
    records = []
    for name, ns in sizes.items():
        for n in ns:
            (one, many), (pairs_one, pairs_many) = interleaved_frames(
                scenes.SCENES[name](n), PAIRED, frames, min_seconds)
            records.append({
                "scene": name, "n": n, "load": load, "frames": len(one),
                "one_thread_frame_ms": one, "threads_frame_ms": many,
                "one_thread_ms": min(one), "threads_ms": min(many),
                "one_thread_median_ms": statistics.median(one),
                "threads_median_ms": statistics.median(many),
                "ratio": statistics.median(t / o for o, t in zip(one, many)),
                "fastest_ratio": min(many) / min(one),
                "pairs_agree": bool(len(pairs_one) == len(pairs_many) and (pairs_one == pairs_many).all())})
    return records
