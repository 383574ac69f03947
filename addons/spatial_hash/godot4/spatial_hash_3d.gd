# Rendered from tools/faces/godot4.gd.in by `python tools/render_faces.py` (in the
# spatial_hash repository): edit the template and render again, not this file.
@icon("res://addons/spatial_hash/icon.svg")
class_name SpatialHash3D
extends Node3D
## Exact, fast broad-phase collision detection: which boxes and spheres overlap, and which are near a point, a box, a path or a ray.
##
## A spatial hash of axis-aligned boxes and spheres (uniform cells, or a
## hierarchical grid for mixed sizes), computed by a compiled core through
## Python. Objects are nodes inside the scene tree or ints of your own; a node
## leaves the hash by itself as it leaves the tree, so no query, pair list or
## signal ever hands back a freed object.[br][br]
## Per-object calls ([method insert], [method update], [method remove]) are held
## in packed arrays and handed over at once before the next query, pair list or
## batch call: call them freely, thousands a frame. For tens of thousands of
## objects a frame, the batch methods ([method insert_batch],
## [method update_batch], [method get_collision_pairs_packed]) take and return
## packed arrays of ids.[br][br]
## Boxes are closed: touching counts as overlapping. Collision layers and masks
## follow Godot's areas: two objects collide when either one's mask has a bit
## of the other's layer, and every query takes a [param mask] and returns only
## the objects on one of its layers.[br][br]
## Two static objects never pair, as static bodies never collide in Box2D or
## Godot: a level's resting tiles, walls and trees should be static
## ([param as_static] as they are inserted, or [method set_static]), so that
## their pairs among themselves are neither listed nor looked for, and a pair
## pass costs what moved. A static object pairs with every other object,
## answers queries and may be moved as before.[br][br]
## Bad input never stops the game: a refused call reports through
## [method @GlobalScope.push_error] as [code]SpatialHash3D.<method>: <argument>
## must be ..., got <value>[/code], keeps that message for
## [method get_last_error], returns [code]false[/code], [code]-1[/code] or an
## empty value, and changes nothing. Wrong argument types and counts are
## GDScript's own errors.

## Emitted by [method emit_collision_events] for each pair that began colliding
## since its last call; [param a] is the object with the smaller id.
signal collision_started(a: Variant, b: Variant)
## Emitted for each pair that stopped colliding: by [method emit_collision_events]
## when the objects parted or their layers stopped letting them collide, and at
## once (once [method emit_collision_events] has been called) when one of them
## is removed or leaves the tree, while it still exists.
signal collision_ended(a: Variant, b: Variant)

## Every collision layer: the default mask of objects and queries.
const ALL_LAYERS := 0xFFFFFFFF

const _MissingEngine := preload("missing_engine.gd")
const _CIRCLE := Vector3(NAN, NAN, NAN)
const _PY4GODOT := "res://addons/py4godot/python.gdextension"
const _ENGINES := {
	true: "res://addons/spatial_hash/py4godot/spatial_hash_engine.py",
	false: "res://addons/spatial_hash/godot4/spatial_hash_engine.py",
}
const _GRID_COLOR := Color(0.5, 0.5, 0.5, 0.35)
const _CANDIDATE_COLOR := Color(0.5, 0.65, 0.85, 0.6)
const _FREE_COLOR := Color(0.6, 0.76, 0.74)
const _COLLIDING_COLOR := Color(0.89, 0.34, 0.18)

## The side of a cell in world units: about the size of the common objects.
## A new value moves every object to a new index, keeping their ids; a value
## that is not positive and finite, or too small for the objects, is refused.
@export_range(0.001, 100000.0, 0.001, "or_greater", "exp") var cell_size: float = 4.0:
	set(value):
		if _set_index(value, large_object_threshold, hierarchical, "cell_size", cell_size):
			cell_size = value

## Objects more than this many cells wide or tall (1 to 64) go to a list of
## large objects instead of every cell they cover.
@export_range(1, 64) var large_object_threshold: int = 4:
	set(value):
		if _set_index(cell_size, value, hierarchical, "large_object_threshold", large_object_threshold):
			large_object_threshold = value

## A hierarchical grid (levels of cell sizes, each object in the level that fits
## it; nothing to tune, best for mixed sizes) instead of uniform cells.
@export var hierarchical: bool = false:
	set(value):
		if _set_index(cell_size, large_object_threshold, value, "hierarchical", hierarchical):
			hierarchical = value

## Draw the cells and the objects' boxes, colliding ones in orange.
@export var debug_draw: bool = false:
	set(value):
		debug_draw = value
		_update_processing()

## With [member debug_draw], also draw a line between the centres of each pair
## the broad phase hands to the narrow phase (up to 2,000 objects).
@export var debug_candidates: bool = true

## Show get_stats() on a panel in screen space.
@export var overlay: bool = false:
	set(value):
		overlay = value
		_update_processing()

## Register the [code]spatial_hash_3d/*[/code] custom monitors (Debugger > Monitors)
## as the node enters the tree; a second node's get a suffix with its name.
@export var monitors_enabled: bool = true

