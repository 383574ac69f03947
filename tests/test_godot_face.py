"""The node's GDScript in real engines, without a Python plugin, over a
GDScript stand-in for its Python engine (tests/godot3/, tests/godot4/):
random per-object and batch calls on nodes and ints, nodes freed and taken out
of the tree, checked against a model, and no Object may reach the engine.
Godot 3 is Debian's godot3-server (CI installs it); Godot 4 runs where
SPATIAL_HASH_GODOT4 names a command that starts it (Debian has it only in sid).
Each is skipped where it is missing."""
import os
import pathlib
import shlex
import shutil
import subprocess

import pytest

TESTS = pathlib.Path(__file__).resolve().parent
ADDON = TESTS.parent / "addons" / "spatial_hash"
ENGINES = {
    3: [shutil.which("godot3-server")] if shutil.which("godot3-server") else None,
    4: shlex.split(os.environ["SPATIAL_HASH_GODOT4"]) + ["--headless"]
    if os.environ.get("SPATIAL_HASH_GODOT4") else None,
}


@pytest.mark.parametrize("version", [3, 4])
def test_the_node_in_a_real_godot(tmp_path, version):
    godot = ENGINES[version]
    if godot is None:
        pytest.skip(f"no Godot {version} here (see this module's docstring)")
    project = tmp_path / "project"
    shutil.copytree(TESTS / f"godot{version}", project)
    face = project / "addons" / "spatial_hash" / f"godot{version}"
    face.mkdir(parents=True)
    for name in ("spatial_hash_2d.gd", "missing_engine.gd"):
        shutil.copy(ADDON / f"godot{version}" / name, face / name)
    shutil.copy(ADDON / "icon.svg", face.parent / "icon.svg")
    env = dict(os.environ, HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"))
    if version == 4:        # the class cache and the icon: a scan first
        subprocess.run(godot + ["--path", str(project), "--import"], capture_output=True,
                       timeout=300, env=env)
    done = subprocess.run(godot + ["--path", str(project)], capture_output=True, text=True,
                          timeout=300, env=env)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-3000:]
    assert "FACE OK" in done.stdout.splitlines(), output[-3000:]
    assert "SCRIPT ERROR" not in output, output[-3000:]
