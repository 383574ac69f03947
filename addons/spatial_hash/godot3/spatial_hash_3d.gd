# Rendered from tools/faces/godot3.gd.in by `python tools/render_faces.py` (in the
# spatial_hash repository): edit the template and render again, not this file.
class_name SpatialHash3D, "res://addons/spatial_hash/icon.svg"
extends Spatial
# Exact, fast broad-phase collision detection (Godot 3): which boxes and spheres
# overlap, and which are near a point, a box, a path or a ray. The same node as
# Godot 4's (godot4/spatial_hash_3d.gd, whose comments are the reference), in
# Godot 3's GDScript, over pythonscript's Python engine.

# (a, b): a pair began colliding, a being the object with the smaller id.
signal collision_started(a, b)
# (a, b): a pair stopped colliding (at once when one of them is removed or
# leaves the tree, once emit_collision_events has been called).
signal collision_ended(a, b)

# Every collision layer: the default mask of objects and queries.
const ALL_LAYERS = 4294967295

const _MissingEngine = preload("missing_engine.gd")
const _CIRCLE = Vector3(NAN, NAN, NAN)
const _ENGINE = "res://addons/spatial_hash/godot3/spatial_hash_engine.py"
const _GRID_COLOR = Color(0.5, 0.5, 0.5, 0.35)
const _CANDIDATE_COLOR = Color(0.5, 0.65, 0.85, 0.6)
const _FREE_COLOR = Color(0.6, 0.76, 0.74)
const _COLLIDING_COLOR = Color(0.89, 0.34, 0.18)

# The side of a cell in world units; a refused value keeps the last good one.
export(float, 0.001, 100000.0) var cell_size: float = 4.0 setget _set_cell_size
# Objects more than this many cells wide or tall go to the large-object list.
export(int, 1, 64) var large_object_threshold: int = 4 setget _set_large_object_threshold
# A hierarchical grid (best for mixed sizes) instead of uniform cells.
export(bool) var hierarchical: bool = false setget _set_hierarchical
# Draw the cells and the objects' boxes, colliding ones in orange.
export(bool) var debug_draw: bool = false setget _set_debug_draw
# With debug_draw, also the candidate pairs (up to 2,000 objects).
export(bool) var debug_candidates: bool = true
# Show get_stats() on a panel in screen space (Godot 3 has no custom monitors).
export(bool) var overlay: bool = false setget _set_overlay

var _engine: Object             # the private Python engine: ids, numbers and pool arrays only
var _op                         # its methods' numbers by name (a Dictionary): _op.query_range
var _safe := 0.0                # boxes and spheres with every number within +-_safe (sizes >= 0) need no check
var _real := PoolRealArray([0.0])   # a held radius (in a PoolRealArray) must survive 32 bits
var _last_error := ""
var _ids := {}                  # object -> its id
var _handles := []              # id -> its object (a batch id: the id itself), for every live id
var _free := PoolIntArray()     # the index's free ids, the next one handed out last
var _next_id := 0               # then these, and up
# Held calls: inserted ids with their shapes (a box's min corner and size,
# or a sphere's centre and _CIRCLE, its radius in the radii), moved ids with
# theirs, removed ids.
var _inserted := PoolIntArray()
var _insert_shapes := PoolVector3Array()
var _insert_radii := PoolRealArray()
var _moved := PoolIntArray()
var _move_shapes := PoolVector3Array()
var _move_radii := PoolRealArray()
var _removed := PoolIntArray()
var _statics := PoolIntArray()  # objects made static or not: flat [id, 1 or 0, ...], the last of an id wins
var _pending := false
var _signalling := false
var _tree: SceneTree
var _overlay_label: Label
var _drawn := false
var _lines: ImmediateGeometry    # the debug drawing


func _init() -> void:
	_attach(_new_engine())
	_update_processing()


# Makes `engine` (the Python engine, or anything with its run()) this node's.
func _attach(engine: Object) -> void:
	_engine = engine
	_op = engine.run(0, 3)
	if typeof(_op) != TYPE_DICTIONARY:
		_op = _MissingEngine.new("")
	var bound = engine.run(_op.set_index, cell_size, large_object_threshold, hierarchical)
	if typeof(bound) == TYPE_STRING:
		_fail("_init", bound, null)
	else:
		_safe = bound


