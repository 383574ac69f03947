"""The benchmark page's tables and plot, drawn from the stored results
(bench/results/<machine>/<date>.json, read by spatial_hash.bench.results) when
the manual is built: a MyST page's ``{bench-figures} scenes2d`` directive (or
scenes3d, nearest, rays, phases, level, box2d, passes, run) puts that part of the newest stored run
on the page, as Markdown, and ``{bench-plot}`` its scaling plot (a figure per
scene); the parts
named godot-* come from the newest stored timings of the Godot demo projects
(bench/results/<machine>/godot/<date>.json). Sphinx is imported only by `setup`."""
import pathlib
import re

CHECKOUT = pathlib.Path(__file__).resolve().parents[2]
RESULTS = CHECKOUT / "bench" / "results"
# Table columns: the method's name in the results and its heading.
COLUMNS_2D = [("naive all-pairs (numpy)", "naive"), ("scipy cKDTree", "cKDTree"),
              ("shapely STRtree", "STRtree"), ("plain-Python dict hash", "dict hash"),
              ("spatial_hash per-object API", "per-object"),
              ("spatial_hash batch (uniform)", "batch uniform"),
              ("spatial_hash batch (hierarchical)", "batch hierarchical"),
              ("spatial_hash batch (uniform, 2 threads)", "uniform, 2 threads"),
              ("spatial_hash batch (hierarchical, 2 threads)", "hierarchical, 2 threads")]
COLUMNS_3D = [c for c in COLUMNS_2D if c[1] not in ("STRtree", "dict hash", "per-object")]
SCENE_NAMES = {"bullets": "bullet hell", "mixed": "mixed sizes"}
OURS = [name for name, _ in COLUMNS_2D if name.startswith("spatial_hash batch")]


# Command lines, options and file names in the text a stored run carries (its
# provenance, how a Godot section was measured): Markdown code, or the page
# would set "--store" as prose, an en dash and a word.
_CODE = re.compile(r"(`[^`]*`)|(python -m [\w.]+(?: --?[\w-]+(?:[= ][\w./<>-]+)?)*)"
                   r"|((?<![\w-])--?[A-Za-z][\w-]*(?:=[\w./-]+)?)|([\w./-]+\.(?:tscn|gd|json|png|py|txt))\b")


def code_spans(text):
    """Stored text as Markdown with its commands, options and file names as code."""
    return _CODE.sub(lambda m: m.group(1) or f"`{m.group(0)}`", text)


def figure(ms):
    """A time as the results table shows it: 3 significant digits, thousands separated."""
    return f"{ms:,.0f}" if ms >= 1000 else f"{ms:.3g}" if ms >= 100 else f"{ms:.2f}" \
        if ms < 10 else f"{ms:.1f}"


def grid_table(header, rows):
    """A Markdown table (the page that holds the directive is MyST) of header and rows."""
    return ["| " + " | ".join(row) + " |" for row in [header, ["---"] * len(header)] + rows]


def scene_table(document, dimension):
    """ms per frame per scene and N (rows) and method (columns, those the run
    raced), the fastest of this library's batch methods in bold; blank where a
    method sat out."""
    records = [r for r in document["records"] if r.get("load", "idle") == "idle"
               and r["scene"].endswith("3d") == (dimension == 3)]
    raced = {r["method"] for r in records}
    columns = [c for c in (COLUMNS_2D if dimension == 2 else COLUMNS_3D) if c[0] in raced]
    rows = []
    for scene, n in dict.fromkeys((r["scene"], r["n"]) for r in records):
        mine = {r["method"]: r for r in records if (r["scene"], r["n"]) == (scene, n)}
        timed = {m: r["ms_per_frame"] for m, r in mine.items() if not r["skipped"]}
        best = min((m for m in OURS if m in timed), key=timed.get, default=None)
        cells = [f"**{figure(timed[m])}**" if m == best else figure(timed[m]) if m in timed else ""
                 for m, _ in columns]
        rows.append([f"{SCENE_NAMES.get(scene, scene)} {n:,}"] + cells)
    return grid_table(["scene, N"] + [heading for _, heading in columns], rows)


