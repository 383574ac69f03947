"""The Godot release bundle: its installer (addons/spatial_hash/python/install.py)
against project folders shaped like the three plugins' real layouts, the
editor plugin that runs it in a real Godot, and what tools/build_bundle.py
puts in the zips."""
import importlib.util
import os
import pathlib
import shlex
import shutil
import subprocess
import sys
import sysconfig
import zipfile

import pytest

import spatial_hash

ROOT = pathlib.Path(__file__).resolve().parent.parent
ADDON = ROOT / "addons" / "spatial_hash"


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


installer = load(ADDON / "python" / "install.py", "bundle_install")
build_bundle = load(ROOT / "tools" / "build_bundle.py", "build_bundle")
HERE = sys.version_info[:2]
TAG = "cp%d%d" % HERE


def core_names(version):
    tag = "%d%d" % version
    return [f"_core.cpython-{tag}-x86_64-linux-gnu.so", f"_core3d.cpython-{tag}-x86_64-linux-gnu.so"]


def make_wheel(path, files):
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return path


def fake_bundle(root, cores=((3, 8), (3, 14)), numpy=((3, 8), (3, 14))):
    """A bundle's python/ folder: the package with cores for `cores`, numpy
    wheels for `numpy`."""
    bundle = root / "bundle"
    package = bundle / "spatial_hash"
    (package / "node").mkdir(parents=True)
    (package / "__init__.py").write_text("new = True\n")
    (package / "node" / "engine.py").write_text("")
    for version in cores:
        for name in core_names(version):
            (package / name).write_text(name)
    (bundle / "wheels").mkdir()
    for major, minor in numpy:
        tag = "cp%d%d" % (major, minor)
        make_wheel(bundle / "wheels" / f"numpy-9.9.9-{tag}-{tag}-manylinux_2_28_x86_64.whl",
                   {"numpy/__init__.py": "", "numpy.libs/libopenblas.so": "",
                    "numpy-9.9.9.dist-info/RECORD": ""})
    return bundle


def pythonscript_project(root, python="3.8"):
    project = root / "game3"
    home = project / "addons" / "pythonscript" / "x11-64"
    (home / "bin").mkdir(parents=True)
    (home / "bin" / "python3").write_text("")
    (home / "lib" / f"python{python}").mkdir(parents=True)
    (project / "pythonscript.gdnlib").write_text("")
    (project / "project.godot").write_text("config_version=4\n")
    return project, home / "lib" / f"python{python}" / "site-packages"


def extension_project(root, python="3.14"):
    project = root / "game4"
    (project / "bin" / "linux-x86_64" / f"python{python}").mkdir(parents=True)
    (project / "python.gdextension").write_text("")
    (project / "project.godot").write_text("config_version=5\n")
    return project, project / "bin" / "linux-x86_64" / f"python{python}" / "site-packages"


def py4godot_project(root, python="3.14"):
    project = root / "game_p4"
    home = project / "addons" / "py4godot" / f"cpython-{python}.0-linux64" / "python"
    (home / "lib" / f"python{python}" / "site-packages").mkdir(parents=True)
    (home / "bin").mkdir()
    (home / "bin" / "python3").write_text("")
    (project / "addons" / "py4godot" / "python.gdextension").write_text("")
    (project / "project.godot").write_text("config_version=5\n")
    return project, home / "lib" / f"python{python}" / "site-packages"


class Recorder:
    def __init__(self):
        self.commands = []

    def __call__(self, command):
        self.commands.append(command)
        return ""


def tree(folder):
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


