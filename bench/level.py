"""The level scenes, `level` (2D) and `level3d`: a game level's tiles, which
never move, and a few movers among them. 100,000 static boxes laid out as a
tile grid with gaps (tiles of side 2, 60% of the slots filled, neighbours
sharing edges) and M moving circles (spheres) of radius 1; each frame moves the
movers, updates them and lists every overlapping pair.

Each way of holding the level is timed frame by frame in turn, in one run:
- the tiles inserted static (two static objects never pair): the frame should
  cost what the movers cost;
- the movers alone in an index of their own: what the movers cost;
- the tiles inserted as ordinary objects and simply never updated (resting):
  their pairs among themselves are part of every answer, so the frame adds a
  copy of those pairs, which is timed too (numpy's copy of the result);
- Box2D v3 (box2d-python, where it installs: CPython 3.12 and 3.13), in the
  setup found to report overlapping pairs with the least extra work: the
  tiles as static bodies (one body, its static tree rebuilt
  once), each mover a dynamic body of zero density with one shape, every
  shape shrunk by half of Box2D's speculative distance so that a contact
  begins where the shapes meet, and the pairs kept from its contact begin and
  end events. Its time is b2World_Step and the reading of the events; setting
  the movers' positions through the binding is not counted.
The pair sets are checked against each other: the library's ways must agree
exactly; Box2D, which works in float32, must agree but for pairs whose shapes
are within BORDERLINE of touching.
"""
import math
import statistics
import time

import numpy as np

from spatial_hash._core import UniformGrid
from spatial_hash._core3d import UniformGrid3D
from spatial_hash.bench import scenes

TILES = 100_000
TILE = 2.0              # a tile's side
FILLED = 0.6            # the share of the grid's slots that hold a tile
MOVER_RADIUS = 1.0
SPEED = 30.0
MOVERS = (1_000, 10_000)
# Box2D's float32 numbers miss or add pairs whose shapes are this close to
# touching (world units).
BORDERLINE = 0.01
# Box2D begins a contact where shapes are within its speculative distance
# (4 * b2_linearSlop = 4 * 0.005): each shape is shrunk by half of it.
SPECULATIVE = 0.02


class Level:
    """Tiles that never move, as (n, 2 * dim) rows of corner and size, and
    movers (a scenes.Scene of circles or spheres of radius MOVER_RADIUS) in
    the same world. Canonical ids: the tiles 0 .. n - 1, then the movers."""

    def __init__(self, tiles, movers):
        self.tiles, self.movers = tiles, movers
        self.dim = movers.dim
        self.name = movers.name


def level_scene(movers, dim=2, seed=0, tiles=TILES):
    """`tiles` tiles on a grid with gaps, and `movers` circles (spheres) among them."""
    rng = np.random.default_rng(seed)
    slots = math.ceil((tiles / FILLED) ** (1.0 / dim))
    while True:     # a whole number of tiles, whatever the draw
        filled = np.flatnonzero(rng.random(slots ** dim) < FILLED)
        if len(filled) >= tiles:
            break
    filled = np.sort(rng.choice(filled, tiles, replace=False))
    corners = np.stack(np.unravel_index(filled, (slots,) * dim), axis=1) * TILE
    tiles = np.hstack([corners, np.full((tiles, dim), TILE)]).astype(np.float64)
    world = (slots * TILE,) * dim
    pos = rng.uniform(0.0, world[0], size=(movers, dim))
    vel = rng.uniform(-SPEED, SPEED, size=(movers, dim))
    return Level(tiles, scenes.Scene(f"level{'' if dim == 2 else '3d'}", "circle", pos,
                                     np.full(movers, MOVER_RADIUS), vel, world,
                                     scenes.CELLS_PER_DIAMETER[dim] * 2.0 * MOVER_RADIUS))


def uniform_scene(n):
    """The benchmark's uniform scene (every object moves) as a level without tiles."""
    return Level(np.empty((0, 4)), scenes.uniform(n))


