"""GDScript in the demos and the README, checked for the mistakes that real
engines rejected (no GDScript parser runs here): Godot 4 cannot infer a type
from an untyped parameter, Godot 3 does not parse a variable named `hash`, and
statements outside a function do not parse on either."""
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEMOS = sorted((ROOT / "demo_project").glob("godot*/*.gd"))
README_BLOCKS = re.findall(r"```gdscript\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
CLASS_LEVEL = re.compile(r"^(extends |const |var |onready var |@onready var |func |static func |signal |#|[}\]]|$)")


def test_the_readme_has_an_example_per_engine():
    assert len(README_BLOCKS) == 3
    assert "PackedVector2Array" in README_BLOCKS[0] and "PoolVector2Array" in README_BLOCKS[1]
    assert "Packed" not in README_BLOCKS[1]
    assert "SpatialHash3D" in README_BLOCKS[2] and "PackedVector3Array" in README_BLOCKS[2]


@pytest.mark.parametrize("path", [p for p in DEMOS if p.parent.name == "godot4"], ids=lambda p: p.name)
def test_godot4_demo_parameters_are_typed(path):
    for params in re.findall(r"^func \w+\((.*?)\)", path.read_text(), re.M):
        for param in filter(None, (p.strip() for p in params.split(","))):
            assert ":" in param, f"{path.name}: untyped parameter {param!r}"


@pytest.mark.parametrize("text,where", [(p.read_text(), p.name) for p in DEMOS]
                         + [(block, f"README block {k}") for k, block in enumerate(README_BLOCKS)])
def test_gdscript_parses_at_class_level_and_names_no_hash(text, where):
    assert not re.search(r"\bvar hash\b", text), where
    for line in text.splitlines():
        if line and not line[0].isspace():
            assert CLASS_LEVEL.match(line), f"{where}: {line!r} outside a function"