# ------------------------------------------------------------- objects

func insert(obj, pos: Vector3, size: Vector3, as_static = false) -> bool:
	_last_error = ""
	if typeof(obj) == TYPE_OBJECT and not is_instance_valid(obj):
		return _fail("insert", "obj is a freed object", false)
	if typeof(as_static) != TYPE_BOOL:
		return _fail("insert", _flag_error(as_static, "as_static"), false)
	var id = _ids.get(obj)
	if not (abs(pos.x) <= _safe and abs(pos.y) <= _safe and abs(pos.z) <= _safe and size.x >= 0.0 and size.x <= _safe
			and size.y >= 0.0 and size.y <= _safe and size.z >= 0.0 and size.z <= _safe):
		return _place(obj, id, "insert", [pos.x, pos.y, pos.z, size.x, size.y, size.z]) and _hold_static(obj, as_static)
	var new_object = id == null
	if new_object:
		id = _new_id(obj, "insert")
		if id < 0:
			return false
		_insert_shapes.append(pos)
		_insert_shapes.append(size)
	else:
		_moved.append(id)
		_move_shapes.append(pos)
		_move_shapes.append(size)
	if as_static or not new_object:     # a new object is not static unless asked
		_statics.append(id)
		_statics.append(int(as_static))
	_pending = true
	return true


func insert_sphere(obj, center: Vector3, radius: float, as_static = false) -> bool:
	_last_error = ""
	if typeof(obj) == TYPE_OBJECT and not is_instance_valid(obj):
		return _fail("insert_sphere", "obj is a freed object", false)
	if typeof(as_static) != TYPE_BOOL:
		return _fail("insert_sphere", _flag_error(as_static, "as_static"), false)
	var id = _ids.get(obj)
	_real[0] = radius
	if not (abs(center.x) <= _safe and abs(center.y) <= _safe and abs(center.z) <= _safe and radius >= 0.0 and radius <= _safe
			and _real[0] == radius):
		return _place(obj, id, "insert_sphere", [center.x, center.y, center.z, radius]) and _hold_static(obj, as_static)
	var new_object = id == null
	if new_object:
		id = _new_id(obj, "insert_sphere")
		if id < 0:
			return false
		_insert_shapes.append(center)
		_insert_shapes.append(_CIRCLE)
		_insert_radii.append(radius)
	else:
		_moved.append(id)
		_move_shapes.append(center)
		_move_shapes.append(_CIRCLE)
		_move_radii.append(radius)
	if as_static or not new_object:     # a new object is not static unless asked
		_statics.append(id)
		_statics.append(int(as_static))
	_pending = true
	return true


func update(obj, aabb: AABB) -> bool:
	_last_error = ""
	var id = _ids.get(obj) if typeof(obj) != TYPE_OBJECT or is_instance_valid(obj) else null
	if id == null:
		return _fail("update", _object_error(obj, "obj", true), false)
	var p := aabb.position
	var s := aabb.size
	if not (abs(p.x) <= _safe and abs(p.y) <= _safe and abs(p.z) <= _safe and s.x >= 0.0 and s.x <= _safe
			and s.y >= 0.0 and s.y <= _safe and s.z >= 0.0 and s.z <= _safe):
		return _place(obj, id, "update", [p.x, p.y, p.z, s.x, s.y, s.z])
	_moved.append(id)
	_move_shapes.append(p)
	_move_shapes.append(s)
	_pending = true
	return true


func remove(obj) -> bool:
	_last_error = ""
	if typeof(obj) == TYPE_OBJECT and not is_instance_valid(obj):
		return _fail("remove", "obj is a freed object", false)
	var id = _ids.get(obj)
	if id != null:
		_drop(obj, id)
		return true
	if typeof(obj) != TYPE_INT and not (typeof(obj) == TYPE_OBJECT and obj is Node):
		return _fail("remove", _object_error(obj, "obj"), false)
	return false


