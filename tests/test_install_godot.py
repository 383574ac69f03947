"""install_godot.py against project folders shaped like the three plugins' real
layouts, with the plugin's Python replaced by a recorder (the real installs,
which build the core for the plugin's Python, were run in real engines)."""
import importlib.util
import os
import pathlib
import re
import subprocess
import sys

import pytest

TOOL = pathlib.Path(__file__).resolve().parent.parent / "tools" / "install_godot.py"
spec = importlib.util.spec_from_file_location("install_godot", TOOL)
install_godot = importlib.util.module_from_spec(spec)
spec.loader.exec_module(install_godot)


class PluginPython:
    """Records the commands; answers like a Python of `version` whose pip and
    numpy are there or not."""

    def __init__(self, version="3.8", pip=True, numpy=True):
        self.version, self.pip, self.numpy = version, pip, numpy
        self.commands = []

    def __call__(self, command):
        self.commands.append(command)
        text = " ".join(command)
        if "--force-reinstall" in command:       # what pip would build: sources only
            source = pathlib.Path(command[-1])
            self.built = sorted(p.relative_to(source).as_posix() for p in source.rglob("*"))
        if "sys.version_info" in text:
            return self.version + "\n"
        if "pip --version" in text and not self.pip:
            raise subprocess.CalledProcessError(1, command)
        if "ensurepip" in text:
            self.pip = True
        if "import numpy" in text and not self.numpy:
            raise subprocess.CalledProcessError(1, command)
        return ""


def godot3_project(root):
    project = root / "game3"
    (project / "addons" / "pythonscript" / "x11-64" / "bin").mkdir(parents=True)
    (project / "addons" / "pythonscript" / "x11-64" / "lib" / "python3.8").mkdir(parents=True)
    (project / "addons" / "pythonscript" / "x11-64" / "bin" / "python3").write_text("")
    (project / "pythonscript.gdnlib").write_text("")
    (project / "project.godot").write_text("config_version=4\n\n[application]\n\nconfig/name=\"g\"\n")
    return project


def godot4_project(root):
    project = root / "game4"
    (project / "bin" / "linux-x86_64" / "python3.14").mkdir(parents=True)
    (project / "python.gdextension").write_text("")
    (project / "project.godot").write_text("config_version=5\n")
    return project


def test_godot3_install_is_complete_and_can_run_again(tmp_path):
    project = godot3_project(tmp_path)
    (project / "addons" / "spatial_hash").mkdir()
    (project / "addons" / "spatial_hash" / "node.py").write_text("an old full copy")
    python = PluginPython(pip=False, numpy=False)
    plugin = install_godot.install(str(project), run=python, log=lambda m: None)
    embedded = str(project / "addons" / "pythonscript" / "x11-64" / "bin" / "python3")
    assert plugin.name == "pythonscript" and plugin.python == embedded
    commands = [" ".join(c) for c in python.commands]
    assert commands[2] == embedded + " -m ensurepip"
    site = project / "addons" / "pythonscript" / "x11-64" / "lib" / "python3.8" / "site-packages"
    assert plugin.site_packages == str(site)
    assert any(c.endswith(f"install --no-input --target {site} --upgrade numpy>=1.20")
               for c in commands)
    assert "--no-deps --force-reinstall" in commands[-2]
    assert "setup.py" in python.built and "addons/spatial_hash/node/engine.py" in python.built
    assert not any(p.startswith(("build/", ".git/", "demo_project/")) or p.endswith(".so")
                   for p in python.built)
    assert commands[-1].startswith(embedded + " -I -S -c") and str(site) in commands[-1]
    assert commands[-1].endswith("import spatial_hash._core, spatial_hash._core3d, "
                                 "spatial_hash.node.engine")
    addon = project / "addons" / "spatial_hash"
    godot3_files = ["godot3", "godot3/missing_engine.gd", "godot3/spatial_hash_2d.gd",
                    "godot3/spatial_hash_3d.gd", "godot3/spatial_hash_engine.py", "icon.svg"]
    assert sorted(p.relative_to(addon).as_posix() for p in addon.rglob("*")) == godot3_files
    text = (project / "project.godot").read_text()
    assert text.count("pythonscript.gdnlib") == 1
    again = PluginPython()
    install_godot.install(str(project), run=again, log=lambda m: None)
    assert (project / "project.godot").read_text() == text
    assert not any("ensurepip" in c or "numpy>=" in c for c in map(" ".join, again.commands))
    assert sorted(p.relative_to(addon).as_posix() for p in addon.rglob("*")) == godot3_files


