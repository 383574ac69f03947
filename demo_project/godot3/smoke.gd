extends Node2D
# Headless check of the addon in a real engine:
#   godot3-server --path demo_project/godot3 res://smoke.tscn
# Runs FRAMES frames of moving boxes through the batch methods, compares the
# pairs with a GDScript brute force every frame, exercises the per-object API
# and bad input, prints the stats and quits with 0 (all agreed) or 1.

const FRAMES := 60
const N := 300
const WORLD := Vector2(400, 300)

onready var hash_node = $Hash

var positions := PoolVector2Array()
var velocities := PoolVector2Array()
var sizes := PoolVector2Array()
var ids := PoolIntArray()
var frame = 0
var failures = 0


func _ready():
	seed(7)
	positions.resize(N)
	velocities.resize(N)
	sizes.resize(N)
	for i in N:
		positions[i] = Vector2(randf() * WORLD.x, randf() * WORLD.y)
		velocities[i] = Vector2(rand_range(-80, 80), rand_range(-80, 80))
		sizes[i] = Vector2(rand_range(1, 12), rand_range(1, 12))
	ids = hash_node.insert_batch(positions, sizes)
	_check(ids.size() == N, "insert_batch returned %d ids" % ids.size())
	# The per-object API and bad input (reported, never fatal).
	_check(hash_node.insert(self, Vector2(-50, -50), Vector2(10, 10)), "insert(node)")
	_check(hash_node.query_point(Vector2(-45, -45)) == [self], "query_point finds the node")
	_check(not hash_node.insert(self, Vector2(NAN, 0), Vector2(1, 1)), "NaN rejected")
	_check(hash_node.get_last_error().find("nan") >= 0, "error names NaN: " + hash_node.get_last_error())
	_check(hash_node.query_nearby(Vector2(-45, -45), Vector2(1, 1)) == [self], "NaN changed nothing")
	_check(hash_node.remove(self), "remove(node)")


func _process(delta):
	for i in N:
		var p = positions[i] + velocities[i] * delta
		positions[i] = Vector2(fposmod(p.x, WORLD.x), fposmod(p.y, WORLD.y))
	hash_node.update_batch(ids, positions, sizes)
	var pairs = hash_node.get_collision_pairs_packed()
	var expected = {}
	for i in N:
		var ax: float = positions[i].x
		var ay: float = positions[i].y
		var ax1: float = ax + sizes[i].x
		var ay1: float = ay + sizes[i].y
		for j in range(i + 1, N):
			var bx: float = positions[j].x
			var by: float = positions[j].y
			# Closed boxes, summed in double precision as the core does.
			if ax <= bx + sizes[j].x and bx <= ax1 and ay <= by + sizes[j].y and by <= ay1:
				expected[Vector2(i, j)] = true
	var got = {}
	for k in range(0, pairs.size(), 2):
		got[Vector2(min(pairs[k], pairs[k + 1]), max(pairs[k], pairs[k + 1]))] = true
	_check(got.size() * 2 == pairs.size(), "frame %d: a pair reported twice" % frame)
	_check(_same_keys(got, expected), "frame %d: %d pairs, brute force %d" % [frame, got.size(), expected.size()])
	frame += 1
	if frame == FRAMES:
		print("SMOKE stats: ", hash_node.get_stats())
		print("SMOKE %s after %d frames, %d failures" % ["OK" if failures == 0 else "FAILED", FRAMES, failures])
		get_tree().quit(1 if failures else 0)


func _same_keys(a, b):
	# Godot 3 compares dictionaries by reference: compare the keys.
	if a.size() != b.size():
		return false
	for key in a:
		if not b.has(key):
			return false
	return true


func _check(ok, what):
	if not ok:
		failures += 1
		printerr("SMOKE check failed: ", what)