func has(obj) -> bool:
	_last_error = ""
	if typeof(obj) != TYPE_INT and not (typeof(obj) == TYPE_OBJECT and is_instance_valid(obj) and obj is Node):
		return _fail("has", _object_error(obj, "obj"), false)
	return _ids.has(obj)


func get_id(obj) -> int:
	_last_error = ""
	if typeof(obj) != TYPE_INT and not (typeof(obj) == TYPE_OBJECT and is_instance_valid(obj) and obj is Node):
		return _fail("get_id", _object_error(obj, "obj"), -1)
	return _ids.get(obj, -1)


func set_filter(obj, layer: int, mask: int) -> bool:
	_last_error = ""
	var id := _present_id(obj)
	if id < 0:
		return _fail("set_filter", _object_error(obj, "obj", true), false)
	return _done("set_filter", _engine.run(_op.set_filter, id, layer, mask))


# Two static objects never pair, as static bodies never collide in Box2D or
# Godot: make a level's resting tiles and walls static.
func set_static(obj, enabled) -> bool:
	_last_error = ""
	if typeof(obj) == TYPE_OBJECT and not is_instance_valid(obj):
		return _fail("set_static", "obj is a freed object", false)
	if typeof(enabled) != TYPE_BOOL:
		return _fail("set_static", _flag_error(enabled, "enabled"), false)
	if not _ids.has(obj):
		return _fail("set_static", _object_error(obj, "obj", true), false)
	return _hold_static(obj, enabled)


func is_static(obj) -> bool:
	_last_error = ""
	var id := _present_id(obj)
	if id < 0:
		return _fail("is_static", _object_error(obj, "obj", true), false)
	return _done("is_static", _engine.run(_op.is_static, id))


# ------------------------------------------------------------- queries

func query_nearby(pos: Vector3, size: Vector3, mask: int = ALL_LAYERS) -> Array:
	_last_error = ""
	if _pending:
		_flush()
	return _objects("query_nearby", _engine.run(_op.query_nearby, pos.x, pos.y, pos.z, size.x, size.y, size.z, mask))


func query_range(aabb: AABB, exact: bool = false, mask: int = ALL_LAYERS) -> Array:
	_last_error = ""
	if _pending:
		_flush()
	var p := aabb.position
	var s := aabb.size
	return _objects("query_range", _engine.run(_op.query_range, p.x, p.y, p.z, s.x, s.y, s.z, exact, mask))


func query_radius(center: Vector3, radius: float, mask: int = ALL_LAYERS) -> Array:
	_last_error = ""
	if _pending:
		_flush()
	return _objects("query_radius", _engine.run(_op.query_radius, center.x, center.y, center.z, radius, mask))


func query_point(point: Vector3, mask: int = ALL_LAYERS) -> Array:
	_last_error = ""
	if _pending:
		_flush()
	return _objects("query_point", _engine.run(_op.query_point, point.x, point.y, point.z, mask))


func query_nearest(point: Vector3, k: int = 1, max_distance: float = INF, mask: int = ALL_LAYERS) -> Array:
	_last_error = ""
	if _pending:
		_flush()
	return _objects("query_nearest", _engine.run(_op.query_nearest, point.x, point.y, point.z, k, max_distance, mask))


func query_along_path(start: Vector3, end: Vector3, size: Vector3, mask: int = ALL_LAYERS) -> Array:
	_last_error = ""
	if _pending:
		_flush()
	return _objects("query_along_path", _engine.run(_op.query_along_path, start.x, start.y, start.z, end.x, end.y, end.z,
			size.x, size.y, size.z, mask))


func raycast(start: Vector3, end: Vector3, mask: int = ALL_LAYERS) -> Dictionary:
	_last_error = ""
	if _pending:
		_flush()
	var hits := _hits("raycast", _engine.run(_op.raycast, start.x, start.y, start.z, end.x, end.y, end.z, mask))
	return hits[0] if hits.size() else {}


func raycast_all(start: Vector3, end: Vector3, mask: int = ALL_LAYERS) -> Array:
	_last_error = ""
	if _pending:
		_flush()
	return _hits("raycast_all", _engine.run(_op.raycast_all, start.x, start.y, start.z, end.x, end.y, end.z, mask))