def test_godot4_install_targets_the_extension_site_packages(tmp_path, monkeypatch):
    project = godot4_project(tmp_path)
    (project / "addons").mkdir()
    os.symlink(tmp_path, project / "addons" / "spatial_hash")      # a link to a checkout
    python = PluginPython(version="3.14", numpy=False)
    plugin = install_godot.install(str(project), python="/usr/bin/python3.14", run=python,
                                   log=lambda m: None)
    site = project / "bin" / "linux-x86_64" / "python3.14" / "site-packages"
    assert plugin.site_packages == str(site) and (site / ".gdignore").exists()
    commands = [" ".join(c) for c in python.commands]
    assert any(f"--target {site} --upgrade numpy>=1.20" in c for c in commands)
    assert f"--force-reinstall --target {site} --upgrade" in commands[-2]
    assert "-I -S -c" in commands[-1] and str(site) in commands[-1]
    addon = project / "addons" / "spatial_hash"
    assert not addon.is_symlink()
    assert sorted(p.relative_to(addon).as_posix() for p in addon.rglob("*")) == \
        ["godot4", "godot4/missing_engine.gd", "godot4/spatial_hash_2d.gd",
         "godot4/spatial_hash_3d.gd", "godot4/spatial_hash_engine.py", "icon.svg"]


def test_the_godot4_face_picks_the_engine_script_the_installer_put_there(tmp_path):
    """The Godot 4 face tells a py4godot project by the file the installer found
    py4godot by, and loads the engine script the installer copied for it."""
    text = (TOOL.parent.parent / "addons" / "spatial_hash" / "godot4" / "spatial_hash_2d.gd").read_text()
    marker = re.search(r'const _PY4GODOT := "res://([^"]+)"', text).group(1)
    engines = dict(re.findall(r'(true|false): "res://addons/spatial_hash/([^"]+)"', text))
    for layout, found in ((py4godot_project(tmp_path)[0], "true"), (godot4_project(tmp_path), "false")):
        assert (layout / marker).is_file() == (found == "true")
        install_godot.install(str(layout), python="/usr/bin/python3.14",
                              run=PluginPython(version="3.14"), log=lambda m: None)
        assert (layout / "addons" / "spatial_hash" / engines[found]).is_file()


def py4godot_project(root):
    project = root / "game_p4"
    home = project / "addons" / "py4godot" / "cpython-3.14.10-linux64" / "python"
    (home / "lib" / "python3.14" / "site-packages").mkdir(parents=True)
    (home / "bin").mkdir()
    (home / "bin" / "python3").write_text("")
    (project / "addons" / "py4godot" / "python.gdextension").write_text("")
    (project / "project.godot").write_text("config_version=5\n")
    return project, home


def test_py4godot_install_targets_its_cpython_site_packages(tmp_path):
    project, home = py4godot_project(tmp_path)
    python = PluginPython(version="3.14", numpy=False)
    plugin = install_godot.install(str(project), run=python, log=lambda m: None)
    site = home / "lib" / "python3.14" / "site-packages"
    assert plugin.name == "py4godot" and plugin.python == str(home / "bin" / "python3")
    assert plugin.site_packages == str(site) and (site / ".gdignore").exists()
    commands = [" ".join(c) for c in python.commands]
    assert any(f"--target {site} --upgrade numpy>=1.20" in c for c in commands)
    assert f"--force-reinstall --target {site} --upgrade" in commands[-2]
    addon = project / "addons" / "spatial_hash"
    assert sorted(p.relative_to(addon).as_posix() for p in addon.rglob("*")) == \
        ["godot4", "godot4/missing_engine.gd", "godot4/spatial_hash_2d.gd",
         "godot4/spatial_hash_3d.gd", "icon.svg", "py4godot",
         "py4godot/spatial_hash_engine.py"]
    with pytest.raises(install_godot.Refused, match="embeds 3.14"):
        install_godot.install(str(project), python="/usr/bin/python3.12",
                              run=PluginPython(version="3.12"), log=lambda m: None)


@pytest.mark.parametrize("layout,python,message", [
    (None, None, "not a Godot project"),
    ("bare", None, "no Python plugin found"),
    ("godot4", "3.12", "embeds 3.14"),
    ("godot3", "3.7", "needs 3.8 or newer"),
])
def test_refusals_say_why_and_change_nothing(tmp_path, layout, python, message):
    project = tmp_path / "empty"
    project.mkdir()
    if layout == "bare":
        (project / "project.godot").write_text("config_version=5\n")
    elif layout == "godot4":
        project = godot4_project(tmp_path)
    elif layout == "godot3":
        project = godot3_project(tmp_path)
    before = sorted(p.as_posix() for p in project.rglob("*"))
    recorder = PluginPython(version=python or "3.8")
    with pytest.raises(install_godot.Refused, match=message):
        install_godot.install(str(project), python="/usr/bin/python3.x" if python else None,
                              run=recorder, log=lambda m: None)
    assert sorted(p.as_posix() for p in project.rglob("*")) == before
    assert not any("pip" in " ".join(c) for c in recorder.commands)


