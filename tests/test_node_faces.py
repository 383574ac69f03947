"""The GDScript faces of the SpatialHash2D node (godot4/ and godot3/
spatial_hash_2d.gd), held to the one table of the API (spatial_hash.node.api)
and to the protocol of their Python engine. The faces' behaviour runs in the
real engines (demo_project's smoke scenes, and tests/godot3 under godot3-server)."""
import inspect
import pathlib
import re

import pytest

from spatial_hash._core import ALL_LAYERS
from spatial_hash.node import api
from spatial_hash.node.engine import PROTOCOL, NodeEngine

ADDON = pathlib.Path(__file__).resolve().parent.parent / "addons" / "spatial_hash"
FACES = {4: ADDON / "godot4" / "spatial_hash_2d.gd", 3: ADDON / "godot3" / "spatial_hash_2d.gd"}
# Godot 3's GDScript refuses a method named update with arguments other than
# CanvasItem.update()'s: the face names it update_object there.
GODOT3_NAMES = {"update": "update_object"}


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


@pytest.mark.parametrize("version", [4, 3])
def test_each_face_declares_exactly_the_api_table(version):
    declared = {name: f for name, f in functions(FACES[version].read_text()).items()
                if not name.startswith("_")}
    expected = {GODOT3_NAMES.get(m.name, m.name) if version == 3 else m.name: m for m in api.METHODS}
    assert set(declared) == set(expected)
    for name, method in expected.items():
        args, returns, _ = declared[name]
        want = [(a.name, a.type if version == 4 else api.godot3_type(a.type), a.default)
                for a in method.args]
        assert args == want, name
        assert returns == (method.returns if version == 4 else api.godot3_type(method.returns)), name


@pytest.mark.parametrize("version", [4, 3])
def test_each_face_exports_the_properties_and_signals_of_the_table(version):
    source = FACES[version].read_text()
    exported = properties(source)
    expected = {p.name: p for p in api.PROPERTIES if version in p.dialects}
    assert set(exported) == set(expected)
    for name, prop in expected.items():
        assert exported[name][:2] == (prop.type, prop.default), name
    assert {name: args for name, (args, _) in signals(source).items()} == \
        {s.name: list(s.args) for s in api.SIGNALS}
    (layers,) = re.findall(r"^const ALL_LAYERS :?= (\w+)$", source, re.M)
    assert int(layers, 0) == ALL_LAYERS


def test_the_godot4_face_documents_every_public_method_property_and_signal():
    """Godot 4's doctool turns ## comments into the node's help page."""
    source = FACES[4].read_text()
    assert source.startswith('@icon("res://addons/spatial_hash/icon.svg")\nclass_name SpatialHash2D\n'
                             'extends Node2D\n## ')
    undocumented = [name for name, (_, _, doc) in functions(source).items()
                    if not name.startswith("_") and not doc]
    undocumented += [name for name, (_, _, doc) in properties(source).items() if not doc]
    undocumented += [name for name, (_, doc) in signals(source).items() if not doc]
    assert undocumented == []
    assert (ADDON / "icon.svg").read_text().startswith("<svg")


def test_the_godot3_face_registers_its_class_with_the_icon():
    assert FACES[3].read_text().startswith(
        'class_name SpatialHash2D, "res://addons/spatial_hash/icon.svg"\nextends Node2D\n')


@pytest.mark.parametrize("version", [4, 3])
def test_every_engine_call_of_a_face_is_in_the_protocol_with_its_arguments(version):
    source = FACES[version].read_text()
    calls = engine_calls(source)
    assert len(calls) > 20
    arity = {name: len(inspect.signature(getattr(NodeEngine, name)).parameters) - 1
             for name in PROTOCOL}
    arity["protocol"] = 0
    for method, count in calls:
        if method == "0":
            assert count == 0           # the protocol itself
        elif method == "op":            # _place: insert, update and insert_circle by name
            assert count in (4, 5)
        else:
            assert method in PROTOCOL and count == arity[method], (method, count)
    for name in re.findall(r'_place\(obj, \w+, "(\w+)"', source):
        assert name in PROTOCOL


@pytest.mark.parametrize("version", [4, 3])
def test_faces_hand_the_engine_no_object(version):
    """Every plugin crashes the engine when a freed Object reaches Python: the
    faces pass their engine numbers, ids and packed arrays only. Each argument
    of an engine call is a number from a Vector2 or Rect2, a checked int or
    bool, or an array the face built or checked (never obj, a, b, or an Array)."""
    source = FACES[version].read_text()
    for match in re.finditer(r"_engine\.run\(([^()]*(?:\([^()]*\))?[^()]*)\)", source):
        for arg in split_top(match.group(1))[1:]:
            assert not re.fullmatch(r"obj|a|b|node|value|positions|sizes|layers|masks|ids", arg), \
                (arg, match.group(0))
