"""GDScript in the demos, the README and the manual, checked for the mistakes
that real engines rejected (test_docs.py parses the examples in a real Godot
where one is at hand): Godot 4 cannot infer a type from an untyped parameter,
Godot 3 does not parse a variable named `hash`, and statements outside a
function do not parse on either."""
import pathlib
import re

import pytest

from doc_examples import blocks

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEMOS = sorted((ROOT / "demo_project").glob("godot*/*.gd"))
EXAMPLES = blocks("gdscript")
CLASS_LEVEL = re.compile(r"^(extends |const |var |onready var |@onready var |func |static func |signal |#|[}\]]|$)")


def test_the_examples_speak_their_dialect():
    dialects = {b.dialect for b in EXAMPLES if "Packed" in b.text}, \
        {b.dialect for b in EXAMPLES if "Pool" in b.text or "onready var" in b.text.replace("@onready", "")}
    assert dialects == ({"godot4"}, {"godot3"})
    assert any("SpatialHash3D" in b.text for b in EXAMPLES)


@pytest.mark.parametrize("path", [p for p in DEMOS if p.parent.name == "godot4"], ids=lambda p: p.name)
def test_godot4_demo_parameters_are_typed(path):
    for params in re.findall(r"^func \w+\((.*?)\)", path.read_text(), re.M):
        for param in filter(None, (p.strip() for p in params.split(","))):
            assert ":" in param, f"{path.name}: untyped parameter {param!r}"


@pytest.mark.parametrize("text,where", [(p.read_text(), p.name) for p in DEMOS]
                         + [(block.text, block.where) for block in EXAMPLES])
def test_gdscript_parses_at_class_level_and_names_no_hash(text, where):
    assert not re.search(r"\bvar hash\b", text), where
    for line in text.splitlines():
        if line and not line[0].isspace():
            assert CLASS_LEVEL.match(line), f"{where}: {line!r} outside a function"
