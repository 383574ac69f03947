extends Node2D
# Headless check of the addon in a real engine (the README's smoke command):
#   godot --headless --path demo_project/godot4 res://smoke.tscn
# Runs FRAMES frames of moving boxes through the batch methods and compares the
# pairs with a GDScript brute force every frame; probes every method with good
# input, wrong argument counts, every kind of bad value and freed nodes; prints
# "SMOKE OK" and quits with 0 only if every check passed (1 otherwise, and 2 if
# the scene stalled, for instance because the Python script did not load).

const FRAMES := 60
const N := 300
const WORLD := Vector2(400, 300)
const METHODS := {
	# method: [argument count (or fewest, most), the value it returns on bad input]
	"insert": [3, false], "insert_circle": [3, false], "update": [2, false],
	"remove": [1, false], "has": [1, false], "get_id": [1, -1], "set_filter": [3, false],
	"query_nearby": [2, 3, []], "query_range": [1, 3, []], "query_radius": [2, 3, []],
	"query_point": [1, 2, []], "query_nearest": [1, 4, []], "query_along_path": [3, 4, []],
	"raycast": [2, 3, {}], "raycast_all": [2, 3, []], "get_collision_pairs": [0, []],
	"is_colliding": [2, false], "emit_collision_events": [0, 0], "clear": [0, false],
	"get_stats": [0, {}], "insert_batch": [2, 4, []], "update_batch": [3, false],
	"remove_batch": [1, false], "set_filter_batch": [3, false],
	"get_collision_pairs_packed": [0, []], "get_collision_events_packed": [0, {}],
}

@onready var hash_node = $Hash

var positions := PackedVector2Array()
var velocities := PackedVector2Array()
var sizes := PackedVector2Array()
var ids := PackedInt32Array()
var frame := 0
var failures := 0
var checks := 0
var events := []       # [signal, a, b] of the collision signals between objects


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
	_probe_freed_nodes()
	_probe_layers_and_events()
	_probe_bad_input()
	_probe_properties()
	_check(hash_node.get_stats()["objects"] == N, "the probes left the batch objects alone")


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
	var a := _child("A", Vector2(-50, -50))
	var b := _child("B", Vector2(-45, -45))
	_check(hash_node.insert(a, a.position, Vector2(10, 10)), "insert(node)")
	_check(hash_node.insert_circle(b, b.position, 3.0), "insert_circle(node)")
	_check(hash_node.has(a) and hash_node.get_id(a) >= 0, "has / get_id")
	_check(hash_node.query_point(Vector2(-45, -45)) == [a, b], "query_point finds both")
	_check(hash_node.query_nearby(Vector2(-49, -49), Vector2(1, 1)).has(a), "query_nearby")
	_check(hash_node.query_range(Rect2(-60, -60, 5, 5), true) == [], "query_range exact")
	_check(hash_node.query_radius(Vector2(-45, -45), 1.0).size() == 2, "query_radius")
	# From (-38, -45): A's box is 2 away, B's circle 4 (7 to its centre, radius 3).
	_check(hash_node.query_nearest(Vector2(-38, -45), 2) == [a, b], "query_nearest: nearest first")
	_check(hash_node.query_nearest(Vector2(-38, -45), 5, 3.0) == [a], "query_nearest within max_distance")
	_check(hash_node.query_nearest(Vector2(-38, -45), -1) == [] and hash_node.get_last_error().contains("-1"),
		"query_nearest refuses k = -1: " + hash_node.get_last_error())
	_check(hash_node.query_nearest(Vector2(-38, -45), 1, NAN) == []
		and hash_node.get_last_error().contains("max_distance"), "and a NaN max_distance: " + hash_node.get_last_error())
	_check(hash_node.query_along_path(Vector2(-100, -44), Vector2(100, -44), Vector2(1, 1)).size() == 2,
		"query_along_path")
	# Along y = -45 from x = -60: A's box at x = -50 (a third of the way), B's circle at -48.
	var hit = hash_node.raycast(Vector2(-60, -45), Vector2(-30, -45))
	_check(hit["collider"] == a and (hit["position"] - Vector2(-50, -45)).length() < 1e-9
		and hit["normal"] == Vector2(-1, 0) and abs(hit["fraction"] - 1.0 / 3.0) < 1e-9, "raycast: %s" % [hit])
	var hits = hash_node.raycast_all(Vector2(-60, -45), Vector2(-30, -45))
	_check(hits.size() == 2 and hits[1]["collider"] == b and (hits[1]["position"] - Vector2(-48, -45)).length() < 1e-9
		and hits[1]["normal"] == Vector2(-1, 0), "raycast_all: %s" % [hits])
	hit = hash_node.raycast(Vector2(-60, -60), Vector2(-55, -60))
	_check(hit.is_empty(), "raycast misses: %s" % [hit])
	hit = hash_node.raycast(Vector2(NAN, 0), Vector2(1, 1))
	_check(hit.is_empty() and hash_node.get_last_error().contains("start.x"), "raycast refuses NaN: " + hash_node.get_last_error())
	_check(_object_pairs() == [[a, b]], "get_collision_pairs: %s" % [_object_pairs()])
	_check(hash_node.is_colliding(a, b), "is_colliding")
	_check(hash_node.update(a, Rect2(-80, -80, 4, 4)) and not hash_node.is_colliding(a, b), "update")
	_check(not hash_node.insert(a, Vector2(NAN, 0), Vector2(1, 1)), "NaN rejected")
	_check(hash_node.get_last_error().contains("pos.x") and hash_node.get_last_error().contains("nan"),
		"the error names pos.x and NaN: " + hash_node.get_last_error())
	_check(hash_node.query_point(Vector2(-78, -78)) == [a], "the NaN insert changed nothing")
	_check(hash_node.get_last_error() == "", "a good call clears the last error")
	_check(hash_node.remove_batch(PackedInt32Array([hash_node.get_id(b)])) and not hash_node.has(b),
		"remove_batch takes the id of an object added with insert()")
	_check(hash_node.remove(a) and not hash_node.remove(a), "remove(node), then absent")
	_check(hash_node.insert(7, Vector2(-50, -50), Vector2(1, 1)) and hash_node.remove(7), "int objects")
	a.free()
	b.free()


