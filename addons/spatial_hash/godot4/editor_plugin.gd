@tool
extends EditorPlugin
## Enabling SpatialHash (Project Settings > Plugins) installs the compiled core
## and numpy for the project's Python plugin: it runs the bundle's installer,
## [code]res://addons/spatial_hash/python/install.py[/code], with the plugin's
## own Python where the plugin carries one (py4godot), else with the system's
## Python (godot-python-extension embeds it), and shows in the Output panel what
## it did. Enabling it again after an update replaces the install; disabling it
## changes nothing, and the nodes keep working.

const INSTALLER := "res://addons/spatial_hash/python/install.py"
## py4godot's editor plugin, which puts its Python beside an exported game.
const PY4GODOT_EXPORT := "res://addons/py4godot/plugin.cfg"
## Exit codes of a command the shell could not run.
const NOT_RUN := [-1, 126, 127]


func _enable_plugin() -> void:
	if install() == 0 and FileAccess.file_exists(PY4GODOT_EXPORT) \
			and not EditorInterface.is_plugin_enabled(PY4GODOT_EXPORT):
		# The installer enables it in project.godot too, but the running editor
		# saves its own list of plugins over that file.
		EditorInterface.set_plugin_enabled(PY4GODOT_EXPORT, true)


## Runs the installer with the first Python that runs; returns its exit code
## (0: installed, 2: refused, the reason in the Output panel and the errors).
static func install() -> int:
	var arguments := PackedStringArray([ProjectSettings.globalize_path(INSTALLER),
			ProjectSettings.globalize_path("res://")])
	for python in _pythons():
		var output := []
		var code := OS.execute(python, arguments, output, true)
		if code in NOT_RUN:
			continue
		var text := "".join(PackedStringArray(output)).strip_edges()
		if code == 0:
			print(text)
		else:
			push_error("SpatialHash: the installer (%s) exited %d:\n%s" % [python, code, text])
		return code
	push_error("SpatialHash: no Python to run the installer with: no Python plugin's own "
			+ "Python in this project (py4godot's), and no python3 on the PATH. Install a "
			+ "Python plugin first (py4godot, or godot-python-extension with its Python), "
			+ "then enable SpatialHash again.")
	return 127


## Pythons to try, the plugins' own first: py4godot's CPython, the system Python
## that godot-python-extension was built with, then any python3.
static func _pythons() -> PackedStringArray:
	var found := PackedStringArray()
	for folder in _folders("res://addons/py4godot"):
		if folder.begins_with("cpython-"):
			found.append(ProjectSettings.globalize_path(
					"res://addons/py4godot/%s/python/bin/python3" % folder))
	for platform in _folders("res://bin"):
		for folder in _folders("res://bin/" + platform):
			if folder.begins_with("python3."):
				found.append(folder)
	found.append("python3")
	return found


## The folders in [param path], none where it is missing (without an error).
static func _folders(path: String) -> PackedStringArray:
	if not DirAccess.dir_exists_absolute(path):
		return PackedStringArray()
	return DirAccess.get_directories_at(path)
