extends Node3D
# 10,000 spheres moving in a box, drawn with one MultiMesh. One update_batch
# (the spheres' boxes) and one get_collision_pairs_packed call per frame do the
# broad phase; the pairs' spheres are then tested exactly here. The HUD shows
# the pairs, the narrow-phase checks, the touching spheres, the time of the two
# calls and FPS. N (or --naive) switches to a brute force in GDScript over the
# first NAIVE spheres (all pairs: n(n-1)/2 tests a frame), the cost the node
# saves. `--frames=N` quits after N frames,
# printing its memory line (memory_watch.gd).

const COUNT := 10000
const NAIVE := 400
const BOX := Vector3(120, 120, 120)
const RADIUS := 0.6
const SPEED := 6.0
const MemoryWatch := preload("res://memory_watch.gd")

@onready var hash_node: SpatialHash3D = $Hash
@onready var spheres: MultiMeshInstance3D = $Spheres

var centres := PackedVector3Array()
var velocities := PackedVector3Array()
var corners := PackedVector3Array()
var sizes := PackedVector3Array()
var ids := PackedInt32Array()
var transforms := PackedFloat32Array()     # the MultiMesh buffer: 12 floats a sphere
var naive := false
var frame := 0
var quit_after := 0
var call_ms := 0.0
var pairs_found := 0
var checks := 0
var touching := 0
var hud: Label
var memory := MemoryWatch.new()


func _ready() -> void:
	for arg in OS.get_cmdline_args() + OS.get_cmdline_user_args():
		if arg.begins_with("--frames="):
			quit_after = int(arg.substr(9))
		naive = naive or arg == "--naive"
	seed(3)
	centres.resize(COUNT)
	velocities.resize(COUNT)
	corners.resize(COUNT)
	sizes.resize(COUNT)
	transforms.resize(12 * COUNT)
	for i in COUNT:
		centres[i] = Vector3(randf() * BOX.x, randf() * BOX.y, randf() * BOX.z)
		velocities[i] = Vector3(randf_range(-1, 1), randf_range(-1, 1), randf_range(-1, 1)) * SPEED
		corners[i] = centres[i] - Vector3.ONE * RADIUS
		sizes[i] = Vector3.ONE * (2.0 * RADIUS)
		transforms[12 * i] = 1.0
		transforms[12 * i + 5] = 1.0
		transforms[12 * i + 10] = 1.0
	ids = hash_node.insert_batch(corners, sizes)
	var mesh := SphereMesh.new()
	mesh.radius = RADIUS
	mesh.height = 2.0 * RADIUS
	mesh.radial_segments = 8
	mesh.rings = 4
	var multimesh := MultiMesh.new()
	multimesh.transform_format = MultiMesh.TRANSFORM_3D
	multimesh.mesh = mesh
	multimesh.instance_count = COUNT
	spheres.multimesh = multimesh
	var layer := CanvasLayer.new()
	add_child(layer)
	var panel := PanelContainer.new()
	panel.position = Vector2(8, 8)
	var background := StyleBoxFlat.new()
	background.bg_color = Color(0.1, 0.1, 0.12, 0.92)
	background.set_content_margin_all(8)
	panel.add_theme_stylebox_override("panel", background)
	layer.add_child(panel)
	hud = Label.new()
	panel.add_child(hud)


func _unhandled_input(event: InputEvent) -> void:
	if event is InputEventKey and event.pressed and event.keycode == KEY_N:
		naive = not naive


func _process(delta: float) -> void:
	var count := NAIVE if naive else COUNT
	for i in count:
		var c := centres[i] + velocities[i] * delta
		var v := velocities[i]
		# Bounce off the walls of the box.
		if c.x < 0.0 or c.x > BOX.x:
			v.x = -v.x
		if c.y < 0.0 or c.y > BOX.y:
			v.y = -v.y
		if c.z < 0.0 or c.z > BOX.z:
			v.z = -v.z
		c = c.clamp(Vector3.ZERO, BOX)
		velocities[i] = v
		centres[i] = c
		corners[i] = c - Vector3.ONE * RADIUS
		transforms[12 * i + 3] = c.x
		transforms[12 * i + 7] = c.y
		transforms[12 * i + 11] = c.z
	spheres.multimesh.visible_instance_count = count
	spheres.multimesh.buffer = transforms
	var start := Time.get_ticks_usec()
	if naive:
		_brute_force()
	else:
		hash_node.update_batch(ids, corners, sizes)
		var pairs := hash_node.get_collision_pairs_packed()
		call_ms = (Time.get_ticks_usec() - start) / 1000.0
		pairs_found = pairs.size() / 2
		checks = hash_node.get_stats()["narrow_phase_checks"]
		touching = 0
		var reach := 4.0 * RADIUS * RADIUS
		for k in range(0, pairs.size(), 2):
			if centres[pairs[k]].distance_squared_to(centres[pairs[k + 1]]) <= reach:
				touching += 1
	hud.text = "%s: %d spheres\nbox pairs %d, narrow-phase checks %d, spheres touching %d\nbroad phase %.2f ms, %d FPS\n[N] naive all-pairs over %d in GDScript" % [
		"NAIVE" if naive else "SpatialHash3D", count, pairs_found, checks, touching, call_ms,
		Engine.get_frames_per_second(), NAIVE]
	memory.at_frame(frame)
	frame += 1
	if frame % 120 == 0:
		print(hud.text.get_slice("\n", 0), " | ", hud.text.get_slice("\n", 1), " | ", hud.text.get_slice("\n", 2))
	if quit_after and frame >= quit_after:
		print(memory.report(frame - 1))
		get_tree().quit()


func _brute_force() -> void:
	var start := Time.get_ticks_usec()
	pairs_found = 0
	touching = 0
	checks = 0
	var reach := 4.0 * RADIUS * RADIUS
	for i in NAIVE:
		var a := centres[i]
		for j in range(i + 1, NAIVE):
			checks += 1
			if a.distance_squared_to(centres[j]) <= reach:
				pairs_found += 1
				touching += 1
	call_ms = (Time.get_ticks_usec() - start) / 1000.0