# query_range for many windows in one call: the boxes at positions (min corners)
# of sizes, each a PoolVector3Array or an Array of Vector3. Returns
# {"offsets": PoolIntArray, "objects": Array}: window k's objects are objects
# from offsets[k] up to offsets[k + 1] (one offset per window, then one past the
# last).
func query_range_batch(positions, sizes, exact: bool = false, mask: int = ALL_LAYERS) -> Dictionary:
	_last_error = ""
	var args := [_vectors(positions, "positions"), _vectors(sizes, "sizes")]
	for arg in args:
		if typeof(arg) == TYPE_STRING:
			return _fail("query_range_batch", arg, {})
	if _pending:
		_flush()
	var found = _engine.run(_op.query_range_batch, args[0], args[1], exact, mask)
	if typeof(found) == TYPE_STRING:
		return _fail("query_range_batch", found, {})
	var windows: int = args[0].size() + 1
	var offsets := PoolIntArray()
	offsets.resize(windows)
	for k in windows:
		offsets[k] = found[k]
	var objects := []
	objects.resize(found.size() - windows)
	var handles := _handles
	for k in objects.size():
		objects[k] = handles[found[windows + k]]
	return {"offsets": offsets, "objects": objects}


# --------------------------------------------------------------- pairs

func get_collision_pairs() -> Array:
	_last_error = ""
	if _pending:
		_flush()
	var ids = _engine.run(_op.pairs)
	if typeof(ids) == TYPE_STRING:
		return _fail("get_collision_pairs", ids, [])
	var pairs := []
	for k in range(0, ids.size(), 2):
		pairs.append([_handles[ids[k]], _handles[ids[k + 1]]])
	return pairs


func is_colliding(a, b) -> bool:
	_last_error = ""
	var id_a := _present_id(a)
	if id_a < 0:
		return _fail("is_colliding", _object_error(a, "a", true), false)
	var id_b := _present_id(b)
	if id_b < 0:
		return _fail("is_colliding", _object_error(b, "b", true), false)
	return _done("is_colliding", _engine.run(_op.is_colliding, id_a, id_b))


func emit_collision_events() -> int:
	_last_error = ""
	_signalling = true
	if _pending:
		_flush()
	var events = _engine.run(_op.collision_events)
	if typeof(events) == TYPE_STRING:
		return _fail("emit_collision_events", events, 0)
	_emit_pairs("collision_ended", events["ended"])
	_emit_pairs("collision_started", events["started"])
	return (events["ended"].size() + events["started"].size()) / 2


func clear() -> void:
	_last_error = ""
	_clear_held()
	_free.resize(0)
	_next_id = 0
	_engine.run(_op.clear)
	if _signalling:
		var events = _engine.run(_op.collision_events)
		if typeof(events) == TYPE_DICTIONARY:
			_emit_pairs("collision_ended", events["ended"])
	_ids.clear()
	_handles.clear()


func get_stats() -> Dictionary:
	_last_error = ""
	var stats = _stats()
	if typeof(stats) == TYPE_STRING:
		return _fail("get_stats", stats, {})
	return stats


func get_last_error() -> String:
	return _last_error


# ------------------------------------------------------------- batches

func insert_batch(positions, sizes, layers = 1, masks = ALL_LAYERS, as_static = false) -> PoolIntArray:
	_last_error = ""
	var args := [_vectors(positions, "positions"), _vectors(sizes, "sizes"),
			_ints(layers, "layers", true), _ints(masks, "masks", true), _flags(as_static, "as_static")]
	for arg in args:
		if typeof(arg) == TYPE_STRING:
			return _fail("insert_batch", arg, PoolIntArray())
	if _pending:
		_flush()
	var ids = _engine.run(_op.insert_batch, args[0], args[1], args[2], args[3], args[4])
	if typeof(ids) == TYPE_STRING:
		return _fail("insert_batch", ids, PoolIntArray())
	_handed_out(ids.size())
	for id in ids:
		_keep_handle(id, id)
	return ids