class Way:
    """One way of holding the level: frame() brings the movers up to date and
    returns the pairs, which canonical() turns into canonical ids."""

    name = ""

    def __init__(self, level):
        self.level = level

    def pass_kind(self):
        return ""


class Grid(Way):
    """The uniform grid, tiles static (`static`), resting (not static, never
    updated) or absent (`movers alone`)."""

    def __init__(self, level, tiles):
        super().__init__(level)
        self.tiles = tiles
        self.name = {"static": "spatial_hash, tiles static", "resting": "spatial_hash, tiles resting",
                     None: "spatial_hash, movers alone"}[tiles]
        movers = level.movers
        grid_class = UniformGrid if level.dim == 2 else UniformGrid3D
        self.grid = grid_class(movers.cell_size, (0.0,) * level.dim, 4, 1)
        insert_boxes = self.grid.insert_rects if level.dim == 2 else self.grid.insert_boxes
        insert_balls = self.grid.insert_circles if level.dim == 2 else self.grid.insert_spheres
        self.update = self.grid.update_circles if level.dim == 2 else self.grid.update_spheres
        first = 0
        if tiles:
            first = len(insert_boxes(level.tiles, static=tiles == "static"))
        self.ids = insert_balls(movers.pos, movers.extent)
        # Ids are handed out in order from 0: a mover's id minus `first` is its index.
        self.offset = len(level.tiles) - first
        self.grid.pair_ids()

    def frame(self):
        self.update(self.ids, self.level.movers.pos, self.level.movers.extent)
        return self.grid.pair_ids()

    def canonical(self, pairs):
        return pairs + np.where(pairs >= len(self.level.tiles) - self.offset, self.offset, 0).astype(np.int32)

    def pass_kind(self):
        return self.grid.last_pair_pass()


class Box2D(Way):
    """Box2D v3 (see the module's docstring for the setup)."""

    name = "Box2D v3 (box2d-python)"

    def __init__(self, level):
        super().__init__(level)
        from box2d._box2d import ffi, lib
        self.ffi, self.lib = ffi, lib
        world_def = lib.b2DefaultWorldDef()
        world_def.gravity.x = world_def.gravity.y = 0.0
        world_def.enableSleep = False
        self.world = lib.b2CreateWorld(ffi.addressof(world_def))
        shrink = SPECULATIVE / 2
        body_def = lib.b2DefaultBodyDef()
        body_def.type = lib.b2_staticBody
        ground = lib.b2CreateBody(self.world, ffi.addressof(body_def))
        shape_def = lib.b2DefaultShapeDef()
        shape_def.enableContactEvents = True
        half = TILE / 2 - shrink
        self.shape_index = {}
        for k, (x, y, _, _) in enumerate(level.tiles.tolist()):
            box = lib.b2MakeOffsetBox(half, half, (x + TILE / 2, y + TILE / 2), lib.b2Rot_identity)
            shape = lib.b2CreatePolygonShape(ground, ffi.addressof(shape_def), ffi.addressof(box))
            self.shape_index[shape.index1] = k
        lib.b2World_RebuildStaticTree(self.world)
        body_def = lib.b2DefaultBodyDef()
        body_def.type = lib.b2_dynamicBody
        shape_def.density = 0.0
        circle = ffi.new("b2Circle*")
        circle.radius = MOVER_RADIUS - shrink
        self.bodies = []
        for k, (x, y) in enumerate(level.movers.pos.tolist()):
            body_def.position.x, body_def.position.y = x, y
            body = lib.b2CreateBody(self.world, ffi.addressof(body_def))
            shape = lib.b2CreateCircleShape(body, ffi.addressof(shape_def), circle)
            self.shape_index[shape.index1] = len(level.tiles) + k
            self.bodies.append(body)
        self.touching = set()
        self.timed = 0.0
        self.rotation = lib.b2Rot_identity
        self._place()
        self._step()

    def _place(self):
        set_transform, rotation = self.lib.b2Body_SetTransform, self.rotation
        for body, (x, y) in zip(self.bodies, self.level.movers.pos.tolist()):
            set_transform(body, (x, y), rotation)

    def _step(self):
        lib, index, touching = self.lib, self.shape_index, self.touching
        started = time.perf_counter()
        lib.b2World_Step(self.world, 1.0 / 60.0, 1)
        events = lib.b2World_GetContactEvents(self.world)
        for k in range(events.beginCount):
            e = events.beginEvents[k]
            a, b = index[e.shapeIdA.index1], index[e.shapeIdB.index1]
            touching.add((a, b) if a < b else (b, a))
        for k in range(events.endCount):
            e = events.endEvents[k]
            a, b = index[e.shapeIdA.index1], index[e.shapeIdB.index1]
            touching.discard((a, b) if a < b else (b, a))
        self.timed = time.perf_counter() - started

    def frame(self):
        self._place()
        self._step()
        return np.array(sorted(self.touching), dtype=np.int32).reshape(-1, 2)

    def canonical(self, pairs):
        return pairs


