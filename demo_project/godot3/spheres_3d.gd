extends Spatial
# The Godot 3 port of ../godot4/spheres_3d.gd: 10,000 spheres moving in a box,
# drawn with one MultiMesh; one update_batch and one get_collision_pairs_packed
# call per frame, the pairs' spheres then tested exactly here. N (or --naive)
# switches to a brute force in GDScript over the first NAIVE spheres.
# `--frames=N` quits after N frames,
# printing its memory line (memory_watch.gd).

const COUNT = 10000
const NAIVE = 400
const BOX = Vector3(120, 120, 120)
const RADIUS = 0.6
const SPEED = 6.0
const MemoryWatch = preload("res://memory_watch.gd")

onready var hash_node = $Hash
onready var spheres: MultiMeshInstance = $Spheres

var centres = PoolVector3Array()
var velocities = PoolVector3Array()
var corners = PoolVector3Array()
var sizes = PoolVector3Array()
var ids = PoolIntArray()
var transforms = PoolRealArray()     # the MultiMesh's bulk array: 12 floats a sphere
var naive = false
var frame = 0
var quit_after = 0
var call_ms = 0.0
var pairs_found = 0
var checks = 0
var touching = 0
var hud: Label
var memory = MemoryWatch.new()


func _ready():
	for arg in OS.get_cmdline_args():
		if arg.begins_with("--frames="):
			quit_after = int(arg.substr(9, -1))
		naive = naive or arg == "--naive"
	seed(3)
	centres.resize(COUNT)
	velocities.resize(COUNT)
	corners.resize(COUNT)
	sizes.resize(COUNT)
	transforms.resize(12 * COUNT)
	for i in COUNT:
		centres[i] = Vector3(randf() * BOX.x, randf() * BOX.y, randf() * BOX.z)
		velocities[i] = Vector3(rand_range(-1, 1), rand_range(-1, 1), rand_range(-1, 1)) * SPEED
		corners[i] = centres[i] - Vector3.ONE * RADIUS
		sizes[i] = Vector3.ONE * (2.0 * RADIUS)
		for k in 12:
			transforms[12 * i + k] = 1.0 if k == 0 or k == 5 or k == 10 else 0.0
	ids = hash_node.insert_batch(corners, sizes)
	var mesh = SphereMesh.new()
	mesh.radius = RADIUS
	mesh.height = 2.0 * RADIUS
	mesh.radial_segments = 8
	mesh.rings = 4
	var multimesh = MultiMesh.new()
	multimesh.transform_format = MultiMesh.TRANSFORM_3D
	multimesh.mesh = mesh
	multimesh.instance_count = COUNT
	spheres.multimesh = multimesh
	var layer = CanvasLayer.new()
	add_child(layer)
	var panel = PanelContainer.new()
	panel.rect_position = Vector2(8, 8)
	layer.add_child(panel)
	hud = Label.new()
	panel.add_child(hud)


func _unhandled_input(event):
	if event is InputEventKey and event.pressed and event.scancode == KEY_N:
		naive = not naive


func _process(delta):
	var count = NAIVE if naive else COUNT
	for i in count:
		var c = centres[i] + velocities[i] * delta
		var v = velocities[i]
		if c.x < 0.0 or c.x > BOX.x:
			v.x = -v.x
		if c.y < 0.0 or c.y > BOX.y:
			v.y = -v.y
		if c.z < 0.0 or c.z > BOX.z:
			v.z = -v.z
		c = Vector3(clamp(c.x, 0.0, BOX.x), clamp(c.y, 0.0, BOX.y), clamp(c.z, 0.0, BOX.z))
		velocities[i] = v
		centres[i] = c
		corners[i] = c - Vector3.ONE * RADIUS
		transforms[12 * i + 3] = c.x
		transforms[12 * i + 7] = c.y
		transforms[12 * i + 11] = c.z
	spheres.multimesh.visible_instance_count = count
	spheres.multimesh.set_as_bulk_array(transforms)
	var start = OS.get_ticks_usec()
	if naive:
		_brute_force()
	else:
		hash_node.update_batch(ids, corners, sizes)
		var pairs = hash_node.get_collision_pairs_packed()
		call_ms = (OS.get_ticks_usec() - start) / 1000.0
		pairs_found = pairs.size() / 2
		checks = hash_node.get_stats()["narrow_phase_checks"]
		touching = 0
		var reach = 4.0 * RADIUS * RADIUS
		for k in range(0, pairs.size(), 2):
			if centres[pairs[k]].distance_squared_to(centres[pairs[k + 1]]) <= reach:
				touching += 1
	var lines = ["%s: %d spheres" % ["NAIVE" if naive else "SpatialHash3D", count],
		"box pairs %d, narrow-phase checks %d, spheres touching %d" % [pairs_found, checks, touching],
		"broad phase %.2f ms, %d FPS" % [call_ms, Engine.get_frames_per_second()],
		"[N] naive all-pairs over %d in GDScript" % NAIVE]
	hud.text = PoolStringArray(lines).join("\n")
	memory.at_frame(frame)
	frame += 1
	if frame % 120 == 0:
		print("%s | %s | %s" % [lines[0], lines[1], lines[2]])
	if quit_after and frame >= quit_after:
		print(memory.report(frame - 1))
		get_tree().quit()


func _brute_force():
	var start = OS.get_ticks_usec()
	pairs_found = 0
	touching = 0
	checks = 0
	var reach = 4.0 * RADIUS * RADIUS
	for i in NAIVE:
		var a = centres[i]
		for j in range(i + 1, NAIVE):
			checks += 1
			if a.distance_squared_to(centres[j]) <= reach:
				pairs_found += 1
				touching += 1
	call_ms = (OS.get_ticks_usec() - start) / 1000.0