func update_batch(ids, positions, sizes) -> bool:
	_last_error = ""
	var args := [_ints(ids, "ids", false), _vectors(positions, "positions"), _vectors(sizes, "sizes")]
	for arg in args:
		if typeof(arg) == TYPE_STRING:
			return _fail("update_batch", arg, false)
	if _pending:
		_flush()
	return _done("update_batch", _engine.run(_op.update_batch, args[0], args[1], args[2]))


func remove_batch(ids) -> bool:
	_last_error = ""
	var checked = _ints(ids, "ids", false)
	if typeof(checked) == TYPE_STRING:
		return _fail("remove_batch", checked, false)
	if _pending:
		_flush()
	if not _done("remove_batch", _engine.run(_op.remove_batch, checked)):
		return false
	if _signalling:
		_emit_pairs("collision_ended", _engine.run(_op.end_pairs, checked))
	for id in checked:
		if _ids.get(_handles[id], -1) == id:     # an object, not a batch id
			_ids.erase(_handles[id])
		_handles[id] = null
		_free.append(id)
	return true


func set_filter_batch(ids, layers, masks) -> bool:
	_last_error = ""
	var args := [_ints(ids, "ids", false), _ints(layers, "layers", true), _ints(masks, "masks", true)]
	for arg in args:
		if typeof(arg) == TYPE_STRING:
			return _fail("set_filter_batch", arg, false)
	if _pending:
		_flush()
	return _done("set_filter_batch", _engine.run(_op.set_filter_batch, args[0], args[1], args[2]))


func set_static_batch(ids, enabled) -> bool:
	_last_error = ""
	var args := [_ints(ids, "ids", false), _flags(enabled, "enabled")]
	for arg in args:
		if typeof(arg) == TYPE_STRING:
			return _fail("set_static_batch", arg, false)
	if _pending:
		_flush()
	return _done("set_static_batch", _engine.run(_op.set_static_batch, args[0], args[1]))


func get_collision_pairs_packed() -> PoolIntArray:
	_last_error = ""
	if _pending:
		_flush()
	var ids = _engine.run(_op.pairs)
	if typeof(ids) == TYPE_STRING:
		return _fail("get_collision_pairs_packed", ids, PoolIntArray())
	return ids


func get_collision_events_packed() -> Dictionary:
	_last_error = ""
	if _pending:
		_flush()
	var events = _engine.run(_op.collision_events)
	if typeof(events) == TYPE_STRING:
		return _fail("get_collision_events_packed", events, {})
	return events


# ------------------------------------------------------------- private

func _new_engine() -> Object:
	var script: Resource = load(_ENGINE) if ResourceLoader.exists(_ENGINE) else null
	var engine := Reference.new()
	if script != null:
		engine.set_script(script)
	if script == null or not engine.has_method("run"):
		return _MissingEngine.new("no Python engine: %s did not load (is pythonscript in the project, and SpatialHash enabled in Project Settings > Plugins, which installs the spatial_hash package for it?)" % _ENGINE)
	return engine


func _fail(method: String, message: String, result):
	_last_error = "SpatialHash3D.%s: %s" % [method, message]
	push_error(_last_error)
	return result


func _done(method: String, result) -> bool:
	if typeof(result) == TYPE_STRING:
		return _fail(method, result, false)
	return result


func _object_error(value, name: String, must_be_here := false) -> String:
	if typeof(value) == TYPE_OBJECT and not is_instance_valid(value):
		return "%s is a freed object" % name
	if typeof(value) == TYPE_INT or (typeof(value) == TYPE_OBJECT and value is Node):
		if must_be_here and not _ids.has(value):
			return "%s %s is not in this spatial hash" % [name, _describe(value)]
		return "%s %s is not inside the scene tree" % [name, _describe(value)]
	return "%s must be an int or a Node inside the scene tree, got %s" % [name, _describe(value)]


func _flag_error(value, name: String) -> String:
	return "%s must be true or false, got %s" % [name, _describe(value)]


func _describe(value) -> String:
	if typeof(value) == TYPE_OBJECT and is_instance_valid(value) and value is Node:
		return "%s '%s'" % [value.get_class(), value.get_path() if value.is_inside_tree() else value.name]
	var text: String = var2str(value) if typeof(value) != TYPE_OBJECT else str(value)
	return text if text.length() <= 80 else text.left(77) + "..."


