"""What the SpatialHash2D and SpatialHash3D Godot nodes do in Python, without Godot.

The nodes users add are GDScript: `class_name SpatialHash2D` and
`SpatialHash3D`, one face per GDScript dialect (`godot4/spatial_hash_2d.gd`,
`godot3/spatial_hash_2d.gd`, and `spatial_hash_3d.gd` beside each), rendered
from one template per dialect (`tools/render_faces.py`) and declared by the
tables of `api`; `dimensions` holds what differs between the two. A face
refuses freed and unknown objects itself, holds per-object calls in packed
arrays, and calls a private
`engine.NodeEngine` through a thin engine script per Python plugin
(`godot3/`, `godot4/`, `py4godot/spatial_hash_engine.py`) with numbers, ids
and packed arrays only, so no Godot object ever reaches a plugin: all three
plugins crash the engine when a freed object is passed to Python.
"""
