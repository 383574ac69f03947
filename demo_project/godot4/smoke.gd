extends Node2D
# Headless check of the SpatialHash2D node in a real engine (the README's smoke
# command):  godot --headless --path demo_project/godot4 res://smoke.tscn
# Probes every method with good input, every kind of bad value, wrong argument
# counts and types, freed nodes, and static objects against a GDScript brute
# force; then runs FRAMES frames of moving boxes through the batch methods,
# comparing the pairs with a GDScript brute force every frame. Prints "SMOKE OK"
# and quits with 0 only if every check passed (1 otherwise, and 2 if the scene
# stalled, for instance because a script did not load).

const FRAMES := 60
const N := 300
const WORLD := Vector2(400, 300)
const AWAY := Vector2(-5000, -5000)     # the probes' corner, away from the batch boxes
const ALL := SpatialHash2D.ALL_LAYERS

@onready var hash_node: SpatialHash2D = $Hash

var positions := PackedVector2Array()
var velocities := PackedVector2Array()
var sizes := PackedVector2Array()
var ids := PackedInt32Array()
var frame := 0
var failures := 0
var checks := 0
var events := []       # [signal, a, b] of the collision signals between probe nodes


func _ready() -> void:
	seed(7)
	positions.resize(N)
	velocities.resize(N)
	sizes.resize(N)
	for i in N:
		positions[i] = Vector2(randf() * WORLD.x, randf() * WORLD.y)
		velocities[i] = Vector2(randf_range(-80, 80), randf_range(-80, 80))
		sizes[i] = Vector2(randf_range(1, 12), randf_range(1, 12))
	ids = hash_node.insert_batch(positions, sizes)
	_check(ids.size() == N, "insert_batch returned %d ids" % ids.size())
	_probe_objects()
	_probe_held_calls()
	_probe_freed_nodes()
	_probe_layers_and_events()
	_probe_static()
	_probe_bad_values()
	_probe_wrong_calls()
	_probe_properties()
	_check(hash_node.get_stats()["objects"] == N, "the probes left the batch objects alone: %d" % hash_node.get_stats()["objects"])
	_check(hash_node.get_script().get_global_name() == &"SpatialHash2D", "class_name SpatialHash2D")


func _process(delta: float) -> void:
	frame += 1
	if frame > FRAMES + 30:
		printerr("SMOKE stalled at frame %d" % frame)
		get_tree().quit(2)
		return
	for i in N:
		var p := positions[i] + velocities[i] * delta
		positions[i] = Vector2(fposmod(p.x, WORLD.x), fposmod(p.y, WORLD.y))
	if frame == FRAMES / 2:     # the batch ids carry over; the brute force goes on checking
		hash_node.hierarchical = true
		hash_node.debug_draw = true
		hash_node.overlay = true
	_check(hash_node.update_batch(ids, positions, sizes), "update_batch")
	var pairs: PackedInt32Array = hash_node.get_collision_pairs_packed()
	var expected := {}
	for i in N:
		var ax: float = positions[i].x
		var ay: float = positions[i].y
		var ax1: float = ax + sizes[i].x
		var ay1: float = ay + sizes[i].y
		for j in range(i + 1, N):
			var bx: float = positions[j].x
			var by: float = positions[j].y
			# Closed boxes; Vector2 holds 32-bit floats, the sums are in double.
			if ax <= bx + sizes[j].x and bx <= ax1 and ay <= by + sizes[j].y and by <= ay1:
				expected[Vector2i(i, j)] = true
	var got := {}
	for k in range(0, pairs.size(), 2):
		got[Vector2i(mini(pairs[k], pairs[k + 1]), maxi(pairs[k], pairs[k + 1]))] = true
	_check(got.size() * 2 == pairs.size(), "frame %d: a pair reported twice" % frame)
	_check(got == expected, "frame %d: %d pairs, brute force %d" % [frame, got.size(), expected.size()])
	if frame == FRAMES:
		var stats: Dictionary = hash_node.get_stats()
		# Units the editor's whole numbers show: per 100 cells, microseconds.
		_check(is_equal_approx(Performance.get_custom_monitor("spatial_hash/objects_per_100_cells"),
			100.0 * stats["avg_objects_per_cell"]) and stats["avg_objects_per_cell"] > 0.0, "objects_per_100_cells monitor")
		_check(is_equal_approx(Performance.get_custom_monitor("spatial_hash/last_pairs_microseconds"),
			1000.0 * stats["last_pairs_ms"]) and stats["last_pairs_ms"] > 0.0, "last_pairs_microseconds monitor")
		_check(Performance.get_custom_monitor("spatial_hash/total_objects") == stats["objects"],
			"the monitors follow get_stats()")
		_check(Performance.get_custom_monitor("spatial_hash/narrow_phase_checks") == stats["narrow_phase_checks"],
			"narrow_phase_checks monitor")
		print("SMOKE stats: ", stats)
		print("SMOKE %d checks, %d failed" % [checks, failures])
		if failures == 0:
			print("SMOKE OK")
		get_tree().quit(1 if failures else 0)