func _probe_freed_nodes() -> void:
	var doomed := _child("Doomed", Vector2(-200, -200))
	var kept := _child("Kept", Vector2(-200, -200))
	hash_node.insert(doomed, doomed.position, Vector2(8, 8))
	hash_node.insert(kept, kept.position, Vector2(8, 8))
	var doomed_id: int = hash_node.get_id(doomed)
	doomed.free()
	_check(hash_node.query_point(Vector2(-196, -196)) == [kept], "a freed node is not handed back")
	_check(_object_pairs().size() == 0, "nor in the pair list: %s" % [_object_pairs()])
	_check(not hash_node.remove_batch([doomed_id]), "its id is gone")
	var leaving := _child("Leaving", Vector2(-200, -200))
	hash_node.insert(leaving, leaving.position, Vector2(8, 8))
	remove_child(leaving)
	_check(hash_node.query_point(Vector2(-196, -196)) == [kept], "a node that left the tree is dropped")
	_check(not hash_node.insert(leaving, Vector2(0, 0), Vector2(1, 1)), "a node outside the tree is refused")
	_check(hash_node.get_last_error().contains("Leaving"), "named: " + hash_node.get_last_error())
	leaving.free()
	kept.queue_free()
	hash_node.remove(kept)


func _probe_layers_and_events() -> void:
	var typed: Node = hash_node      # engine methods through a typed reference (see the README)
	# godot-python-extension's list of a script's signals is a placeholder (see the
	# README): its get_signal_list() leaves them out, though they work.
	var lists_signals: bool = not typed.get_script().resource_path.contains("/godot4/")
	for name in ["collision_started", "collision_ended"]:
		_check(typed.has_signal(name), "has_signal(\"%s\")" % name)
		var listed := typed.get_signal_list().filter(func(s): return s["name"] == name)
		if lists_signals:
			_check(listed.size() == 1 and listed[0]["args"].size() == 2,
				"get_signal_list() lists %s(a, b): %s" % [name, listed])
		else:
			_check(listed.is_empty(), "godot-python-extension's get_signal_list() still leaves out " + name)
	typed.connect("collision_started", Callable(self, "_on_collision").bind("started"))
	typed.connect("collision_ended", Callable(self, "_on_collision").bind("ended"))
	var a := _child("LA", Vector2(-300, -300))
	var b := _child("LB", Vector2(-300, -300))
	var c := _child("LC", Vector2(-300, -300))
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
	_check(hash_node.query_point(Vector2(-297, -297), 2) == [c], "query_point with a mask")
	var hit = hash_node.raycast(Vector2(-310, -297), Vector2(-290, -297), 2)
	_check(hit["collider"] == c, "raycast with a mask: %s" % [hit])
	var nearest: Array = hash_node.query_nearest(Vector2(-310, -297), 3, 50.0, 1)
	_check(nearest.size() == 2 and nearest.has(a) and nearest.has(b), "query_nearest with a mask: %s" % [nearest])
	_check(not hash_node.set_filter(c, -1, 1) and hash_node.get_last_error().contains("layer must be"),
		"a negative layer is refused: " + hash_node.get_last_error())
	_check(not hash_node.query_point(Vector2(-297, -297), 1 << 32) and hash_node.get_last_error().contains("4294967296"),
		"a mask over 32 bits is refused: " + hash_node.get_last_error())
	events.clear()
	b.free()                 # its pairs end as it leaves, while it still exists
	_check(events == [["ended", "LA", "LB"]], "a freed node's pairs end at once, named as it goes: %s" % [events])
	hash_node.remove(c)
	_check(events == [["ended", "LA", "LB"], ["ended", "LA", "LC"]], "remove ends its pairs: %s" % [events])
	c.free()
	events.clear()
	hash_node.emit_collision_events()
	_check(events == [], "nothing more: %s" % [events])
	var packed: Dictionary = hash_node.get_collision_events_packed()
	_check(packed["started"] is PackedInt32Array and packed["ended"].size() % 2 == 0,
		"get_collision_events_packed: %s" % [packed.keys()])
	var more: PackedInt32Array = hash_node.insert_batch(PackedVector2Array([Vector2(-400, -400), Vector2(-399, -399)]),
		PackedVector2Array([Vector2(4, 4), Vector2(4, 4)]), PackedInt32Array([1, 2]), 1)
	var pair := [more[0], more[1]] if more[0] < more[1] else [more[1], more[0]]
	packed = hash_node.get_collision_events_packed()
	_check(Array(packed["started"]) == pair, "the batch pair with layers started: %s" % [packed])
	_check(hash_node.set_filter_batch(more, PackedInt32Array([1, 2]), PackedInt32Array([1, 2])), "set_filter_batch")
	packed = hash_node.get_collision_events_packed()
	_check(Array(packed["ended"]) == pair, "and ended on a change of masks: %s" % [packed])
	_check(hash_node.remove_batch(more) and hash_node.remove(a), "the probe's objects removed")
	a.free()
	typed.disconnect("collision_started", Callable(self, "_on_collision").bind("started"))
	typed.disconnect("collision_ended", Callable(self, "_on_collision").bind("ended"))


