"""The manual and the README: the GDScript examples parse in a real Godot,
the committed class reference (Godot's doc XML) says what the faces' `##`
comments say, the stored benchmark results hold what the manual draws from,
the README is a front page with the two commands, and (where Sphinx is
installed: the docs extra) the manual builds without a warning. The Python
examples run in test_doc_examples.py."""
import json
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys

import pytest

from doc_examples import ROOT, blocks

sys.path.insert(0, str(ROOT / "docs" / "_ext"))
import api_pages  # noqa: E402
import bench_figures  # noqa: E402
import godot_classes  # noqa: E402
import inventories  # noqa: E402

ADDON = ROOT / "addons" / "spatial_hash"
GODOT = {
    "godot3": [shutil.which("godot3-server")] if shutil.which("godot3-server") else None,
    "godot4": shlex.split(os.environ["SPATIAL_HASH_GODOT4"]) + ["--headless"]
    if os.environ.get("SPATIAL_HASH_GODOT4") else None,
}
GDSCRIPT = blocks("gdscript")
TEST_COMMAND = 'python -m pip install -e ".[test]" && python -m pytest'
BENCH_COMMAND = 'python -m pip install -e ".[bench]" && python -m spatial_hash.bench'


def test_every_gdscript_example_names_its_dialect():
    assert {b.dialect for b in GDSCRIPT} == {"godot3", "godot4"}, \
        [b.where for b in GDSCRIPT if b.dialect not in ("godot3", "godot4")]


RUNNERS = {
    "godot3": """extends Node

func _ready():
	var dir = Directory.new()
	dir.open("res://examples")
	dir.list_dir_begin(true)
	var name = dir.get_next()
	while name != "":
		var script = load("res://examples/" + name)
		print("EXAMPLE %s %s" % [name, "parsed" if script != null and script.can_instance() else "FAILED"])
		name = dir.get_next()
	get_tree().quit()
""",
    "godot4": """extends Node

func _ready() -> void:
	for name in DirAccess.get_files_at("res://examples"):
		if not name.ends_with(".gd"):
			continue
		var script: Script = load("res://examples/" + name)
		print("EXAMPLE %s %s" % [name, "parsed" if script != null and script.can_instantiate() else "FAILED"])
	get_tree().quit()
""",
}
SCENE = {"godot3": '[gd_scene load_steps=2 format=2]\n\n[ext_resource path="res://runner.gd" '
                   'type="Script" id=1]\n\n[node name="Runner" type="Node"]\nscript = ExtResource( 1 )\n',
         "godot4": '[gd_scene format=3]\n\n[ext_resource type="Script" path="res://runner.gd" '
                   'id="1"]\n\n[node name="Runner" type="Node"]\nscript = ExtResource("1")\n'}


