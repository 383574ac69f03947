"""Put beside an exported game what its Python plugin needs and its own export
leaves out. Run it from a checkout of this repository, after Godot's export:

    python3 tools/complete_export.py path/to/project path/to/export

A .pck cannot hold compiled Python modules, so every plugin runs its Python
from files beside the game; what each plugin's export leaves out:
- godot-python-extension copies its standard library to
  `lib/<platform>/python3.X/` but puts every compiled module of site-packages
  (numpy's, spatial_hash's core) flat beside the executable, where Python never
  looks: site-packages goes back whole, the flat copies go.
- py4godot's "Export Py4Godot" editor plugin copies `addons/py4godot/` and the
  project's `.py` files outside any `addons/` folder; py4godot reads scripts
  from disk: the addon's engine script is copied too.
- pythonscript exports nothing of itself: its CPython
  (`addons/pythonscript/<platform>/`) and the project's `.py` files go beside
  the `.pck`, which must then be started from that folder.

Needs only the standard library.
"""
import argparse
import glob
import os
import shutil
import sys

TOOLS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, TOOLS)

from install_godot import Refused, find_plugin  # noqa: E402


def python_files(project, skip):
    """The project's .py files (relative paths), outside the folders `skip`."""
    for folder, dirs, files in os.walk(project):
        relative = os.path.relpath(folder, project)
        dirs[:] = [d for d in dirs if os.path.normpath(os.path.join(relative, d)) not in skip
                   and d != "__pycache__" and not d.startswith(".")]
        for name in files:
            if name.endswith(".py"):
                yield os.path.normpath(os.path.join(relative, name))


def copy_files(project, out, paths):
    for path in paths:
        os.makedirs(os.path.dirname(os.path.join(out, path)) or out, exist_ok=True)
        shutil.copy2(os.path.join(project, path), os.path.join(out, path))


def complete(project, out, log=print):
    """Complete the export in `out` of the Godot project `project`; returns the
    plugin found (see install_godot.find_plugin)."""
    project, out = os.path.abspath(project), os.path.abspath(out)
    if not os.path.isdir(out):
        raise Refused(f"{out} is not a folder: export the game into it first")
    plugin = find_plugin(project, python=sys.executable)
    if plugin.name == "godot-python-extension":
        folder = os.path.dirname(plugin.site_packages)              # bin/<platform>/python3.X
        exported = os.path.join(out, "lib", os.path.basename(os.path.dirname(folder)),
                                os.path.basename(folder))
        if not os.path.isdir(exported):
            raise Refused(f"{exported} is missing: export with godot-python-extension first")
        target = os.path.join(exported, "site-packages")
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(plugin.site_packages, target)
        for _, _, files in os.walk(plugin.site_packages):
            for name in files:
                flat = os.path.join(out, name)
                if ".so" in name and os.path.isfile(flat) and not name.startswith("libgodot-python"):
                    os.remove(flat)
        log(f"completed {out}: site-packages whole in {target}")
    elif plugin.name == "py4godot":
        if not os.path.isdir(os.path.join(out, "addons", "py4godot")):
            raise Refused(f"{out}/addons/py4godot is missing: export with py4godot's "
                          f"'Export Py4Godot' editor plugin enabled")
        paths = list(python_files(project, {os.path.join("addons", "py4godot")}))
        copy_files(project, out, [p for p in paths if p.split(os.sep)[0] == "addons"])
        log(f"completed {out}: the addons' .py files beside the game")
    else:
        for home in glob.glob(os.path.join(project, "addons", "pythonscript", "*", "bin")):
            home = os.path.dirname(home)                            # addons/pythonscript/<platform>
            target = os.path.join(out, os.path.relpath(home, project))
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(home, target, symlinks=True)
        skip = {os.path.join("addons", "pythonscript"), os.path.join("addons", "pythonscript_repl")}
        copy_files(project, out, python_files(project, skip))
        log(f"completed {out}: pythonscript's CPython and the project's .py files beside the "
            f".pck; start it from that folder")
    return plugin


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("project", help="the Godot project's folder (holding project.godot)")
    parser.add_argument("export", help="the folder Godot exported the game into")
    args = parser.parse_args(argv)
    try:
        complete(args.project, args.export)
    except Refused as error:
        print(f"complete_export: refused: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