func _on_collision(a: Variant, b: Variant, kind: String) -> void:
	# Named as they arrive: a node whose pairs end as it is freed is still whole here.
	if typeof(a) == TYPE_OBJECT and typeof(b) == TYPE_OBJECT:
		var names := [str(a.name), str(b.name)]
		names.sort()
		events.append([kind] + names)


func _probe_bad_input() -> void:
	var d := {"x": 1, "y": 2}
	var bad_values := [null, "no", d, [1, "a"], PackedInt32Array([-1, 99999]), PackedVector2Array([Vector2(NAN, 1)]),
		NAN, INF, -1e300, Vector2(INF, 0), Rect2(0, 0, -1, 1), self, true, Color(1, 0, 0)]
	for method in METHODS:
		var fewest: int = METHODS[method][0]
		var count: int = METHODS[method][-2]
		var empty = METHODS[method][-1]
		for extra in [count + 1, count + 2, fewest - 1]:
			if extra < 0:
				continue
			var args := []
			for k in extra:
				args.append(Vector2(1, 1))
			var result = hash_node.callv(method, args)
			_check(_is_empty(result, empty), "%s with %d arguments returned %s" % [method, extra, result])
			_check(hash_node.get_last_error().contains("takes"), "%s: %s" % [method, hash_node.get_last_error()])
		for value in bad_values:
			if count == 0:
				break
			var args := []
			for k in count:
				args.append(value)
			hash_node.callv(method, args)
	_check(d.size() == 2 and d["x"] == 1, "a rejected Dictionary is unchanged: %s" % d)
	_check(hash_node.query_range(Rect2(0, 0, 5, 5), "no") == [], "exact must be a bool")
	_check(hash_node.get_last_error().contains("exact"), hash_node.get_last_error())
	_check(not hash_node.insert_batch(null, null), "insert_batch(null, null)")
	_check(hash_node.get_last_error().contains("positions"), hash_node.get_last_error())
	_check(not hash_node.update_batch(ids, {"a": 1}, sizes), "a Dictionary as positions")
	_check(not hash_node.remove_batch({0: 1}), "a Dictionary as ids")
	var method_name := "set_position"       # call()/callv() with a String: the engine's methods too
	hash_node.call(method_name, Vector2(3, 4))
	_check(hash_node.position == Vector2(3, 4), "call(String) reaches the engine's methods")
	hash_node.callv(method_name, [Vector2.ZERO])
	_check(hash_node.position == Vector2.ZERO, "callv(String) too")
	method_name = "get_id"
	_check(hash_node.callv(method_name, [123456]) == -1, "callv(String) of the node's own method")
	_check(hash_node.get_stats()["objects"] == N, "bad input changed nothing")


