extends Spatial
# Headless check of the SpatialHash3D node in a real engine:
#   godot3-server --path demo_project/godot3 res://smoke_3d.tscn
# The Godot 3 port of ../godot4/smoke_3d.gd: every method with good input
# (answers compared with a GDScript brute force over the batch boxes), bad
# values, wrong argument counts and types, freed nodes, and static objects;
# then FRAMES frames of moving boxes through the batch methods against the
# brute force. Prints "SMOKE3D OK" and quits with 0 only if every check passed
# (1 otherwise, 2 if the scene stalled).

const FRAMES = 40
const N = 250
const WORLD = Vector3(60, 40, 50)
const ALL = 4294967295                 # every collision layer
const AWAY = Vector3(-500, -500, -500)

onready var hash_node = $Hash

var positions = PoolVector3Array()
var velocities = PoolVector3Array()
var sizes = PoolVector3Array()
var ids = PoolIntArray()
var frame = 0
var failures = 0
var checks = 0
var events = []


func _ready():
	seed(11)
	positions.resize(N)
	velocities.resize(N)
	sizes.resize(N)
	for i in N:
		positions[i] = Vector3(randf() * WORLD.x, randf() * WORLD.y, randf() * WORLD.z)
		velocities[i] = Vector3(rand_range(-8, 8), rand_range(-8, 8), rand_range(-8, 8))
		sizes[i] = Vector3(rand_range(0.5, 5), rand_range(0.5, 5), rand_range(0.5, 5))
	ids = hash_node.insert_batch(positions, sizes)
	_check(ids.size() == N, "insert_batch returned %d ids" % ids.size())
	_probe_queries_against_brute_force()
	_probe_objects()
	_probe_freed_nodes()
	_probe_layers_and_events()
	_probe_static()
	_probe_bad_values()
	_probe_wrong_calls()
	_probe_properties()
	_check(hash_node.get_stats()["objects"] == N, "the probes left the batch objects alone")


func _process(delta):
	frame += 1
	if frame > FRAMES + 30:
		printerr("SMOKE3D stalled at frame %d" % frame)
		get_tree().quit(2)
		return
	for i in N:
		var p = positions[i] + velocities[i] * delta
		positions[i] = Vector3(fposmod(p.x, WORLD.x), fposmod(p.y, WORLD.y), fposmod(p.z, WORLD.z))
	if frame == FRAMES / 2:
		hash_node.hierarchical = true
		hash_node.debug_draw = true
		hash_node.overlay = true
	_check(hash_node.update_batch(ids, positions, sizes), "update_batch")
	var pairs = hash_node.get_collision_pairs_packed()
	var expected = {}
	for i in N:
		for j in range(i + 1, N):
			if _boxes_meet(positions[i], sizes[i], positions[j], sizes[j]):
				expected[Vector2(i, j)] = true
	var got = {}
	for k in range(0, pairs.size(), 2):
		got[Vector2(min(pairs[k], pairs[k + 1]), max(pairs[k], pairs[k + 1]))] = true
	_check(got.size() * 2 == pairs.size(), "frame %d: a pair reported twice" % frame)
	var same = got.size() == expected.size()
	for key in expected:
		same = same and got.has(key)
	_check(same, "frame %d: %d pairs, brute force %d" % [frame, got.size(), expected.size()])
	if frame == FRAMES:
		print("SMOKE3D stats: ", hash_node.get_stats())
		print("SMOKE3D %d checks, %d failed" % [checks, failures])
		if failures == 0:
			print("SMOKE3D OK")
		get_tree().quit(1 if failures else 0)


func _boxes_meet(p, s, q, t):
	return p.x <= q.x + t.x and q.x <= p.x + s.x and p.y <= q.y + t.y and q.y <= p.y + s.y \
		and p.z <= q.z + t.z and q.z <= p.z + s.z


func _distance_to_box(point, p, s):
	var nearest = Vector3(clamp(point.x, p.x, p.x + s.x), clamp(point.y, p.y, p.y + s.y), clamp(point.z, p.z, p.z + s.z))
	return point.distance_to(nearest)