func _probe_objects() -> void:
	var a := _child("A", AWAY)
	var b := _child("B", AWAY + Vector2(5, 5))
	_check(hash_node.insert(a, a.position, Vector2(10, 10)), "insert(node)")
	_check(hash_node.insert_circle(b, b.position, 3.0), "insert_circle(node)")
	_check(hash_node.has(a) and hash_node.get_id(a) >= 0 and hash_node.get_id(a) != hash_node.get_id(b), "has / get_id")
	_check(_same(hash_node.query_point(AWAY + Vector2(5, 5)), [a, b]), "query_point finds both")
	_check(hash_node.query_nearby(AWAY + Vector2(1, 1), Vector2(1, 1)).has(a), "query_nearby")
	_check(hash_node.query_range(Rect2(AWAY - Vector2(10, 10), Vector2(5, 5)), true) == [], "query_range exact")
	# query_range_batch: each window's objects as query_range's, in one call.
	var windows := PackedVector2Array([AWAY - Vector2(10, 10), AWAY + Vector2(4, 4), AWAY + Vector2(500, 500)])
	var window_sizes := PackedVector2Array([Vector2(5, 5), Vector2(2, 2), Vector2(1, 1)])
	var batch := hash_node.query_range_batch(windows, window_sizes, true)
	var answered := []
	for k in windows.size():
		answered.append(batch["objects"].slice(batch["offsets"][k], batch["offsets"][k + 1]))
	_check(batch["offsets"].size() == 4 and _same(answered[1], [a, b])
		and answered == [[], hash_node.query_range(Rect2(windows[1], window_sizes[1]), true), []],
		"query_range_batch: %s" % [batch])
	_check(_same(hash_node.query_range_batch([AWAY + Vector2(4, 4)], [Vector2(2, 2)])["objects"], [a, b]),
		"query_range_batch of Arrays")
	_check(hash_node.query_radius(AWAY + Vector2(5, 5), 1.0).size() == 2, "query_radius")
	# From AWAY + (12, 5): A's box is 2 away, B's circle 4 (7 to its centre, radius 3).
	var from := AWAY + Vector2(12, 5)
	_check(hash_node.query_nearest(from, 2) == [a, b], "query_nearest: nearest first")
	_check(hash_node.query_nearest(from, 5, 3.0) == [a], "query_nearest within max_distance")
	_check(hash_node.query_along_path(AWAY + Vector2(-50, 6), AWAY + Vector2(150, 6), Vector2(1, 1)).size() == 2,
		"query_along_path")
	# Along y = AWAY.y + 5 from 10 left of A: A's box at a third of the way, B's circle at 2 more.
	var hit := hash_node.raycast(AWAY + Vector2(-10, 5), AWAY + Vector2(20, 5))
	_check(hit["collider"] == a and hit["position"].is_equal_approx(AWAY + Vector2(0, 5))
		and hit["normal"] == Vector2(-1, 0) and absf(hit["fraction"] - 1.0 / 3.0) < 1e-6, "raycast: %s" % [hit])
	var hits := hash_node.raycast_all(AWAY + Vector2(-10, 5), AWAY + Vector2(20, 5))
	_check(hits.size() == 2 and hits[1]["collider"] == b and hits[1]["position"].is_equal_approx(AWAY + Vector2(2, 5)),
		"raycast_all: %s" % [hits])
	_check(hash_node.raycast(AWAY - Vector2(10, 10), AWAY - Vector2(5, 10)).is_empty(), "raycast misses")
	_check(_object_pairs() == [[a, b]], "get_collision_pairs: %s" % [_object_pairs()])
	_check(hash_node.is_colliding(a, b) and hash_node.is_colliding(b, a), "is_colliding")
	_check(hash_node.update(a, Rect2(AWAY - Vector2(30, 30), Vector2(4, 4))) and not hash_node.is_colliding(a, b), "update")
	_check(hash_node.query_point(AWAY - Vector2(28, 28)) == [a], "update moved it")
	_check(hash_node.insert(7, AWAY, Vector2(1, 1)) and hash_node.query_point(AWAY) == [7], "int objects come back as themselves")
	_check(hash_node.remove(7) and not hash_node.has(7), "remove(int)")
	_check(hash_node.remove_batch(PackedInt32Array([hash_node.get_id(b)])) and not hash_node.has(b),
		"remove_batch takes the id of an object added with insert()")
	_check(hash_node.remove(a) and not hash_node.remove(a) and hash_node.get_last_error() == "", "remove(node), then absent, no error")
	# Beyond what the node checks itself (cells of 16: 4.3e9), the engine decides at once.
	_check(hash_node.insert(a, Vector2(6e9, 0), Vector2(1, 1)) and hash_node.query_point(Vector2(6e9, 0)) == [a],
		"a far but valid box: %s" % hash_node.get_last_error())
	_check(not hash_node.insert(b, Vector2(1e12, 0), Vector2(1, 1)) and hash_node.get_last_error().contains("too far")
		and not hash_node.has(b), "a box beyond the cells' reach is refused: " + hash_node.get_last_error())
	# 0.7 + 0.3 is 1.0 in doubles; with a 32-bit radius (0.69999999) the discs would part.
	_check(hash_node.insert_circle(b, AWAY, 0.7) and hash_node.query_radius(AWAY + Vector2(1, 0), 0.3) == [b],
		"a held radius stays exact: %s" % [hash_node.query_radius(AWAY + Vector2(1, 0), 0.3)])
	_check(hash_node.remove(a) and hash_node.remove(b), "and removed")
	a.free()
	b.free()