def phases_table(document):
    """The fastest frame of each record that kept the core's phase split."""
    from spatial_hash.bench.results import fastest_frame_phases
    rows = []
    for r in document["records"]:
        split = None if r["skipped"] else fastest_frame_phases(r)
        if split:
            rest = r["ms_per_frame"] - sum(split.values())
            rows.append([f"{r['scene']} {r['n']:,}", r["method"], figure(r["ms_per_frame"])]
                        + [f"{split[p]:.2f}" for p in ("moves", "relinks", "pairs")] + [f"{rest:.2f}"])
    return grid_table(["scene, N", "method", "frame", "moves", "relinks", "pair pass", "the rest"], rows)


def nearest_table(document):
    rows = []
    for costs in document["nearest"]:
        peer = costs["ms"]["scipy cKDTree"]
        among = "points" if not costs["radius"] else f"discs of radius {costs['radius']:g}"
        rows.append([f"{costs['k']} nearest of {costs['n']:,} {among}, {costs['queries']:,} queries"]
                    + [f"{costs['ms'][m]:.3g} ({costs['ms'][m] / peer:.2f}x)" for m in
                       ("uniform grid", "hierarchical grid")] + [f"{peer:.3g}"])
    return grid_table(["query (ms; x cKDTree's time)", "uniform grid", "hierarchical grid",
                       "scipy cKDTree"], rows)


def rays_table(document):
    costs = document["rays"]
    best = min(costs["us_per_ray"][m] for m in ("uniform grid", "hierarchical grid"))
    counts = {"shapely STRtree": costs["shapely_rays"], "numpy brute force": costs["numpy_rays"]}
    rows = [[method, f"{us:,.3g}" if us < 1000 else f"{us:,.0f}", f"{us / best:,.1f}x",
             f"{counts.get(method, costs['rays']):,}"] for method, us in costs["us_per_ray"].items()]
    return grid_table(["method", "µs per ray", "x the fastest grid", "rays cast"], rows)


def level_table(document):
    """The level scenes: each way of holding the level, fastest (median) ms per
    frame, and Box2D's where it ran."""
    rows = []
    for r in document.get("level", []):
        ms = r["ms"]
        static, alone, resting = list(ms)[:3]
        box2d = [name for name in list(ms)[3:]]
        rows.append([f"{r['scene']}, {r['tiles']:,} tiles, {r['movers']:,} movers"]
                    + [f"{figure(ms[m]['fastest'])} ({figure(ms[m]['median'])})" for m in (static, alone)]
                    + [f"{figure(ms[resting]['fastest'])} ({figure(ms[resting]['median'])}) + "
                       f"{figure(r['copy_ms']['fastest'])}"]
                    + [f"{figure(ms[box2d[0]]['fastest'])} ({figure(ms[box2d[0]]['median'])})"
                       if box2d else "not run"]
                    + [r["passes"][static]])
    return grid_table(["scene", "tiles static", "movers alone", "tiles resting + copy of their pairs",
                       "Box2D v3", "pass"], rows)


def box2d_table(document):
    """Box2D v3 beside the uniform grid on the uniform scene (every object moves)."""
    rows = []
    for r in document.get("box2d", []):
        grid, box2d = list(r["ms"])
        rows.append([f"uniform {r['n']:,}", figure(r["ms"][grid]["fastest"]), figure(r["ms"][box2d]["fastest"]),
                     f"{r['ms'][box2d]['fastest'] / r['ms'][grid]['fastest']:.1f}x",
                     "yes" if r["box2d"]["exact"] else f"but {r['box2d']['borderline']} at the edge"
                     if r["box2d"]["borderline"] is not None else "NO"])
    return grid_table(["scene, N", "uniform grid", "Box2D v3", "Box2D's time", "same pairs"], rows)


