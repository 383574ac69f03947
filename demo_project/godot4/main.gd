extends Node2D
# The classic broad-phase demo: moving circles, naive O(n^2) or the SpatialHash2D node as the
# broad phase, a circle test as the narrow phase, and a HUD with the counters.
# The hash gets every object in one batch call per frame; an object flashes
# white as a collision starts (the node's collision_started signal), and a ray
# cast from the centre to the mouse shows where it first hits and the normal
# there. `--frames=N` after the scene quits after N frames.

const WORLD := Vector2(1280, 720)
const RADIUS := 6.0

@onready var hash_node: SpatialHash2D = $Hash

var positions := PackedVector2Array()
var velocities := PackedVector2Array()
var sizes := PackedVector2Array()
var ids := PackedInt32Array()
var colliding := PackedByteArray()
var flash := PackedFloat32Array()       # per object: 1 as a collision starts, fading to 0
var started := 0
var ray_hit := {}
var use_hash := true
var speed := 1.0
var broad_pairs := 0
var checks := 0
var hits := 0
var hud: Label
var frame := 0
var quit_after := 0


func _ready():
	for arg in OS.get_cmdline_args() + OS.get_cmdline_user_args():
		if arg.begins_with("--frames="):
			quit_after = int(arg.substr(9))
	_build_ui()
	hash_node.collision_started.connect(_on_collision_started)
	_set_count(800)


func _set_count(n: int):
	hash_node.clear()
	positions.resize(n)
	velocities.resize(n)
	sizes.resize(n)
	colliding.resize(n)
	flash.resize(n)
	flash.fill(0.0)
	for i in n:
		positions[i] = Vector2(randf() * WORLD.x, randf() * WORLD.y)
		velocities[i] = Vector2(randf_range(-60, 60), randf_range(-60, 60))
		sizes[i] = Vector2(2 * RADIUS, 2 * RADIUS)
	ids = hash_node.insert_batch(_corners(), sizes)


func _corners() -> PackedVector2Array:
	var corners := PackedVector2Array()
	corners.resize(positions.size())
	for i in positions.size():
		corners[i] = positions[i] - Vector2(RADIUS, RADIUS)
	return corners


func _process(delta: float) -> void:
	var n := positions.size()
	for i in n:
		var v := velocities[i]
		var p := positions[i] + v * delta * speed
		if p.x < RADIUS or p.x > WORLD.x - RADIUS:
			v.x = -v.x
		if p.y < RADIUS or p.y > WORLD.y - RADIUS:
			v.y = -v.y
		velocities[i] = v
		positions[i] = p.clamp(Vector2(RADIUS, RADIUS), WORLD - Vector2(RADIUS, RADIUS))
		colliding[i] = 0
		flash[i] = maxf(0.0, flash[i] - 3.0 * delta)
	hits = 0
	started = 0
	if use_hash:
		hash_node.update_batch(ids, _corners(), sizes)
		hash_node.emit_collision_events()
		ray_hit = hash_node.raycast(WORLD / 2, get_global_mouse_position())
		var pairs: PackedInt32Array = hash_node.get_collision_pairs_packed()
		var stats: Dictionary = hash_node.get_stats()
		broad_pairs = stats["broad_phase_pairs"]
		checks = stats["narrow_phase_checks"]
		for k in range(0, pairs.size(), 2):
			_narrow(pairs[k], pairs[k + 1])
	else:
		broad_pairs = n * (n - 1) / 2
		checks = broad_pairs
		for i in n:
			for j in range(i + 1, n):
				_narrow(i, j)
	hud.text = "%s\nobjects %d, cell %d\nbroad-phase pairs %d\ncollision checks %d, hits %d\ncollisions started %d\nFPS %d" % [
		"Spatial hash" if use_hash else "Naive O(n^2)", n, hash_node.cell_size,
		broad_pairs, checks, hits, started, Engine.get_frames_per_second()]
	queue_redraw()
	frame += 1
	if quit_after and frame >= quit_after:
		get_tree().quit()


func _on_collision_started(a: int, b: int) -> void:
	flash[a] = 1.0
	flash[b] = 1.0
	started += 1


func _narrow(i: int, j: int):
	if positions[i].distance_squared_to(positions[j]) <= 4 * RADIUS * RADIUS:
		colliding[i] = 1
		colliding[j] = 1
		hits += 1


func _draw():
	for i in positions.size():
		var color := Color(0.89, 0.34, 0.18) if colliding[i] else Color(0.6, 0.76, 0.74)
		draw_circle(positions[i], RADIUS, color.lerp(Color.WHITE, flash[i]))
	if not use_hash:
		return
	var end := get_global_mouse_position()
	if not ray_hit.is_empty():
		end = ray_hit["position"]
		draw_circle(end, 4.0, Color.YELLOW)
		draw_line(end, end + 16.0 * ray_hit["normal"], Color.YELLOW, 2.0)
	draw_line(WORLD / 2, end, Color(1, 1, 0, 0.6), 1.0)


func _build_ui():
	# A panel behind the controls; each toggle sits right beside its label.
	var layer := CanvasLayer.new()
	add_child(layer)
	var panel := PanelContainer.new()
	panel.position = Vector2(8, 8)
	var background := StyleBoxFlat.new()     # the default panel lets the scene show through
	background.bg_color = Color(0.1, 0.1, 0.12, 0.92)
	background.set_content_margin_all(8)
	panel.add_theme_stylebox_override("panel", background)
	layer.add_child(panel)
	var box := VBoxContainer.new()
	panel.add_child(box)
	hud = Label.new()
	box.add_child(hud)
	box.add_child(_toggle("Spatial hash (off: naive)", true, func(on): use_hash = on))
	box.add_child(_slider("Objects", 50, 5000, 800, func(v): _set_count(int(v))))
	box.add_child(_slider("Cell size", 4, 256, 24, func(v): hash_node.cell_size = v))
	box.add_child(_slider("Speed", 0, 10, 1, func(v): speed = v))
	box.add_child(_toggle("Grid and boxes", false, func(on): hash_node.debug_draw = on))
	box.add_child(_toggle("Candidate lines", true, func(on): hash_node.debug_candidates = on))


func _row(label: String) -> HBoxContainer:
	var row := HBoxContainer.new()
	var name_label := Label.new()
	name_label.text = label
	name_label.custom_minimum_size = Vector2(190, 0)
	row.add_child(name_label)
	return row


func _toggle(label: String, pressed: bool, on_toggle: Callable) -> HBoxContainer:
	var row := _row(label)
	var button := CheckButton.new()
	button.button_pressed = pressed
	button.toggled.connect(on_toggle)
	row.add_child(button)
	return row


func _slider(label: String, low: float, high: float, value: float, on_change: Callable) -> HBoxContainer:
	var row := _row(label)
	var slider := HSlider.new()
	slider.min_value = low
	slider.max_value = high
	slider.value = value
	slider.custom_minimum_size = Vector2(200, 0)
	slider.value_changed.connect(on_change)
	row.add_child(slider)
	return row