# Calls held by the node (inserts, moves, removals) are seen by the next query,
# whatever their order; ids are the index's own.
func _probe_held_calls() -> void:
	var nodes := []
	for k in 6:
		nodes.append(_child("H%d" % k, AWAY + Vector2(100 + 10 * k, 0)))
	for k in 6:
		hash_node.insert(nodes[k], nodes[k].position, Vector2(4, 4))
	hash_node.update(nodes[0], Rect2(AWAY + Vector2(200, 0), Vector2(4, 4)))
	hash_node.remove(nodes[1])
	hash_node.insert(nodes[1], AWAY + Vector2(300, 0), Vector2(4, 4))
	hash_node.insert_circle(nodes[2], AWAY + Vector2(400, 0), 2.5)
	hash_node.remove(nodes[3])
	var held_ids := []
	for node in nodes:
		held_ids.append(hash_node.get_id(node))
	_check(held_ids[3] == -1 and not held_ids.slice(0, 3).has(-1) and not held_ids.slice(4).has(-1), "held ids: %s" % [held_ids])
	_check(hash_node.query_point(AWAY + Vector2(202, 2)) == [nodes[0]], "a held move")
	_check(hash_node.query_point(AWAY + Vector2(302, 2)) == [nodes[1]], "removed, then inserted again")
	_check(hash_node.query_radius(AWAY + Vector2(402.5, 0), 0.0) == [nodes[2]], "a held circle: %s" % [hash_node.query_radius(AWAY + Vector2(402.5, 0), 0.0)])
	_check(_same(hash_node.query_range(Rect2(AWAY + Vector2(100, 0), Vector2(60, 5)), true), [nodes[4], nodes[5]]),
		"the rest where they were put: %s" % [hash_node.query_range(Rect2(AWAY + Vector2(100, 0), Vector2(60, 5)), true)])
	var packed := PackedInt32Array()
	for k in [0, 1, 2, 4, 5]:
		_check(hash_node.get_id(nodes[k]) == held_ids[k], "ids held before the index had them stay theirs")
		packed.append(held_ids[k])
	_check(hash_node.remove_batch(packed), "remove_batch of held objects")
	for node in nodes:
		_check(not hash_node.has(node), "removed: " + node.name)
		node.free()


func _probe_freed_nodes() -> void:
	var kept := _child("Kept", AWAY)
	var doomed := _child("Doomed", AWAY)
	var ghost := _child("Ghost", AWAY)         # never inserted
	hash_node.insert(kept, kept.position, Vector2(8, 8))
	hash_node.insert(doomed, doomed.position, Vector2(8, 8))
	doomed.free()
	ghost.free()
	_check(hash_node.query_point(AWAY + Vector2(4, 4)) == [kept], "a freed node is not handed back")
	_check(_object_pairs().size() == 0, "nor in the pair list: %s" % [_object_pairs()])
	var objects: int = hash_node.get_stats()["objects"]
	for freed in [doomed, ghost]:
		# Called directly: a lambda would capture the freed object as null.
		_freed_refused("insert", hash_node.insert(freed, AWAY, Vector2(1, 1)))
		_freed_refused("insert(as_static)", hash_node.insert(freed, AWAY, Vector2(1, 1), true))
		_freed_refused("set_static", hash_node.set_static(freed, true))
		_freed_refused("is_static", hash_node.is_static(freed))
		_freed_refused("insert_circle", hash_node.insert_circle(freed, AWAY, 1.0))
		_freed_refused("update", hash_node.update(freed, Rect2(AWAY, Vector2(1, 1))))
		_freed_refused("remove", hash_node.remove(freed))
		_freed_refused("has", hash_node.has(freed))
		_freed_refused("get_id", hash_node.get_id(freed) != -1)
		_freed_refused("set_filter", hash_node.set_filter(freed, 1, 1))
		_freed_refused("is_colliding", hash_node.is_colliding(freed, kept))
		_freed_refused("is_colliding(b)", hash_node.is_colliding(kept, freed))
	_check(hash_node.get_stats()["objects"] == objects, "freed nodes changed nothing")
	var leaving := _child("Leaving", AWAY)
	hash_node.insert(leaving, leaving.position, Vector2(8, 8))
	remove_child(leaving)
	_check(hash_node.query_point(AWAY + Vector2(4, 4)) == [kept], "a node that left the tree is dropped")
	_check(not hash_node.insert(leaving, AWAY, Vector2(1, 1)) and hash_node.get_last_error().contains("Leaving"),
		"a node outside the tree is refused, by name: " + hash_node.get_last_error())
	leaving.free()
	kept.queue_free()
	hash_node.remove(kept)