def passes_table(document):
    """The two ways of a pair pass at each share of moving objects."""
    rows = [[f"{r['scene']} {r['n']:,}", f"{r['share']:.1%}", figure(r["pass_ms"]["changed"]),
             figure(r["pass_ms"]["full"]), f"{r['pass_ms']['changed'] / r['pass_ms']['full']:.2f}x"]
            for r in document.get("pair_pass_ways", []) if "changed" in r["pass_ms"]]
    return grid_table(["scene, N", "objects moved", "pass over what changed (ms)", "full pass (ms)",
                       "ratio"], rows)


def run_facts(document):
    """Where and how the figures were measured."""
    machine = document["machine"]
    libraries = ", ".join(f"{k} {v}" for k, v in machine.get("libraries", {}).items())
    lines = [f"- **Machine**: `{machine['name']}`: {machine.get('description', machine.get('platform', ''))}"
             f" ({machine.get('cpus', '?')} cores; Python {machine.get('python', '?')}"
             + (f"; {libraries}" if libraries else "") + ")",
             f"- **Date**: {document['date']}",
             f"- **Frames**: each method's fastest of {document['frames']} frames",
             f"- **Same pairs from every method**: {'yes' if document['pairs_agree'] else 'NO'}",
             f"- **Provenance**: {code_spans(document['provenance'])}"]
    return lines


def span(low, high, unit=""):
    """A range of measured figures as the runs gave them: "0.92-0.95", or one
    figure where every run agreed; both ends with the decimals of the more
    precise one, thousands separated."""
    decimals = max(len(f"{v:g}".partition(".")[2]) for v in (low, high))
    low, high = (f"{v:,.{decimals}f}" for v in (low, high))
    return (low if low == high else f"{low}-{high}") + unit


def godot_engine(document, row):
    return document["engines"][row["engine"]]


def godot_source(section):
    return [f"*{code_spans(section['runs'])}; {code_spans(section['source'])}.*", ""]


def godot_bullet_hell(document):
    """The node's two calls a frame, and their cost over the core's own time."""
    section = document["bullet_hell"]
    rows = [[godot_engine(document, r), span(*r["node_ms"]), span(*r["over_core"], "x")
             + (f" (median {r['over_core_median']:g}x)" if "over_core_median" in r else "")]
            for r in section["rows"]]
    return godot_source(section) + grid_table(
        ["engine", "update_batch + get_collision_pairs_packed (ms)", "x the core's own time"], rows) \
        + ["", f"The node's own GDScript is {span(*section['node_gdscript_ms'], ' ms')} of that in every engine."]


def godot_memory(document):
    """Resident memory over a long run of each scene, and what it grew by."""
    section = document["memory"]
    first, last = section["frames"]
    rows = [[godot_engine(document, r), f"`{r['scene']}`", f"{r['resident_kb'][0]:,}",
             f"{r['resident_kb'][1]:,}", f"{r['resident_kb'][1] - r['resident_kb'][0]:+,}",
             f"{(r['resident_kb'][1] - r['resident_kb'][0]) / (last - first):.2f}"]
            for r in section["rows"]]
    return godot_source(section) + grid_table(
        ["engine", "scene", f"resident kB at frame {first:,}", f"at frame {last:,}",
         "growth (kB)", "kB per frame"], rows)


