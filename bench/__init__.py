"""python -m spatial_hash.bench: naive vs hashed broad phase, side by side.

Every method runs on the same scenes for the same frames (move every object,
bring the index up to date, emit all overlapping pairs), the methods of a scene
one frame each in turn; the scenes ending in "3d" are the same scenes with
spheres in a cube, raced by the methods that have a 3D form. The command checks
that all methods report the same pairs, prints ms/frame with speed ratios, and
writes a JSON file and a log-log scaling plot; then it times, in 2D, each
grid on threads against one thread over more frames, nearest-object
queries against scipy's cKDTree and ray casts against shapely and numpy,
checking that they agree, and the memory per object of the uniform grid and
cKDTree at 1,000,000 objects, each in a fresh process. The level scenes
(`level`, `level3d`: 100,000 static tiles and a few movers) time a frame that
costs what moved, beside Box2D v3 where box2d-python installs, which is also
raced on the uniform scene; and the two ways of a pair pass are timed against
each other. The quick default takes about 150 s; --full
runs the slow peers further and times more frames; --contended times everything
again with every core kept busy by competing processes.
"""
import argparse
import json
import os
import platform
import statistics
import sys
import time

import numpy as np

from spatial_hash._core import THREADED_FROM
from spatial_hash.bench import level, memory, nearest, peers, rays, scenes, threads
from spatial_hash.bench.busy import busy_processes

BATCH_METHODS = [m.name for m in peers.METHODS if m.batch]
UNIFORM, HIERARCHICAL = peers.BatchAPI.name, peers.HierarchicalBatchAPI.name
UNIFORM_METHODS = {peers.BatchAPI.name, peers.ThreadedBatchAPI.name}
# Threads never hurt: each threaded grid at most this many times its one-thread
# time, on an idle machine and with every core busy with other work.
THREAD_TARGETS = {"uniform": {"idle": 1.0, "contended": 1.0},
                  "hierarchical": {"idle": 1.1, "contended": 1.25}}
# (30,000 in the quick run: just past where a loop takes threads, the N at which
# starting them costs the most against the work they share.)
QUICK_SIZES = {"uniform": [1_000, 10_000, 30_000, 100_000, 1_000_000], "mixed": [100_000],
               "clustered": [100_000], "bullets": [10_100],
               "uniform3d": [1_000, 10_000, 100_000, 1_000_000], "clustered3d": [100_000],
               "mixed3d": [100_000]}
FULL_SIZES = {"uniform": [1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000],
              "mixed": [10_000, 100_000, 1_000_000], "clustered": [10_000, 100_000, 1_000_000],
              "bullets": [10_100],
              "uniform3d": [1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000],
              "clustered3d": [10_000, 100_000, 1_000_000], "mixed3d": [10_000, 100_000, 1_000_000]}
# The scenes of bench/level.py, and their dimensions.
LEVEL_SCENES = {"level": 2, "level3d": 3}
# The scaling plot's panels: the uniform scene in each dimension.
SCALING_SCENES = {"uniform": "uniform scene (equal circles, constant density)",
                  "uniform3d": "uniform3d scene (equal spheres, constant density)"}


def progress(text):
    print(text, file=sys.stderr, flush=True)


ROUNDS = 3


def phase_summary(frames):
    """Per phase, its median and fastest ms over the frames, and every frame's."""
    summary = {}
    for phase in frames[0]:
        values = [split[phase] for split in frames]
        summary[phase] = {"median": statistics.median(values), "best": min(values), "frame_ms": values}
    return summary


