@tool
extends EditorPlugin
# Godot 4: adds SpatialHash2D to the Create Node dialog. Godot 3 projects do not
# enable this plugin; they attach godot3/spatial_hash_2d.py to a Node2D instead.

func _enter_tree():
	add_custom_type("SpatialHash2D", "Node2D",
		load("res://addons/spatial_hash/godot4/spatial_hash_2d.py"), null)


func _exit_tree():
	remove_custom_type("SpatialHash2D")