def box2d_available():
    try:
        import box2d._box2d  # noqa: F401
    except ImportError:
        return False
    return True


def separation(level, a, b):
    """How far apart the shapes of canonical ids a < b are (negative: overlap
    depth along the nearest way out, for circles; 0 for boxes that touch)."""
    dim, movers, tiles = level.dim, level.movers, len(level.tiles)

    def shape(i):
        if i < tiles:
            return level.tiles[i, :dim], level.tiles[i, :dim] + level.tiles[i, dim:], None
        c = movers.pos[i - tiles]
        return c - MOVER_RADIUS, c + MOVER_RADIUS, c
    lo_a, hi_a, ca = shape(a)
    lo_b, hi_b, cb = shape(b)
    if ca is not None and cb is not None:
        return float(np.linalg.norm(ca - cb) - 2 * MOVER_RADIUS)
    if ca is None and cb is None:
        return float(np.max(np.maximum(lo_a - hi_b, lo_b - hi_a)))
    c, lo, hi = (ca, lo_b, hi_b) if ca is not None else (cb, lo_a, hi_a)
    return float(np.linalg.norm(c - np.clip(c, lo, hi)) - MOVER_RADIUS)


def compare(level, expected, got):
    """(exact, borderline): whether `got` equals `expected` as sets of pairs,
    and how many pairs differ with shapes within BORDERLINE of touching; a
    pair that differs by more makes `exact` False and borderline None."""
    e = {tuple(p) for p in expected.tolist()}
    g = {tuple(p) for p in got.tolist()}
    if e == g:
        return True, 0
    differing = e ^ g
    if all(abs(separation(level, a, b)) <= BORDERLINE for a, b in differing):
        return False, len(differing)
    return False, None


def race(level, ways, frames):
    """Every way's frame times (seconds) over `frames` frames, in turn; the
    last frame's pairs, canonical; the kind of the last pair pass."""
    times = {w.name: [] for w in ways}
    copies = []
    last = {}
    for _ in range(frames):
        level.movers.step()
        for way in ways:
            started = time.perf_counter()
            pairs = way.frame()
            elapsed = time.perf_counter() - started
            times[way.name].append(way.timed if isinstance(way, Box2D) else elapsed)
            last[way.name] = pairs
            if way.name.endswith("resting"):
                started = time.perf_counter()
                np.copy(pairs)
                copies.append(time.perf_counter() - started)
    canonical = {w.name: np.unique(w.canonical(last[w.name]), axis=0) for w in ways}
    return times, copies, canonical, {w.name: w.pass_kind() for w in ways}


