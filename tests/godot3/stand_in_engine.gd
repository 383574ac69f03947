extends Reference
# A stand-in for the SpatialHash2D node's Python engine, in GDScript, for
# testing the node's own logic in a real Godot 3 without a Python plugin: the
# engine's protocol by brute force, handing out ids by the index's rule (the
# most recently freed first, then the next never used), query ids as text.
# It counts every Object it is handed: a real plugin crashes on a freed one.

const SAFE = 1e9

var objects_handed := 0         # Objects passed to run(): must stay 0
var calls := {}                 # method -> how many times it was called
var shapes := {}                # id -> [x, y, w, h] or [x, y, radius, NAN]
var layers := {}                # id -> [layer, mask]
var statics := {}               # id -> true: static objects, which never pair with each other
var free_ids := []
var next_id := 0
var reported := {}              # Vector2(a, b) -> true: pairs the last events reported

const METHODS = ["protocol", "set_index", "apply", "insert", "update", "insert_circle", "set_filter",
	"is_static", "is_colliding", "end_pairs", "query_nearby", "query_range", "query_radius", "query_point",
	"query_nearest", "query_along_path", "raycast", "raycast_all", "pairs", "collision_events",
	"insert_batch", "update_batch", "remove_batch", "set_filter_batch", "set_static_batch", "clear", "stats",
	"monitors", "debug_geometry", "safe_bound"]


func run(op = null, a = null, b = null, c = null, d = null, e = null, f = null, g = null, h = null):
	for arg in [a, b, c, d, e, f, g, h]:
		if typeof(arg) == TYPE_OBJECT:
			objects_handed += 1
			return "an Object reached the engine"
	var method: String = METHODS[op]
	calls[method] = calls.get(method, 0) + 1
	match method:
		"protocol":
			var numbers = {}
			for k in METHODS.size():
				numbers[METHODS[k]] = k
			return numbers
		"set_index", "safe_bound":
			return SAFE
		"apply":
			return _apply(a, b, c, d, e, f, g, h)
		"insert", "update":
			return _place(a, [b, c, d, e], d >= 0 and e >= 0)
		"insert_circle":
			return _place(a, [b, c, d, NAN], d >= 0)
		"set_filter":
			if not shapes.has(a):
				return "no object with id %d" % a
			layers[a] = [b, c]
			return true
		"is_static":
			if not shapes.has(a):
				return "no object with id %d" % a
			return statics.has(a)
		"is_colliding":
			if not shapes.has(a) or not shapes.has(b):
				return "no object with id %d" % (b if shapes.has(a) else a)
			return _touch(a, b)
		"end_pairs":
			var ended := PoolIntArray()
			for id in a:
				for pair in reported.keys():
					if int(pair.x) == id or int(pair.y) == id:
						reported.erase(pair)
						ended.append(int(pair.x))
						ended.append(int(pair.y))
			return ended
		"query_range":
			return _text(_overlapping([a, b, c, d], f))
		"query_nearby":
			return _text(_overlapping([a, b, c, d], e))
		"query_point":
			return _text(_overlapping([a, b, 0.0, 0.0], c))
		"query_radius":
			return _text(_overlapping([a, b, c, NAN], d))
		"pairs":
			var flat := PoolIntArray()
			for pair in _pairs():
				flat.append(int(pair.x))
				flat.append(int(pair.y))
			return flat
		"collision_events":
			var now := {}
			for pair in _pairs():
				now[pair] = true
			var started := PoolIntArray()
			var ended := PoolIntArray()
			for pair in reported:
				if not now.has(pair):
					ended.append(int(pair.x))
					ended.append(int(pair.y))
			for pair in now:
				if not reported.has(pair):
					started.append(int(pair.x))
					started.append(int(pair.y))
			reported = now
			return {"started": started, "ended": ended}
		"insert_batch":
			var ids := PoolIntArray()
			for k in a.size():
				ids.append(_new_id([a[k].x, a[k].y, b[k].x, b[k].y]))
				_set_static(ids[k], e if typeof(e) == TYPE_BOOL else e[k] == 1)
			return ids
		"remove_batch":
			for id in a:
				if not shapes.has(id):
					return "ids: no object with id %d" % id
			for id in a:
				_free(id)
			return true
		"set_static_batch":
			for id in a:
				if not shapes.has(id):
					return "ids: no object with id %d" % id
			for k in a.size():
				_set_static(a[k], b if typeof(b) == TYPE_BOOL else b[k] == 1)
			return true
		"clear":
			shapes.clear()
			layers.clear()
			statics.clear()
			free_ids.clear()
			next_id = 0
			return true
		"stats":
			return {"objects": shapes.size(), "index": "stand-in"}
	return "the stand-in has no %s" % method


