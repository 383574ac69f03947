extends Node3D
# The broad phase of the spheres scene (10,000 spheres of radius 0.6 moving in
# a 120-unit box), timed two ways in one run, headless, one frame per physics
# tick (run it with --fixed-fps 60):
# 1. SpatialHash3D: update_batch + get_collision_pairs_packed, timed around the
#    two calls, over the uniform grid of the scene's cell_size and then over
#    the hierarchical grid.
# 2. One Area3D with a SphereShape3D per sphere (monitoring and monitorable,
#    area_entered counted), moved each tick: the time of the tick beyond this
#    script's own work (the physics step: the engine's broad phase, the overlap
#    pairs and their signals), and the time of setting the 10,000 positions.
#    The same measure of the ticks of step 1 (no areas) is printed as the
#    engine's own cost of a tick, to subtract.
# Prints the median and best ms per frame of each over FRAMES frames after
# WARMUP, and the physics engine (project setting physics/3d/physics_engine:
# "Jolt Physics" or "GodotPhysics3D", e.g. from an override.cfg).

const COUNT := 10000
const BOX := Vector3(120, 120, 120)
const RADIUS := 0.6
const SPEED := 6.0
const WARMUP := 60
const FRAMES := 300

@onready var hash_node: SpatialHash3D = $Hash

var centres := PackedVector3Array()
var velocities := PackedVector3Array()
var corners := PackedVector3Array()
var sizes := PackedVector3Array()
var ids := PackedInt32Array()
var areas := []
var phase := "node"
var frame := 0
var last_tick := 0
var node_ms := []
var step_ms := []
var idle_ms := []
var move_ms := []
var pairs_seen := 0
var entered := 0


func _ready() -> void:
	seed(3)
	for i in COUNT:
		centres.append(Vector3(randf() * BOX.x, randf() * BOX.y, randf() * BOX.z))
		velocities.append(Vector3(randf_range(-1, 1), randf_range(-1, 1), randf_range(-1, 1)) * SPEED)
		corners.append(centres[i] - Vector3.ONE * RADIUS)
		sizes.append(Vector3.ONE * (2.0 * RADIUS))
	ids = hash_node.insert_batch(corners, sizes)
	print("AREA TIMING: %d spheres, physics engine %s, physics ticks %d/s" % [COUNT,
		ProjectSettings.get_setting("physics/3d/physics_engine"), Engine.physics_ticks_per_second])


func _move(delta: float) -> void:
	for i in COUNT:
		var c := centres[i] + velocities[i] * delta
		var v := velocities[i]
		if c.x < 0.0 or c.x > BOX.x:
			v.x = -v.x
		if c.y < 0.0 or c.y > BOX.y:
			v.y = -v.y
		if c.z < 0.0 or c.z > BOX.z:
			v.z = -v.z
		velocities[i] = v
		centres[i] = c.clamp(Vector3.ZERO, BOX)
		corners[i] = centres[i] - Vector3.ONE * RADIUS


func _physics_process(delta: float) -> void:
	var start := Time.get_ticks_usec()
	if last_tick and frame > WARMUP:
		(step_ms if phase == "areas" else idle_ms).append((start - last_tick) / 1000.0)
	_move(delta)
	if phase == "node":
		var t0 := Time.get_ticks_usec()
		hash_node.update_batch(ids, corners, sizes)
		pairs_seen = hash_node.get_collision_pairs_packed().size() / 2
		if frame >= WARMUP:
			node_ms.append((Time.get_ticks_usec() - t0) / 1000.0)
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
		var t0 := Time.get_ticks_usec()
		for i in COUNT:
			areas[i].position = centres[i]
		if frame >= WARMUP:
			move_ms.append((Time.get_ticks_usec() - t0) / 1000.0)
		frame += 1
		if frame == WARMUP + FRAMES + 1:
			_report("Area3D physics step (%s)" % ProjectSettings.get_setting("physics/3d/physics_engine"),
				step_ms, "%d area_entered so far" % entered)
			_report("Area3D setting 10,000 positions", move_ms, "")
			get_tree().quit()
	last_tick = Time.get_ticks_usec()


func _start_areas() -> void:
	var shape := SphereShape3D.new()
	shape.radius = RADIUS
	for i in COUNT:
		var area := Area3D.new()
		var collision := CollisionShape3D.new()
		collision.shape = shape
		area.add_child(collision)
		area.position = centres[i]
		area.area_entered.connect(_on_area_entered)
		add_child(area)
		areas.append(area)
	phase = "areas"
	frame = 0
	last_tick = 0


func _on_area_entered(_other: Area3D) -> void:
	entered += 1


func _report(what: String, values: Array, note: String) -> void:
	var sorted := values.duplicate()
	sorted.sort()
	print("AREA TIMING %s: median %.3f ms, best %.3f ms over %d frames %s" % [what,
		sorted[sorted.size() / 2], sorted[0], sorted.size(), note])