def godot_per_object(document):
    """Each call of the node against the plain GDScript hash's, per engine;
    where one query's time goes; and the batch query against the single ones."""
    section = document["per_object"]
    rows = [[godot_engine(document, r) if k == 0 else "", f"`{call}`", span(*r["node_us"][call]),
             span(*r["gdscript_us"][call]), span(*r["node_over_gdscript"][call], "x")]
            for r in section["rows"] for k, call in enumerate(section["calls"])]
    parts = ("face", "engine_call", "empty_call", "core", "engine_python")
    breakdown = [[godot_engine(document, r)] + [span(*r["query_range_parts_us"][p]) for p in parts]
                 for r in section["rows"]]
    batch = [[godot_engine(document, r), span(*r["batch_us_per_window"]), span(*r["batch_over_single"], "x"),
              span(*r["batch_over_gdscript"], "x")] for r in section["rows"]]
    return godot_source(section) + grid_table(
        ["engine", "call", "node (µs)", "GDScript hash (µs)", "node / GDScript hash"], rows) + [
        "", "Where one `query_range` goes (µs): the face's GDScript, the call of the engine, of which "
        "a call that does nothing (the plugin's crossing and the engine's dispatch), the core's own "
        "time and the rest of the engine's Python.", ""] + grid_table(
        ["engine", "face", "engine call", "a call doing nothing", "core", "engine's Python"], breakdown) + [
        "", f"`query_range_batch`, {section['batch_windows']:,} windows a call, against as many "
        "`query_range` calls and the GDScript hash's queries:", ""] + grid_table(
        ["engine", "µs a window", "/ single calls", "/ GDScript hash"], batch)


def godot_level(document):
    """The node against Godot's own physics on the tile level, per engine."""
    section = document["level"]
    rows = [[godot_engine(document, r), span(*r["node_ms"]), span(*r["godot_ms"]),
             span(*r["godot_over_node"], "x"), r["pairs_equal"]] for r in section["rows"]]
    return godot_source(section) + grid_table(
        ["engine", "node (ms a tick)", "Godot's physics (ms a tick)", "Godot / node", "same pair count"],
        rows)


def godot_area_3d(document):
    """The node's broad phase against one Area3D per sphere, then the areas'
    time over the node's, bounded from the ranges: lowest over highest to
    highest over lowest."""
    section = document["area_3d"]
    nodes = ("node_uniform_ms", "node_hierarchical_ms")
    figures, ratios = [], []
    for r in section["rows"]:
        engine = f"{godot_engine(document, r)}, {r['physics']}"
        figures.append([engine] + [span(*r[key]) for key in nodes + ("areas_step_ms", "areas_positions_ms")])
        step = r["areas_step_ms"]
        moved = [s + p for s, p in zip(step, r["areas_positions_ms"])]
        ratios.append([engine] + [f"{areas[0] / r[node][1]:.1f}-{areas[1] / r[node][0]:.1f}x"
                                  for areas in (step, moved) for node in nodes])
    return godot_source(section) + grid_table(
        ["engine, physics", "node, uniform grid", "node, hierarchical grid", "areas: physics step",
         "areas: setting positions"], figures) + [""] + grid_table(
        ["engine, physics", "step / node (uniform)", "step / node (hierarchical)",
         "step + positions / node (uniform)", "step + positions / node (hierarchical)"], ratios) + [
        "", f"The physics step is the tick's time beyond the script; a tick without areas takes "
        f"{span(*section['tick_without_areas_ms'], ' ms')}."]


def godot_export(document):
    """The exported demo games, each run from its own folder."""
    section = document["export"]
    rows = [[godot_engine(document, r), ", ".join(r["smoke_ok"]), span(*r["bullet_hell_over_core"], "x"),
             span(*r["folder_mib"])] for r in section["rows"]]
    return godot_source(section) + grid_table(
        ["engine", "SMOKE OK (export)", "bullet hell, x the core's time", "export folder (MiB)"], rows)


PARTS = {"scenes2d": lambda d: scene_table(d, 2), "scenes3d": lambda d: scene_table(d, 3),
         "phases": phases_table, "nearest": nearest_table, "rays": rays_table, "run": run_facts,
         "level": level_table, "box2d": box2d_table, "passes": passes_table}
GODOT_PARTS = {"godot-bullet-hell": godot_bullet_hell, "godot-memory": godot_memory, "godot-level": godot_level,
               "godot-per-object": godot_per_object, "godot-area-3d": godot_area_3d,
               "godot-export": godot_export}
