extends Node2D
# The bullet-hell stress scene: 10,000 bullets (4x4) and 100 enemies (32x32) in
# 1920x1080. One update_batch and one get_collision_pairs_packed call per frame
# do the broad phase for all 10,100 objects; hits are counted per enemy.
# The HUD shows the median time of those two calls over the last WINDOW frames
# beside the core's own time for the same work (from get_stats()), and prints
# both once per window. Every other frame makes the same two calls on the
# node's private Python engine instead (which no game needs to do), so the
# printed line also gives the facade's own cost: the GDScript node's time
# beyond its engine's, and the process's resident memory (Linux). `--frames=N`
# after the scene quits after N frames, printing its memory line (memory_watch.gd).

const WORLD := Vector2(1920, 1080)
const BULLETS := 10000
const ENEMIES := 100
const BULLET := Vector2(4, 4)
const ENEMY := Vector2(32, 32)
const WINDOW := 120
const MemoryWatch := preload("res://memory_watch.gd")

@onready var hash_node: SpatialHash2D = $Hash

var positions := PackedVector2Array()
var velocities := PackedVector2Array()
var sizes := PackedVector2Array()
var ids := PackedInt32Array()
var enemy_hits := PackedInt32Array()
var bullet_enemy_hits := 0
var node_ms := []
var engine_ms := []
var core_ms := []
var summary := "measuring..."
var frame := 0
var quit_after := 0
var hud: Label
var memory := MemoryWatch.new()


func _ready() -> void:
	for arg in OS.get_cmdline_args() + OS.get_cmdline_user_args():
		if arg.begins_with("--frames="):
			quit_after = int(arg.substr(9))
	var n := BULLETS + ENEMIES
	positions.resize(n)
	velocities.resize(n)
	sizes.resize(n)
	enemy_hits.resize(ENEMIES)
	for i in n:
		positions[i] = Vector2(randf() * WORLD.x, randf() * WORLD.y)
		velocities[i] = Vector2(randf_range(-100, 100), randf_range(-100, 100)) if i < BULLETS else Vector2.ZERO
		sizes[i] = BULLET if i < BULLETS else ENEMY
	ids = hash_node.insert_batch(positions, sizes)
	Performance.add_custom_monitor("bullets/count", func(): return BULLETS)
	Performance.add_custom_monitor("bullets/hits_last_frame", func(): return bullet_enemy_hits)
	var layer := CanvasLayer.new()
	add_child(layer)
	var panel := PanelContainer.new()
	panel.position = Vector2(8, 8)
	var background := StyleBoxFlat.new()     # the default panel lets the scene show through
	background.bg_color = Color(0.1, 0.1, 0.12, 0.92)
	background.set_content_margin_all(8)
	panel.add_theme_stylebox_override("panel", background)
	layer.add_child(panel)
	hud = Label.new()
	panel.add_child(hud)


func _exit_tree() -> void:
	for id in ["bullets/count", "bullets/hits_last_frame"]:
		if Performance.has_custom_monitor(id):
			Performance.remove_custom_monitor(id)


func _process(delta: float) -> void:
	for i in BULLETS:
		var p := positions[i] + velocities[i] * delta
		positions[i] = Vector2(fposmod(p.x, WORLD.x), fposmod(p.y, WORLD.y))
	var pairs: PackedInt32Array
	var start := Time.get_ticks_usec()
	if frame % 2 == 0:
		hash_node.update_batch(ids, positions, sizes)
		pairs = hash_node.get_collision_pairs_packed()
	else:
		# The engine's arguments and results as the node hands them (on py4godot,
		# vectors as their bytes, and the engine's kept arrays copied out).
		hash_node._engine.run(hash_node._op.update_batch, ids, hash_node._vector_bytes(positions),
				hash_node._vector_bytes(sizes))
		pairs = hash_node._took(hash_node._engine.run(hash_node._op.pairs))
	var broad_ms := (Time.get_ticks_usec() - start) / 1000.0
	var stats: Dictionary = hash_node.get_stats()
	_measure(broad_ms, stats["last_update_ms"] + stats["last_pairs_ms"], frame % 2 == 1)
	bullet_enemy_hits = 0
	for k in range(0, pairs.size(), 2):
		var a := pairs[k]
		var b := pairs[k + 1]
		# ids are the insertion order: enemies are the last ENEMIES ids.
		if (a < BULLETS) != (b < BULLETS):
			enemy_hits[max(a, b) - BULLETS] += 1
			bullet_enemy_hits += 1
	hud.text = "bullets %d, enemies %d\nbroad phase (update_batch + pairs): %s\noverlapping pairs %d, bullet-enemy %d\nnarrow-phase checks %d\nFPS %d" % [
		BULLETS, ENEMIES, summary, pairs.size() / 2, bullet_enemy_hits,
		stats["narrow_phase_checks"], Engine.get_frames_per_second()]
	queue_redraw()
	memory.at_frame(frame)
	frame += 1
	if quit_after and frame >= quit_after:
		print(memory.report(frame - 1))
		get_tree().quit()


func _measure(broad_ms: float, core_time: float, through_engine: bool) -> void:
	(engine_ms if through_engine else node_ms).append(broad_ms)
	if not through_engine:
		core_ms.append(core_time)
	if node_ms.size() + engine_ms.size() < WINDOW:
		return
	var node_median := _median(node_ms)
	var engine_median := _median(engine_ms)
	var core_median := _median(core_ms)
	summary = "%.2f ms median, core %.2f ms (%.1fx)" % [node_median, core_median, node_median / core_median]
	print("bullet hell, medians of %d frames: node calls %.3f ms, core %.3f ms (%.2fx); the same calls on its engine %.3f ms (facade %.3f ms); frame %d, rss %d kB" % [
		node_ms.size(), node_median, core_median, node_median / core_median, engine_median, node_median - engine_median,
		frame, MemoryWatch.resident_kb()])
	node_ms.clear()
	engine_ms.clear()
	core_ms.clear()


func _median(values: Array) -> float:
	values.sort()
	return values[values.size() / 2]


func _draw() -> void:
	for i in BULLETS:
		draw_rect(Rect2(positions[i], BULLET), Color(1, 0.85, 0.3))
	for e in ENEMIES:
		draw_rect(Rect2(positions[BULLETS + e], ENEMY), Color(0.85, 0.2, 0.25), false, 2.0)