def run(sizes, methods, frames, full, load="idle"):
    """Time every method on every scene for `frames` frames, taken in ROUNDS
    rounds over the whole plan, the methods of a scene raced frame by frame
    (peers.race), so that a ratio between two methods compares frames taken at
    the same moment. A method's figure is its fastest frame, as timeit reports
    the fastest run: interference from the rest of the machine only ever adds
    time, and spread over rounds it cannot spoil every frame of one method. The
    median is kept too, with every frame's time, and the phase split of methods
    that report one. Every record is marked with `load`. Methods with no form
    for a scene's dimension are left out of its plan: they have no record."""
    def cap(method):
        return method.max_n_full if full else method.max_n

    plan = [(name, n, m) for name, ns in sizes.items() for n in ns for m in methods
            if scenes.dimension(name) in m.dims]
    counted = [(name, n, m) for name, n, m in plan if cap(m) is None or n <= cap(m)]
    times = {key: [] for key in counted}
    phases = {key: [] for key in counted}
    last_pairs = {}
    made = {}         # each scene is generated once; every run starts from a copy
    scene_plan = list(dict.fromkeys((name, n) for name, n, _ in counted))
    rounds = min(ROUNDS, frames)
    for r in range(rounds):
        share = frames // rounds + (1 if r < frames % rounds else 0)
        for step, (name, n) in enumerate(scene_plan, 1):
            keys = [key for key in counted if key[:2] == (name, n)]
            if (name, n) not in made:
                made[(name, n)] = scenes.SCENES[name](n)
            frame_times, frame_phases, pairs = peers.race(made[(name, n)], [m for _, _, m in keys], share)
            for key, ms, split, canonical in zip(keys, frame_times, frame_phases, pairs):
                times[key] += ms
                phases[key] += split
                last_pairs[key] = canonical
            progress(f"[round {r + 1}/{rounds}: {step:>2}/{len(scene_plan)}] {name:<11} N={n:>9,} fastest ms: "
                     + ", ".join(f"{m.name} {min(ms):.2f}" for (_, _, m), ms in zip(keys, frame_times)))
    records = []
    agreement = []
    for name, n, method in plan:
        key = (name, n, method)
        if key not in times:
            progress(f"{name:<11} N={n:>9,} {method.name:<46} skipped (too slow above "
                     f"N={cap(method):,}; --full raises the cap)")
            records.append({"scene": name, "n": n, "method": method.name, "skipped": True, "load": load})
            continue
        pairs = last_pairs[key]
        record = {"scene": name, "n": n, "method": method.name, "peer": method.peer,
                  "ms_per_frame": min(times[key]), "median_ms": statistics.median(times[key]),
                  "frame_ms": times[key],
                  "pairs": int(len(pairs)), "skipped": False, "load": load}
        if phases[key]:
            record["phases_ms"] = phase_summary(phases[key])
        records.append(record)
        agreement.append((name, n, method.name, pairs))
    return records, check_agreement(agreement)


def check_agreement(results):
    """Every method's pairs on a scene must equal every other's."""
    problems = []
    by_scene = {}
    for name, n, method, pairs in results:
        by_scene.setdefault((name, n), []).append((method, pairs))
    for (name, n), entries in by_scene.items():
        ref_method, ref = entries[-1]
        for method, pairs in entries[:-1]:
            if not np.array_equal(pairs, ref):
                problems.append(f"{name} N={n:,}: {method} reports {len(pairs):,} pairs, "
                                f"{ref_method} {len(ref):,}")
    return problems


def table(records):
    """ms/frame per method, and how many times slower each is than the fastest of
    this library's batch methods on that scene (marked "best")."""
    lines = [f"{'scene':<12}{'N':>10}  {'method':<46}{'ms/frame':>10}  {'vs our fastest':>14}"]
    for key in dict.fromkeys((r["scene"], r["n"]) for r in records):
        rows = [r for r in records if (r["scene"], r["n"]) == key]
        ours = [r for r in rows if r["method"] in BATCH_METHODS and not r["skipped"]]
        best = min(ours, key=lambda r: r["ms_per_frame"], default=None)
        for r in rows:
            if r["skipped"]:
                ms, versus = "skipped", ""
            else:
                ms = f"{r['ms_per_frame']:.2f}"
                versus = "best" if r is best else \
                    f"{r['ms_per_frame'] / best['ms_per_frame']:.1f}x slower" if best else ""
            lines.append(f"{key[0]:<12}{key[1]:>10,}  {r['method']:<46}{ms:>10}  {versus:>14}")
        lines.append("")
    return "\n".join(lines)


