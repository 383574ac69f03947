@tool
extends EditorPlugin
# Godot 4: adds SpatialHash2D to the Create Node dialog, with the node script of
# the project's Python plugin: py4godot's if the project holds py4godot,
# godot-python-extension's otherwise. Godot 3 projects do not enable this
# plugin; they attach godot3/spatial_hash_2d.py to a Node2D instead.

const PY4GODOT := "res://addons/py4godot/python.gdextension"


func _enter_tree():
	var folder := "py4godot" if FileAccess.file_exists(PY4GODOT) else "godot4"
	add_custom_type("SpatialHash2D", "Node2D",
		load("res://addons/spatial_hash/%s/spatial_hash_2d.py" % folder), null)


func _exit_tree():
	remove_custom_type("SpatialHash2D")