func _present_id(obj) -> int:
	if typeof(obj) != TYPE_INT and not (typeof(obj) == TYPE_OBJECT and is_instance_valid(obj)):
		return -1
	if _pending:
		_flush()
	return _ids.get(obj, -1)


# The id the index will give obj, a new object whose insertion is held for the
# next _flush; -1 (reported) if obj is not an int or a node inside the tree.
func _new_id(obj, method: String) -> int:
	var node: Node = obj as Node if typeof(obj) == TYPE_OBJECT else null
	if not (typeof(obj) == TYPE_INT or (node != null and node.is_inside_tree())):
		_fail(method, _object_error(obj, "obj"), false)
		return -1
	var id := _next_id
	var n := _free.size()
	if n:
		id = _free[n - 1]
		_free.resize(n - 1)
	else:
		_next_id += 1
	if _tree == null and node != null:
		_watch(node)
	_ids[obj] = id
	_keep_handle(id, obj)
	_inserted.append(id)
	return id


# A call whose numbers need the engine's own check: applied at once.
func _place(obj, id, method: String, numbers: Array) -> bool:
	if id == null and not (typeof(obj) == TYPE_INT or (typeof(obj) == TYPE_OBJECT and obj is Node and obj.is_inside_tree())):
		return _fail(method, _object_error(obj, "obj"), false)
	if _pending:
		_flush()
	var object_id: int = -1 if id == null else id
	var op: int = _op.get(method)
	var placed = _engine.run(op, object_id, numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5]) \
			if numbers.size() == 6 else _engine.run(op, object_id, numbers[0], numbers[1], numbers[2], numbers[3])
	if typeof(placed) == TYPE_STRING:
		return _fail(method, placed, false)
	if id == null:
		_handed_out(1)
		if _tree == null and typeof(obj) == TYPE_OBJECT:
			_watch(obj)
		_ids[obj] = placed
		_keep_handle(placed, obj)
	return true


# Holds obj's static flag (obj is here) for the next _flush.
func _hold_static(obj, enabled: bool) -> bool:
	_statics.append(_ids[obj])
	_statics.append(int(enabled))
	_pending = true
	return true


func _handed_out(count: int) -> void:
	var recycled: int = min(count, _free.size())
	_free.resize(_free.size() - recycled)
	_next_id += count - recycled


func _watch(node: Node) -> void:
	_tree = node.get_tree()
	_tree.connect("node_removed", self, "_on_node_removed")


func _on_node_removed(node: Node) -> void:
	var id = _ids.get(node)
	if id != null:
		_drop(node, id)


func _notification(what: int) -> void:
	if what == NOTIFICATION_PREDELETE and _tree != null and is_instance_valid(_tree) \
			and _tree.is_connected("node_removed", self, "_on_node_removed"):
		_tree.disconnect("node_removed", self, "_on_node_removed")


func _drop(obj, id: int) -> void:
	if _signalling:
		if _pending:
			_flush()
		_emit_pairs("collision_ended", _engine.run(_op.end_pairs, PoolIntArray([id])))
	_ids.erase(obj)
	_handles[id] = null
	_removed.append(id)
	_pending = true


func _flush() -> void:
	_pending = false
	var done = _engine.run(_op.apply, _inserted, _insert_shapes, _insert_radii, _moved, _move_shapes,
			_move_radii, _removed, _statics)
	if typeof(done) == TYPE_STRING:     # the shapes were checked: only running out of memory gets here
		_fail("apply", done, null)
	_free.append_array(_removed)
	_clear_held()


func _clear_held() -> void:
	_inserted.resize(0)
	_insert_shapes.resize(0)
	_insert_radii.resize(0)
	_moved.resize(0)
	_move_shapes.resize(0)
	_move_radii.resize(0)
	_removed.resize(0)
	_statics.resize(0)
	_pending = false


func _keep_handle(id: int, obj) -> void:
	if id >= _handles.size():
		_handles.resize(max(id + 1, 2 * _handles.size()))
	_handles[id] = obj