func _sorted(values):
	var copy = values.duplicate()
	copy.sort()
	return copy


func _holds(found, expected):
	for o in expected:
		if not found.has(o):
			return false
	return true


func _probe_queries_against_brute_force():
	for trial in 20:
		var corner = Vector3(randf() * WORLD.x, randf() * WORLD.y, randf() * WORLD.z) - Vector3(5, 5, 5)
		var extent = Vector3(randf() * 12, randf() * 12, randf() * 12)
		var inside = []
		var near = []
		var at_point = []
		var centre = corner + extent / 2
		var radius = randf() * 8
		var distances = []
		for i in N:
			if _boxes_meet(corner, extent, positions[i], sizes[i]):
				inside.append(ids[i])
			distances.append(_distance_to_box(centre, positions[i], sizes[i]))
			if distances[i] <= radius:
				near.append(ids[i])
			if _boxes_meet(centre, Vector3(), positions[i], sizes[i]):
				at_point.append(ids[i])
		_check(_sorted(hash_node.query_range(AABB(corner, extent), true)) == _sorted(inside), "query_range exact, trial %d" % trial)
		_check(_holds(hash_node.query_range(AABB(corner, extent)), inside), "query_range (cells), trial %d" % trial)
		_check(_holds(hash_node.query_nearby(corner, extent), inside), "query_nearby, trial %d" % trial)
		_check(_sorted(hash_node.query_radius(centre, radius)) == _sorted(near), "query_radius, trial %d" % trial)
		_check(_sorted(hash_node.query_point(centre)) == _sorted(at_point), "query_point, trial %d" % trial)
		var nearest = hash_node.query_nearest(centre, 3)
		var ordered = distances.duplicate()
		ordered.sort()
		var nearest_ok = nearest.size() == 3
		for k in range(nearest.size()):
			nearest_ok = nearest_ok and abs(distances[nearest[k]] - ordered[k]) < 1e-4
		_check(nearest_ok, "query_nearest, trial %d: %s" % [trial, nearest])
		var start = corner
		var end = corner + Vector3(30, 0, 10)
		var swept = []
		for k in 301:
			var at = start.linear_interpolate(end, k / 300.0)
			for i in N:
				if _boxes_meet(at, Vector3(1, 1, 1), positions[i], sizes[i]) and not swept.has(ids[i]):
					swept.append(ids[i])
		_check(_holds(hash_node.query_along_path(start, end, Vector3(1, 1, 1)), swept), "query_along_path, trial %d" % trial)
		var hits = hash_node.raycast_all(start, end)
		var first = hash_node.raycast(start, end)
		var ray_ok = hits.empty() == first.empty()
		var last = -1.0
		for hit in hits:
			var i = hit["collider"]
			ray_ok = ray_ok and hit["fraction"] >= last and _distance_to_box(hit["position"], positions[i], sizes[i]) < 1e-3
			ray_ok = ray_ok and hit["position"].is_equal_approx(start.linear_interpolate(end, hit["fraction"]))
			last = hit["fraction"]
		if not hits.empty():
			ray_ok = ray_ok and first["collider"] == hits[0]["collider"]
		_check(ray_ok, "raycast / raycast_all, trial %d" % trial)