var _engine                     # the private Python engine: ids, numbers and packed arrays only
var _on_py4godot := false       # its plugin is py4godot: see _took and _vector_bytes
var _op: Variant                # its methods' numbers by name (a Dictionary): _op.query_range
# Boxes at finite points of _safe_area with finite sizes in _safe_sizes, and
# spheres there with radii from 0 to _safe_radius, are accepted by the index as
# they are: held, not checked by the engine. (AABB.has_point takes NaN.)
var _safe_area := AABB()
var _safe_sizes := AABB()
var _safe_radius := 0.0
var _last_error := ""
var _ids := {}                  # object -> its id
var _handles := []              # id -> its object (a batch id: the id itself), for every live id
# The ids the index hands out next, by its own rule: the most recently freed
# first (the last of _free), then _next_id and up.
var _free := PackedInt32Array()
var _next_id := 0
# Calls held for the next _flush: inserted ids with their shapes (two Vector3
# each: a box's min corner and size, or a sphere's centre and _CIRCLE, its
# radius in the radii), moved ids with theirs, removed ids.
var _inserted := PackedInt32Array()
var _insert_shapes := PackedVector3Array()
var _insert_radii := PackedFloat64Array()
var _moved := PackedInt32Array()
var _move_shapes := PackedVector3Array()
var _move_radii := PackedFloat64Array()
var _removed := PackedInt32Array()
var _statics := PackedInt32Array()     # objects made static or not: flat [id, 1 or 0, ...], the last of an id wins
var _pending := false
var _signalling := false        # emit_collision_events was called: removals end pairs at once
var _tree: SceneTree            # whose node_removed takes nodes out
var _monitor_ids := {}          # custom monitor id -> its place in the engine's monitor_values
var _monitor_frame := -1
var _monitor_values: Variant = []   # this frame's, read once
var _overlay_label: Label
var _drawn := false
var _lines: MeshInstance3D     # the debug drawing


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
		_set_safe(bound)


# ------------------------------------------------------------- objects

## Adds [param obj] (a node inside the scene tree, or an int) as the box at
## [param pos] (its min corner) of [param size], or moves it there if it
## is here already; [param as_static] (true or false) says whether it is
## static from now on (see [method set_static]).
func insert(obj: Variant, pos: Vector3, size: Vector3, as_static: Variant = false) -> bool:
	_last_error = ""
	if typeof(obj) == TYPE_OBJECT and not is_instance_valid(obj):
		return _fail("insert", "obj is a freed object", false)
	if typeof(as_static) != TYPE_BOOL:
		return _fail("insert", _flag_error(as_static, "as_static"), false)
	var id = _ids.get(obj)
	if not (pos.is_finite() and size.is_finite() and _safe_area.has_point(pos) and _safe_sizes.has_point(size)):
		return _place(obj, id, "insert", [pos.x, pos.y, pos.z, size.x, size.y, size.z]) and _hold_static(obj, as_static)
	var new_object := id == null
	if new_object:          # _new_id, inline: the per-object hot path
		var node := obj as Node if typeof(obj) == TYPE_OBJECT else null
		if not (typeof(obj) == TYPE_INT or (node != null and node.is_inside_tree())):
			return _fail("insert", _object_error(obj, "obj"), false)
		id = _next_id
		var n := _free.size()
		if n:
			id = _free[n - 1]
			_free.resize(n - 1)
		else:
			_next_id += 1
		if _tree == null and node != null:
			_watch(node)
		_ids[obj] = id
		if id >= _handles.size():
			_handles.resize(maxi(id + 1, 2 * _handles.size()))
		_handles[id] = obj
		_inserted.append(id)
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


## Adds [param obj] as the sphere at [param center] of [param radius], or moves it
## there; [param as_static] as in [method insert]. Pairs and exact queries use
## the sphere itself.
func insert_sphere(obj: Variant, center: Vector3, radius: float, as_static: Variant = false) -> bool:
	_last_error = ""
	if typeof(obj) == TYPE_OBJECT and not is_instance_valid(obj):
		return _fail("insert_sphere", "obj is a freed object", false)
	if typeof(as_static) != TYPE_BOOL:
		return _fail("insert_sphere", _flag_error(as_static, "as_static"), false)
	var id = _ids.get(obj)
	if not (center.is_finite() and _safe_area.has_point(center) and radius >= 0.0 and radius <= _safe_radius):
		return _place(obj, id, "insert_sphere", [center.x, center.y, center.z, radius]) and _hold_static(obj, as_static)
	var new_object := id == null
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


## Moves [param obj], which must be here, to the box [param aabb].
func update(obj: Variant, aabb: AABB) -> bool:
	_last_error = ""
	var id = _ids.get(obj) if typeof(obj) != TYPE_OBJECT or is_instance_valid(obj) else null
	if id == null:
		return _fail("update", _object_error(obj, "obj", true), false)
	var p := aabb.position
	var s := aabb.size
	if not (p.is_finite() and s.is_finite() and _safe_area.has_point(p) and _safe_sizes.has_point(s)):
		return _place(obj, id, "update", [p.x, p.y, p.z, s.x, s.y, s.z])
	_moved.append(id)
	_move_shapes.append(p)
	_move_shapes.append(s)
	_pending = true
	return true


