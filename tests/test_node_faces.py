"""The GDScript faces of the SpatialHash2D and SpatialHash3D nodes (godot4/ and
godot3/ spatial_hash_2d.gd and spatial_hash_3d.gd, rendered from one template
per dialect), held to the tables of the API (spatial_hash.node.api) and to the
protocol of their Python engine. The faces' behaviour runs in the real engines
(demo_project's smoke scenes, and tests/godot3 under godot3-server)."""
import importlib.util
import pathlib
import re

import pytest

from spatial_hash._core import ALL_LAYERS
from spatial_hash.node import api
from spatial_hash.node.engine import PROTOCOL, arity, protocol_names

ADDON = pathlib.Path(__file__).resolve().parent.parent / "addons" / "spatial_hash"
FACES = {(version, d): ADDON / f"godot{version}" / f"spatial_hash_{d}d.gd"
         for version in (4, 3) for d in (2, 3)}
EACH_FACE = pytest.mark.parametrize("version, d", sorted(FACES), ids=lambda v: str(v))


def render_faces():
    spec = importlib.util.spec_from_file_location("render_faces", ADDON.parents[1] / "tools" / "render_faces.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def split_top(text, sep=","):
    """Split at `sep` outside brackets and strings."""
    parts, depth, quote, start = [], 0, None, 0
    for k, ch in enumerate(text):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:k])
            start = k + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def parse_arg(text):
    """(name, type, default) of a GDScript parameter ("" for no type)."""
    match = re.fullmatch(r"(\w+)\s*(?::\s*(\w*))?\s*(?:=\s*(.+))?", text.replace(":=", ": ="))
    assert match, text
    name, kind, default = match.groups()
    return name, kind or "", default


def functions(source):
    """{name: (args, return type, doc comment)} of the top-level functions."""
    found = {}
    lines = source.splitlines()
    for k, line in enumerate(lines):
        match = re.match(r"func (\w+)\((.*)\)\s*(?:->\s*(\w+))?\s*:", line)
        if match:
            name, args, returns = match.groups()
            found[name] = ([parse_arg(a) for a in split_top(args)], returns or "", doc_above(lines, k))
    return found


def doc_above(lines, k):
    doc = []
    while k > 0 and lines[k - 1].startswith("##"):
        k -= 1
        doc.insert(0, lines[k].lstrip("#").strip())
    return " ".join(doc)


def properties(source):
    """{name: (type, default, doc)} of the exported properties."""
    found = {}
    lines = source.splitlines()
    for k, line in enumerate(lines):
        match = re.match(r"(?:@export(?:_\w+)?|export)(?:\([^)]*\))?\s+var (\w+)\s*:\s*(\w+)\s*=\s*([^:\s]+)", line)
        if match:
            name, kind, default = match.groups()
            found[name] = (kind, default, doc_above(lines, k))
    return found


def signals(source):
    lines = source.splitlines()
    found = {}
    for k, line in enumerate(lines):
        match = re.match(r"signal (\w+)\((.*)\)", line)
        if match:
            found[match.group(1)] = ([parse_arg(a)[0] for a in split_top(match.group(2))],
                                     doc_above(lines, k))
    return found


def engine_calls(source):
    """(method or None, number of arguments) of every _engine.run(...) call."""
    calls = []
    for match in re.finditer(r"_engine\.run\(", source):
        depth, k = 1, match.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(source[k], 0)
            k += 1
        args = split_top(source[match.end():k - 1].replace("\\\n", " "))
        op = re.fullmatch(r"_op\.(\w+)", args[0]) if args else None
        calls.append((op.group(1) if op else args[0], len(args) - 1))
    return calls


@EACH_FACE
def test_each_face_declares_exactly_the_api_table(version, d):
    declared = {name: f for name, f in functions(FACES[version, d].read_text()).items()
                if not name.startswith("_")}
    methods, _ = api.TABLES[d]
    expected = {api.GODOT3_NAMES[d].get(m.name, m.name) if version == 3 else m.name: m
                for m in methods}
    assert set(declared) == set(expected)
    for name, method in expected.items():
        args, returns, _ = declared[name]
        want = [(a.name, a.type if version == 4 else api.godot3_type(a.type), a.default)
                for a in method.args]
        assert args == want, name
        assert returns == (method.returns if version == 4 else api.godot3_type(method.returns)), name