func _probe_objects():
	var a = _child("A", AWAY)
	var b = _child("B", AWAY + Vector3(5, 5, 5))
	_check(hash_node.insert(a, a.translation, Vector3(10, 10, 10)), "insert(node)")
	_check(hash_node.insert_sphere(b, b.translation, 3.0), "insert_sphere(node)")
	_check(hash_node.has(a) and hash_node.get_id(a) >= 0 and hash_node.get_id(a) != hash_node.get_id(b), "has / get_id")
	_check(_same(hash_node.query_point(AWAY + Vector3(5, 5, 5)), [a, b]), "query_point finds both")
	_check(hash_node.query_nearby(AWAY + Vector3(1, 1, 1), Vector3(1, 1, 1)).has(a), "query_nearby")
	_check(hash_node.query_range(AABB(AWAY - Vector3(10, 10, 10), Vector3(5, 5, 5)), true) == [], "query_range exact")
	# query_range_batch: each window's objects as query_range's, in one call.
	var windows = PoolVector3Array([AWAY - Vector3(10, 10, 10), AWAY + Vector3(4, 4, 4), AWAY + Vector3(500, 500, 500)])
	var window_sizes = PoolVector3Array([Vector3(5, 5, 5), Vector3(2, 2, 2), Vector3(1, 1, 1)])
	var batch = hash_node.query_range_batch(windows, window_sizes, true)
	var answered = []
	for k in windows.size():
		var window_objects = []
		for j in range(batch["offsets"][k], batch["offsets"][k + 1]):
			window_objects.append(batch["objects"][j])
		answered.append(window_objects)
	_check(batch["offsets"].size() == 4 and _same(answered[1], [a, b])
		and answered == [[], hash_node.query_range(AABB(windows[1], window_sizes[1]), true), []],
		"query_range_batch: %s" % [batch])
	_check(_same(hash_node.query_range_batch([AWAY + Vector3(4, 4, 4)], [Vector3(2, 2, 2)])["objects"], [a, b]),
		"query_range_batch of Arrays")
	_check(hash_node.query_radius(AWAY + Vector3(5, 5, 5), 1.0).size() == 2, "query_radius")
	var from = AWAY + Vector3(12, 5, 5)
	_check(hash_node.query_nearest(from, 2) == [a, b], "query_nearest: nearest first")
	_check(hash_node.query_nearest(from, 5, 3.0) == [a], "query_nearest within max_distance")
	_check(hash_node.query_along_path(AWAY + Vector3(-50, 6, 6), AWAY + Vector3(150, 6, 6), Vector3(1, 1, 1)).size() == 2,
		"query_along_path")
	var hit = hash_node.raycast(AWAY + Vector3(-10, 5, 5), AWAY + Vector3(20, 5, 5))
	_check(hit["collider"] == a and hit["position"].is_equal_approx(AWAY + Vector3(0, 5, 5))
		and hit["normal"] == Vector3(-1, 0, 0) and abs(hit["fraction"] - 1.0 / 3.0) < 1e-6, "raycast: %s" % [hit])
	var hits = hash_node.raycast_all(AWAY + Vector3(-10, 5, 5), AWAY + Vector3(20, 5, 5))
	_check(hits.size() == 2 and hits[1]["collider"] == b and hits[1]["position"].is_equal_approx(AWAY + Vector3(2, 5, 5)),
		"raycast_all: %s" % [hits])
	_check(hash_node.raycast(AWAY - Vector3(10, 10, 10), AWAY - Vector3(5, 10, 10)).empty(), "raycast misses")
	_check(_object_pairs() == [[a, b]], "get_collision_pairs: %s" % [_object_pairs()])
	_check(hash_node.is_colliding(a, b) and hash_node.is_colliding(b, a), "is_colliding")
	_check(hash_node.update(a, AABB(AWAY - Vector3(30, 30, 30), Vector3(4, 4, 4))) and not hash_node.is_colliding(a, b), "update")
	_check(hash_node.query_point(AWAY - Vector3(28, 28, 28)) == [a], "update moved it")
	_check(hash_node.insert(7, AWAY, Vector3(1, 1, 1)) and hash_node.query_point(AWAY) == [7], "int objects come back as themselves")
	_check(hash_node.remove(7) and not hash_node.has(7), "remove(int)")
	_check(hash_node.remove_batch(PoolIntArray([hash_node.get_id(b)])) and not hash_node.has(b),
		"remove_batch takes the id of an object added with insert()")
	_check(hash_node.remove(a) and not hash_node.remove(a) and hash_node.get_last_error() == "", "remove(node), then absent")
	_check(not hash_node.insert(b, Vector3(0, 0, 1e12), Vector3(1, 1, 1)) and "too far" in hash_node.get_last_error()
		and not hash_node.has(b), "a box beyond the cells' reach is refused: " + hash_node.get_last_error())
	_check(hash_node.insert_sphere(b, AWAY, 0.7) and hash_node.query_radius(AWAY + Vector3(0, 0, 1), 0.3) == [b],
		"a held radius stays exact")
	_check(hash_node.remove(b), "and removed")
	var nodes = []
	for k in 4:
		nodes.append(_child("H%d" % k, AWAY + Vector3(100 + 10 * k, 0, 0)))
		hash_node.insert(nodes[k], nodes[k].translation, Vector3(4, 4, 4))
	hash_node.update(nodes[0], AABB(AWAY + Vector3(200, 0, 0), Vector3(4, 4, 4)))
	hash_node.remove(nodes[1])
	hash_node.insert_sphere(nodes[2], AWAY + Vector3(0, 0, 400), 2.5)
	_check(hash_node.query_point(AWAY + Vector3(202, 2, 2)) == [nodes[0]] and hash_node.query_point(AWAY + Vector3(0, 0, 402)) == [nodes[2]]
		and not hash_node.has(nodes[1]) and hash_node.query_point(AWAY + Vector3(132, 2, 2)) == [nodes[3]], "held calls")
	for node in nodes:
		hash_node.remove(node)
		node.free()
	a.free()
	b.free()