func _probe_layers_and_events() -> void:
	for signal_name in ["collision_started", "collision_ended"]:
		var listed := hash_node.get_signal_list().filter(func(s): return s["name"] == signal_name)
		_check(hash_node.has_signal(signal_name) and listed.size() == 1 and listed[0]["args"].size() == 2,
			"signal %s(a, b): %s" % [signal_name, listed])
	hash_node.collision_started.connect(_on_collision.bind("started"))
	hash_node.collision_ended.connect(_on_collision.bind("ended"))
	var a := _child("LA", AWAY)
	var b := _child("LB", AWAY)
	var c := _child("LC", AWAY)
	for node in [a, b, c]:
		hash_node.insert(node, node.position, Vector2(6, 6))
	hash_node.emit_collision_events()
	_check(events.size() == 3 and ["started", "LA", "LB"] in events and ["started", "LA", "LC"] in events
		and ["started", "LB", "LC"] in events, "collision_started: %s" % [events])
	events.clear()
	_check(hash_node.emit_collision_events() == 0 and events == [], "each start once")
	_check(hash_node.set_filter(c, 2, 2) and hash_node.set_filter(b, 1, 1), "set_filter")
	hash_node.emit_collision_events()
	_check(events == [["ended", "LB", "LC"]], "a change of layers ends a pair: %s" % [events])
	_check(not hash_node.is_colliding(b, c) and hash_node.is_colliding(a, c), "is_colliding follows the layers")
	_check(hash_node.query_point(AWAY + Vector2(3, 3), 2) == [c], "query_point with a mask")
	_check(hash_node.raycast(AWAY + Vector2(-10, 3), AWAY + Vector2(10, 3), 2)["collider"] == c, "raycast with a mask")
	var nearest := hash_node.query_nearest(AWAY + Vector2(-10, 3), 3, 50.0, 1)
	_check(nearest.size() == 2 and nearest.has(a) and nearest.has(b), "query_nearest with a mask: %s" % [nearest])
	events.clear()
	b.free()                 # its pairs end as it leaves, while it still exists
	_check(events == [["ended", "LA", "LB"]], "a freed node's pairs end at once, named as it goes: %s" % [events])
	hash_node.remove(c)
	_check(events == [["ended", "LA", "LB"], ["ended", "LA", "LC"]], "remove ends its pairs: %s" % [events])
	c.free()
	events.clear()
	hash_node.emit_collision_events()
	_check(events == [], "nothing more: %s" % [events])
	var packed := hash_node.get_collision_events_packed()
	_check(packed["started"] is PackedInt32Array and packed["ended"].size() % 2 == 0,
		"get_collision_events_packed: %s" % [packed.keys()])
	var more := hash_node.insert_batch(PackedVector2Array([AWAY - Vector2(100, 100), AWAY - Vector2(99, 99)]),
		[Vector2(4, 4), Vector2(4, 4)], PackedInt32Array([1, 2]), 1)
	var pair := [mini(more[0], more[1]), maxi(more[0], more[1])]
	packed = hash_node.get_collision_events_packed()
	_check(Array(packed["started"]) == pair, "the batch pair with layers started: %s" % [packed])
	_check(hash_node.set_filter_batch(more, [1, 2], PackedInt64Array([1, 2])), "set_filter_batch")
	packed = hash_node.get_collision_events_packed()
	_check(Array(packed["ended"]) == pair, "and ended on a change of masks: %s" % [packed])
	_check(hash_node.remove_batch(more) and hash_node.remove(a), "the probe's objects removed")
	a.free()
	hash_node.collision_started.disconnect(_on_collision.bind("started"))
	hash_node.collision_ended.disconnect(_on_collision.bind("ended"))


# Two static objects never pair (a level's tiles); a static object pairs with
# the others; the flag follows set_static, set_static_batch and an insert of an
# object already here, and a move keeps it. Pairs against a brute force.
func _probe_static() -> void:
	var a := _child("StaticA", AWAY)
	var b := _child("StaticB", AWAY)
	_check(hash_node.insert(a, AWAY, Vector2(10, 10), true) and hash_node.insert_circle(b, AWAY + Vector2(5, 5), 3.0, true),
		"insert and insert_circle as_static: %s" % hash_node.get_last_error())
	_check(hash_node.is_static(a) and hash_node.is_static(b), "is_static")
	_check(_object_pairs() == [] and not hash_node.is_colliding(a, b), "two static objects never pair: %s" % [_object_pairs()])
	_check(hash_node.set_static(b, false) and not hash_node.is_static(b), "set_static(false)")
	_check(_object_pairs().size() == 1 and hash_node.is_colliding(a, b), "then they pair: %s" % [_object_pairs()])
	_check(hash_node.set_static(b, true) and _object_pairs() == [], "set_static(true)")
	_check(hash_node.update(a, Rect2(AWAY + Vector2(1, 1), Vector2(10, 10))) and hash_node.is_static(a), "a move keeps the flag")
	_check(hash_node.insert(a, AWAY, Vector2(10, 10)) and not hash_node.is_static(a) and _object_pairs().size() == 1,
		"an insert of an object already here sets it (as_static = false)")
	_check(hash_node.remove(a) and hash_node.remove(b), "and removed")
	a.free()
	b.free()
	# A level: 5x5 tiles of 8x8 sharing edges, static in one batch; bodies over
	# them, two of them static (an Array of flags).
	var origin := AWAY + Vector2(0, 400)
	var tile_at := PackedVector2Array()
	var tile_size := PackedVector2Array()
	for row in 5:
		for column in 5:
			tile_at.append(origin + Vector2(8 * column, 8 * row))
			tile_size.append(Vector2(8, 8))
	var tiles := hash_node.insert_batch(tile_at, tile_size, 1, ALL, true)
	var body_at := PackedVector2Array()
	var body_size := PackedVector2Array()
	for offset in [Vector2(3, 3), Vector2(5, 5), Vector2(20, 12), Vector2(38, 38), Vector2(50, 50), Vector2(16, 0)]:
		body_at.append(origin + offset)
		body_size.append(Vector2(4, 4))
	var body_flags := [false, true, false, false, true, false]
	var bodies := hash_node.insert_batch(body_at, body_size, 1, ALL, body_flags)
	_check(tiles.size() == 25 and bodies.size() == 6, "insert_batch as_static: %s" % hash_node.get_last_error())
	var level := tiles + bodies
	var statics := []
	for k in 25:
		statics.append(true)
	statics += body_flags
	_check_level_pairs(level, tile_at + body_at, tile_size + body_size, statics, "static tiles")
	var thawed := [false, false, true, false, false]      # the first row but its middle tile
	_check(hash_node.set_static_batch(tiles.slice(0, 5), thawed), "set_static_batch: %s" % hash_node.get_last_error())
	for k in 5:
		statics[k] = thawed[k]
	_check_level_pairs(level, tile_at + body_at, tile_size + body_size, statics, "some tiles no longer static")
	for k in body_at.size():
		body_at[k] += Vector2(7, 3)
	_check(hash_node.update_batch(bodies, body_at, body_size), "update_batch of the bodies")
	_check_level_pairs(level, tile_at + body_at, tile_size + body_size, statics, "the bodies moved")
	_check(hash_node.set_static_batch(level, false), "set_static_batch(false) for all")
	for k in statics.size():
		statics[k] = false
	_check_level_pairs(level, tile_at + body_at, tile_size + body_size, statics, "nothing static")
	_check(hash_node.remove_batch(level), "the level removed")