@pytest.mark.parametrize("dialect", ["godot3", "godot4"])
def test_gdscript_examples_parse_in_a_real_godot(tmp_path, dialect):
    """Each example is loaded as a script by the engine of its dialect, with the
    nodes' faces in the project (their class names are known): it parses, or
    the engine reports where it does not."""
    godot = GODOT[dialect]
    if godot is None:
        pytest.skip(f"no {dialect} here (Godot 3: Debian's godot3-server; Godot 4: SPATIAL_HASH_GODOT4)")
    project = tmp_path / "project"
    faces = project / "addons" / "spatial_hash" / dialect
    faces.mkdir(parents=True)
    for name in ("spatial_hash_2d.gd", "spatial_hash_3d.gd", "missing_engine.gd"):
        shutil.copy(ADDON / dialect / name, faces / name)
    shutil.copy(ADDON / "icon.svg", faces.parent / "icon.svg")
    (project / "project.godot").write_text(
        f'config_version={4 if dialect == "godot3" else 5}\n\n[application]\n\n'
        'config/name="examples"\nrun/main_scene="res://runner.tscn"\n')
    (project / "runner.gd").write_text(RUNNERS[dialect])
    (project / "runner.tscn").write_text(SCENE[dialect])
    (project / "examples").mkdir()
    names = {}
    for k, block in enumerate(b for b in GDSCRIPT if b.dialect == dialect):
        names[f"example_{k}.gd"] = block.where
        (project / "examples" / f"example_{k}.gd").write_text(block.text)
    env = dict(os.environ, HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"))
    if dialect == "godot4":         # the class cache: a scan first
        subprocess.run(godot + ["--path", str(project), "--import"], capture_output=True,
                       timeout=300, env=env)
    done = subprocess.run(godot + ["--path", str(project)], capture_output=True, text=True,
                          timeout=300, env=env)
    results = dict(re.findall(r"^EXAMPLE (\S+) (\w+)$", done.stdout, re.M))
    assert results == {name: "parsed" for name in names}, \
        (names, (done.stdout + done.stderr)[-3000:])


@pytest.mark.parametrize("name", sorted(godot_classes.CLASSES))
def test_committed_class_reference_says_what_the_faces_say(name):
    """docs/godot/<class>.xml against the Godot 4 face's `##` comments and
    declarations; after changing them: python tools/godot_class_docs.py godot."""
    face = godot_classes.FACES / godot_classes.CLASSES[name]
    cls = godot_classes.read_class(godot_classes.XML_FOLDER / f"{name}.xml")
    assert cls["name"] == name
    assert godot_classes.documented(cls) == godot_classes.doc_comments(face)
    declared = re.findall(r"^func ([a-z]\w*)\((.*?)\)", face.read_text(), re.M)
    assert [(m["name"], [p[0] for p in m["params"]]) for m in cls["method"]] == \
        [(f, [p.split(":")[0].strip() for p in params.split(",") if p.strip()]) for f, params in declared]


def test_class_reference_matches_a_fresh_godot_doctool_run(tmp_path):
    godot = GODOT["godot4"]
    if godot is None:
        pytest.skip("no Godot 4 here (SPATIAL_HASH_GODOT4 names a command that starts one)")
    for name, path in godot_classes.write_xml(godot, tmp_path).items():
        assert path.read_bytes() == (godot_classes.XML_FOLDER / f"{name}.xml").read_bytes(), name


def test_class_reference_renders_links_to_its_own_members():
    cls = godot_classes.read_class(godot_classes.XML_FOLDER / "SpatialHash2D.xml")
    assert godot_classes.bbcode_to_rst(
        "Moves [param obj] like [method update], [code]a*b[/code] via [method @GlobalScope.push_error].[br]", cls) \
        == ("Moves *obj* like :ref:`update() <godot-spatialhash2d-method-update>`, ``a*b`` via "
            "``push_error()``.[br]")
    rst = "\n".join(godot_classes.to_rst(cls))
    assert ".. rubric:: query\\_nearest(point: :class:`Vector2 <godot:Vector2>`, k: int = 1, " \
           "max\\_distance: float = inf, mask: int = 4294967295) -> :class:`Array <godot:Array>`\n" \
           "   :class: godot-signature" in rst
    assert "*Inherits:* :class:`Node2D <godot:Node2D>`" in rst


RESULTS = ROOT / "bench" / "results"
STORED = sorted(RESULTS.glob("*/*.json"))
STORED_GODOT = sorted(RESULTS.glob("*/godot/*.json"))


@pytest.mark.parametrize("path", STORED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_stored_results_are_filed_by_machine_and_date(path):
    document = json.loads(path.read_text())
    assert (document["machine"]["name"], document["date"] + ".json") == (path.parent.name, path.name)
    assert document["provenance"]
    for record in document["records"]:
        assert {"scene", "n", "method", "skipped"} <= set(record)
        assert record["skipped"] or record["ms_per_frame"] > 0


@pytest.mark.parametrize("path", STORED_GODOT, ids=lambda p: f"{p.parents[1].name}/{p.name}")
def test_stored_godot_timings_are_filed_by_machine_and_date(path):
    document = json.loads(path.read_text())
    assert (document["machine"]["name"], document["date"] + ".json") == (path.parents[1].name, path.name)
    assert document["provenance"]
    sections = [value for value in document.values() if isinstance(value, dict) and "rows" in value]
    assert sections
    for section in sections:
        assert section["source"] and section["runs"]
        assert {row["engine"] for row in section["rows"]} <= set(document["engines"])


def godot_part(part):
    """The stored Godot document a part of the benchmark page draws from."""
    from spatial_hash.bench.results import latest
    return latest(RESULTS, kind="godot", section=bench_figures.GODOT_SECTIONS[part])


def test_the_godot_tables_come_from_the_stored_timings():
    document = godot_part("godot-bullet-hell")
    assert document["date"] == "2026-12-05"
    bullet_hell = bench_figures.godot_bullet_hell(document)
    assert "| Godot 4.6.3 + py4godot 4.6-alpha17 | 0.413-0.428 | 1.27-1.31x (median 1.3x) |" in bullet_hell
    assert bullet_hell[-1] == "The node's own GDScript is 0.000-0.068 ms of that in every engine."
    memory = godot_part("godot-memory")
    assert memory["date"] == "2026-12-05"
    table = bench_figures.godot_memory(memory)
    assert table[2] == ("| engine | scene | resident kB at frame 239 | at frame 19,999 | growth (kB) "
                        "| kB per frame |")
    # (217,168 - 217,128) / (19,999 - 239) = 0.002
    assert "| Godot 4.6.3 + godot-python-extension d01a302 | `spheres_3d` | 217,128 | 217,168 | +40 | 0.00 |" \
        in table
    assert "| Godot 4.6.3 + py4godot 4.6-alpha17 | `per_object` | 279,388 | 279,388 | +0 | 0.00 |" in table
    document = godot_part("godot-per-object")
    assert document["date"] == "2026-12-05"
    per_object = bench_figures.godot_per_object(document)
    assert per_object[2:5] == ["| engine | call | node (µs) | GDScript hash (µs) | node / GDScript hash |",
                               "| --- | --- | --- | --- | --- |",
                               "| Godot 3.2.3 + pythonscript 0.50 | `insert` | 3.35-3.48 | 3.39-3.44 | 0.98-1.01x |"]
    assert "|  | `remove` | 0.49 | 0.87-0.89 | 0.55-0.56x |" in per_object
    assert "| Godot 4.6.3 + godot-python-extension d01a302 | 1.11-1.28 | 3.19-3.34 | 1.58-1.65 | 0.56-0.59 " \
        "| 1.05-1.10 |" in per_object
    assert "| Godot 4.6.3 + py4godot 4.6-alpha17 | 0.49-0.71 | 0.093-0.126x | 0.18-0.24x |" in per_object
    level = godot_part("godot-level")
    assert level["date"] == "2026-12-05"
    assert "| Godot 4.6.3 + godot-python-extension d01a302 | 0.674-0.727 | 5.717-6.153 | 8.2-8.6x | 539 of 539 ticks |" \
        in bench_figures.godot_level(level)
    area = bench_figures.godot_area_3d(godot_part("godot-area-3d"))
    assert "| Godot 4.6.3 + godot-python-extension, GodotPhysics3D | 0.93 | 0.64 | 13.45-13.98 | 4.43-4.53 |" in area
    # 7.92 / 0.95 and 8.00 / 0.92; (7.92 + 2.23) / 0.64 and (8.00 + 2.36) / 0.63.
    assert "| Godot 4.6.3 + godot-python-extension, Jolt | 8.3-8.7x | 12.4-12.7x | 10.7-11.3x | 15.9-16.4x |" in area
    assert "| Godot 4.6.3 + py4godot | debug, release | 1.56-1.60x | 356-365 |" \
        in bench_figures.godot_export(godot_part("godot-export"))


def test_a_span_keeps_the_decimals_of_its_more_precise_end():
    assert [bench_figures.span(7.92, 8.0), bench_figures.span(0.93, 0.93), bench_figures.span(43, 44),
            bench_figures.span(17, 17.4, "x"), bench_figures.span(103632, 103632)] == \
        ["7.92-8.00", "0.93", "43-44", "17.0-17.4x", "103,632"]


def test_the_manual_tables_come_from_the_stored_run():
    from spatial_hash.bench.results import latest
    document = latest(RESULTS)
    table = bench_figures.scene_table(document, 2)
    assert table[0] == ("| scene, N | naive | cKDTree | STRtree | dict hash | per-object | batch uniform "
                        "| batch hierarchical | uniform, 2 threads | hierarchical, 2 threads |")
    assert "| uniform 100,000 |  | 32.8 | 98.0 |  | 98.5 | 3.95 | 4.49 | **3.91** | 4.41 |" in table
    assert "| bullet hell 10,100 | 83.8 | 7.39 | 6.70 | 51.2 | 8.92 | 0.56 | 0.66 | **0.44** | 0.62 |" in table
    assert "| mixed3d 100,000 |  | 461 | 1,712 | 19.3 | 1,707 | **18.8** |" in bench_figures.scene_table(document, 3)
    assert "| level, 100,000 tiles, 1,000 movers | 0.52 (0.82) | 0.04 (0.05) | 0.52 (0.87) + 0.07 | 2.41 (4.41) " \
           "| changed |" in bench_figures.level_table(document)
    assert "| uniform 100,000 | 3.81 | 126 | 33.0x | but 1 at the edge |" in bench_figures.box2d_table(document)


def ms(document, scene, n, method):
    """A stored record's ms per frame; `method` is the end of its name."""
    [record] = [r for r in document["records"] if (r["scene"], r["n"]) == (scene, n)
                and r["method"].endswith(method) and r.get("load", "idle") == "idle"]
    return record["ms_per_frame"]


def flat(path):
    return " ".join(path.read_text().split())


def test_the_figures_the_prose_quotes_come_from_the_stored_run():
    """The README's results and the benchmark page's reading of the run, figure
    by figure, against the run the tables are drawn from."""
    from spatial_hash.bench.results import latest
    run = latest(RESULTS)
    figure = bench_figures.figure

    def ratio(a, b):
        return f"{ms(run, *a) / ms(run, *b):.1f}x"
    uniform, hierarchical = "batch (uniform)", "batch (hierarchical)"
    readme = flat(ROOT / "README.md")
    assert (f"at 100,000 equal circles the batch uniform grid took {figure(ms(run, 'uniform', 100000, uniform))} ms "
            f"a frame ({figure(ms(run, 'uniform', 100000, 'uniform, 2 threads)'))} ms on 2 threads) and the "
            f"hierarchical grid {figure(ms(run, 'uniform', 100000, hierarchical))} ms "
            f"({figure(ms(run, 'uniform', 100000, 'hierarchical, 2 threads)'))} ms on 2 threads), against "
            f"{figure(ms(run, 'uniform', 100000, 'cKDTree'))} ms for scipy's `cKDTree` and "
            f"{figure(ms(run, 'uniform', 100000, 'STRtree'))} ms for shapely's `STRtree`; at 1,000,000, "
            f"{figure(ms(run, 'uniform', 1000000, uniform))} ms against "
            f"{figure(ms(run, 'uniform', 1000000, 'cKDTree'))} ms.") in readme
    assert (f"the hierarchical grid is the one to use ({figure(ms(run, 'mixed', 100000, hierarchical))} ms, "
            f"the uniform grid {figure(ms(run, 'mixed', 100000, uniform))} ms)") in readme
    assert f"the uniform grid ran {ratio(('uniform3d', 100000, 'cKDTree'), ('uniform3d', 100000, uniform))} " \
           "faster than `cKDTree` at 100,000 spheres" in readme
    assert f"on {run['date']}" in readme or f"{run['date']}, stored in" in readme

    reading = flat(ROOT / "docs" / "benchmark.md").split(f"Reading the {run['date']} run")[1]
    ratios = {(scene, n): ms(run, scene, n, uniform) / ms(run, scene, n, hierarchical)
              for scene, n in dict.fromkeys((r["scene"], r["n"]) for r in run["records"])
              if scene in ("uniform", "clustered", "bullets")}
    least, most = min(ratios, key=ratios.get), max(ratios, key=ratios.get)
    assert (f"The uniform grid took {ratios[least]:.1f}x ({least[0]}, {least[1]:,}) to {ratios[most]:.1f}x "
            f"({most[0]}, {most[1]:,})") in reading
    assert (f"it ran {ratio(('uniform', 100000, 'cKDTree'), ('uniform', 100000, uniform))} faster than `cKDTree` "
            f"at 100,000 objects and {ratio(('uniform', 1000000, 'cKDTree'), ('uniform', 1000000, uniform))} "
            f"at 1,000,000, and {ratio(('uniform', 100000, 'STRtree'), ('uniform', 100000, uniform))} faster "
            "than shapely's `STRtree` at 100,000") in reading
    assert f"({ms(run, 'mixed', 100000, uniform) / ms(run, 'mixed', 100000, hierarchical):.0f}x the " \
           "hierarchical grid's time)" in reading
    per_object = run["per_object"]
    assert (f"{per_object['update_same_cells_us']:.2f} µs for an update that stays in its cell and "
            f"{per_object['query_nearby_us']:.2f} µs for a `query_nearby` returning about ten objects "
            f"({per_object['query_nearby_warm_us']:.2f} µs warm)") in reading
    threaded = {grid: [t["ratio"] for t in run["threads"] if t["grid"] == grid and t["n"] >= 30000
                       and t["load"] == "idle"] for grid in ("hierarchical", "uniform")}
    assert ("From 30,000 objects up, where the loops take a second thread, the 2-thread frames took "
            "{:.2f}x to {:.2f}x the one-thread frames beside them with the hierarchical grid and "
            "{:.2f}x to {:.2f}x with the uniform grid".format(
                min(threaded["hierarchical"]), max(threaded["hierarchical"]),
                min(threaded["uniform"]), max(threaded["uniform"]))) in reading
    [level] = [r for r in run["level"] if (r["scene"], r["movers"]) == ("level", 1000)]
    static, alone, _, box2d = (level["ms"][way]["fastest"] for way in level["ms"])
    assert (f"a frame took {figure(static)} ms against {figure(box2d)} ms for Box2D v3, the movers alone "
            f"{figure(alone)} ms; on the uniform scene Box2D took {{}}x the uniform grid's time at "
            f"10,000 objects and {{}}x at 100,000").format(
                *(f"{r['ms'][b2]['fastest'] / r['ms'][grid]['fastest']:.1f}"
                  for r in run["box2d"] for grid, b2 in [list(r["ms"])])) in readme
    level_reading = flat(ROOT / "docs" / "benchmark.md").split("### Level scenes")[1]
    assert (f"a level frame with 1,000 movers took {figure(static)} ms, {static / alone:.0f}x the movers alone "
            f"({figure(alone)} ms) and a {'fifth' if round(box2d / static) == 5 else f'1/{box2d / static:.0f}'} "
            f"of Box2D's ({figure(box2d)} ms)") in level_reading
    slower = [100 * (r["median_ms"] / r["ms_per_frame"] - 1) for r in run["records"] if not r["skipped"]]
    assert (f"median frame was {min(slower):.0f}% to {max(slower):.0f}% slower than its fastest "
            f"({sum(p <= 11 for p in slower)} of {len(slower)} within 11%)") in reading


def test_results_store_and_read_back(tmp_path):
    from spatial_hash.bench import results
    path = results.store({"records": [], "machine": {"cpus": 2}}, tmp_path, "box", "2030-01-02")
    assert path == tmp_path / "box" / "2030-01-02.json"
    assert results.latest(tmp_path)["machine"] == {"cpus": 2, "name": "box"}
    with pytest.raises(LookupError, match="for machine 'other'"):
        results.latest(tmp_path, "other")
    godot = tmp_path / "box" / "godot" / "2030-01-03.json"
    godot.parent.mkdir()
    godot.write_text(json.dumps({"date": "2030-01-03", "machine": {"name": "box"}}))
    assert results.latest(tmp_path)["date"] == "2030-01-02"
    assert results.latest(tmp_path, kind="godot")["date"] == "2030-01-03"
    older = tmp_path / "box" / "godot" / "2030-01-01.json"
    older.write_text(json.dumps({"date": "2030-01-01", "machine": {"name": "box"}, "memory": {}}))
    assert results.latest(tmp_path, kind="godot", section="memory")["date"] == "2030-01-01"
    with pytest.raises(LookupError, match="with 'export'"):
        results.latest(tmp_path, kind="godot", section="export")


def test_readme_is_a_front_page_with_the_two_commands():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 200
    commands = [b.text.strip() for b in blocks("sh", [ROOT / "README.md"])]
    assert BENCH_COMMAND in commands and TEST_COMMAND in commands
    assert TEST_COMMAND in (ROOT / ".ci" / "run").read_text()


def test_readme_links_into_the_manual_exist():
    readme = (ROOT / "README.md").read_text()
    links = re.findall(r"\]\(((?:docs|demo_project)/[^)#]+)", readme)
    assert links and [link for link in links if not (ROOT / link).exists()] == []


def test_the_stored_text_on_the_benchmark_page_sets_commands_as_code():
    """A stored run's provenance and the Godot sections' notes are inserted as
    Markdown: their commands, options and file names are code, not prose
    (which would set "--store" as an en dash and a word)."""
    assert bench_figures.code_spans("written by python -m spatial_hash.bench --store") == \
        "written by `python -m spatial_hash.bench --store`"
    assert bench_figures.code_spans("one run of each scene with --frames=20000 in each engine") == \
        "one run of each scene with `--frames=20000` in each engine"
    assert bench_figures.code_spans("two runs of area_timing_3d.tscn (`--fixed-fps 60`), 600-frame runs") == \
        "two runs of `area_timing_3d.tscn` (`--fixed-fps 60`), 600-frame runs"
    from spatial_hash.bench.results import latest
    facts = bench_figures.run_facts(latest(RESULTS))
    assert "`python -m spatial_hash.bench --store`" in facts[-1]
    assert "`--frames=20000`" in " ".join(bench_figures.godot_memory(godot_part("godot-memory")))


def reference_entries():
    """The names reference/python.rst lists in its autosummary tables, in order,
    as full names."""
    text = (ROOT / "docs" / "reference" / "python.rst").read_text()
    assert ".. currentmodule:: spatial_hash" in text
    return ["spatial_hash." + name for name in re.findall(r"^   ([\w.]+)$", text, re.M)]


def test_every_class_and_function_of_the_package_has_a_page():
    import spatial_hash
    entries = reference_entries()
    assert [name for name in entries if name in api_pages.CLASSES] == api_pages.CLASSES
    public = {f"spatial_hash.{name}" for name in spatial_hash.__all__}
    classes = {name for name in public if isinstance(api_pages.resolve(name), type)}
    assert classes <= set(api_pages.CLASSES), classes - set(api_pages.CLASSES)
    assert public - classes <= set(entries), (public - classes) - set(entries)
    assert {"spatial_hash._core.SpatialIndex", "spatial_hash._core3d.SpatialIndex3D"} <= set(entries)


@pytest.mark.parametrize("name", api_pages.CLASSES)
def test_each_member_is_documented_once_and_listed_in_a_table(name):
    """Every public method and property of a class has a docstring, is in one
    of its page's tables, and is documented on exactly one page: the page of
    the class that defines it (a private base's: the first class that has
    it), which has it from the same definition."""
    cls = api_pages.resolve(name)
    members = api_pages.members(cls)
    for member, (kind, definer) in members.items():
        assert (getattr(cls, member).__doc__ or "").strip(), f"{name}.{member} has no docstring"
        if kind == "method":
            assert api_pages.group_of(member) != "Other methods", f"{name}.{member}: no table"
        where = api_pages.home(cls, member)
        assert api_pages.members(api_pages.resolve(where))[member][1] is definer
        homes = [page for page in api_pages.CLASSES if api_pages.members(api_pages.resolve(page)).get(
            member, (None, None))[1] is definer and api_pages.home(api_pages.resolve(page), member) == page]
        assert homes == [where], (member, homes)


CORES = {2: "spatial_hash._core", 3: "spatial_hash._core3d"}
# What a docstring of one dimension must not say: the other dimension's forms,
# or a word the shared docstrings mark for the dimension to fill in.
OTHER_FORMS = {2: re.compile(r"\$\w|\b3D\b|\(x, y, z|\bz\b|sphere|AABB|Vector3|depth|insert_box\b"),
               3: re.compile(r"\$\w|\b2D\b|Rect2|Vector2|\bdiscs?\b|circle|_rects?\b|insert_rect\b")}


@pytest.mark.parametrize("dimension", CORES)
def test_the_compiled_grids_docstrings_show_their_own_dimension(dimension):
    import importlib
    core = importlib.import_module(CORES[dimension])
    seen = 0
    for cls in (c for c in vars(core).values() if isinstance(c, type)):
        for member in [cls] + [getattr(cls, n) for n in vars(cls) if not n.startswith("_")]:
            doc = member.__doc__ or ""
            assert not OTHER_FORMS[dimension].search(doc), (cls.__name__, getattr(member, "__name__", ""),
                                                            OTHER_FORMS[dimension].search(doc))
            seen += 1
    assert seen > 60


@pytest.mark.parametrize("dimension", CORES)
def test_the_compiled_methods_say_what_they_return(dimension):
    """A method whose stub returns something (the stubs are held to the
    modules by test_core_stubs.py) has a Returns section, one that returns
    None has none; every parameter has an entry (the build checks their types
    and text with numpydoc)."""
    import ast
    import importlib
    import inspect
    core = importlib.import_module(CORES[dimension])
    stub = pathlib.Path(core.__file__).with_name(CORES[dimension].rpartition(".")[2] + ".pyi")
    checked = 0
    for node in ast.parse(stub.read_text()).body:
        if not isinstance(node, ast.ClassDef):
            continue
        for item in node.body:
            if not isinstance(item, ast.FunctionDef) or item.name.startswith("_"):
                continue
            method = getattr(getattr(core, node.name), item.name)
            doc = inspect.getdoc(method)
            returns = not (isinstance(item.returns, ast.Constant) and item.returns.value is None)
            assert ("\nReturns\n-------\n" in doc) == returns, (node.name, item.name)
            for parameter in list(inspect.signature(method).parameters)[1:]:
                assert re.search(rf"^(\w+, )*{parameter}(, \w+)* :", doc, re.M), (item.name, parameter)
            checked += 1
    assert checked > 50


def test_the_inventories_the_manual_links_through_are_well_formed(tmp_path):
    """The inventories intersphinx reads (the build runs offline): each one
    loads as Sphinx reads it, with every entry given."""
    pytest.importorskip("sphinx")
    from sphinx.util.inventory import InventoryFile
    mapping = inventories.write(tmp_path)
    assert set(mapping) == {"python", "numpy", "godot"}
    for key, (site, path) in mapping.items():
        assert site.startswith("https://")
        with open(path, "rb") as f:
            loaded = InventoryFile.load(f, site, lambda base, uri: f"{base}/{uri}")
        data = getattr(loaded, "data", loaded)
        names = {name for table in data.values() for name in table}
        assert names == {entry[0] for entry in inventories.INVENTORIES[key][3]}, key


def test_the_manual_builds_without_a_warning(tmp_path):
    pytest.importorskip("sphinx")
    pytest.importorskip("myst_parser")
    pytest.importorskip("numpydoc")
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(ROOT / "docs"),
                           str(tmp_path / "html")], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "SpatialHash2D.query_nearest" not in done.stderr
    page = (tmp_path / "html" / "reference" / "godot.html").read_text()
    assert 'id="godot-spatialhash3d-method-insert-sphere"' in page
    html = tmp_path / "html"
    # A page per class, its methods in tables, each linking to where it is documented.
    for name in api_pages.CLASSES:
        assert (html / "reference" / "generated" / f"{name}.html").exists(), name
    grid = (html / "reference" / "generated" / "spatial_hash.UniformGrid.html").read_text()
    assert 'href="spatial_hash._core.SpatialIndex.html#spatial_hash._core.SpatialIndex.insert_rect"' in grid
    assert 'id="spatial_hash.UniformGrid.cells_of"' in grid
    assert 'id="spatial_hash.UniformGrid.insert_rect"' not in grid
    # Types link to Python's, numpy's and Godot's manuals.
    index = (html / "reference" / "generated" / "spatial_hash._core.SpatialIndex.html").read_text()
    for site in ("https://docs.python.org/3/library/functions.html#int",
                 "https://numpy.org/doc/stable/reference/generated/numpy.ndarray.html",
                 "https://docs.godotengine.org/en/stable/classes/class_rect2.html"):
        assert site in index, site
    # The benchmark page: options as code, the plot a figure per scene, each a link to its full size.
    bench = (html / "benchmark.html").read_text()
    assert '<span class="pre">--store</span>' in bench and "\u2013store" not in bench
    assert bench.count('class="reference internal image-reference"') >= 2