func _probe_freed_nodes():
	var kept = _child("Kept", AWAY)
	var doomed = _child("Doomed", AWAY)
	var ghost = _child("Ghost", AWAY)
	hash_node.insert(kept, kept.translation, Vector3(8, 8, 8))
	hash_node.insert(doomed, doomed.translation, Vector3(8, 8, 8))
	doomed.free()
	ghost.free()
	_check(hash_node.query_point(AWAY + Vector3(4, 4, 4)) == [kept], "a freed node is not handed back")
	_check(_object_pairs().size() == 0, "nor in the pair list")
	var objects = hash_node.get_stats()["objects"]
	for freed in [doomed, ghost]:
		_freed_refused("insert", hash_node.insert(freed, AWAY, Vector3(1, 1, 1)))
		_freed_refused("insert(as_static)", hash_node.insert(freed, AWAY, Vector3(1, 1, 1), true))
		_freed_refused("set_static", hash_node.set_static(freed, true))
		_freed_refused("is_static", hash_node.is_static(freed))
		_freed_refused("insert_sphere", hash_node.insert_sphere(freed, AWAY, 1.0))
		_freed_refused("update", hash_node.update(freed, AABB(AWAY, Vector3(1, 1, 1))))
		_freed_refused("remove", hash_node.remove(freed))
		_freed_refused("has", hash_node.has(freed))
		_freed_refused("get_id", hash_node.get_id(freed) != -1)
		_freed_refused("set_filter", hash_node.set_filter(freed, 1, 1))
		_freed_refused("is_colliding", hash_node.is_colliding(freed, kept))
		_freed_refused("is_colliding(b)", hash_node.is_colliding(kept, freed))
	_check(hash_node.get_stats()["objects"] == objects, "freed nodes changed nothing")
	var leaving = _child("Leaving", AWAY)
	hash_node.insert(leaving, leaving.translation, Vector3(8, 8, 8))
	remove_child(leaving)
	_check(hash_node.query_point(AWAY + Vector3(4, 4, 4)) == [kept], "a node that left the tree is dropped")
	_check(not hash_node.insert(leaving, AWAY, Vector3(1, 1, 1)) and "Leaving" in hash_node.get_last_error(),
		"a node outside the tree is refused, by name: " + hash_node.get_last_error())
	leaving.free()
	hash_node.remove(kept)
	kept.free()