## Removes [param obj]; false (and no error) if it was not here.
func remove(obj: Variant) -> bool:
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


## Whether [param obj] is here.
func has(obj: Variant) -> bool:
	_last_error = ""
	if typeof(obj) != TYPE_INT and not (typeof(obj) == TYPE_OBJECT and is_instance_valid(obj) and obj is Node):
		return _fail("has", _object_error(obj, "obj"), false)
	return _ids.has(obj)


## The id of [param obj] as the batch methods use it; -1 if it is not here.
func get_id(obj: Variant) -> int:
	_last_error = ""
	if typeof(obj) != TYPE_INT and not (typeof(obj) == TYPE_OBJECT and is_instance_valid(obj) and obj is Node):
		return _fail("get_id", _object_error(obj, "obj"), -1)
	return _ids.get(obj, -1)


## Puts [param obj] on the collision layers [param layer] and has it look for
## those of [param mask] (ints from 0 to 4294967295; new objects: layer 1, every
## bit of the mask). Two objects collide when either one's mask has a bit of the
## other's layer.
func set_filter(obj: Variant, layer: int, mask: int) -> bool:
	_last_error = ""
	var id := _present_id(obj, "obj")
	if id < 0:
		return _fail("set_filter", _object_error(obj, "obj", true), false)
	return _done("set_filter", _engine.run(_op.set_filter, id, layer, mask))


## Makes [param obj] static ([param enabled] true) or not (false). Two static
## objects never pair (not in the pair lists, the signals or the counters), as
## static bodies never collide in Box2D or Godot: make a level's resting tiles
## and walls static. A static object pairs with every other object, answers
## queries and may be moved as before.
func set_static(obj: Variant, enabled: Variant) -> bool:
	_last_error = ""
	if typeof(obj) == TYPE_OBJECT and not is_instance_valid(obj):
		return _fail("set_static", "obj is a freed object", false)
	if typeof(enabled) != TYPE_BOOL:
		return _fail("set_static", _flag_error(enabled, "enabled"), false)
	if not _ids.has(obj):
		return _fail("set_static", _object_error(obj, "obj", true), false)
	return _hold_static(obj, enabled)


## Whether [param obj] is static ([method set_static]).
func is_static(obj: Variant) -> bool:
	_last_error = ""
	var id := _present_id(obj, "obj")
	if id < 0:
		return _fail("is_static", _object_error(obj, "obj", true), false)
	return _done("is_static", _engine.run(_op.is_static, id))


# ------------------------------------------------------------- queries

## The objects in the cells the box at [param pos] of [param size] covers: every
## object that overlaps it, and some near it.
func query_nearby(pos: Vector3, size: Vector3, mask: int = ALL_LAYERS) -> Array:
	_last_error = ""
	if _pending:
		_flush()
	return _objects("query_nearby", _engine.run(_op.query_nearby, pos.x, pos.y, pos.z, size.x, size.y, size.z, mask))


## The objects in the cells [param aabb] covers or, if [param exact], only those
## that overlap it.
func query_range(aabb: AABB, exact: bool = false, mask: int = ALL_LAYERS) -> Array:
	_last_error = ""
	if _pending:
		_flush()
	var p := aabb.position
	var s := aabb.size
	return _objects("query_range", _engine.run(_op.query_range, p.x, p.y, p.z, s.x, s.y, s.z, exact, mask))


## The objects that overlap the sphere at [param center] of [param radius].
func query_radius(center: Vector3, radius: float, mask: int = ALL_LAYERS) -> Array:
	_last_error = ""
	if _pending:
		_flush()
	return _objects("query_radius", _engine.run(_op.query_radius, center.x, center.y, center.z, radius, mask))


## The objects that contain [param point].
func query_point(point: Vector3, mask: int = ALL_LAYERS) -> Array:
	_last_error = ""
	if _pending:
		_flush()
	return _objects("query_point", _engine.run(_op.query_point, point.x, point.y, point.z, mask))


## The [param k] objects nearest to [param point], nearest first by the exact
## distance to their sphere or box (ties in id order), none farther than
## [param max_distance] (INF: no limit).
func query_nearest(point: Vector3, k: int = 1, max_distance: float = INF, mask: int = ALL_LAYERS) -> Array:
	_last_error = ""
	if _pending:
		_flush()
	return _objects("query_nearest", _engine.run(_op.query_nearest, point.x, point.y, point.z, k, max_distance, mask))


## The objects that the box of [param size] overlaps anywhere on its way, its
## min corner going from [param start] to [param end]: for fast movers.
func query_along_path(start: Vector3, end: Vector3, size: Vector3, mask: int = ALL_LAYERS) -> Array:
	_last_error = ""
	if _pending:
		_flush()
	return _objects("query_along_path", _engine.run(_op.query_along_path, start.x, start.y, start.z, end.x, end.y, end.z,
			size.x, size.y, size.z, mask))