def level_costs(movers=MOVERS, dims=(2, 3), frames=30, with_box2d=True, tiles=TILES):
    """The level scenes' records: per scene and M, each way's fastest and
    median frame, the resting way's copy of its pairs, the pair counts, the
    agreement checks and the pass the grid took."""
    records = []
    for dim in dims:
        for m in movers:
            level = level_scene(m, dim, tiles=tiles)
            ways = [Grid(level, "static"), Grid(level, None), Grid(level, "resting")]
            box2d = with_box2d and dim == 2 and box2d_available()
            if box2d:
                ways.append(Box2D(level))
            times, copies, pairs, kinds = race(level, ways, frames)
            static, alone, resting = (w.name for w in ways[:3])
            tile_pairs = pairs[resting][pairs[resting][:, 1] < tiles]
            without_tiles = pairs[resting][pairs[resting][:, 1] >= tiles]
            record = {"scene": level.name, "tiles": tiles, "movers": m,
                      "ms": {name: {"fastest": 1e3 * min(t), "median": 1e3 * statistics.median(t)}
                             for name, t in times.items()},
                      "copy_ms": {"fastest": 1e3 * min(copies), "median": 1e3 * statistics.median(copies)},
                      "pairs": {name: int(len(p)) for name, p in pairs.items()},
                      "tile_pairs": int(len(tile_pairs)),
                      "passes": kinds,
                      "static_agrees_with_resting": bool(np.array_equal(pairs[static], without_tiles)),
                      "alone_agrees": bool(np.array_equal(
                          pairs[alone], pairs[static][pairs[static][:, 0] >= tiles])),
                      "box2d": None}
            if box2d:
                exact, borderline = compare(level, pairs[static], pairs[Box2D.name])
                record["box2d"] = {"exact": exact, "borderline": borderline}
            records.append(record)
    return records


def box2d_costs(sizes=(10_000, 100_000), frames=15):
    """The uniform scene (every object moves) with the uniform grid and with
    Box2D, frames in turn: records of their fastest and median frames and
    whether their pairs agree (see compare)."""
    records = []
    if not box2d_available():
        return records
    for n in sizes:
        level = uniform_scene(n)
        ways = [Grid(level, None), Box2D(level)]
        times, _, pairs, _ = race(level, ways, frames)
        exact, borderline = compare(level, pairs[ways[0].name], pairs[ways[1].name])
        records.append({"scene": "uniform", "n": n,
                        "ms": {name: {"fastest": 1e3 * min(t), "median": 1e3 * statistics.median(t)}
                               for name, t in times.items()},
                        "pairs": int(len(pairs[ways[0].name])),
                        "box2d": {"exact": exact, "borderline": borderline}})
    return records


def box2d_report(records):
    if not records:
        return ("Box2D v3 on the uniform scene: skipped (box2d-python not installed: it has "
                "wheels for CPython 3.12 and 3.13 only)")
    lines = ["Box2D v3 on the uniform scene (every object moves), fastest (median) ms per frame:"]
    for r in records:
        grid, box2d = list(r["ms"])
        b = r["box2d"]
        agree = ("the same pairs" if b["exact"] else
                 f"the same pairs but {b['borderline']} within {BORDERLINE} of touching (float32)"
                 if b["borderline"] is not None else "DIFFERENT PAIRS")
        lines.append(f"  N={r['n']:,}: {grid} {r['ms'][grid]['fastest']:.2f} ({r['ms'][grid]['median']:.2f}), "
                     f"{box2d} {r['ms'][box2d]['fastest']:.2f} ({r['ms'][box2d]['median']:.2f}): "
                     f"{r['ms'][box2d]['fastest'] / r['ms'][grid]['fastest']:.1f}x; {agree}")
    return "\n".join(lines)


SHARES = (0.01, 0.03, 0.06, 0.1, 0.125)