# The objects of a query's ids: text (a mark, then one character per id + 2,
# what pythonscript hands over cheapest) or an array; any other text is why
# the query was refused.
func _objects(method: String, ids) -> Array:
	var found := []
	var handles := _handles
	if typeof(ids) == TYPE_STRING:
		if ids.ord_at(0) != 1:
			return _fail(method, ids, [])
		var text: String = ids
		found.resize(text.length() - 1)
		for k in found.size():
			found[k] = handles[text.ord_at(k + 1) - 2]
		return found
	found.resize(ids.size())
	for k in found.size():
		found[k] = handles[ids[k]]
	return found


func _hits(method: String, rows) -> Array:
	if typeof(rows) == TYPE_STRING:
		return _fail(method, rows, [])
	var hits := []
	for k in range(0, rows.size(), 8):
		hits.append({"collider": _handles[int(rows[k])], "fraction": rows[k + 1],
			"position": Vector3(rows[k + 2], rows[k + 3], rows[k + 4]), "normal": Vector3(rows[k + 5], rows[k + 6], rows[k + 7])})
	return hits


func _emit_pairs(signal_name: String, ids) -> void:
	for k in range(0, ids.size(), 2):
		emit_signal(signal_name, _handles[ids[k]], _handles[ids[k + 1]])


func _vectors(value, name: String):
	if typeof(value) == TYPE_VECTOR3_ARRAY:
		return value
	var want := "%s must be a PoolVector3Array or an Array of Vector3, got " % name
	if typeof(value) != TYPE_ARRAY:
		return want + _describe(value)
	for v in value:
		if typeof(v) != TYPE_VECTOR3:
			return want + "an Array holding " + _describe(v)
	return PoolVector3Array(value)


func _ints(value, name: String, one_for_all: bool):
	if typeof(value) == TYPE_INT_ARRAY or (one_for_all and typeof(value) == TYPE_INT):
		return value
	var want := "%s must be %sa PoolIntArray or an Array of ints, got " % [name, "an int, " if one_for_all else ""]
	if typeof(value) != TYPE_ARRAY:
		return want + _describe(value)
	for v in value:
		if typeof(v) != TYPE_INT:
			return want + "an Array holding " + _describe(v)
	return value.duplicate()        # ints beyond 32 bits (masks) stay whole in an Array


# One bool for all (as it is) or a PoolIntArray of 1s and 0s from an Array of
# bools, or why not (a String).
func _flags(value, name: String):
	if typeof(value) == TYPE_BOOL:
		return value
	var want := "%s must be true, false or an Array of them, got " % name
	if typeof(value) != TYPE_ARRAY:
		return want + _describe(value)
	var flags := PoolIntArray()
	for v in value:
		if typeof(v) != TYPE_BOOL:
			return want + "an Array holding " + _describe(v)
		flags.append(int(v))
	return flags


func _set_index(size, threshold, kind, name: String, old) -> bool:
	_last_error = ""
	if _engine == null:
		return true
	if _pending:
		_flush()
	var bound = _engine.run(_op.set_index, size, threshold, kind)
	if typeof(bound) == TYPE_STRING:
		_fail(name, "%s; it stays %s" % [bound, old], false)
		return false
	_safe = bound
	return true


func _set_cell_size(value) -> void:
	if _set_index(value, large_object_threshold, hierarchical, "cell_size", cell_size):
		cell_size = value


func _set_large_object_threshold(value) -> void:
	if _set_index(cell_size, value, hierarchical, "large_object_threshold", large_object_threshold):
		large_object_threshold = value


func _set_hierarchical(value) -> void:
	if _set_index(cell_size, large_object_threshold, value, "hierarchical", hierarchical):
		hierarchical = value


func _set_debug_draw(value: bool) -> void:
	debug_draw = value
	_update_processing()


func _set_overlay(value: bool) -> void:
	overlay = value
	_update_processing()


func _stats():
	if _pending:
		_flush()
	return _engine.run(_op.stats)


# ------------------------------------------------------ overlay, drawing