## The first object the segment from [param start] to [param end] meets, as
## [code]{"collider", "position", "normal", "fraction"}[/code] (Godot's ray-cast
## keys, and how far along, 0 to 1), or [code]{}[/code] if none. A start inside
## an object meets it at fraction 0 with normal (0, 0, 0).
func raycast(start: Vector3, end: Vector3, mask: int = ALL_LAYERS) -> Dictionary:
	_last_error = ""
	if _pending:
		_flush()
	var hits := _hits("raycast", _engine.run(_op.raycast, start.x, start.y, start.z, end.x, end.y, end.z, mask))
	return hits[0] if hits.size() else {}


## Every object the segment meets, as [method raycast]'s dictionaries, earliest first.
func raycast_all(start: Vector3, end: Vector3, mask: int = ALL_LAYERS) -> Array:
	_last_error = ""
	if _pending:
		_flush()
	return _hits("raycast_all", _engine.run(_op.raycast_all, start.x, start.y, start.z, end.x, end.y, end.z, mask))


## [method query_range] for many windows in one call: the boxes at
## [param positions] (min corners) of [param sizes], each a PackedVector3Array
## or an Array of Vector3. Returns [code]{"offsets": PackedInt32Array, "objects": Array}[/code]:
## window k's objects are [code]objects[/code] from [code]offsets[k][/code] up to
## [code]offsets[k + 1][/code] (one offset per window, then one past the last).
## A script that asks each object's neighbours every frame makes one call, not
## one per object.
func query_range_batch(positions: Variant, sizes: Variant, exact: bool = false, mask: int = ALL_LAYERS) -> Dictionary:
	_last_error = ""
	var args := [_vectors(positions, "positions"), _vectors(sizes, "sizes")]
	for arg in args:
		if typeof(arg) == TYPE_STRING:
			return _fail("query_range_batch", arg, {})
	if _pending:
		_flush()
	var result = _took(_engine.run(_op.query_range_batch, _vector_bytes(args[0]), _vector_bytes(args[1]),
			exact, mask))
	if typeof(result) == TYPE_STRING:
		return _fail("query_range_batch", result, {})
	var found: PackedInt32Array = result      # typed: GDScript's loop below is then a third faster
	var offsets := found.slice(0, args[0].size() + 1)
	var objects := []
	objects.resize(found.size() - offsets.size())
	var handles: Array = _handles
	var k := 0
	for id in found.slice(offsets.size()):
		objects[k] = handles[id]
		k += 1
	return {"offsets": offsets, "objects": objects}


# --------------------------------------------------------------- pairs

## Every overlapping pair once, as [code][a, b][/code] Arrays of the objects.
func get_collision_pairs() -> Array:
	_last_error = ""
	if _pending:
		_flush()
	var ids = _took(_engine.run(_op.pairs))
	if typeof(ids) == TYPE_STRING:
		return _fail("get_collision_pairs", ids, [])
	var pairs := []
	for k in range(0, ids.size(), 2):
		pairs.append([_handle(ids[k]), _handle(ids[k + 1])])
	return pairs


## Whether [param a] and [param b] are a collision pair: they overlap, and their
## layers and masks let them collide.
func is_colliding(a: Variant, b: Variant) -> bool:
	_last_error = ""
	var id_a := _present_id(a, "a")
	if id_a < 0:
		return _fail("is_colliding", _object_error(a, "a", true), false)
	var id_b := _present_id(b, "b")
	if id_b < 0:
		return _fail("is_colliding", _object_error(b, "b", true), false)
	return _done("is_colliding", _engine.run(_op.is_colliding, id_a, id_b))


## Emits [signal collision_ended] for every pair that stopped colliding since
## the last call, then [signal collision_started] for every pair that began,
## each once; returns how many it emitted. From the first call on, a pair also
## ends at once when one of its objects is removed or leaves the tree.
func emit_collision_events() -> int:
	_last_error = ""
	_signalling = true
	if _pending:
		_flush()
	var events = _took(_engine.run(_op.collision_events))
	if typeof(events) == TYPE_STRING:
		return _fail("emit_collision_events", events, 0)
	_emit_pairs(collision_ended, events["ended"])
	_emit_pairs(collision_started, events["started"])
	return (events["ended"].size() + events["started"].size()) / 2


## Removes every object, ending their pairs at once if
## [method emit_collision_events] has been called.
func clear() -> void:
	_last_error = ""
	_clear_held()
	_free.clear()
	_next_id = 0
	_engine.run(_op.clear)
	if _signalling:
		var events = _took(_engine.run(_op.collision_events))
		if typeof(events) == TYPE_DICTIONARY:
			_emit_pairs(collision_ended, events["ended"])
	_ids.clear()
	_handles.clear()


## The index's numbers: [code]objects[/code], [code]active_cells[/code],
## [code]avg_objects_per_cell[/code], [code]large_objects[/code],
## [code]broad_phase_pairs[/code] and [code]narrow_phase_checks[/code] (of the
## last pair pass), [code]hits[/code], [code]levels[/code] (arrays of each level's
## [code]cell_size[/code], [code]grid[/code], [code]objects[/code] and
## [code]occupied_cells[/code], finest first), [code]index[/code]
## ("uniform" or "hierarchical"), and the times in ms of the last query, move
## and pair pass ([code]last_query_ms[/code], [code]last_update_ms[/code],
## [code]last_pairs_ms[/code]).
func get_stats() -> Dictionary:
	_last_error = ""
	var stats = _stats()
	if typeof(stats) == TYPE_STRING:
		return _fail("get_stats", stats, {})
	return stats