func _probe_layers_and_events():
	hash_node.connect("collision_started", self, "_on_collision", ["started"])
	hash_node.connect("collision_ended", self, "_on_collision", ["ended"])
	var a = _child("LA", AWAY)
	var b = _child("LB", AWAY)
	var c = _child("LC", AWAY)
	for node in [a, b, c]:
		hash_node.insert(node, node.translation, Vector3(6, 6, 6))
	hash_node.emit_collision_events()
	_check(events.size() == 3 and ["started", "LA", "LB"] in events and ["started", "LA", "LC"] in events
		and ["started", "LB", "LC"] in events, "collision_started: %s" % [events])
	events.clear()
	_check(hash_node.emit_collision_events() == 0 and events == [], "each start once")
	_check(hash_node.set_filter(c, 2, 2) and hash_node.set_filter(b, 1, 1), "set_filter")
	hash_node.emit_collision_events()
	_check(events == [["ended", "LB", "LC"]], "a change of layers ends a pair: %s" % [events])
	_check(not hash_node.is_colliding(b, c) and hash_node.is_colliding(a, c), "is_colliding follows the layers")
	_check(hash_node.query_point(AWAY + Vector3(3, 3, 3), 2) == [c], "query_point with a mask")
	_check(hash_node.raycast(AWAY + Vector3(-10, 3, 3), AWAY + Vector3(10, 3, 3), 2)["collider"] == c, "raycast with a mask")
	events.clear()
	b.free()
	_check(events == [["ended", "LA", "LB"]], "a freed node's pairs end at once: %s" % [events])
	hash_node.remove(c)
	_check(events == [["ended", "LA", "LB"], ["ended", "LA", "LC"]], "remove ends its pairs: %s" % [events])
	c.free()
	var more = hash_node.insert_batch(PoolVector3Array([AWAY - Vector3(100, 100, 100), AWAY - Vector3(99, 99, 99)]),
		[Vector3(4, 4, 4), Vector3(4, 4, 4)], PoolIntArray([1, 2]), 1)
	var pair = [min(more[0], more[1]), max(more[0], more[1])]
	var packed = hash_node.get_collision_events_packed()
	_check(Array(packed["started"]) == pair, "the batch pair with layers started: %s" % [packed])
	_check(hash_node.set_filter_batch(more, [1, 2], [1, 2]), "set_filter_batch")
	packed = hash_node.get_collision_events_packed()
	_check(Array(packed["ended"]) == pair, "and ended on a change of masks: %s" % [packed])
	_check(hash_node.remove_batch(more) and hash_node.remove(a), "the probe's objects removed")
	a.free()
	hash_node.disconnect("collision_started", self, "_on_collision")
	hash_node.disconnect("collision_ended", self, "_on_collision")


