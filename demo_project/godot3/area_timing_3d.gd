extends Spatial
# The Godot 3 port of ../godot4/area_timing_3d.gd: the broad phase of the
# spheres scene (10,000 spheres of radius 0.6 in a 120-unit box) timed with
# SpatialHash3D (update_batch + get_collision_pairs_packed, over the uniform
# grid of the scene's cell_size and then over the hierarchical grid) and with one Area
# and SphereShape per sphere (the tick beyond this script's own work, and
# setting the 10,000 positions); the ticks without areas give the engine's own
# cost of a tick. Run with --fixed-fps 60. Prints median and best ms per frame
# over FRAMES frames after WARMUP.

const COUNT = 10000
const BOX = Vector3(120, 120, 120)
const RADIUS = 0.6
const SPEED = 6.0
const WARMUP = 60
const FRAMES = 300

onready var hash_node = $Hash

var centres = PoolVector3Array()
var velocities = PoolVector3Array()
var corners = PoolVector3Array()
var sizes = PoolVector3Array()
var ids = PoolIntArray()
var areas = []
var phase = "node"
var frame = 0
var last_tick = 0
var node_ms = []
var idle_ms = []
var step_ms = []
var move_ms = []
var pairs_seen = 0
var entered = 0


func _ready():
	seed(3)
	for i in COUNT:
		centres.append(Vector3(randf() * BOX.x, randf() * BOX.y, randf() * BOX.z))
		velocities.append(Vector3(rand_range(-1, 1), rand_range(-1, 1), rand_range(-1, 1)) * SPEED)
		corners.append(centres[i] - Vector3.ONE * RADIUS)
		sizes.append(Vector3.ONE * (2.0 * RADIUS))
	ids = hash_node.insert_batch(corners, sizes)
	print("AREA TIMING: %d spheres, Godot 3 physics, physics ticks %d/s" % [COUNT, Engine.iterations_per_second])


func _move(delta):
	for i in COUNT:
		var c = centres[i] + velocities[i] * delta
		var v = velocities[i]
		if c.x < 0.0 or c.x > BOX.x:
			v.x = -v.x
		if c.y < 0.0 or c.y > BOX.y:
			v.y = -v.y
		if c.z < 0.0 or c.z > BOX.z:
			v.z = -v.z
		velocities[i] = v
		c = Vector3(clamp(c.x, 0.0, BOX.x), clamp(c.y, 0.0, BOX.y), clamp(c.z, 0.0, BOX.z))
		centres[i] = c
		corners[i] = c - Vector3.ONE * RADIUS


func _physics_process(delta):
	var start = OS.get_ticks_usec()
	if last_tick and frame > WARMUP:
		(step_ms if phase == "areas" else idle_ms).append((start - last_tick) / 1000.0)
	_move(delta)
	if phase == "node":
		var t0 = OS.get_ticks_usec()
		hash_node.update_batch(ids, corners, sizes)
		pairs_seen = hash_node.get_collision_pairs_packed().size() / 2
		if frame >= WARMUP:
			node_ms.append((OS.get_ticks_usec() - t0) / 1000.0)
		frame += 1
		if frame == WARMUP + FRAMES:
			_report("node update_batch + get_collision_pairs_packed (%s)"
				% ("hierarchical" if hash_node.hierarchical else "cell_size %s" % hash_node.cell_size),
				node_ms, "%d pairs" % pairs_seen)
			if not hash_node.hierarchical:
				# The same calls over the hierarchical grid: the node moves its
				# objects to the new index, keeping their ids.
				hash_node.hierarchical = true
				node_ms.clear()
				frame = 0
			else:
				_report("a tick beyond the script without areas", idle_ms, "")
				_start_areas()
	else:
		var t0 = OS.get_ticks_usec()
		for i in COUNT:
			areas[i].translation = centres[i]
		if frame >= WARMUP:
			move_ms.append((OS.get_ticks_usec() - t0) / 1000.0)
		frame += 1
		if frame == WARMUP + FRAMES + 1:
			_report("Area physics step (Godot 3)", step_ms, "%d area_entered so far" % entered)
			_report("Area setting 10,000 positions", move_ms, "")
			get_tree().quit()
	last_tick = OS.get_ticks_usec()


func _start_areas():
	var shape = SphereShape.new()
	shape.radius = RADIUS
	for i in COUNT:
		var area = Area.new()
		var collision = CollisionShape.new()
		collision.shape = shape
		area.add_child(collision)
		area.translation = centres[i]
		area.connect("area_entered", self, "_on_area_entered")
		add_child(area)
		areas.append(area)
	phase = "areas"
	frame = 0
	last_tick = 0


func _on_area_entered(_other):
	entered += 1


func _report(what, values, note):
	var sorted = values.duplicate()
	sorted.sort()
	print("AREA TIMING %s: median %.3f ms, best %.3f ms over %d frames %s" % [what,
		sorted[sorted.size() / 2], sorted[0], sorted.size(), note])