# The pairs among the batch ids `level` (boxes at `at` of `size`) against the
# brute force: touching boxes, unless both are static.
func _check_level_pairs(level: PackedInt32Array, at: PackedVector2Array, size: PackedVector2Array, statics: Array, what: String) -> void:
	var index := {}
	for k in level.size():
		index[level[k]] = k
	var got := {}
	var flat := hash_node.get_collision_pairs_packed()
	for k in range(0, flat.size(), 2):
		if index.has(flat[k]) and index.has(flat[k + 1]):
			got[Vector2i(mini(index[flat[k]], index[flat[k + 1]]), maxi(index[flat[k]], index[flat[k + 1]]))] = true
	var expected := {}
	for i in level.size():
		for j in range(i + 1, level.size()):
			var touching := at[i].x <= at[j].x + size[j].x and at[j].x <= at[i].x + size[i].x \
				and at[i].y <= at[j].y + size[j].y and at[j].y <= at[i].y + size[i].y
			if touching and not (statics[i] and statics[j]):
				expected[Vector2i(i, j)] = true
	_check(got == expected and expected.size() > 0, "%s: %d pairs, brute force %d" % [what, got.size(), expected.size()])


func _freed_refused(method: String, result: bool) -> void:
	_check(not result, "%s refuses a freed node" % method)
	_check(hash_node.get_last_error().contains("freed"), "%s names it: %s" % [method, hash_node.get_last_error()])


func _on_collision(a: Variant, b: Variant, kind: String) -> void:
	# Named as they arrive: a node whose pairs end as it is freed is still whole here.
	if typeof(a) == TYPE_OBJECT and typeof(b) == TYPE_OBJECT:
		var names := [str(a.name), str(b.name)]
		names.sort()
		events.append([kind] + names)