func _apply(inserted, insert_shapes, insert_radii, moved, move_shapes, move_radii, removed, held_statics):
	var radius := 0
	for k in inserted.size():
		var shape = [insert_shapes[2 * k].x, insert_shapes[2 * k].y, insert_shapes[2 * k + 1].x, insert_shapes[2 * k + 1].y]
		if is_nan(shape[2]):
			shape = [shape[0], shape[1], insert_radii[radius], NAN]
			radius += 1
		var id := _new_id(shape)
		if id != inserted[k]:
			return "the index gave the id %d, the face expected %d" % [id, inserted[k]]
	radius = 0
	for k in moved.size():
		var shape = [move_shapes[2 * k].x, move_shapes[2 * k].y, move_shapes[2 * k + 1].x, move_shapes[2 * k + 1].y]
		if is_nan(shape[2]):
			shape = [shape[0], shape[1], move_radii[radius], NAN]
			radius += 1
		shapes[moved[k]] = shape
	for k in range(0, held_statics.size(), 2):
		_set_static(held_statics[k], held_statics[k + 1] == 1)
	for id in removed:
		_free(id)
	return true


func _place(id, shape, sizes_ok):
	for v in shape.slice(0, 2):
		if is_nan(v) or is_inf(v):
			return "a number is not finite, got %s" % v
	if not sizes_ok:
		return "a size is negative"
	if id < 0:
		return _new_id(shape)
	shapes[id] = shape
	return id


func _new_id(shape) -> int:
	var id: int
	if free_ids.empty():
		id = next_id
		next_id += 1
	else:
		id = free_ids.pop_back()
	shapes[id] = shape
	return id


func _free(id) -> void:
	shapes.erase(id)
	layers.erase(id)
	statics.erase(id)
	free_ids.append(id)


func _set_static(id, enabled) -> void:
	if enabled:
		statics[id] = true
	else:
		statics.erase(id)


func _box(shape) -> Rect2:
	if is_nan(shape[3]):
		return Rect2(shape[0] - shape[2], shape[1] - shape[2], 2 * shape[2], 2 * shape[2])
	return Rect2(shape[0], shape[1], shape[2], shape[3])


# Closed shapes: touching counts.
func _shapes_touch(s, t) -> bool:
	var a := _box(s)
	var b := _box(t)
	if a.position.x > b.end.x or b.position.x > a.end.x or a.position.y > b.end.y or b.position.y > a.end.y:
		return false
	if is_nan(s[3]) and is_nan(t[3]):
		return Vector2(s[0], s[1]).distance_squared_to(Vector2(t[0], t[1])) <= (s[2] + t[2]) * (s[2] + t[2])
	if is_nan(s[3]) or is_nan(t[3]):
		var circle = s if is_nan(s[3]) else t
		var box := b if is_nan(s[3]) else a
		var nearest := Vector2(clamp(circle[0], box.position.x, box.end.x), clamp(circle[1], box.position.y, box.end.y))
		return nearest.distance_squared_to(Vector2(circle[0], circle[1])) <= circle[2] * circle[2]
	return true


func _touch(a, b) -> bool:
	var la = layers.get(a, [1, 4294967295])
	var lb = layers.get(b, [1, 4294967295])
	return (la[1] & lb[0] or lb[1] & la[0]) and not (statics.has(a) and statics.has(b)) and _shapes_touch(shapes[a], shapes[b])


func _overlapping(query, mask) -> Array:
	var found := []
	for id in shapes:
		if layers.get(id, [1, 0])[0] & mask and _shapes_touch(query, shapes[id]):
			found.append(id)
	return found


func _pairs() -> Array:
	var ids := shapes.keys()
	ids.sort()
	var found := []
	for i in ids.size():
		for j in range(i + 1, ids.size()):
			if _touch(ids[i], ids[j]):
				found.append(Vector2(ids[i], ids[j]))
	return found


func _text(ids) -> String:
	var text := char(1)
	for id in ids:
		text += char(id + 2)
	return text
