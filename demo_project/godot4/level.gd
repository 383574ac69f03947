extends Node2D
# A tile level: TILES static tiles (16x16, about 61% of a 128x128 grid, so
# neighbours share edges) and BODIES moving bodies (12x12 boxes bouncing in the
# level), the same job done two ways in one run, every physics tick:
# 1. SpatialHash2D: the tiles inserted once with insert_batch(..., as_static =
#    true) (two static objects never pair, so the tiles' pairs among themselves
#    are neither listed nor looked for); each tick one update_batch of the
#    bodies and one get_collision_pairs_packed, timed around the two calls.
# 2. Godot's own physics: a StaticBody2D per tile and an Area2D per body
#    (monitoring the tiles and each other), the bodies moved each tick: the time
#    of setting their positions, plus the engine's time of the tick beyond the
#    script (the physics step, and the areas' overlap signals at the start of
#    the next tick), less that of a tick with no bodies (the first EMPTY ticks).
# Both count the overlapping pairs (body-tile and body-body): the node from its
# pair list, Godot from the areas' entered and exited signals, compared once
# Godot has stepped the same positions. Their boxes are equal up to rounding
# (Godot's shapes around 32-bit centres, the node's 32-bit corners and sizes)
# and the node counts boxes that only touch, so a pair that just touches could
# be seen by one alone: the printed lines say in how many ticks the counts
# were equal. Prints the medians of each WINDOW ticks; `--frames=N` quits
# after N ticks with a summary line.

const TILES := 10000
const BODIES := 1000
const GRID := 128
const TILE := Vector2(16, 16)
const BODY := Vector2(12, 12)
const SPEED := 60.0
const EMPTY := 30               # ticks with no Godot bodies: the engine's own cost of a tick
const WARMUP := 30              # ticks after the bodies are made before measuring
const WINDOW := 120

@onready var hash_node: SpatialHash2D = $Hash

var world := Vector2(GRID, GRID) * TILE
var body_ids := PackedInt32Array()
var corners := PackedVector2Array()
var velocities := PackedVector2Array()
var sizes := PackedVector2Array()
var areas := []
var tick := 0
var quit_after := 0
var drawn := DisplayServer.get_name() != "headless"
# Godot's overlaps as its signals report them: body-tile pairs, and body-body
# pairs twice (each area hears the other).
var tile_overlaps := 0
var body_overlaps := 0
# The engine's time around the script: the end of the last _physics_process,
# the end of the last _process since (0: none), the engine's time since.
var physics_end := 0
var idle_end := 0
var engine_us := 0
# The last tick's own numbers, completed when the engine's time is known.
var last_node_ms := -1.0
var last_set_ms := 0.0
var last_node_pairs := 0
var empty_ms := []              # the engine's time of a tick with no bodies
var node_ms := []
var godot_ms := []
var agreed := 0
var last_counts := [0, 0]       # pairs: the node's, Godot's
var all_node_ms := []
var all_godot_ms := []
var all_agreed := 0


func _ready() -> void:
	for arg in OS.get_cmdline_args() + OS.get_cmdline_user_args():
		if arg.begins_with("--frames="):
			quit_after = int(arg.substr(9))
	if not drawn:
		# Headless, Godot sleeps between frames (up to this long), inside what
		# is timed here as the engine's time: frames follow each other at once.
		OS.low_processor_usage_mode_sleep_usec = 0
	seed(5)
	var cells := range(GRID * GRID)
	cells.shuffle()
	var tile_corners := PackedVector2Array()
	var tile_sizes := PackedVector2Array()
	for cell in cells.slice(0, TILES):
		tile_corners.append(Vector2(cell % GRID, cell / GRID) * TILE)
		tile_sizes.append(TILE)
	var tile_ids := hash_node.insert_batch(tile_corners, tile_sizes, 1, SpatialHash2D.ALL_LAYERS, true)
	for i in BODIES:
		corners.append(Vector2(randf() * (world.x - BODY.x), randf() * (world.y - BODY.y)))
		velocities.append(Vector2.from_angle(randf() * TAU) * SPEED)
		sizes.append(BODY)
	body_ids = hash_node.insert_batch(corners, sizes)
	_make_tiles(tile_corners)
	get_tree().physics_frame.connect(_on_physics_frame)
	print("LEVEL: %d static tiles, %d moving bodies, physics ticks %d/s" % [tile_ids.size(), body_ids.size(),
		Engine.physics_ticks_per_second])


func _make_tiles(tile_corners: PackedVector2Array) -> void:
	var shape := RectangleShape2D.new()
	shape.size = TILE
	for corner in tile_corners:
		var tile := StaticBody2D.new()
		tile.collision_mask = 0
		tile.position = corner + TILE / 2
		var collision := CollisionShape2D.new()
		collision.shape = shape
		tile.add_child(collision)
		add_child(tile)
	if drawn:
		var layer := Node2D.new()       # drawn once: the tiles do not move
		layer.draw.connect(_draw_tiles.bind(layer, tile_corners))
		add_child(layer)