def phase_report(records):
    """One line per record of the uniform and hierarchical batch methods that
    has the core's phases: its fastest frame split into them, and the rest of
    that frame (moving the scene, the calls around the core)."""
    lines = []
    for r in records:
        if r["method"] not in (UNIFORM, HIERARCHICAL) or "phases_ms" not in r:
            continue
        fastest = r["frame_ms"].index(r["ms_per_frame"])
        split = {phase: times["frame_ms"][fastest] for phase, times in r["phases_ms"].items()}
        parts = " + ".join(f"{phase} {ms:.2f}" for phase, ms in split.items())
        other = r["ms_per_frame"] - sum(split.values())
        lines.append(f"{r['scene']:<12}{r['n']:>10,}  {r['method']:<46}"
                     f"{r['ms_per_frame']:>10.2f} ms = {parts} + other {other:.2f}")
    return "\n".join(lines)


def of_load(records, load):
    return [r for r in records if r["load"] == load]


def ms_of(records, scene, n, method):
    for r in records:
        if (r["scene"], r["n"], r["method"]) == (scene, n, method) and not r["skipped"]:
            return r["ms_per_frame"]
    return None


def ratio(records, scene, n, slower, faster):
    a, b = ms_of(records, scene, n, slower), ms_of(records, scene, n, faster)
    return None if a is None or b is None else a / b


def per_object_costs(n=100_000, calls=100_000):
    """µs per call of the object-keyed API with N objects: an update that stays in
    its cells, and a query_nearby returning about ten objects, both at every
    object in turn (cold caches, as a game loop over its entities sees them) and
    repeated at one spot (warm: the call overhead alone)."""
    from spatial_hash.object_hashes import OptimizedSpatialHash
    scene = scenes.uniform(n)
    index = OptimizedSpatialHash(scene.cell_size)
    bounds = [tuple(b) for b in scene.bounds().tolist()]
    for obj, b in enumerate(bounds):
        index.insert(obj, b)
    picked = bounds[:calls]
    update = index.update
    start = time.perf_counter()
    for obj, b in enumerate(picked):
        update(obj, b)
    update_us = 1e6 * (time.perf_counter() - start) / len(picked)
    # A box 1.5 cells wide around an object holds about ten objects at this density.
    side = 1.5 * scene.cell_size
    size = (side, side)
    corners = [(b[0] - side / 4, b[1] - side / 4) for b in picked]
    query = index.query_nearby
    found = 0
    start = time.perf_counter()
    for c in corners:
        found += len(query(c, size))
    cold_us = 1e6 * (time.perf_counter() - start) / len(corners)
    spot = corners[0]
    start = time.perf_counter()
    for _ in corners:
        query(spot, size)
    warm_us = 1e6 * (time.perf_counter() - start) / len(corners)
    return {"n": n, "update_same_cells_us": update_us, "query_nearby_us": cold_us,
            "query_nearby_warm_us": warm_us, "query_nearby_warm_results": len(query(spot, size)),
            "query_nearby_mean_results": found / len(corners)}


def per_object_best(runs=ROUNDS):
    """per_object_costs, each time the best of a few runs (as for the frames)."""
    results = [per_object_costs() for _ in range(runs)]
    return {key: min(r[key] for r in results) for key in results[0]}


# (scene, N, peer, each batch method at least this many times faster)
PEER_TARGETS = [
    ("uniform", 100_000, peers.KDTree.name, 5.0),
    ("uniform", 100_000, peers.STRTree.name, 20.0),
    ("uniform", 1_000_000, peers.KDTree.name, 5.0),
    ("uniform3d", 100_000, peers.KDTree.name, 5.0),
    ("uniform3d", 1_000_000, peers.KDTree.name, 5.0),
]