# Two static objects never pair (a level's floor); a static object pairs with
# the others; the flag follows set_static, set_static_batch and an insert of an
# object already here, and a move keeps it. Pairs against a brute force.
func _probe_static():
	var a = _child("StaticA", AWAY)
	var b = _child("StaticB", AWAY)
	_check(hash_node.insert(a, AWAY, Vector3(10, 10, 10), true) and hash_node.insert_sphere(b, AWAY + Vector3(5, 5, 5), 3.0, true),
		"insert and insert_sphere as_static: %s" % hash_node.get_last_error())
	_check(hash_node.is_static(a) and hash_node.is_static(b), "is_static")
	_check(_object_pairs() == [] and not hash_node.is_colliding(a, b), "two static objects never pair: %s" % [_object_pairs()])
	_check(hash_node.set_static(b, false) and not hash_node.is_static(b), "set_static(false)")
	_check(_object_pairs().size() == 1 and hash_node.is_colliding(a, b), "then they pair: %s" % [_object_pairs()])
	_check(hash_node.set_static(b, true) and _object_pairs() == [], "set_static(true)")
	_check(hash_node.update(a, AABB(AWAY + Vector3(1, 1, 1), Vector3(10, 10, 10))) and hash_node.is_static(a), "a move keeps the flag")
	_check(hash_node.insert(a, AWAY, Vector3(10, 10, 10)) and not hash_node.is_static(a) and _object_pairs().size() == 1,
		"an insert of an object already here sets it (as_static = false)")
	_check(hash_node.remove(a) and hash_node.remove(b), "and removed")
	a.free()
	b.free()
	# A floor of 4x4 slabs (2 x 1 x 2) sharing edges, static in one batch; boxes
	# on it, two of them static (an Array of flags).
	var origin = AWAY + Vector3(0, 100, 0)
	var tile_at = PoolVector3Array()
	var tile_size = PoolVector3Array()
	for row in 4:
		for column in 4:
			tile_at.append(origin + Vector3(2 * column, 0, 2 * row))
			tile_size.append(Vector3(2, 1, 2))
	var tiles = hash_node.insert_batch(tile_at, tile_size, 1, ALL, true)
	var body_at = PoolVector3Array()
	var body_size = PoolVector3Array()
	for offset in [Vector3(0.5, 1, 0.5), Vector3(1, 1.5, 1), Vector3(3.5, 0.5, 3.5), Vector3(7.5, 1, 7.5), Vector3(20, 1, 20)]:
		body_at.append(origin + offset)
		body_size.append(Vector3(1, 1, 1))
	var body_flags = [false, true, false, true, false]
	var bodies = hash_node.insert_batch(body_at, body_size, 1, ALL, body_flags)
	_check(tiles.size() == 16 and bodies.size() == 5, "insert_batch as_static: %s" % hash_node.get_last_error())
	var level = tiles + bodies
	var statics = []
	for k in 16:
		statics.append(true)
	statics += body_flags
	_check_level_pairs(level, tile_at + body_at, tile_size + body_size, statics, "a static floor")
	var thawed = [false, true, false, false]      # the first row but its second slab
	var first_row = PoolIntArray([tiles[0], tiles[1], tiles[2], tiles[3]])
	_check(hash_node.set_static_batch(first_row, thawed), "set_static_batch: %s" % hash_node.get_last_error())
	for k in 4:
		statics[k] = thawed[k]
	_check_level_pairs(level, tile_at + body_at, tile_size + body_size, statics, "some slabs no longer static")
	for k in body_at.size():
		body_at[k] += Vector3(1.5, -0.5, 0.5)
	_check(hash_node.update_batch(bodies, body_at, body_size), "update_batch of the boxes")
	_check_level_pairs(level, tile_at + body_at, tile_size + body_size, statics, "the boxes moved")
	_check(hash_node.set_static_batch(level, false), "set_static_batch(false) for all")
	for k in statics.size():
		statics[k] = false
	_check_level_pairs(level, tile_at + body_at, tile_size + body_size, statics, "nothing static")
	_check(hash_node.remove_batch(level), "the floor removed")


# The pairs among the batch ids `level` (boxes at `at` of `size`) against the
# brute force: touching boxes, unless both are static.
func _check_level_pairs(level, at, size, statics, what):
	var index = {}
	for k in level.size():
		index[level[k]] = k
	var got = {}
	var flat = hash_node.get_collision_pairs_packed()
	for k in range(0, flat.size(), 2):
		if index.has(flat[k]) and index.has(flat[k + 1]):
			got[Vector2(min(index[flat[k]], index[flat[k + 1]]), max(index[flat[k]], index[flat[k + 1]]))] = true
	var expected = {}
	for i in level.size():
		for j in range(i + 1, level.size()):
			if _boxes_meet(at[i], size[i], at[j], size[j]) and not (statics[i] and statics[j]):
				expected[Vector2(i, j)] = true
	var same = got.size() == expected.size()
	for pair in expected:
		same = same and got.has(pair)
	_check(same and expected.size() > 0, "%s: %d pairs, brute force %d" % [what, got.size(), expected.size()])


func _freed_refused(method, result):
	_check(not result, "%s refuses a freed node" % method)
	_check("freed" in hash_node.get_last_error(), "%s names it: %s" % [method, hash_node.get_last_error()])


func _on_collision(a, b, kind):
	if typeof(a) == TYPE_OBJECT and typeof(b) == TYPE_OBJECT:
		var names = [str(a.name), str(b.name)]
		names.sort()
		events.append([kind] + names)


