"""One frame of a scene as a picture, like the classic broad-phase demo: the grid's cells,
objects tinted when they collide, and the broad phase's candidate pairs (objects
sharing a cell) as lines."""
import numpy as np

from spatial_hash.bench import scenes
from spatial_hash._core import UniformGrid


def draw(path, n=300, seed=3):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import LineCollection, PatchCollection
    from matplotlib.patches import Circle

    scene = scenes.uniform(n, seed=seed, radius=6.0)
    grid = UniformGrid(scene.cell_size)
    ids = grid.insert_circles(scene.pos, scene.extent)
    hits = grid.pair_ids()
    colliding = np.zeros(n, bool)
    colliding[ids.searchsorted(hits.ravel())] = True
    candidates = grid.candidate_ids().tolist()
    w, h = scene.world

    fig, ax = plt.subplots(figsize=(9, 9 * h / w))
    s = scene.cell_size
    for x in np.arange(0.0, w + s, s):
        ax.axvline(x, color="#dddddd", linewidth=0.6, zorder=0)
    for y in np.arange(0.0, h + s, s):
        ax.axhline(y, color="#dddddd", linewidth=0.6, zorder=0)
    segments = [(scene.pos[a], scene.pos[b]) for a, b in candidates]
    ax.add_collection(LineCollection(segments, colors="#7fa7d9", linewidths=0.8, zorder=1))
    discs = [Circle(p, r) for p, r in zip(scene.pos, scene.extent)]
    ax.add_collection(PatchCollection(discs, facecolors=np.where(colliding, "#e4572e", "#9bc1bc"),
                                      edgecolors="#333333", linewidths=0.5, zorder=2))
    ax.set_xlim(0, w)
    ax.set_ylim(h, 0)
    ax.set_aspect("equal")
    ax.set_title(f"{n} objects, cell {s:g}: {len(candidates)} candidate pairs (lines), "
                 f"{grid.narrow_phase_checks} narrow-phase checks, {len(hits)} hits (red)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