def targets_report(records, micro, thread_records):
    """The speed targets on the idle run's records, and each threaded grid's
    time over its one-thread time under every load that was run (from
    thread_records: the median over frames taken in turn)."""
    lines = []
    idle = of_load(records, "idle")

    def verdict(what, r, goal, at_least=True, aside=""):
        if r is not None:     # targets of scenes this run left out are not listed
            ok = r >= goal if at_least else r <= goal
            lines.append(f"  - {what}: {r:.2f}x (target {'at least' if at_least else 'at most'} "
                         f"{goal:g}x): {'met' if ok else 'NOT met'}{aside}")
    for scene, n, peer, goal in PEER_TARGETS:
        for method in BATCH_METHODS:
            verdict(f"{method} vs {peer} at {scene} N={n:,}", ratio(idle, scene, n, peer, method), goal)
    verdict(f"{HIERARCHICAL} vs {UNIFORM} at mixed N=100,000",
            ratio(idle, "mixed", 100_000, UNIFORM, HIERARCHICAL), 3.0)
    # The uniform grid's weak spot (one cell size for sizes 64x apart) is the
    # hierarchical grid's reason to be: the target is the hierarchical grid's.
    for method in [m for m in BATCH_METHODS if m not in UNIFORM_METHODS]:
        mixed = ms_of(idle, "mixed", 100_000, method)
        uniform = ms_of(idle, "uniform", 100_000, method)
        verdict(f"{method}, mixed vs uniform scene at N=100,000",
                None if mixed is None or uniform is None else mixed / uniform, 1.5, at_least=False)
    for scene, n in dict.fromkeys((r["scene"], r["n"]) for r in idle):
        # The uniform grid's own scenes: one size of object. The targets were set
        # for 2D; the 3D scenes' figures are in the table alone.
        if scene != "mixed" and scenes.dimension(scene) == 2:
            verdict(f"{UNIFORM} vs {HIERARCHICAL} at {scene} N={n:,}",
                    ratio(idle, scene, n, UNIFORM, HIERARCHICAL), 1.5, at_least=False)
    best = [ms for ms in (ms_of(idle, "uniform", 100_000, m) for m in (UNIFORM, HIERARCHICAL))
            if ms is not None]
    if best:
        lines.append(f"  - best one-thread batch frame at uniform N=100,000: {min(best):.2f} ms "
                     f"(target at most 4 ms): {'met' if min(best) <= 4.0 else 'NOT met'}")
    for r in thread_records:
        what = f"{r['grid']} grid, {peers.THREADS} threads vs one thread at {r['scene']} N={r['n']:,}, {r['load']}"
        aside = f" (median over {r['frames']} frames taken in turn; fastest frames {r['fastest_ratio']:.2f}x)"
        if r["n"] < THREADED_FROM:
            # The same work on both: whatever the ratio, it measures the machine.
            lines.append(f"  - {what}: {r['ratio']:.2f}x{aside}: no loop takes a second thread "
                         f"below {THREADED_FROM:,} objects, so not a target")
        else:
            verdict(what, r["ratio"], THREAD_TARGETS[r["grid"]][r["load"]], at_least=False, aside=aside)
    for key, label, goal in (("update_same_cells_us", "per-object update staying in its cells", 0.3),
                             ("query_nearby_us", "per-object query_nearby (~%.0f results)"
                              % micro["query_nearby_mean_results"], 1.0)):
        outcome = "met" if micro[key] < goal else "NOT met"
        lines.append(f"  - {label}: {micro[key]:.2f} µs/call (target < {goal:g} µs): {outcome}")
    lines.append(f"    (the same query repeated at one spot, warm caches: "
                 f"{micro['query_nearby_warm_us']:.2f} µs for {micro['query_nearby_warm_results']} results)")
    return "\n".join(lines)


