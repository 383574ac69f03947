tool
extends EditorPlugin
# Enabling SpatialHash (Project Settings > Plugins) installs the compiled core
# and numpy for pythonscript's Python: it runs the bundle's installer,
# res://addons/spatial_hash/python/install.py, with pythonscript's own Python
# (else any python3 on the PATH) and shows in the Output panel what it did.
# Enabling it again after an update replaces the install; disabling it changes
# nothing, and the nodes keep working. Godot 4's editor_plugin.gd is the same.

const INSTALLER = "res://addons/spatial_hash/python/install.py"
# Exit codes of a command the shell could not run.
const NOT_RUN = [-1, 126, 127]


func enable_plugin():
	install()


# Runs the installer with the first Python that runs; returns its exit code
# (0: installed, 2: refused, the reason in the Output panel and the errors).
static func install() -> int:
	var arguments = [ProjectSettings.globalize_path(INSTALLER),
			ProjectSettings.globalize_path("res://")]
	for python in _pythons():
		var output = []
		var code = OS.execute(python, arguments, true, output, true)
		if code in NOT_RUN:
			continue
		var text = PoolStringArray(output).join("").strip_edges()
		if code == 0:
			print(text)
		else:
			push_error("SpatialHash: the installer (%s) exited %d:\n%s" % [python, code, text])
		return code
	push_error("SpatialHash: no Python to run the installer with: no pythonscript in this "
			+ "project (addons/pythonscript/<platform>/bin/python3), and no python3 on the "
			+ "PATH. Install pythonscript first, then enable SpatialHash again.")
	return 127


# Pythons to try: pythonscript's own, then any python3.
static func _pythons() -> Array:
	var found = []
	var dir = Directory.new()
	if dir.open("res://addons/pythonscript") == OK:
		dir.list_dir_begin(true, true)
		var folder = dir.get_next()
		while folder != "":
			var python = "res://addons/pythonscript/%s/bin/python3" % folder
			if dir.current_is_dir() and dir.file_exists(python):
				found.append(ProjectSettings.globalize_path(python))
			folder = dir.get_next()
	found.append("python3")
	return found