# Values GDScript lets through but the node refuses: each call returns false,
# -1 or empty, names the argument in get_last_error(), and changes nothing.
func _probe_bad_values() -> void:
	var x := _child("X", AWAY)
	hash_node.insert(x, AWAY, Vector2(2, 2))
	var outside := Node2D.new()
	var resource := Resource.new()
	var d := {"x": 1, "y": 2}
	var array_with_freed := [Vector2(1, 1), Node.new()]
	array_with_freed[1].free()
	var one := PackedVector2Array([Vector2(1, 1)])
	var before := _state()
	var cases := [
		["insert(NaN)", func(): return hash_node.insert(x, Vector2(NAN, 0), Vector2(1, 1)), "pos.x"],
		["insert(INF)", func(): return hash_node.insert(x, Vector2(0, INF), Vector2(1, 1)), "pos.y"],
		["insert(-size)", func(): return hash_node.insert(x, Vector2(0, 0), Vector2(-1, 1)), "size.x"],
		["insert(String)", func(): return hash_node.insert("no", Vector2(0, 0), Vector2(1, 1)), "obj must be"],
		["insert(null)", func(): return hash_node.insert(null, Vector2(0, 0), Vector2(1, 1)), "obj must be"],
		["insert(Resource)", func(): return hash_node.insert(resource, Vector2(0, 0), Vector2(1, 1)), "obj must be"],
		["insert(Vector2)", func(): return hash_node.insert(Vector2(1, 1), Vector2(0, 0), Vector2(1, 1)), "obj must be"],
		["insert(outside)", func(): return hash_node.insert(outside, Vector2(0, 0), Vector2(1, 1)), "not inside the scene tree"],
		["insert_circle(-r)", func(): return hash_node.insert_circle(x, Vector2(0, 0), -1.0), "radius"],
		["insert_circle(NaN r)", func(): return hash_node.insert_circle(x, Vector2(0, 0), NAN), "radius"],
		["insert_circle(INF)", func(): return hash_node.insert_circle(x, Vector2(INF, 0), 1.0), "center.x"],
		["update(absent)", func(): return hash_node.update(12345, Rect2(0, 0, 1, 1)), "not in this spatial hash"],
		["update(-size)", func(): return hash_node.update(x, Rect2(0, 0, -1, 1)), "bounds.size.x"],
		["update(NaN)", func(): return hash_node.update(x, Rect2(NAN, 0, 1, 1)), "bounds.position.x"],
		["has(String)", func(): return hash_node.has("x"), "obj must be"],
		["get_id(null)", func(): return hash_node.get_id(null) != -1, "obj must be"],
		["set_filter(-1)", func(): return hash_node.set_filter(x, -1, 1), "layer must be"],
		["set_filter(2**32)", func(): return hash_node.set_filter(x, 1, 1 << 32), "4294967296"],
		["set_filter(absent)", func(): return hash_node.set_filter(54321, 1, 1), "not in this spatial hash"],
		["query_nearby(NaN)", func(): return hash_node.query_nearby(Vector2(NAN, 0), Vector2(1, 1)), "pos.x"],
		["query_nearby(-size)", func(): return hash_node.query_nearby(Vector2(0, 0), Vector2(1, -1)), "size.y"],
		["query_nearby(mask)", func(): return hash_node.query_nearby(Vector2(0, 0), Vector2(1, 1), -1), "mask"],
		["query_range(-size)", func(): return hash_node.query_range(Rect2(0, 0, -1, 1)), "rect.size.x"],
		["query_range_batch(Dictionary)", func(): return hash_node.query_range_batch(d, d), "positions"],
		["query_range_batch(NaN)", func(): return hash_node.query_range_batch(PackedVector2Array([Vector2(NAN, 0)]), PackedVector2Array([Vector2(1, 1)])), "positions[0].x"],
		["query_range_batch(-size)", func(): return hash_node.query_range_batch(PackedVector2Array([Vector2(0, 0)]), PackedVector2Array([Vector2(-1, 1)])), "sizes[0].x"],
		["query_range_batch(lengths)", func(): return hash_node.query_range_batch(PackedVector2Array([Vector2(1, 1)]), PackedVector2Array()), "1 positions but 0 sizes"],
		["query_range_batch(mask)", func(): return hash_node.query_range_batch(PackedVector2Array([Vector2(1, 1)]), PackedVector2Array([Vector2(1, 1)]), false, -1), "mask"],
		["query_range_batch(Array with a freed object)", func(): return hash_node.query_range_batch(array_with_freed, [Vector2(1, 1), Vector2(1, 1)]), "positions"],
		["query_radius(NaN)", func(): return hash_node.query_radius(Vector2(0, 0), NAN), "radius"],
		["query_radius(-r)", func(): return hash_node.query_radius(Vector2(0, 0), -2.0), "radius"],
		["query_point(INF)", func(): return hash_node.query_point(Vector2(0, INF)), "point.y"],
		["query_nearest(k)", func(): return hash_node.query_nearest(Vector2(0, 0), -1), "k must be"],
		["query_nearest(NaN)", func(): return hash_node.query_nearest(Vector2(0, 0), 1, NAN), "max_distance"],
		["query_along_path(NaN)", func(): return hash_node.query_along_path(Vector2(NAN, 0), Vector2(1, 1), Vector2(1, 1)), "start.x"],
		["raycast(INF)", func(): return hash_node.raycast(Vector2(0, 0), Vector2(INF, 0)), "end.x"],
		["raycast_all(mask)", func(): return hash_node.raycast_all(Vector2(0, 0), Vector2(1, 0), 1 << 33), "mask"],
		["is_colliding(absent)", func(): return hash_node.is_colliding(777, x), "a 777"],
		["is_colliding(String)", func(): return hash_node.is_colliding(x, "x"), "b must be"],
		["insert_batch(Dictionary)", func(): return hash_node.insert_batch(d, d), "positions"],
		["insert_batch(null)", func(): return hash_node.insert_batch(null, null), "positions"],
		["insert_batch(Array with a String)", func(): return hash_node.insert_batch([Vector2(1, 1), "x"], [Vector2(1, 1), Vector2(1, 1)]), "positions"],
		["insert_batch(Array with a freed object)", func(): return hash_node.insert_batch(array_with_freed, [Vector2(1, 1), Vector2(1, 1)]), "positions"],
		["insert_batch(NaN)", func(): return hash_node.insert_batch(PackedVector2Array([Vector2(NAN, 1)]), PackedVector2Array([Vector2(1, 1)])), "positions[0].x"],
		["insert_batch(lengths)", func(): return hash_node.insert_batch(PackedVector2Array([Vector2(1, 1)]), PackedVector2Array()), "1 positions but 0 sizes"],
		["insert_batch(layers)", func(): return hash_node.insert_batch(PackedVector2Array([Vector2(1, 1)]), PackedVector2Array([Vector2(1, 1)]), -1), "layers"],
		["insert_batch(layers Array)", func(): return hash_node.insert_batch(PackedVector2Array([Vector2(1, 1)]), PackedVector2Array([Vector2(1, 1)]), [1.5]), "layers"],
		["update_batch(ids)", func(): return hash_node.update_batch(PackedInt32Array([99999]), PackedVector2Array([Vector2(1, 1)]), PackedVector2Array([Vector2(1, 1)])), "99999"],
		["update_batch(Dictionary)", func(): return hash_node.update_batch(ids, d, sizes), "positions"],
		["update_batch(-size)", func(): return hash_node.update_batch(ids.slice(0, 1), PackedVector2Array([Vector2(1, 1)]), PackedVector2Array([Vector2(-1, 1)])), "sizes[0].x"],
		["remove_batch(Dictionary)", func(): return hash_node.remove_batch({0: 1}), "ids"],
		["remove_batch(-5)", func(): return hash_node.remove_batch([ids[0], -5]), "-5"],
		["remove_batch(twice)", func(): return hash_node.remove_batch([ids[0], ids[0]]), "repeats"],
		["set_filter_batch(layers)", func(): return hash_node.set_filter_batch(ids.slice(0, 2), PackedInt32Array([1, -1]), 1), "layers"],
		["insert(as_static String)", func(): return hash_node.insert(x, AWAY, Vector2(9, 9), "yes"), 'as_static must be true or false, got "yes"'],
		["insert(as_static int)", func(): return hash_node.insert(x, AWAY, Vector2(9, 9), 1), "as_static must be true or false, got 1"],
		["insert(new, as_static)", func(): return hash_node.insert(outside, AWAY, Vector2(9, 9), []), "as_static must be true or false, got []"],
		["insert_circle(as_static null)", func(): return hash_node.insert_circle(x, AWAY, 1.0, null), "as_static must be true or false, got null"],
		["set_static(String)", func(): return hash_node.set_static(x, "yes"), 'enabled must be true or false, got "yes"'],
		["set_static(absent)", func(): return hash_node.set_static(54321, true), "obj 54321 is not in this spatial hash"],
		["set_static(null)", func(): return hash_node.set_static(null, true), "obj must be"],
		["set_static(outside)", func(): return hash_node.set_static(outside, true), "is not in this spatial hash"],
		["is_static(absent)", func(): return hash_node.is_static(54321), "obj 54321 is not in this spatial hash"],
		["is_static(String)", func(): return hash_node.is_static("x"), "obj must be"],
		["insert_batch(as_static String)", func(): return hash_node.insert_batch(one, one, 1, ALL, "yes"), 'as_static must be true, false or an Array of them, got "yes"'],
		["insert_batch(as_static Array with a String)", func(): return hash_node.insert_batch(one, one, 1, ALL, [true, "x"]), 'an Array holding "x"'],
		["insert_batch(as_static lengths)", func(): return hash_node.insert_batch(one, one, 1, ALL, [true, false]), "as_static must be true, false or one for each of the 1 rows, got 2 values"],
		["set_static_batch(ids)", func(): return hash_node.set_static_batch(PackedInt32Array([99999]), true), "99999"],
		["set_static_batch(twice)", func(): return hash_node.set_static_batch([ids[0], ids[0]], true), "repeats"],
		["set_static_batch(String)", func(): return hash_node.set_static_batch(ids.slice(0, 2), "yes"), "enabled must be true, false or an Array of them"],
		["set_static_batch(lengths)", func(): return hash_node.set_static_batch(ids.slice(0, 2), [true]), "enabled must be true, false or one for each of the 2 ids, got 1 values"],
	]
	for case in cases:
		var result = case[1].call()
		_check(not result, "%s returned %s" % [case[0], result])
		_check(hash_node.get_last_error().begins_with("SpatialHash2D.") and hash_node.get_last_error().contains(case[2]),
			"%s names %s: %s" % [case[0], case[2], hash_node.get_last_error()])
	_check(_state() == before, "refused calls changed nothing")
	_check(not hash_node.is_static(x), "refused flags left x as it was")
	_check(d == {"x": 1, "y": 2}, "a refused Dictionary is unchanged: %s" % d)
	_check(hash_node.get_stats()["objects"] == N + 1, "bad input changed nothing")
	_check(hash_node.remove(x) and hash_node.get_last_error() == "", "a good call clears the last error")
	x.free()
	outside.free()