def test_pythonscript_gets_its_core_and_numpy_and_again_replaces_them(tmp_path):
    bundle = fake_bundle(tmp_path)
    project, site = pythonscript_project(tmp_path)
    (site / "spatial_hash").mkdir(parents=True)
    (site / "spatial_hash" / "stale.py").write_text("")
    (site / "spatial_hash-0.0.1.dist-info").mkdir()
    run, lines = Recorder(), []
    plugin = installer.install(str(project), str(bundle), run=run, log=lines.append)
    assert plugin.name == "pythonscript" and plugin.version == (3, 8)
    assert tree(site / "spatial_hash") == sorted(["__init__.py", "node", "node/engine.py"]
                                                 + core_names((3, 8)))
    assert (site / "numpy" / "__init__.py").is_file() and (site / "numpy.libs").is_dir()
    assert not (site / "spatial_hash-0.0.1.dist-info").exists()
    assert (project / "project.godot").read_text().count("pythonscript.gdnlib") == 1
    embedded = project / "addons" / "pythonscript" / "x11-64" / "bin" / "python3"
    (command,) = run.commands
    assert command[:4] == [str(embedded), "-I", "-S", "-c"] and str(site) in command[4]
    assert command[4].endswith(installer.CHECK)
    assert any("numpy-9.9.9-cp38" in line for line in lines) and "done" in lines[-1]
    # Again, after an update: the package is replaced, numpy kept, the project unchanged.
    (bundle / "spatial_hash" / "__init__.py").write_text("newer = True\n")
    (site / "numpy" / "mine.py").write_text("")
    text = (project / "project.godot").read_text()
    lines.clear()
    installer.install(str(project), str(bundle), run=Recorder(), log=lines.append)
    assert (site / "spatial_hash" / "__init__.py").read_text() == "newer = True\n"
    assert (site / "numpy" / "mine.py").exists() and "spatial_hash: numpy was already there: kept" in lines
    assert (project / "project.godot").read_text() == text


@pytest.mark.parametrize("make", [extension_project, py4godot_project])
def test_the_godot4_plugins_get_the_314_core_and_a_gdignore(tmp_path, make, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))          # no python3.14 to check with
    bundle = fake_bundle(tmp_path)
    project, site = make(tmp_path)
    run, lines = Recorder(), []
    plugin = installer.install(str(project), str(bundle), run=run, log=lines.append)
    assert plugin.version == (3, 14) and (site / ".gdignore").exists()
    assert sorted(p.name for p in (site / "spatial_hash").glob("*.so")) == core_names((3, 14))
    if plugin.name == "py4godot":       # its own Python checks the import
        assert len(run.commands) == 1
        assert "res://addons/py4godot/plugin.cfg" in (project / "project.godot").read_text()
    else:
        assert run.commands == [] and any("no python3.14 found" in line for line in lines)


@pytest.mark.parametrize("case, message", [
    ("no plugin", "no Python plugin found"),
    ("no core", "prebuilt core only for Python 3.8, 3.14. Build it from a checkout"),
    ("no numpy", "pip install --target"),
    ("old python", "needs 3.8 or newer"),
])
def test_refusals_name_what_is_missing_and_change_nothing(tmp_path, case, message):
    bundle = fake_bundle(tmp_path, cores=((3, 7), (3, 8), (3, 11), (3, 14)) if case != "no core"
                         else ((3, 8), (3, 14)))
    if case == "no plugin":
        project = tmp_path / "bare"
        project.mkdir()
        (project / "project.godot").write_text("config_version=5\n")
    else:
        python = {"no core": "3.12", "no numpy": "3.11", "old python": "3.7"}[case]
        project, _ = extension_project(tmp_path, python)
    before = tree(project)
    run = Recorder()
    with pytest.raises(installer.Refused, match=message.replace(".", r"\.")) as refused:
        installer.install(str(project), str(bundle), run=run, log=lambda m: None)
    assert tree(project) == before and run.commands == []
    if case == "no core":
        assert str(refused.value).endswith(f"python3 tools/install_godot.py {project}")