@EACH_FACE
def test_each_face_exports_the_properties_and_signals_of_the_table(version, d):
    source = FACES[version, d].read_text()
    exported = properties(source)
    expected = {p.name: p for p in api.TABLES[d][1] if version in p.dialects}
    assert set(exported) == set(expected)
    for name, prop in expected.items():
        assert exported[name][:2] == (prop.type, prop.default), name
    assert {name: args for name, (args, _) in signals(source).items()} == \
        {s.name: list(s.args) for s in api.SIGNALS}
    (layers,) = re.findall(r"^const ALL_LAYERS :?= (\w+)$", source, re.M)
    assert int(layers, 0) == ALL_LAYERS


@pytest.mark.parametrize("d, base", [(2, "Node2D"), (3, "Node3D")])
def test_the_godot4_face_documents_every_public_method_property_and_signal(d, base):
    """Godot 4's doctool turns ## comments into the node's help page."""
    source = FACES[4, d].read_text()
    assert past_header(source, 4).startswith(f'@icon("res://addons/spatial_hash/icon.svg")\n'
                                             f'class_name SpatialHash{d}D\nextends {base}\n## ')
    undocumented = [name for name, (_, _, doc) in functions(source).items()
                    if not name.startswith("_") and not doc]
    undocumented += [name for name, (_, _, doc) in properties(source).items() if not doc]
    undocumented += [name for name, (_, doc) in signals(source).items() if not doc]
    assert undocumented == []
    assert (ADDON / "icon.svg").read_text().startswith("<svg")


@pytest.mark.parametrize("d, base", [(2, "Node2D"), (3, "Spatial")])
def test_the_godot3_face_registers_its_class_with_the_icon(d, base):
    assert past_header(FACES[3, d].read_text(), 3).startswith(
        f'class_name SpatialHash{d}D, "res://addons/spatial_hash/icon.svg"\nextends {base}\n')


def past_header(source, version):
    """A face's text after its first two lines, which must say that it is
    rendered, from which template, by which command, and not to edit it."""
    first, second, rest = source.split("\n", 2)
    assert first == (f"# Rendered from tools/faces/godot{version}.gd.in by "
                     f"`python tools/render_faces.py` (in the")
    assert second == "# spatial_hash repository): edit the template and render again, not this file."
    return rest


@EACH_FACE
def test_every_engine_call_of_a_face_is_in_the_protocol_with_its_arguments(version, d):
    source = FACES[version, d].read_text()
    calls = engine_calls(source)
    assert len(calls) > 20
    names = protocol_names(d)
    arities = {name: arity(PROTOCOL[k], d) for k, name in enumerate(names)}
    arities["protocol"] = 0
    for method, count in calls:
        if method == "0":
            assert count == (0 if d == 2 else 1)    # the protocol, naming the dimension in 3D
        elif method == "op":            # _place: insert, update and insert_circle by name
            assert count in (2 * d + 1, d + 2)
        else:
            assert method in names and count == arities[method], (method, count)
    placed = re.findall(r'_place\(obj, \w+, "(\w+)"', source)
    assert len(placed) == 3
    for name in placed:
        assert name in names and arities[name] in (2 * d + 1, d + 2)


@EACH_FACE
def test_a_face_is_its_dialect_template_rendered_for_its_dimension(version, d):
    """The faces are committed as rendered (Godot loads them as they are);
    tools/render_faces.py writes them after a template changes."""
    assert FACES[version, d].read_text() == render_faces().render(f"godot{version}", d)


def test_the_two_faces_of_a_dialect_differ_only_in_dimension():
    """One template each: the 3D face is the 2D face's logic over Vector3 and
    AABB (and its own debug drawing)."""
    for version in (4, 3):
        flat, solid = FACES[version, 2].read_text(), FACES[version, 3].read_text()
        assert "Vector3" not in flat and "AABB" not in flat and "Rect2" not in solid
        assert flat.count("\nfunc ") + 2 == solid.count("\nfunc ")     # _debug_view, _corner


@EACH_FACE
def test_faces_hand_the_engine_no_object(version, d):
    """Every plugin crashes the engine when a freed Object reaches Python: the
    faces pass their engine numbers, ids and packed arrays only. Each argument
    of an engine call is a number from a Vector2 or Rect2, a checked int or
    bool, or an array the face built or checked (never obj, a, b, or an Array)."""
    source = FACES[version, d].read_text()
    for match in re.finditer(r"_engine\.run\(([^()]*(?:\([^()]*\))?[^()]*)\)", source):
        for arg in split_top(match.group(1))[1:]:
            assert not re.fullmatch(r"obj|a|b|node|value|positions|sizes|layers|masks|ids", arg), \
                (arg, match.group(0))