def test_godot4_without_the_extension_python_on_path_is_refused(tmp_path, monkeypatch):
    project = godot4_project(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(install_godot.Refused, match="no python3.14 found on PATH"):
        install_godot.install(str(project), run=PluginPython(), log=lambda m: None)
    assert install_godot.main([str(project)]) == 2


def test_numpy_of_the_building_pythons_own_does_not_count_for_the_plugin(tmp_path):
    """godot-python-extension is built with a Python of the user's, whose own
    site-packages the engine never sees: numpy there (this test's own) must not
    stop the installer from putting numpy in the extension's folder."""
    project = godot4_project(tmp_path)
    site = project / "bin" / "linux-x86_64" / "python3.14" / "site-packages"
    site.mkdir()
    plugin = install_godot.find_plugin(str(project), python=sys.executable)
    subprocess.run([sys.executable, "-c", "import numpy"], check=True)
    with pytest.raises(subprocess.CalledProcessError):
        subprocess.run(install_godot.importer(plugin, "import numpy"), check=True,
                       stderr=subprocess.DEVNULL)
    (site / "numpy").mkdir()
    (site / "numpy" / "__init__.py").write_text("")
    subprocess.run(install_godot.importer(plugin, "import numpy"), check=True)


def load_tool(name):
    spec = importlib.util.spec_from_file_location(name, TOOL.parent / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


complete_export = load_tool("complete_export")


def files_under(folder):
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_py4godot_projects_get_its_export_plugin_enabled_once(tmp_path):
    project, _ = py4godot_project(tmp_path)
    (project / "project.godot").write_text('config_version=5\n\n[editor_plugins]\n\n'
                                           'enabled=PackedStringArray("res://addons/x/plugin.cfg")\n')
    for _ in range(2):
        install_godot.install(str(project), run=PluginPython(version="3.14"), log=lambda m: None)
    text = (project / "project.godot").read_text()
    assert 'enabled=PackedStringArray("res://addons/x/plugin.cfg", ' \
           '"res://addons/py4godot/plugin.cfg")' in text and text.count("py4godot") == 1
    bare = install_godot.with_editor_plugin("config_version=5", "res://p.cfg")
    assert bare.endswith('\n[editor_plugins]\n\nenabled=PackedStringArray("res://p.cfg")\n')


def test_an_extension_export_gets_site_packages_back_whole(tmp_path):
    project = godot4_project(tmp_path)
    site = project / "bin" / "linux-x86_64" / "python3.14" / "site-packages"
    (site / "numpy" / "_core").mkdir(parents=True)
    (site / "numpy" / "_core" / "_multiarray_umath.cpython-314.so").write_text("")
    (site / "spatial_hash").mkdir()
    (site / "spatial_hash" / "_core.cpython-314.so").write_text("")
    out = tmp_path / "out"
    (out / "lib" / "linux-x86_64" / "python3.14" / "lib-dynload").mkdir(parents=True)
    for flat in ("_multiarray_umath.cpython-314.so", "_core.cpython-314.so",
                 "libgodot-python.linux.x86_64.so", "game.x86_64"):
        (out / flat).write_text("")
    plugin = complete_export.complete(str(project), str(out), log=lambda m: None)
    assert plugin.name == "godot-python-extension"
    assert files_under(out) == ["game.x86_64",
                                "lib/linux-x86_64/python3.14/site-packages/numpy/_core/"
                                "_multiarray_umath.cpython-314.so",
                                "lib/linux-x86_64/python3.14/site-packages/spatial_hash/"
                                "_core.cpython-314.so",
                                "libgodot-python.linux.x86_64.so"]


def test_a_py4godot_export_gets_the_addons_python_files(tmp_path):
    project, home = py4godot_project(tmp_path)
    install_godot.copy_addon(str(project), install_godot.find_plugin(str(project)))
    (project / "main.py").write_text("")              # the plugin's own export copies these
    out = tmp_path / "out"
    with pytest.raises(complete_export.Refused, match="Export Py4Godot"):
        complete_export.complete(str(project), str(out.mkdir() or out), log=lambda m: None)
    (out / "addons" / "py4godot").mkdir(parents=True)
    complete_export.complete(str(project), str(out), log=lambda m: None)
    assert files_under(out) == ["addons/spatial_hash/py4godot/spatial_hash_engine.py"]


def test_a_pythonscript_pck_gets_its_python_and_the_projects_python_files(tmp_path):
    project = godot3_project(tmp_path)
    (project / "addons" / "pythonscript" / "x11-64" / "lib").mkdir(exist_ok=True)
    (project / "addons" / "pythonscript" / "x11-64" / "lib" / "libpython3.8.so.1.0").write_text("")
    install_godot.copy_addon(str(project), install_godot.find_plugin(str(project)))
    (project / "tools").mkdir()
    (project / "tools" / "helper.py").write_text("")
    out = tmp_path / "out"
    out.mkdir()
    (out / "game.pck").write_text("")
    complete_export.complete(str(project), str(out), log=lambda m: None)
    assert files_under(out) == ["addons/pythonscript/x11-64/bin/python3",
                                "addons/pythonscript/x11-64/lib/libpython3.8.so.1.0",
                                "addons/spatial_hash/godot3/spatial_hash_engine.py", "game.pck",
                                "tools/helper.py"]