func _draw_tiles(layer: Node2D, tile_corners: PackedVector2Array) -> void:
	for corner in tile_corners:
		layer.draw_rect(Rect2(corner, TILE), Color(0.35, 0.4, 0.45))


func _make_bodies() -> void:
	var shape := RectangleShape2D.new()
	shape.size = BODY
	for i in BODIES:
		var area := Area2D.new()
		area.collision_layer = 2
		area.collision_mask = 1 | 2         # the tiles and the other bodies
		area.position = corners[i] + BODY / 2
		var collision := CollisionShape2D.new()
		collision.shape = shape
		area.add_child(collision)
		area.body_entered.connect(_on_tile_overlap.bind(1))
		area.body_exited.connect(_on_tile_overlap.bind(-1))
		area.area_entered.connect(_on_body_overlap.bind(1))
		area.area_exited.connect(_on_body_overlap.bind(-1))
		add_child(area)
		areas.append(area)


func _on_tile_overlap(_tile: Node2D, change: int) -> void:
	tile_overlaps += change


func _on_body_overlap(_body: Area2D, change: int) -> void:
	body_overlaps += change


# A tick begins: since the last one the engine stepped, and flushed the areas'
# signals just now. The last tick's numbers are complete.
func _on_physics_frame() -> void:
	if not physics_end:
		return
	engine_us += Time.get_ticks_usec() - (idle_end if idle_end else physics_end)
	if areas.is_empty():
		empty_ms.append(engine_us / 1000.0)
	elif last_node_ms >= 0.0:
		node_ms.append(last_node_ms)
		godot_ms.append(last_set_ms + engine_us / 1000.0 - _median(empty_ms))
		last_counts = [last_node_pairs, tile_overlaps + body_overlaps / 2]
		agreed += int(last_counts[0] == last_counts[1])
		if node_ms.size() == WINDOW:
			_report()


func _process(_delta: float) -> void:
	if physics_end and not idle_end:        # the first frame after a tick: the step came before it
		engine_us += Time.get_ticks_usec() - physics_end
	if drawn:
		queue_redraw()
	idle_end = Time.get_ticks_usec()


func _physics_process(delta: float) -> void:
	for i in BODIES:
		var c := corners[i] + velocities[i] * delta
		var v := velocities[i]
		if c.x < 0.0 or c.x > world.x - BODY.x:
			v.x = -v.x
		if c.y < 0.0 or c.y > world.y - BODY.y:
			v.y = -v.y
		velocities[i] = v
		corners[i] = c.clamp(Vector2.ZERO, world - BODY)
	var start := Time.get_ticks_usec()
	hash_node.update_batch(body_ids, corners, sizes)
	last_node_pairs = hash_node.get_collision_pairs_packed().size() / 2
	var node_done := Time.get_ticks_usec()
	if tick == EMPTY:
		_make_bodies()
	for i in areas.size():
		areas[i].position = corners[i] + BODY / 2
	var set_done := Time.get_ticks_usec()
	var measured := tick >= EMPTY + WARMUP
	last_node_ms = (node_done - start) / 1000.0 if measured else -1.0
	last_set_ms = (set_done - node_done) / 1000.0
	tick += 1
	if quit_after and tick >= quit_after:
		_summary()
		get_tree().quit()
	engine_us = 0
	idle_end = 0
	physics_end = Time.get_ticks_usec()


func _report() -> void:
	var node_median := _median(node_ms)
	var godot_median := _median(godot_ms)
	print("level, medians of %d ticks: node %.3f ms, Godot physics %.3f ms (less an empty tick's %.3f), Godot / node %.1fx; pairs node %d, Godot %d, equal in %d of %d ticks" % [
		node_ms.size(), node_median, godot_median, _median(empty_ms), godot_median / node_median,
		last_counts[0], last_counts[1], agreed, node_ms.size()])
	all_node_ms.append_array(node_ms)
	all_godot_ms.append_array(godot_ms)
	all_agreed += agreed
	node_ms.clear()
	godot_ms.clear()
	agreed = 0


func _summary() -> void:
	all_node_ms.append_array(node_ms)
	all_godot_ms.append_array(godot_ms)
	all_agreed += agreed
	if all_node_ms.is_empty():
		print("LEVEL too few ticks to measure: run it with --frames=%d or more" % (EMPTY + WARMUP + 2))
		return
	var node_median := _median(all_node_ms)
	var godot_median := _median(all_godot_ms)
	print("LEVEL %d ticks: node %.3f ms, Godot physics %.3f ms per tick (medians), Godot / node %.1fx; pairs equal in %d of %d ticks (last: node %d, Godot %d)" % [
		all_node_ms.size(), node_median, godot_median, godot_median / node_median, all_agreed,
		all_node_ms.size(), last_counts[0], last_counts[1]])


func _median(values: Array) -> float:
	var sorted := values.duplicate()
	sorted.sort()
	return sorted[sorted.size() / 2]


func _draw() -> void:
	for corner in corners:
		draw_rect(Rect2(corner, BODY), Color(1, 0.85, 0.3))