func _update_processing() -> void:
	set_process(debug_draw or overlay or _drawn or _overlay_label != null)


func _process(_delta: float) -> void:
	if overlay != (_overlay_label != null):
		_show_overlay(overlay)
	if overlay:
		var stats = _stats()
		if typeof(stats) == TYPE_DICTIONARY:
			_overlay_label.text = _overlay_text(stats)
	if debug_draw or _drawn:
		_draw_lines()
	_update_processing()


func _show_overlay(shown: bool) -> void:
	if shown:
		var layer := CanvasLayer.new()
		layer.layer = 100
		var panel := PanelContainer.new()
		panel.rect_position = Vector2(8, 8)
		_overlay_label = Label.new()
		panel.add_child(_overlay_label)
		layer.add_child(panel)
		add_child(layer)
	else:
		_overlay_label.get_parent().get_parent().queue_free()
		_overlay_label = null


func _overlay_text(s: Dictionary) -> String:
	return "spatial_hash_3d (%s): %d objects\nactive cells %d, %.2f per cell, %d large\nbroad-phase pairs %d, narrow-phase checks %d, hits %d\nlast query %.3f ms, last move %.3f ms, last pairs %.3f ms" % [
		s["index"], s["objects"], s["active_cells"], s["avg_objects_per_cell"], s["large_objects"],
		s["broad_phase_pairs"], s["narrow_phase_checks"], s["hits"],
		s["last_query_ms"], s["last_update_ms"], s["last_pairs_ms"]]


# Draws the debug lines into an ImmediateGeometry child: the cells near the
# camera, the candidate pairs, and the objects' boxes.
func _draw_lines() -> void:
	_drawn = debug_draw
	if not debug_draw:
		if _lines != null:
			_lines.queue_free()
			_lines = null
		return
	if _pending:
		_flush()
	if _lines == null:
		_lines = ImmediateGeometry.new()
		var material := SpatialMaterial.new()
		material.flags_unshaded = true
		material.vertex_color_use_as_albedo = true
		material.flags_transparent = true
		_lines.material_override = material
		add_child(_lines)
	var view := _debug_view()
	var shapes = _engine.run(_op.debug_geometry, view.position.x, view.position.y, view.position.z,
			view.size.x, view.size.y, view.size.z, debug_candidates)
	_lines.clear()
	if typeof(shapes) != TYPE_DICTIONARY:
		return
	_lines.begin(Mesh.PRIMITIVE_LINES)
	for part in [["grid", _GRID_COLOR], ["candidates", _CANDIDATE_COLOR]]:
		var v = shapes[part[0]]
		_lines.set_color(part[1])
		for k in range(0, v.size(), 6):
			_lines.add_vertex(Vector3(v[k], v[k + 1], v[k + 2]))
			_lines.add_vertex(Vector3(v[k + 3], v[k + 4], v[k + 5]))
	for part in [["free", _FREE_COLOR], ["colliding", _COLLIDING_COLOR]]:
		var v = shapes[part[0]]
		_lines.set_color(part[1])
		for k in range(0, v.size(), 6):
			var low := Vector3(v[k], v[k + 1], v[k + 2])
			var high := low + Vector3(v[k + 3], v[k + 4], v[k + 5])
			for corner in 8:
				for bit in [1, 2, 4]:
					if corner & bit == 0:
						_lines.add_vertex(_corner(low, high, corner))
						_lines.add_vertex(_corner(low, high, corner | bit))
	_lines.end()


# The box around the camera (in this node's space) whose cells are drawn.
func _debug_view() -> AABB:
	var reach := 16.0 * cell_size * Vector3.ONE
	var camera: Camera = get_viewport().get_camera() if is_inside_tree() else null
	var centre := to_local(camera.global_transform.origin) if camera != null else Vector3.ZERO
	return AABB(centre - reach, 2.0 * reach)


# Corner `index` of the box from low to high: bit 0 picks x, bit 1 y, bit 2 z.
func _corner(low: Vector3, high: Vector3, index: int) -> Vector3:
	return Vector3(high.x if index & 1 else low.x, high.y if index & 2 else low.y, high.z if index & 4 else low.z)