# Wrong argument counts and types are GDScript's own errors (a parse error with
# a typed reference): the engine reports them, the call returns null, the caller
# goes on, and nothing changes.
func _probe_wrong_calls() -> void:
	var before := _state()
	var untyped: Object = hash_node
	var calls := [
		["insert", []], ["insert", [1]], ["insert", [1, Vector2(), Vector2(), false, 4]], ["insert", [1, "no", Vector2()]],
		["insert_circle", [1, Vector2()]], ["insert_circle", [1, Vector2(), "r"]], ["update", [1]],
		["update", [1, Vector2(1, 1)]], ["remove", []], ["remove", [1, 2]], ["has", []], ["get_id", [1, 2]],
		["set_filter", [1, 2]], ["set_filter", [1, "a", 2]], ["query_nearby", [Vector2()]],
		["query_nearby", [Vector2(), Vector2(), 1, 2]], ["query_range", []], ["query_range_batch", []], ["query_range_batch", [PackedVector2Array()]], ["query_range", [Rect2(), "yes"]],
		["query_radius", [Vector2()]], ["query_radius", [Vector2(), Vector2()]], ["query_point", []],
		["query_point", [1.0]], ["query_nearest", []], ["query_nearest", [Vector2(), 1.5, 2.0, 1, 5]],
		["query_along_path", [Vector2(), Vector2()]], ["raycast", [Vector2()]], ["raycast", [Vector2(), null]],
		["raycast_all", []], ["get_collision_pairs", [1]], ["is_colliding", [1]], ["emit_collision_events", [1]],
		["clear", [1]], ["get_stats", [1]], ["get_last_error", [1]], ["insert_batch", [PackedVector2Array()]],
		["update_batch", [ids, positions]], ["remove_batch", []], ["set_filter_batch", [ids, 1]],
		["get_collision_pairs_packed", [1]], ["get_collision_events_packed", [1, 2]],
		["insert_circle", [1, Vector2(), 1.0, true, 2]], ["set_static", [1]], ["set_static", [1, true, 2]],
		["is_static", []], ["is_static", [1, 2]], ["set_static_batch", [ids]], ["set_static_batch", [ids, true, 1]],
		["insert_batch", [PackedVector2Array(), PackedVector2Array(), 1, 1, false, 2]],
	]
	for call in calls:
		var result = untyped.callv(call[0], call[1])
		_check(result == null, "%s%s returned %s" % [call[0], call[1], result])
	_check(_state() == before, "wrong calls changed nothing")


