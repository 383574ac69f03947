"""The Godot 3 face of SpatialHash2D in a real Godot 3 (Debian's godot3-server,
which CI installs; skipped where it is missing), without a Python plugin, over a
GDScript stand-in engine: tests/godot3/face_test.gd."""
import pathlib
import shutil
import subprocess

import pytest

TESTS = pathlib.Path(__file__).resolve().parent
ADDON = TESTS.parent / "addons" / "spatial_hash"
GODOT3 = shutil.which("godot3-server")


@pytest.mark.skipif(GODOT3 is None, reason="godot3-server is not installed (apt install godot3-server)")
def test_the_godot3_face_in_godot3(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(TESTS / "godot3", project)
    face = project / "addons" / "spatial_hash" / "godot3"
    face.mkdir(parents=True)
    for name in ("spatial_hash_2d.gd", "missing_engine.gd"):
        shutil.copy(ADDON / "godot3" / name, face / name)
    shutil.copy(ADDON / "icon.svg", face.parent / "icon.svg")
    env = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([GODOT3, "--path", str(project)], capture_output=True, text=True,
                          timeout=300, env=env)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-3000:]
    assert "FACE OK" in done.stdout.splitlines(), output[-3000:]
    assert "SCRIPT ERROR" not in output, output[-3000:]