## The error of the last call, [code]""[/code] if it succeeded.
func get_last_error() -> String:
	return _last_error


# ------------------------------------------------------------- batches

## Adds one box per row of [param positions] (min corners) and [param sizes]
## (PackedVector3Arrays or Arrays of Vector3), on the collision layers
## [param layers] looking for [param masks] (one int for all, or one per row),
## static where [param as_static] (one bool for all, or an Array of one per row;
## see [method set_static]: a level's tiles); returns their ids, which queries
## and pairs return for them.
func insert_batch(positions: Variant, sizes: Variant, layers: Variant = 1, masks: Variant = ALL_LAYERS, as_static: Variant = false) -> PackedInt32Array:
	_last_error = ""
	var args := [_vectors(positions, "positions"), _vectors(sizes, "sizes"),
			_ints(layers, "layers", true), _ints(masks, "masks", true), _flags(as_static, "as_static")]
	for arg in args:
		if typeof(arg) == TYPE_STRING:
			return _fail("insert_batch", arg, PackedInt32Array())
	if _pending:
		_flush()
	var ids = _took(_engine.run(_op.insert_batch, _vector_bytes(args[0]), _vector_bytes(args[1]), args[2], args[3],
			args[4]))
	if typeof(ids) == TYPE_STRING:
		return _fail("insert_batch", ids, PackedInt32Array())
	_handed_out(ids.size())
	for id in ids:
		_keep_handle(id, id)
	return ids


## Moves the objects [param ids] to the boxes at [param positions] of
## [param sizes]; every row is checked before any moves.
func update_batch(ids: Variant, positions: Variant, sizes: Variant) -> bool:
	_last_error = ""
	var args := [_ints(ids, "ids", false), _vectors(positions, "positions"), _vectors(sizes, "sizes")]
	for arg in args:
		if typeof(arg) == TYPE_STRING:
			return _fail("update_batch", arg, false)
	if _pending:
		_flush()
	return _done("update_batch", _engine.run(_op.update_batch, args[0], _vector_bytes(args[1]), _vector_bytes(args[2])))


## Removes the objects [param ids]: batch ids, and the ids ([method get_id]) of
## objects added one at a time. Every id is checked before any goes.
func remove_batch(ids: Variant) -> bool:
	_last_error = ""
	var checked = _ints(ids, "ids", false)
	if typeof(checked) == TYPE_STRING:
		return _fail("remove_batch", checked, false)
	if _pending:
		_flush()
	if not _done("remove_batch", _engine.run(_op.remove_batch, checked)):
		return false
	if _signalling:
		_emit_pairs(collision_ended, _took(_engine.run(_op.end_pairs, checked)))
	for id in checked:
		if _ids.get(_handles[id], -1) == id:     # an object, not a batch id
			_ids.erase(_handles[id])
		_handles[id] = null
		_free.append(id)
	return true


## [method set_filter] by id: [param layers] and [param masks] one int for all or one per id.
func set_filter_batch(ids: Variant, layers: Variant, masks: Variant) -> bool:
	_last_error = ""
	var args := [_ints(ids, "ids", false), _ints(layers, "layers", true), _ints(masks, "masks", true)]
	for arg in args:
		if typeof(arg) == TYPE_STRING:
			return _fail("set_filter_batch", arg, false)
	if _pending:
		_flush()
	return _done("set_filter_batch", _engine.run(_op.set_filter_batch, args[0], args[1], args[2]))


## [method set_static] by id: [param enabled] one bool for all, or an Array of
## one per id.
func set_static_batch(ids: Variant, enabled: Variant) -> bool:
	_last_error = ""
	var args := [_ints(ids, "ids", false), _flags(enabled, "enabled")]
	for arg in args:
		if typeof(arg) == TYPE_STRING:
			return _fail("set_static_batch", arg, false)
	if _pending:
		_flush()
	return _done("set_static_batch", _engine.run(_op.set_static_batch, args[0], args[1]))


## Every overlapping pair once, as a flat [code][a0, b0, a1, b1, ...][/code] array
## of ids, the smaller of each pair first.
func get_collision_pairs_packed() -> PackedInt32Array:
	_last_error = ""
	if _pending:
		_flush()
	var ids = _took(_engine.run(_op.pairs))
	if typeof(ids) == TYPE_STRING:
		return _fail("get_collision_pairs_packed", ids, PackedInt32Array())
	return ids


## The pairs that began and ended colliding since the last call, as
## [code]{"started": ..., "ended": ...}[/code], each a flat PackedInt32Array of
## ids (the batch form of [method emit_collision_events]; the two share one
## record, so use one of them).
func get_collision_events_packed() -> Dictionary:
	_last_error = ""
	if _pending:
		_flush()
	var events = _took(_engine.run(_op.collision_events))
	if typeof(events) == TYPE_STRING:
		return _fail("get_collision_events_packed", events, {})
	return events