func _probe_properties() -> void:
	var keeper := _child("Keeper", AWAY)
	hash_node.insert(keeper, keeper.position, Vector2(2, 2))
	var id_before := hash_node.get_id(keeper)
	var pairs_before := hash_node.get_collision_pairs_packed()
	for bad in [-5.0, 0.0, NAN, INF, -INF]:
		hash_node.cell_size = bad
		_check(hash_node.cell_size == 16.0, "cell_size %s refused, kept 16" % bad)
		_check(hash_node.get_last_error().contains("cell_size") and hash_node.get_last_error().contains("stays 16"),
			"cell_size %s named: %s" % [bad, hash_node.get_last_error()])
	for bad in [0, 65, 100, -1]:
		hash_node.large_object_threshold = bad
		_check(hash_node.large_object_threshold == 4 and hash_node.get_last_error().contains("large_object_threshold"),
			"large_object_threshold %s refused: %s" % [bad, hash_node.get_last_error()])
	hash_node.cell_size = 1e-6        # positive, but the objects fall beyond the cells' reach
	_check(hash_node.cell_size == 16.0 and hash_node.get_last_error().contains("stays 16"),
		"a cell size too small for the objects is refused: " + hash_node.get_last_error())
	for bad in ["no", null, Vector2(1, 1)]:
		hash_node.set("cell_size", bad)        # GDScript's own type check: the value stays
		_check(hash_node.cell_size == 16.0, "cell_size = %s: %s" % [bad, hash_node.cell_size])
	hash_node.get_stats()
	_check(hash_node.get_last_error() == "", "a refusal is reported once")
	hash_node.hierarchical = true
	_check(hash_node.get_stats()["index"] == "hierarchical", "hierarchical at run time")
	hash_node.cell_size = 17.0
	hash_node.large_object_threshold = 8
	hash_node.hierarchical = false
	_check(hash_node.get_stats()["index"] == "uniform" and hash_node.cell_size == 17.0
		and hash_node.large_object_threshold == 8 and hash_node.get_last_error() == "", "back to uniform")
	_check(hash_node.get_collision_pairs_packed().size() == pairs_before.size(), "the rebuilt index keeps every pair")
	_check(hash_node.get_id(keeper) == id_before, "an inserted node keeps its id")
	_check(hash_node.remove(keeper), "and is still there to remove")
	keeper.free()
	hash_node.cell_size = 16.0
	hash_node.large_object_threshold = 4
	hash_node.debug_draw = true
	hash_node.debug_draw = false
	var empty := SpatialHash2D.new()         # a hierarchical grid with no object has no level
	add_child(empty)
	empty.hierarchical = true
	var levels: Dictionary = empty.get_stats().get("levels", {})
	_check(empty.get_last_error() == "" and levels.get("objects", [-1]).is_empty(),
		"an empty hierarchical node's stats: %s %s" % [levels, empty.get_last_error()])
	empty.free()


func _state() -> Array:
	var stats := hash_node.get_stats()
	return [stats["objects"], stats["large_objects"], hash_node.get_collision_pairs_packed(),
		hash_node.query_range(Rect2(AWAY - Vector2(50, 50), Vector2(100, 100)))]


func _same(found: Array, expected: Array) -> bool:
	return found.size() == expected.size() and expected.all(func(o): return found.has(o))


func _object_pairs() -> Array:
	# The pairs of objects added with insert(): batch objects come back as ids.
	var found := []
	for pair in hash_node.get_collision_pairs():
		if typeof(pair[0]) == TYPE_OBJECT or typeof(pair[1]) == TYPE_OBJECT:
			found.append(pair)
	return found


func _child(child_name: String, at: Vector2) -> Node2D:
	var node := Node2D.new()
	node.name = child_name
	node.position = at
	add_child(node)
	return node


func _check(ok: bool, what: String) -> void:
	checks += 1
	if not ok:
		failures += 1
		printerr("SMOKE check failed: ", what)
