"""What the SpatialHash2D Godot node does, without Godot.

The engine-specific scripts (`godot4/spatial_hash_2d.py`, `godot3/spatial_hash_2d.py`)
only declare the node, its exported properties and type conversions; every call
lands here. A call from GDScript must never raise into the engine: an exception
escaping a pythonscript method can crash Godot 3, and one escaping a
godot-python-extension method aborts the calling GDScript function. So each
public method takes any number of arguments, checks the count itself, validates
everything, and on bad input reports a message naming the method, the argument
and the value, keeps it for get_last_error(), and returns an empty or false
result, leaving the index and the caller's values as they were.

Objects are ints or Godot nodes inside the scene tree (keyed by their instance
id, so any wrapper of the same object finds it). Both Python plugins crash the
engine when a freed object is passed to a Python method, before any Python code
runs, so nothing may ever need to pass one: the engine script watches each node
inserted here (its `tree_exiting` signal) and the node leaves the index as it
leaves the tree. Batch calls work on the index's own integer ids.
"""
from spatial_hash.node.bridge import GDSCRIPT_METHODS, PACKED_RESULTS, SIGNALS, NodeBridge
from spatial_hash.node.calls import report_to_stderr
from spatial_hash.node.monitors import MONITORS, MonitorSet
from spatial_hash.node.objects import SceneTreeObjects
from spatial_hash.node.settings import INDEX_SETTINGS, SETTINGS
from spatial_hash.node.spatial_hash_node import SpatialHashNode

__all__ = ["GDSCRIPT_METHODS", "INDEX_SETTINGS", "MONITORS", "PACKED_RESULTS", "SETTINGS",
           "SIGNALS", "MonitorSet", "NodeBridge", "SceneTreeObjects", "SpatialHashNode",
           "report_to_stderr"]