def crossover_costs(n=100_000, shares=SHARES, dims=(2, 3), rounds=5, seed=0):
    """What decides between the two ways of a pair pass, measured: on the
    uniform scene, a share of the objects moves; the pass over what changed
    (the way the index takes below its limit) against a full pass over the
    same objects (forced by updating every object, most to where it was).
    The fastest pass of `rounds`, in ms, from last_phase_ms()."""
    records = []
    rng = np.random.default_rng(seed)
    for dim in dims:
        scene = scenes.uniform(n, dim=dim)
        grid = (UniformGrid if dim == 2 else UniformGrid3D)(scene.cell_size, (0.0,) * dim, 4, 1)
        insert, update = ((grid.insert_circles, grid.update_circles) if dim == 2
                          else (grid.insert_spheres, grid.update_spheres))
        ids = insert(scene.pos, scene.extent)
        grid.pair_ids()
        for share in shares:
            best = {}
            for _ in range(rounds):
                scene.step()
                moved = np.sort(rng.choice(n, int(share * n), replace=False))
                for rows in (moved, slice(None)):
                    update(ids[rows], scene.pos[rows], scene.extent[rows])
                    grid.pair_ids()
                    kind = grid.last_pair_pass()
                    best[kind] = min(best.get(kind, math.inf), grid.last_phase_ms()["pairs"])
            records.append({"scene": scene.name, "n": n, "share": share, "pass_ms": best})
    return records


def crossover_report(records):
    lines = ["The two ways of a pair pass (uniform scene, a share of the objects moving; "
             "fastest pass, ms): the index takes the pass over what changed while at most "
             "an eighth of its objects changed"]
    for r in records:
        ms = r["pass_ms"]
        changed = ms.get("changed")
        lines.append(f"  {r['scene']} N={r['n']:,}, {r['share']:.1%} moved: "
                     + (f"over what changed {changed:.3f}, " if changed is not None else "")
                     + f"full {ms['full']:.3f}"
                     + (f" ({changed / ms['full']:.2f}x)" if changed is not None else ""))
    return "\n".join(lines)


def report(records):
    lines = ["Level scenes: static tiles and M movers; fastest (median) ms per frame, frames in turn"]
    for r in records:
        ms = r["ms"]
        names = list(ms)
        static, alone, resting = names[:3]
        lines.append(f"  {r['scene']}, {r['tiles']:,} tiles, M={r['movers']:,} ({r['pairs'][static]:,} pairs with the "
                     f"tiles static, {r['tile_pairs']:,} more among resting tiles):")
        for name in names:
            kind = f", pass: {r['passes'][name]}" if r["passes"].get(name) else ""
            lines.append(f"    {name:<36}{ms[name]['fastest']:>9.3f} ({ms[name]['median']:.3f}){kind}")
        lines.append(f"    {'numpy copy of the resting pairs':<36}{r['copy_ms']['fastest']:>9.3f} "
                     f"({r['copy_ms']['median']:.3f})")
        goal = ms[static]["fastest"] / ms[alone]["fastest"]
        lines.append(f"    - tiles static vs movers alone: {goal:.2f}x (target at most 2x): "
                     f"{'met' if goal <= 2 else 'NOT met'}")
        budget = 2 * ms[alone]["fastest"] + r["copy_ms"]["fastest"]
        lines.append(f"    - tiles resting vs 2x movers alone + the copy ({budget:.3f} ms): "
                     f"{ms[resting]['fastest'] / budget:.2f}x (target at most 1x): "
                     f"{'met' if ms[resting]['fastest'] <= budget else 'NOT met'}")
        agree = r["static_agrees_with_resting"] and r["alone_agrees"]
        lines.append(f"    - the library's three ways report the same pairs: {'yes' if agree else 'NO'}")
        if r["box2d"] is not None:
            name = names[3]
            speedup = ms[name]["fastest"] / ms[static]["fastest"]
            target = " (target at least 20x)" if r["scene"] == "level" and r["movers"] == 1_000 else ""
            verdict = ("met" if speedup >= 20 else "NOT met") if target else ""
            lines.append(f"    - Box2D v3 vs tiles static: {speedup:.1f}x{target}{': ' + verdict if target else ''}")
            b = r["box2d"]
            lines.append("    - Box2D's pairs: " + (
                "the same" if b["exact"] else
                f"the same but {b['borderline']} pairs within {BORDERLINE} of touching (float32)"
                if b["borderline"] is not None else "DIFFERENT"))
        elif r["scene"] == "level":
            lines.append("    - Box2D v3: skipped (box2d-python not installed: it has wheels for "
                         "CPython 3.12 and 3.13 only)")
    return "\n".join(lines)