def plot(records, path):
    """ms per frame against N, log-log, on the uniform scene: one panel per
    dimension that has records, each method in the same colour in both."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    drawn = {scene: [r for r in records if r["scene"] == scene and not r["skipped"]]
             for scene in SCALING_SCENES}
    drawn = {scene: rows for scene, rows in drawn.items() if rows} or {"uniform": []}
    methods = list(dict.fromkeys(r["method"] for rows in drawn.values() for r in rows))
    colours = {method: f"C{k % 10}" for k, method in enumerate(methods)}
    fig, axes = plt.subplots(1, len(drawn), figsize=(8 * len(drawn), 5.5), squeeze=False, sharey=True)
    for ax, (scene, rows) in zip(axes[0], drawn.items()):
        for method in dict.fromkeys(r["method"] for r in rows):
            pts = sorted((r["n"], r["ms_per_frame"]) for r in rows if r["method"] == method)
            ax.plot(*zip(*pts), marker="o", linewidth=2.5 if "spatial_hash" in method else 1.5,
                    color=colours[method], label=method)
        ax.axhline(1000 / 60, color="grey", linestyle=":", linewidth=1)
        ax.text(1.1e3, 1000 / 60 * 1.1, "16.7 ms (60 FPS)", color="grey")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("objects (N)")
        ax.set_title(f"Broad phase, {SCALING_SCENES[scene]}")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    axes[0][0].set_ylabel("ms per frame (move + update + all pairs)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m spatial_hash.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true", help="larger N for the slow peers, more frames")
    parser.add_argument("--scenes", default=None,
                        help="comma-separated: " + ",".join(list(scenes.SCENES) + list(LEVEL_SCENES)))
    parser.add_argument("--sizes", default=None, help="comma-separated N, overriding every scene's")
    parser.add_argument("--frames", type=int, default=None, help="timed frames per method (default 9, 15 with --full)")
    parser.add_argument("--contended", action="store_true",
                        help="time everything twice: idle, then beside one busy process per core")
    parser.add_argument("--out", default="bench_results", help="folder for results.json and scaling.png")
    parser.add_argument("--store", metavar="FOLDER",
                        help="also keep the results as FOLDER/<machine>/<date>.json (a checkout's: bench/results)")
    parser.add_argument("--machine", default=platform.node(),
                        help="the machine's name for --store (default: its host name)")
    parser.add_argument("--snapshot", metavar="PNG", help="draw one frame of a scene and exit")
    parser.add_argument("--suggest", metavar="SIZES",
                        help="recommend an index and cell size for a benchmark scene's objects "
                             "(a scene name) or a text file of 'diameter' or 'width height' lines, and exit")
    args = parser.parse_args(argv)

    if args.snapshot:
        from spatial_hash.bench.snapshot import draw
        draw(args.snapshot)
        print(f"snapshot written to {args.snapshot}")
        return 0

    if args.suggest:
        from spatial_hash import tuning
        if args.suggest in scenes.SCENES:
            sizes = tuning.sizes_of_scene(scenes.SCENES[args.suggest](100_000))
        else:
            try:
                sizes = tuning.load_sizes(args.suggest)
            except (OSError, ValueError) as error:
                parser.error(f"--suggest: {error}")
        advice = tuning.suggest(sizes)
        cell = f" with cell_size={advice['cell_size']:g}" if advice["cell_size"] else ""
        print(f"use the {advice['index']} grid{cell}: {advice['reason']}")
        return 0

    sizes = dict(FULL_SIZES if args.full else QUICK_SIZES)
    level_dims = list(LEVEL_SCENES.values())
    if args.scenes:
        wanted = args.scenes.split(",")
        level_dims = [dim for name, dim in LEVEL_SCENES.items() if name in wanted]
        wanted = [s for s in wanted if s not in LEVEL_SCENES]
        unknown = [s for s in wanted if s not in scenes.SCENES]
        if unknown:
            parser.error(f"unknown scene(s) {unknown}; choose from {list(scenes.SCENES)}")
        sizes = {s: sizes.get(s, QUICK_SIZES[s]) for s in wanted}
    if args.sizes:
        ns = [int(v.replace("_", "")) for v in args.sizes.split(",")]
        sizes = {s: (ns if s != "bullets" else sizes[s]) for s in sizes}
    frames = args.frames or (15 if args.full else 9)

    started = time.perf_counter()
    records, problems = run(sizes, peers.METHODS, frames, args.full)
    progress("timing threads against one thread, frames in turn ...")
    sizes_2d = {name: ns for name, ns in sizes.items() if scenes.dimension(name) == 2}
    thread_records = threads.thread_costs(sizes_2d, frames, "idle")
    busy = (os.cpu_count() or 1) if args.contended else 0
    if busy:
        progress(f"timing again beside {busy} busy processes ...")
        with busy_processes(busy):
            contended, contended_problems = run(sizes, peers.METHODS, frames, args.full, load="contended")
            thread_records += threads.thread_costs(sizes_2d, frames, "contended")
        records += contended
        problems += [f"beside busy processes, {p}" for p in contended_problems]
    problems += [f"{r['grid']} grid, {r['scene']} N={r['n']:,}, {r['load']}: one thread and "
                 f"{peers.THREADS} threads report different pairs"
                 for r in thread_records if not r["pairs_agree"]]
    progress("timing the per-object API ...")
    micro = per_object_best()
    progress("timing nearest-object queries and ray casts ...")
    nearest_costs = [nearest.nearest_costs(radius=r) for r in nearest.RADII]
    ray_costs = rays.ray_costs()
    progress("measuring memory per object, each index in a fresh process ...")
    memory_costs = memory.memory_costs()
    level_records, box2d_records, crossover = [], [], []
    if level_dims:
        progress("timing the level scenes, Box2D and the two ways of a pair pass ...")
        level_records = level.level_costs(dims=level_dims)
        box2d_records = level.box2d_costs() if 2 in level_dims else []
        crossover = level.crossover_costs(dims=level_dims)
    problems += [f"{r['scene']} M={r['movers']:,}: the library's ways report different pairs"
                 for r in level_records if not (r["static_agrees_with_resting"] and r["alone_agrees"])]
    problems += [f"{r.get('scene')} {r.get('movers', r.get('n')):,}: Box2D's pairs differ by more "
                 f"than {level.BORDERLINE} from touching"
                 for r in level_records + box2d_records if r["box2d"] and r["box2d"]["borderline"] is None]

    print(f"\nms/frame: each method's fastest of {frames} frames, taken in {min(ROUNDS, frames)} rounds "
          f"(every frame and the medians are in the JSON file)")
    titles = {"idle": "idle machine:", "contended": f"beside {busy} busy processes, one per core:"}
    for load in dict.fromkeys(r["load"] for r in records):
        if busy:
            print(titles[load])
        print(table(of_load(records, load)))
        phases = phase_report(of_load(records, load))
        if phases:
            print(f"where the time goes (fastest frame, ms: the core's phases; other: moving the scene, "
                  f"the calls around the core):\n{phases}\n")
    if problems:
        print("PAIR SETS DISAGREE:")
        for p in problems:
            print("  " + p)
    else:
        print("All methods report identical pair sets on every scene.")
    print(f"\nTargets (ratios measured in this run, {os.cpu_count()} cores):")
    print(targets_report(records, micro, thread_records))
    for costs in nearest_costs:
        print("\n" + nearest.report(costs))
    print("\n" + rays.report(ray_costs))
    print("\n" + memory.report(memory_costs))
    if level_dims:
        print("\n" + level.report(level_records))
        print("\n" + level.box2d_report(box2d_records))
        print("\n" + level.crossover_report(crossover))

    os.makedirs(args.out, exist_ok=True)
    json_path = os.path.join(args.out, "results.json")
    document = {"machine": {"python": platform.python_version(), "platform": platform.platform(),
                            "cpus": os.cpu_count()},
                "frames": frames, "busy_processes": busy, "records": records,
                "threads": thread_records, "per_object": micro,
                "nearest": nearest_costs, "rays": ray_costs, "memory": memory_costs,
                "level": level_records, "box2d": box2d_records, "pair_pass_ways": crossover,
                "pairs_agree": not problems, "disagreements": problems}
    with open(json_path, "w") as f:
        json.dump(document, f, indent=2)
    if args.store:
        from spatial_hash.bench.results import store
        print(f"stored {store(document, args.store, args.machine)}")
    png_path = os.path.join(args.out, "scaling.png")
    plot(of_load(records, "idle"), png_path)
    print(f"\nwrote {json_path} and {png_path} in {time.perf_counter() - started:.0f} s")
    return 1 if problems or not (all(c["agree"] for c in nearest_costs) and ray_costs["agree"]) else 0