# The section of a stored Godot document each part draws from.
GODOT_SECTIONS = {"godot-bullet-hell": "bullet_hell", "godot-memory": "memory", "godot-level": "level",
                  "godot-per-object": "per_object", "godot-area-3d": "area_3d",
                  "godot-export": "export"}


def plot_scenes(document):
    """The scenes of a stored run that the scaling plot draws, in its order."""
    from spatial_hash.bench import SCALING_SCENES
    timed = {r["scene"] for r in document["records"] if not r["skipped"]}
    return [scene for scene in SCALING_SCENES if scene in timed]


def draw_plot(document, path, scene):
    """One panel of the benchmark's scaling plot (spatial_hash.bench.plot) of a
    stored run, as a figure of its own, readable at the page's width: ms per
    frame against N, log-log, for one scene; a method has the same colour in
    every scene's figure."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from spatial_hash.bench import SCALING_SCENES
    records = [r for r in document["records"] if r.get("load", "idle") == "idle" and not r["skipped"]]
    methods = list(dict.fromkeys(r["method"] for s in plot_scenes(document) for r in records
                                 if r["scene"] == s))
    rows = [r for r in records if r["scene"] == scene]
    fig, ax = plt.subplots(figsize=(8, 5.5))
    for k, method in enumerate(methods):
        points = sorted((r["n"], r["ms_per_frame"]) for r in rows if r["method"] == method)
        if points:
            ax.plot(*zip(*points), marker="o", linewidth=2.5 if "spatial_hash" in method else 1.5,
                    color=f"C{k % 10}", label=method)
    ax.axhline(1000 / 60, color="grey", linestyle=":", linewidth=1)
    ax.text(1.1e3, 1000 / 60 * 1.1, "16.7 ms (60 FPS)", color="grey")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("objects (N)")
    ax.set_ylabel("ms per frame (move + update + all pairs)")
    ax.set_title(f"Broad phase, {SCALING_SCENES[scene]}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def setup(app):
    from docutils import nodes
    from docutils.parsers.rst import directives
    from docutils.statemachine import StringList
    from sphinx.util.docutils import SphinxDirective

    from spatial_hash.bench.results import latest

    class Figures(SphinxDirective):
        required_arguments = 1

        def run(self):
            part = directives.choice(self.arguments[0], tuple(PARTS) + tuple(GODOT_PARTS))
            for path in RESULTS.glob("**/*.json"):
                self.env.note_dependency(str(path))
            lines = PARTS[part](latest(RESULTS)) if part in PARTS \
                else GODOT_PARTS[part](latest(RESULTS, kind="godot", section=GODOT_SECTIONS[part]))
            # In a box of its own: the page's style sets its tables small enough
            # to fit the column (docs/_static/spatial_hash.css).
            box = nodes.container(classes=["bench-figures"])
            self.state.nested_parse(StringList(lines, "bench results"), self.content_offset, box)
            return [box]

    class Plot(SphinxDirective):
        """The scaling plot: a figure per scene, as wide as the page, each a
        link to its full-size image."""
        def run(self):
            from spatial_hash.bench import SCALING_SCENES
            out = pathlib.Path(self.env.srcdir) / "_generated"
            out.mkdir(exist_ok=True)
            document = latest(RESULTS)
            lines = []
            for scene in plot_scenes(document):
                name = f"scaling-{document['machine']['name']}-{document['date']}-{scene}.png"
                if not (out / name).exists():
                    draw_plot(document, out / name, scene)
                lines += [f"```{{figure}} /_generated/{name}",         # MyST: the page is Markdown
                          f":alt: ms per frame against N, log-log, {SCALING_SCENES[scene]}",
                          ":width: 100%", "",
                          f"ms per frame against N, {SCALING_SCENES[scene]} (click for the full size)",
                          "```", ""]
            box = nodes.container()
            self.state.nested_parse(StringList(lines, "bench plot"), self.content_offset, box)
            return box.children

    app.add_directive("bench-figures", Figures)
    app.add_directive("bench-plot", Plot)
    return {"parallel_read_safe": True}