# ------------------------------------------------------------- private

func _new_engine() -> Object:
	_on_py4godot = FileAccess.file_exists(_PY4GODOT)
	var path: String = _ENGINES[_on_py4godot]
	var script: Resource = load(path) if ResourceLoader.exists(path) else null
	var engine := RefCounted.new()
	if script != null:
		engine.set_script(script)
	if script == null or not engine.has_method("run"):
		return _MissingEngine.new("no Python engine: %s did not load (is a Python plugin in the project, and SpatialHash enabled in Project Settings > Plugins, which installs the spatial_hash package for it?)" % path)
	return engine


func _fail(method: String, message: String, result: Variant) -> Variant:
	_last_error = "SpatialHash3D.%s: %s" % [method, message]
	push_error(_last_error)
	return result


func _done(method: String, result: Variant) -> bool:
	if typeof(result) == TYPE_STRING:
		return _fail(method, result, false)
	return result


func _object_error(value: Variant, name: String, must_be_here := false) -> String:
	if typeof(value) == TYPE_OBJECT and not is_instance_valid(value):
		return "%s is a freed object" % name
	if typeof(value) == TYPE_INT or (typeof(value) == TYPE_OBJECT and value is Node):
		if must_be_here and not _ids.has(value):
			return "%s %s is not in this spatial hash" % [name, _describe(value)]
		return "%s %s is not inside the scene tree" % [name, _describe(value)]
	return "%s must be an int or a Node inside the scene tree, got %s" % [name, _describe(value)]


func _flag_error(value: Variant, name: String) -> String:
	return "%s must be true or false, got %s" % [name, _describe(value)]


func _describe(value: Variant) -> String:
	if typeof(value) == TYPE_OBJECT and is_instance_valid(value) and value is Node:
		return "%s '%s'" % [value.get_class(), value.get_path() if value.is_inside_tree() else value.name]
	var text := var_to_str(value) if typeof(value) != TYPE_OBJECT else str(value)
	return text if text.length() <= 80 else text.left(77) + "..."


# The id of obj if it is here (after the held calls are applied), else -1.
func _present_id(obj: Variant, name: String) -> int:
	if typeof(obj) != TYPE_INT and not (typeof(obj) == TYPE_OBJECT and is_instance_valid(obj)):
		return -1
	if _pending:
		_flush()
	return _ids.get(obj, -1)


# The id the index will give obj, a new object whose insertion is held for the
# next _flush; -1 (reported) if obj is not an int or a node inside the tree.
func _new_id(obj: Variant, method: String) -> int:
	var node := obj as Node if typeof(obj) == TYPE_OBJECT else null
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
	if id >= _handles.size():
		_handles.resize(maxi(id + 1, 2 * _handles.size()))
	_handles[id] = obj
	_inserted.append(id)
	return id


# A call whose numbers need the engine's own check: applied at once.
func _place(obj: Variant, id: Variant, method: String, numbers: Array) -> bool:
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
func _hold_static(obj: Variant, enabled: bool) -> bool:
	_statics.append(_ids[obj])
	_statics.append(int(enabled))
	_pending = true
	return true


# The index handed out `count` ids by its rule: the free ones first.
func _handed_out(count: int) -> void:
	var recycled := mini(count, _free.size())
	_free.resize(_free.size() - recycled)
	_next_id += count - recycled


# Nodes leave the index as they leave the tree: one connection for them all.
func _watch(node: Node) -> void:
	_tree = node.get_tree()
	_tree.node_removed.connect(_on_node_removed)


func _on_node_removed(node: Node) -> void:
	var id = _ids.get(node)
	if id != null:
		_drop(node, id)


func _notification(what: int) -> void:
	if what == NOTIFICATION_PREDELETE and _tree != null and is_instance_valid(_tree) \
			and _tree.node_removed.is_connected(_on_node_removed):
		_tree.node_removed.disconnect(_on_node_removed)


# Holds the removal of an object; its pairs end at once once signalling.
func _drop(obj: Variant, id: int) -> void:
	if _signalling:
		if _pending:
			_flush()
		_emit_pairs(collision_ended, _took(_engine.run(_op.end_pairs, PackedInt32Array([id]))))
	_ids.erase(obj)
	_handles[id] = null
	_removed.append(id)
	_pending = true


# Applies the held calls in one engine call.
func _flush() -> void:
	_pending = false
	var done = _engine.run(_op.apply, _inserted, _vector_bytes(_insert_shapes), _insert_radii, _moved,
			_vector_bytes(_move_shapes),
			_move_radii, _removed, _statics)
	if typeof(done) == TYPE_STRING:     # the rows were checked: only running out of memory gets here
		_fail("apply", done, null)
	_free.append_array(_removed)
	_clear_held()


func _clear_held() -> void:
	_inserted.clear()
	_insert_shapes.clear()
	_insert_radii.clear()
	_moved.clear()
	_move_shapes.clear()
	_move_radii.clear()
	_removed.clear()
	_statics.clear()
	_pending = false