func _probe_properties() -> void:
	var size: float = hash_node.cell_size
	hash_node.cell_size = -5
	_check(hash_node.cell_size == size, "a rejected cell_size keeps %s" % size)
	_check(hash_node.get_last_error().contains("cell_size"), hash_node.get_last_error())
	hash_node.get_stats()
	_check(hash_node.get_last_error() == "", "reported once")
	var keeper = _child("Keeper", Vector2(-80, -80))
	hash_node.insert(keeper, keeper.position, Vector2(2, 2))
	var id_before = hash_node.get_id(keeper)
	var pairs_before = hash_node.get_collision_pairs_packed()
	hash_node.hierarchical = true
	_check(hash_node.get_stats()["index"] == "hierarchical", "hierarchical at run time")
	hash_node.cell_size = 17.0
	hash_node.hierarchical = false
	_check(hash_node.get_stats()["index"] == "uniform" and hash_node.cell_size == 17.0, "back to uniform")
	_check(hash_node.get_collision_pairs_packed().size() == pairs_before.size(), "the rebuilt index keeps every pair")
	_check(hash_node.get_id(keeper) == id_before, "an inserted node keeps its id")
	_check(hash_node.remove(keeper), "and is still there to remove")
	keeper.free()
	hash_node.debug_draw = true
	hash_node.debug_draw = false


func _object_pairs() -> Array:
	# The pairs of objects added with insert(): batch objects come back as ids.
	var found := []
	for pair in hash_node.get_collision_pairs():
		if typeof(pair[0]) == TYPE_OBJECT or typeof(pair[1]) == TYPE_OBJECT:
			found.append(pair)
	return found


func _is_empty(result: Variant, empty: Variant) -> bool:
	if typeof(empty) == TYPE_ARRAY:
		return typeof(result) in [TYPE_ARRAY, TYPE_PACKED_INT32_ARRAY] and result.size() == 0
	if typeof(empty) == TYPE_DICTIONARY:
		return typeof(result) == TYPE_DICTIONARY and result.is_empty()
	return typeof(result) == typeof(empty) and result == empty


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