func _probe_bad_values():
	var x = _child("X", AWAY)
	hash_node.insert(x, AWAY, Vector3(2, 2, 2))
	var outside = Spatial.new()
	var d = {"x": 1, "y": 2}
	var one = Vector3(1, 1, 1)
	var before = _state()
	var cases = [
		["insert", [x, Vector3(0, 0, NAN), one], "pos.z"],
		["insert", [x, Vector3(), Vector3(1, 1, -1)], "size.z"],
		["insert", ["no", Vector3(), one], "obj must be"],
		["insert", [outside, Vector3(), one], "not inside the scene tree"],
		["insert_sphere", [x, Vector3(), -1.0], "radius"],
		["insert_sphere", [x, Vector3(0, 0, INF), 1.0], "center.z"],
		["update", [12345, AABB(Vector3(), one)], "not in this spatial hash"],
		["update", [x, AABB(Vector3(), Vector3(1, 1, -1))], "aabb.size.z"],
		["has", ["x"], "obj must be"],
		["set_filter", [x, -1, 1], "layer must be"],
		["query_nearby", [Vector3(0, 0, NAN), one], "pos.z"],
		["query_range", [AABB(Vector3(), Vector3(1, 1, -1))], "aabb.size.z"],
		["query_range_batch", [d, d], "positions"],
		["query_range_batch", [PoolVector3Array([Vector3(NAN, 0, 0)]), PoolVector3Array([Vector3(1, 1, 1)])], "positions[0].x"],
		["query_range_batch", [PoolVector3Array([Vector3(0, 0, 0)]), PoolVector3Array([Vector3(-1, 1, 1)])], "sizes[0].x"],
		["query_range_batch", [PoolVector3Array([Vector3(1, 1, 1)]), PoolVector3Array()], "1 positions but 0 sizes"],
		["query_range_batch", [PoolVector3Array([Vector3(1, 1, 1)]), PoolVector3Array([Vector3(1, 1, 1)]), false, -1], "mask"],
		["query_radius", [Vector3(), NAN], "radius"],
		["query_point", [Vector3(0, 0, INF)], "point.z"],
		["query_nearest", [Vector3(), -1], "k must be"],
		["query_along_path", [Vector3(), Vector3(0, 0, NAN), one], "end.z"],
		["raycast", [Vector3(), Vector3(0, 0, INF)], "end.z"],
		["raycast_all", [Vector3(), one, 8589934592], "mask"],
		["is_colliding", [777, x], "a 777"],
		["insert_batch", [d, d], "positions"],
		["insert_batch", [PoolVector2Array([Vector2(1, 1)]), PoolVector2Array([Vector2(1, 1)])], "PoolVector3Array"],
		["insert_batch", [[one, "x"], [one, one]], "positions"],
		["insert_batch", [PoolVector3Array([Vector3(1, 1, NAN)]), PoolVector3Array([one])], "positions[0].z"],
		["insert_batch", [PoolVector3Array([one]), PoolVector3Array()], "1 positions but 0 sizes"],
		["update_batch", [PoolIntArray([99999]), PoolVector3Array([one]), PoolVector3Array([one])], "99999"],
		["update_batch", [PoolIntArray([ids[0]]), PoolVector3Array([one]), PoolVector3Array([Vector3(1, 1, -1)])], "sizes[0].z"],
		["remove_batch", [[ids[0], ids[0]]], "repeats"],
		["set_filter_batch", [PoolIntArray([ids[0], ids[1]]), PoolIntArray([1, -1]), 1], "layers"],
		["insert", [x, AWAY, one, "yes"], 'as_static must be true or false, got "yes"'],
		["insert_sphere", [x, AWAY, 1.0, 0], "as_static must be true or false, got 0"],
		["set_static", [x, "no"], 'enabled must be true or false, got "no"'],
		["set_static", [54321, true], "obj 54321 is not in this spatial hash"],
		["is_static", [54321], "obj 54321 is not in this spatial hash"],
		["insert_batch", [PoolVector3Array([one]), PoolVector3Array([one]), 1, ALL, "yes"], 'as_static must be true, false or an Array of them, got "yes"'],
		["insert_batch", [PoolVector3Array([one]), PoolVector3Array([one]), 1, ALL, [true, false]], "one for each of the 1 rows, got 2 values"],
		["set_static_batch", [PoolIntArray([99999]), true], "99999"],
		["set_static_batch", [PoolIntArray([ids[0], ids[1]]), [true, 1]], "an Array holding 1"],
	]
	for case in cases:
		var result = hash_node.callv(case[0], case[1])
		_check(not result, "%s%s returned %s" % [case[0], case[1], result])
		_check(hash_node.get_last_error().begins_with("SpatialHash3D.") and case[2] in hash_node.get_last_error(),
			"%s names %s: %s" % [case[0], case[2], hash_node.get_last_error()])
	_check(_state() == before, "refused calls changed nothing")
	_check(not hash_node.is_static(x), "refused flags left x as it was")
	_check(d.size() == 2 and d["x"] == 1, "a refused Dictionary is unchanged: %s" % d)
	_check(hash_node.remove(x) and hash_node.get_last_error() == "", "a good call clears the last error")
	x.free()
	outside.free()