func _keep_handle(id: int, obj: Variant) -> void:
	if id >= _handles.size():
		_handles.resize(maxi(id + 1, 2 * _handles.size()))
	_handles[id] = obj


func _handle(id: int) -> Variant:
	return _handles[id]


# The objects of a query's ids: text (a mark, then one character per id + 2,
# what every plugin hands over cheapest) or an array; any other text is why
# the query was refused.
func _objects(method: String, ids: Variant) -> Array:
	var found := []
	var handles := _handles
	if typeof(ids) == TYPE_STRING:
		if ids.unicode_at(0) != 1:
			return _fail(method, ids, [])
		var codes: PackedInt32Array = ids.to_utf32_buffer().to_int32_array()
		found.resize(codes.size() - 1)
		for k in found.size():
			found[k] = handles[codes[k + 1] - 2]
		return found
	ids = _took(ids)
	found.resize(ids.size())
	for k in found.size():
		found[k] = handles[ids[k]]
	return found


func _hits(method: String, rows: Variant) -> Array:
	if typeof(rows) == TYPE_STRING:
		return _fail(method, rows, [])
	rows = _took(rows)
	var hits := []
	for k in range(0, rows.size(), 8):
		hits.append({"collider": _handle(int(rows[k])), "fraction": rows[k + 1],
			"position": Vector3(rows[k + 2], rows[k + 3], rows[k + 4]), "normal": Vector3(rows[k + 5], rows[k + 6], rows[k + 7])})
	return hits


# An array result as GDScript keeps it. py4godot's engine hands arrays over in
# packed arrays it keeps and writes again on its next call, the count first
# (the channel that leaks nothing on the released plugin; see its script):
# their values are copied out here, at once.
func _took(result: Variant) -> Variant:
	if not _on_py4godot:
		return result
	match typeof(result):
		TYPE_PACKED_INT32_ARRAY, TYPE_PACKED_FLOAT64_ARRAY:
			return result.slice(1, 1 + int(result[0]))
		TYPE_DICTIONARY:
			var copy := {}
			for key in result:
				copy[key] = _took(result[key])
			return copy
	return result


# A vector array as the engine reads it: py4godot's Python reads a vector
# array's bytes only (to_byte_array() there leaks; here it does not).
func _vector_bytes(vectors: PackedVector3Array) -> Variant:
	return vectors.to_byte_array() if _on_py4godot else vectors


func _emit_pairs(sig: Signal, ids: Variant) -> void:
	for k in range(0, ids.size(), 2):
		sig.emit(_handle(ids[k]), _handle(ids[k + 1]))


# A PackedVector3Array of the argument, or why not (a String).
func _vectors(value: Variant, name: String) -> Variant:
	if typeof(value) == TYPE_PACKED_VECTOR3_ARRAY:
		return value
	var want := "%s must be a PackedVector3Array or an Array of Vector3, got " % name
	if typeof(value) != TYPE_ARRAY:
		return want + _describe(value)
	for v in value:
		if typeof(v) != TYPE_VECTOR3:
			return want + "an Array holding " + _describe(v)
	return PackedVector3Array(value)


# A packed int array of the argument (or the int itself if one_for_all), or why not.
func _ints(value: Variant, name: String, one_for_all: bool) -> Variant:
	if typeof(value) in [TYPE_PACKED_INT32_ARRAY, TYPE_PACKED_INT64_ARRAY] or (one_for_all and typeof(value) == TYPE_INT):
		return value
	var want := "%s must be %sa PackedInt32Array, a PackedInt64Array or an Array of ints, got " % [name, "an int, " if one_for_all else ""]
	if typeof(value) != TYPE_ARRAY:
		return want + _describe(value)
	for v in value:
		if typeof(v) != TYPE_INT:
			return want + "an Array holding " + _describe(v)
	return PackedInt64Array(value)


# One bool for all (as it is) or a PackedInt32Array of 1s and 0s from an
# Array of bools, or why not (a String).
func _flags(value: Variant, name: String) -> Variant:
	if typeof(value) == TYPE_BOOL:
		return value
	var want := "%s must be true, false or an Array of them, got " % name
	if typeof(value) != TYPE_ARRAY:
		return want + _describe(value)
	var flags := PackedInt32Array()
	for v in value:
		if typeof(v) != TYPE_BOOL:
			return want + "an Array holding " + _describe(v)
		flags.append(int(v))
	return flags


func _set_index(size: float, threshold: int, kind: bool, name: String, old: Variant) -> bool:
	_last_error = ""
	if _engine == null:     # the scene file's values, before _init
		return true
	if _pending:
		_flush()
	var bound = _engine.run(_op.set_index, size, threshold, kind)
	if typeof(bound) == TYPE_STRING:
		_fail(name, "%s; it stays %s" % [bound, old], false)
		return false
	_set_safe(bound)
	return true


func _set_safe(bound: float) -> void:
	_safe_radius = bound
	bound = minf(bound, 1e38)      # AABB holds 32-bit floats
	_safe_area = AABB(-bound * Vector3.ONE, 2.0 * bound * Vector3.ONE)
	_safe_sizes = AABB(Vector3.ZERO, bound * Vector3.ONE)


