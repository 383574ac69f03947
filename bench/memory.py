"""Memory per object: the resident memory an index adds, in a fresh process,
after it has taken N objects of the uniform scene, moved them once and
returned their pairs; the uniform grid in 2D and 3D beside scipy's cKDTree
built on the same centres, with its pairs. Each figure is measured in a process
of its own (python -m spatial_hash.bench.memory INDEX N DIM), so what an
earlier index freed but the allocator kept cannot hide what this one takes;
the scene is made before the first reading, and what the call returns (ids,
pairs) counts."""
import os
import subprocess
import sys

INDEXES = ("uniform grid", "scipy cKDTree")
# Bytes per object an index may take, the uniform grid's target per dimension.
TARGETS = {2: 96, 3: 128}


def resident_bytes():
    """This process's resident memory (Linux: /proc/self/statm)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def measure(index, n, dim):
    """Bytes per object the index adds (run in the process that measures)."""
    import numpy as np
    from spatial_hash.bench import peers, scenes
    scene = scenes.uniform(n, dim=dim)
    moved = scene.pos + 0.25
    before = resident_bytes()
    if index == "uniform grid":
        grid = peers.GRIDS[dim]["uniform"](scene.cell_size)
        insert, update = peers.BALL_CALLS[dim]
        ids = getattr(grid, insert)(scene.pos, scene.extent)
        getattr(grid, update)(ids, moved, scene.extent)
        kept = (grid, ids, grid.pair_ids())
    else:
        from scipy.spatial import cKDTree
        tree = cKDTree(moved)
        kept = (tree, tree.query_pairs(2.0 * float(np.max(scene.extent)), output_type="ndarray"))
    return (resident_bytes() - before) / n if kept else None


def memory_costs(n=1_000_000, dims=(2, 3)):
    """[{"index", "n", "dim", "bytes_per_object"}]: each index in each dimension,
    measured in a fresh interpreter; None where /proc is missing."""
    records = []
    for dim in dims:
        for index in INDEXES:
            done = subprocess.run([sys.executable, "-m", "spatial_hash.bench.memory", index, str(n), str(dim)],
                                  capture_output=True, text=True)
            value = float(done.stdout) if done.returncode == 0 else None
            records.append({"index": index, "n": n, "dim": dim, "bytes_per_object": value})
    return records


def report(records):
    """Lines for the run's summary, the uniform grid's against its target."""
    lines = [f"memory: resident bytes per object after insert, update and pairs of "
             f"{records[0]['n']:,} objects, each index in a fresh process"]
    for r in records:
        value = r["bytes_per_object"]
        shown = "not measured (no /proc here)" if value is None else f"{value:6.0f} B"
        target = ""
        if value is not None and r["index"] == "uniform grid":
            goal = TARGETS[r["dim"]]
            target = f"  (target at most {goal} B: {'met' if value <= goal else 'NOT met'})"
        lines.append(f"  {r['dim']}D {r['index']:<14} {shown}{target}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(measure(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