func _probe_wrong_calls():
	var before = _state()
	var calls = [
		["insert", []], ["insert", [1, Vector3(), Vector3(), false, 4]], ["insert_sphere", [1, Vector3()]],
		["update", [1]], ["remove", []], ["query_range_batch", []], ["query_range_batch", [PoolVector3Array()]], ["query_radius", [Vector3()]], ["query_along_path", [Vector3(), Vector3()]],
		["raycast", [Vector3()]], ["insert_batch", [PoolVector3Array()]], ["update_batch", [ids, positions]],
		["get_collision_pairs_packed", [1]], ["set_static", [1]], ["is_static", []], ["set_static_batch", [ids]],
		["insert_sphere", [1, Vector3(), 1.0, true, 2]],
	]
	for call in calls:
		var result = hash_node.callv(call[0], call[1])
		_check(result == null, "%s%s returned %s" % [call[0], call[1], result])
	_check(_state() == before, "wrong calls changed nothing")


func _probe_properties():
	var keeper = _child("Keeper", AWAY)
	hash_node.insert(keeper, keeper.translation, Vector3(2, 2, 2))
	var id_before = hash_node.get_id(keeper)
	var pairs_before = hash_node.get_collision_pairs_packed()
	for bad in [-5.0, 0.0, NAN, INF]:
		hash_node.cell_size = bad
		_check(hash_node.cell_size == 4.0 and "stays 4" in hash_node.get_last_error(),
			"cell_size %s refused: %s" % [bad, hash_node.get_last_error()])
	hash_node.large_object_threshold = 65
	_check(hash_node.large_object_threshold == 4 and "large_object_threshold" in hash_node.get_last_error(),
		"large_object_threshold refused")
	hash_node.hierarchical = true
	_check(hash_node.get_stats()["index"] == "hierarchical", "hierarchical at run time")
	hash_node.cell_size = 5.0
	hash_node.hierarchical = false
	_check(hash_node.get_stats()["index"] == "uniform" and hash_node.cell_size == 5.0 and hash_node.get_last_error() == "", "back to uniform")
	_check(hash_node.get_collision_pairs_packed().size() == pairs_before.size(), "the rebuilt index keeps every pair")
	_check(hash_node.get_id(keeper) == id_before and hash_node.remove(keeper), "an inserted node keeps its id")
	keeper.free()
	hash_node.cell_size = 4.0
	hash_node.debug_draw = true
	hash_node.debug_draw = false
	hash_node.clear()
	_check(hash_node.get_stats()["objects"] == 0, "clear")
	ids = hash_node.insert_batch(positions, sizes)
	_check(ids.size() == N and ids[0] == 0, "the batch again after clear")


func _state():
	var stats = hash_node.get_stats()
	return [stats["objects"], stats["large_objects"], Array(hash_node.get_collision_pairs_packed()),
		hash_node.query_range(AABB(AWAY - Vector3(50, 50, 50), Vector3(100, 100, 100)))]


func _same(found, expected):
	return found.size() == expected.size() and _holds(found, expected)


func _object_pairs():
	var found = []
	for pair in hash_node.get_collision_pairs():
		if typeof(pair[0]) == TYPE_OBJECT or typeof(pair[1]) == TYPE_OBJECT:
			found.append(pair)
	return found


func _child(child_name, at):
	var node = Spatial.new()
	node.name = child_name
	node.translation = at
	add_child(node)
	return node


func _check(ok, what):
	checks += 1
	if not ok:
		failures += 1
		printerr("SMOKE3D check failed: ", what)