func _stats() -> Variant:
	if _pending:
		_flush()
	return _took(_engine.run(_op.stats))


# ------------------------------------------- monitors, overlay, drawing

func _enter_tree() -> void:
	if not monitors_enabled:
		return
	var names = _engine.run(_op.monitors)
	if typeof(names) != TYPE_DICTIONARY:
		return
	var suffix := ""
	var k := 1
	while names.keys().any(func(m): return Performance.has_custom_monitor("spatial_hash_3d/%s%s" % [m, suffix])):
		k += 1
		suffix = " [%s %d]" % [name, k]
	for monitor in names:
		var id := "spatial_hash_3d/%s%s" % [monitor, suffix]
		_monitor_ids[id] = names[monitor]
		Performance.add_custom_monitor(id, _monitor.bind(names[monitor]))


func _exit_tree() -> void:
	for id in _monitor_ids:
		if Performance.has_custom_monitor(id):
			Performance.remove_custom_monitor(id)
	_monitor_ids.clear()


func _monitor(place: int) -> float:
	if _monitor_frame != Engine.get_process_frames():
		if _pending:
			_flush()
		var values = _took(_engine.run(_op.monitor_values))
		_monitor_values = [] if typeof(values) == TYPE_STRING else values
		_monitor_frame = Engine.get_process_frames()
	return maxf(0.0, _monitor_values[place]) if place < _monitor_values.size() else 0.0


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
		panel.position = Vector2(8, 8)
		_overlay_label = Label.new()
		panel.add_child(_overlay_label)
		layer.add_child(panel)
		add_child(layer, false, Node.INTERNAL_MODE_BACK)
	else:
		_overlay_label.get_parent().get_parent().queue_free()
		_overlay_label = null


func _overlay_text(s: Dictionary) -> String:
	return "spatial_hash_3d (%s): %d objects\nactive cells %d, %.2f per cell, %d large\nbroad-phase pairs %d, narrow-phase checks %d, hits %d\nlast query %.3f ms, last move %.3f ms, last pairs %.3f ms" % [
		s["index"], s["objects"], s["active_cells"], s["avg_objects_per_cell"], s["large_objects"],
		s["broad_phase_pairs"], s["narrow_phase_checks"], s["hits"],
		s["last_query_ms"], s["last_update_ms"], s["last_pairs_ms"]]


# Draws the debug lines into an ImmediateMesh child: the cells near the camera,
# the candidate pairs, and the objects' boxes.
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
		_lines = MeshInstance3D.new()
		_lines.mesh = ImmediateMesh.new()
		var material := StandardMaterial3D.new()
		material.shading_mode = BaseMaterial3D.SHADING_MODE_UNSHADED
		material.vertex_color_use_as_albedo = true
		material.transparency = BaseMaterial3D.TRANSPARENCY_ALPHA
		_lines.material_override = material
		add_child(_lines, false, Node.INTERNAL_MODE_BACK)
	var view := _debug_view()
	var shapes = _took(_engine.run(_op.debug_geometry, view.position.x, view.position.y, view.position.z,
			view.size.x, view.size.y, view.size.z, debug_candidates))
	var mesh: ImmediateMesh = _lines.mesh
	mesh.clear_surfaces()
	if typeof(shapes) != TYPE_DICTIONARY or shapes.values().all(func(v): return v.size() == 0):
		return
	mesh.surface_begin(Mesh.PRIMITIVE_LINES)
	for part in [["grid", _GRID_COLOR], ["candidates", _CANDIDATE_COLOR]]:
		var v = shapes[part[0]]
		mesh.surface_set_color(part[1])
		for k in range(0, v.size(), 6):
			mesh.surface_add_vertex(Vector3(v[k], v[k + 1], v[k + 2]))
			mesh.surface_add_vertex(Vector3(v[k + 3], v[k + 4], v[k + 5]))
	for part in [["free", _FREE_COLOR], ["colliding", _COLLIDING_COLOR]]:
		var v = shapes[part[0]]
		mesh.surface_set_color(part[1])
		for k in range(0, v.size(), 6):
			var low := Vector3(v[k], v[k + 1], v[k + 2])
			var high := low + Vector3(v[k + 3], v[k + 4], v[k + 5])
			for corner in 8:
				for bit in [1, 2, 4]:
					if corner & bit == 0:
						mesh.surface_add_vertex(_corner(low, high, corner))
						mesh.surface_add_vertex(_corner(low, high, corner | bit))
	mesh.surface_end()


# The box around the camera (in this node's space) whose cells are drawn.
func _debug_view() -> AABB:
	var reach := 16.0 * cell_size * Vector3.ONE
	var camera: Camera3D = get_viewport().get_camera_3d() if is_inside_tree() else null
	var centre := to_local(camera.global_position) if camera != null else Vector3.ZERO
	return AABB(centre - reach, 2.0 * reach)


# Corner `index` of the box from low to high: bit 0 picks x, bit 1 y, bit 2 z.
func _corner(low: Vector3, high: Vector3, index: int) -> Vector3:
	return Vector3(high.x if index & 1 else low.x, high.y if index & 2 else low.y, high.z if index & 4 else low.z)