def test_the_command_reports_refusals_on_stderr_with_exit_2(tmp_path):
    project = tmp_path / "bare"
    project.mkdir()
    (project / "project.godot").write_text("config_version=5\n")
    done = subprocess.run([sys.executable, str(ADDON / "python" / "install.py"), str(project)],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "refused: no Python plugin found" in done.stderr
    done = subprocess.run([sys.executable, str(ADDON / "python" / "install.py")],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "install.py path/to/project" in done.stderr


def installed_package_bundle(root):
    """A bundle made of this interpreter's installed spatial_hash (as the wheels
    hold it), with no numpy wheel."""
    bundle = root / "bundle"
    bundle.mkdir()
    shutil.copytree(pathlib.Path(spatial_hash.__file__).parent, bundle / "spatial_hash",
                    ignore=shutil.ignore_patterns("__pycache__", "bench", "*.pyi"))
    (bundle / "wheels").mkdir()
    return bundle


def test_a_real_install_imports_with_the_plugins_python(tmp_path):
    """The installed package alone (numpy beside it) imports with only the
    plugin's site-packages on the path, through the real interpreter."""
    bundle = installed_package_bundle(tmp_path)
    project, site = pythonscript_project(tmp_path, "%d.%d" % HERE)
    embedded = project / "addons" / "pythonscript" / "x11-64" / "bin" / "python3"
    embedded.unlink()
    embedded.symlink_to(sys.executable)
    site.mkdir()
    import numpy
    (site / "numpy").symlink_to(pathlib.Path(numpy.__file__).parent)
    lines = []
    installer.install(str(project), str(bundle), log=lines.append)
    assert f"spatial_hash: the core imports with {embedded}" in lines
    assert not list((site / "spatial_hash").rglob("*.pyi"))


def godot3():
    return shutil.which("godot3-server")


GODOT4 = shlex.split(os.environ["SPATIAL_HASH_GODOT4"]) + ["--headless"] \
    if os.environ.get("SPATIAL_HASH_GODOT4") else None


@pytest.mark.parametrize("version", [3, 4])
def test_the_editor_plugin_runs_the_installer_in_a_real_godot(tmp_path, version):
    """The editor plugin's install(), called in a real Godot, runs the
    installer with the plugin's own Python (here a link to this one) and
    reports a refusal through push_error."""
    godot = [godot3()] if version == 3 and godot3() else GODOT4 if version == 4 else None
    if godot is None:
        pytest.skip(f"no Godot {version} here (see tests/test_godot_face.py)")
    bundle = installed_package_bundle(tmp_path)
    if version == 3:
        project, site = pythonscript_project(tmp_path, "%d.%d" % HERE)
        python = project / "addons" / "pythonscript" / "x11-64" / "bin" / "python3"
    else:
        project, site = py4godot_project(tmp_path, "%d.%d" % HERE)
        python = next((project / "addons" / "py4godot").glob("cpython-*")) / "python" / "bin" / "python3"
    python.unlink()
    python.symlink_to(sys.executable)
    site.mkdir(exist_ok=True)
    import numpy
    (site / "numpy").symlink_to(pathlib.Path(numpy.__file__).parent)
    addon = project / "addons" / "spatial_hash"
    shutil.copytree(bundle, addon / "python")
    shutil.copy(ADDON / "python" / "install.py", addon / "python" / "install.py")
    dialect = "godot%d" % version
    (addon / dialect).mkdir(parents=True)
    shutil.copy(ADDON / dialect / "editor_plugin.gd", addon / dialect / "editor_plugin.gd")
    extends = "SceneTree"
    (project / "run_install.gd").write_text(
        f"extends {extends}\n\n"
        f"func _init(){' -> void' if version == 4 else ''}:\n"
        f"\tvar code = load(\"res://addons/spatial_hash/{dialect}/editor_plugin.gd\").install()\n"
        f"\tprint(\"INSTALL EXIT %d\" % code)\n"
        f"\tquit(code)\n")
    env = dict(os.environ, HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"))
    done = subprocess.run(godot + ["--path", str(project), "--script", "res://run_install.gd"],
                          capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    output = done.stdout + done.stderr
    assert "INSTALL EXIT 0" in done.stdout, output[-3000:]
    assert "spatial_hash: the core imports with" in done.stdout, output[-3000:]
    # Only this Python's cores (an editable install of several Pythons has each one's).
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    assert sorted(p.name for p in (site / "spatial_hash").glob("*.so")) == \
        sorted(p.name for p in (bundle / "spatial_hash").glob("*" + suffix))
    # No core for the plugin's Python: the refusal reaches Godot's error channel.
    for core in (addon / "python" / "spatial_hash").glob("*.so"):
        core.unlink()
    done = subprocess.run(godot + ["--path", str(project), "--script", "res://run_install.gd"],
                          capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    output = done.stdout + done.stderr
    assert "INSTALL EXIT 2" in done.stdout, output[-3000:]
    assert "ERROR: " in output and "has a prebuilt core only for Python (none)" in output


def test_plugin_cfg_and_the_zips_name_read_the_packages_version():
    assert build_bundle.version() == spatial_hash.__version__
    text = build_bundle.plugin_cfg("godot4", build_bundle.version())
    assert f'version="{spatial_hash.__version__}"' in text
    assert 'script="godot4/editor_plugin.gd"' in text


def fake_wheel(root, tag, extra=()):
    files = {"spatial_hash/__init__.py": "x = 1\n", "spatial_hash/node/engine.py": "",
             "spatial_hash/_core.pyi": "", "spatial_hash/bench/__init__.py": "",
             "spatial_hash/__pycache__/x.pyc": "",
             f"spatial_hash/_core.cpython-{tag[2:]}-x86_64-linux-gnu.so": "",
             "spatial_hash-0.1.0.dist-info/RECORD": ""}
    files.update(dict.fromkeys(extra, ""))
    return make_wheel(root / f"spatial_hash-0.1.0-{tag}-{tag}-manylinux_2_17_x86_64.whl", files)


def test_a_zip_holds_only_what_a_game_ships(tmp_path):
    wheels = [fake_wheel(tmp_path, "cp38"), fake_wheel(tmp_path, "cp314")]
    package = build_bundle.package_files(wheels)
    assert sorted(package) == ["spatial_hash/__init__.py", "spatial_hash/_core.cpython-314-x86_64-linux-gnu.so",
                               "spatial_hash/_core.cpython-38-x86_64-linux-gnu.so",
                               "spatial_hash/node/engine.py"]
    numpy = [make_wheel(tmp_path / "numpy-9.9-cp314-cp314-manylinux_2_28_x86_64.whl", {})]
    path = build_bundle.build("godot4", "0.1.0", package, numpy, str(tmp_path))
    assert os.path.basename(path) == "spatial_hash-0.1.0-godot4.zip"
    names = zipfile.ZipFile(path).namelist()
    top = "spatial_hash-0.1.0-godot4/addons/spatial_hash/"
    assert all(name.startswith(top) for name in names)
    shipped = sorted(name[len(top):] for name in names)
    assert shipped == sorted([
        "plugin.cfg", "LICENSE", "icon.svg",
        "godot4/spatial_hash_2d.gd", "godot4/spatial_hash_3d.gd", "godot4/missing_engine.gd",
        "godot4/editor_plugin.gd", "godot4/spatial_hash_engine.py",
        "py4godot/spatial_hash_engine.py",
        "python/.gdignore", "python/install.py",
        "python/wheels/numpy-9.9-cp314-cp314-manylinux_2_28_x86_64.whl"] + list(
        "python/" + name for name in package))
    three = zipfile.ZipFile(build_bundle.build(
        "godot3", "0.1.0", build_bundle.for_pythons(package, [(3, 8)]), [], str(tmp_path)))
    assert not any("godot4/" in name or "py4godot/" in name for name in three.namelist())
    assert [name for name in three.namelist() if name.endswith(".so")] == \
        ["spatial_hash-0.1.0-godot3/addons/spatial_hash/python/spatial_hash/"
         "_core.cpython-38-x86_64-linux-gnu.so"]


def test_wheels_that_disagree_or_vendor_libraries_make_no_bundle(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = fake_wheel(tmp_path / "a", "cp38")
    other = make_wheel(tmp_path / "b" / "spatial_hash-0.1.0-cp311-cp311-manylinux_2_17_x86_64.whl",
                       {"spatial_hash/__init__.py": "x = 2\n"})
    with pytest.raises(SystemExit, match="differs between the wheels"):
        build_bundle.package_files([first, other])
    vendoring = fake_wheel(tmp_path / "b", "cp312", extra=["spatial_hash.libs/libgomp.so"])
    with pytest.raises(SystemExit, match="spatial_hash.libs"):
        build_bundle.package_files([vendoring])
