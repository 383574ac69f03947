extends Node2D
# Per-object calls of SpatialHash2D against the plain GDScript hash a game
# would write itself (gdscript_hash.gd), per call, in the same run: 5,000 nodes
# (8x8 boxes 32 units apart, cells of 64) inserted, moved and removed one call
# at a time, and queries with about 10 results. Each figure is the best of
# ROUNDS rounds, and includes the node's one call that hands its held calls
# over (the first query after them), and BATCH windows answered by one
# query_range_batch call against as many single calls. Prints one line per call and
# "PER-OBJECT OK" if both gave the same answers; quits when done.
# `--frames=N` runs the node's per-object calls instead for N frames, to show
# that they keep no memory: each frame moves SOAK_MOVES nodes one call at a
# time, takes one node out and puts it back, and makes SOAK_QUERIES of each
# query; it then prints the memory line (memory_watch.gd).

const N = 5000
const ROWS = 71
const SPACING = 32.0
const BOX = Vector2(8, 8)
const ROUNDS = 5
const QUERIES = 2000
const BATCH = 1000                # windows in one query_range_batch call
const BATCH_CALLS = 2            # timed together: as many windows as the single calls' QUERIES
const SOAK_MOVES = 1000
const SOAK_QUERIES = 20
const GDScriptHash = preload("res://gdscript_hash.gd")
const MemoryWatch = preload("res://memory_watch.gd")

onready var hash_node = $Hash
var nodes := []
var positions := PoolVector2Array()
var best := {}
var same := true
var frame := 0
var quit_after := 0
var found := 0
var memory = MemoryWatch.new()


func _ready() -> void:
	for i in N:
		var node := Node2D.new()
		add_child(node)
		nodes.append(node)
		positions.append(Vector2(i % ROWS, i / ROWS) * SPACING + Vector2(3, 3))
	for arg in OS.get_cmdline_args():
		if arg.begins_with("--frames="):
			quit_after = int(arg.substr(9, -1))
	if quit_after:
		for i in N:
			hash_node.insert(nodes[i], positions[i], BOX)
		return
	set_process(false)
	for round_number in ROUNDS:
		_round()
	for call in ["insert", "update", "remove", "query_nearby", "query_range", "query_radius"]:
		var ours: float = best["node " + call]
		var theirs: float = best["gdscript " + call]
		print("per-object %s: node %.2f us, GDScript hash %.2f us (%.2fx)" % [call, ours, theirs, ours / theirs])
	print("per-object query_range, where its time goes: node %.2f us = face %.2f us + engine call %.2f us (a call doing nothing %.2f us, the core %.2f us, the rest in the engine's Python %.2f us)" % [
		best["node query_range"], best["node query_range"] - best["engine query_range"], best["engine query_range"],
		best["engine call doing nothing"], best["core query_range"],
		best["engine query_range"] - best["engine call doing nothing"] - best["core query_range"]])
	var batch: float = best["node query_range_batch"]
	print("per-object query_range_batch: node %.2f us a window, %d windows a call (%.3fx its single query_range calls, %.2fx the GDScript hash's)" % [
		batch, BATCH, batch / best["node query_range"], batch / best["gdscript query_range"]])
	print("PER-OBJECT OK" if same else "PER-OBJECT answers differ")
	get_tree().quit(0 if same else 1)


func _process(_delta: float) -> void:
	var offset := Vector2(5, 3) if frame % 2 == 0 else Vector2.ZERO
	for k in SOAK_MOVES:
		var i: int = (frame * SOAK_MOVES + k) % N
		hash_node.update_object(nodes[i], Rect2(positions[i] + offset, BOX))
	var j: int = frame % N
	hash_node.remove(nodes[j])
	hash_node.insert(nodes[j], positions[j], BOX)
	var size := Vector2(SPACING * 1.5, SPACING)
	for q in SOAK_QUERIES:
		var c: Vector2 = positions[(frame * 31 + q * 7919) % N] + Vector2(13, 17)
		found += hash_node.query_nearby(c, size).size()
		found += hash_node.query_range(Rect2(c, size), true).size()
		found += hash_node.query_radius(c, 56.0).size()
		found += hash_node.query_point(c).size()
		found += hash_node.query_nearest(c, 4).size()
		found += hash_node.raycast_all(c, c + Vector2(200, 90)).size()
		found += int(not hash_node.raycast(c, c + Vector2(200, 90)).empty())
	memory.at_frame(frame)
	frame += 1
	if frame >= quit_after:
		print("per-object soak: %d frames, %d objects found" % [frame, found])
		print(memory.report(frame - 1))
		get_tree().quit()


func _round() -> void:
	var gd = GDScriptHash.new(hash_node.cell_size)
	var far := Rect2(-1e6, -1e6, 1, 1)
	var moved := Vector2(5, 3)
	var start := OS.get_ticks_usec()
	for i in N:
		hash_node.insert(nodes[i], positions[i], BOX)
	hash_node.query_range(far)
	_note("node insert", start, N)
	start = OS.get_ticks_usec()
	for i in N:
		gd.insert(nodes[i], Rect2(positions[i], BOX))
	gd.query_range(far)
	_note("gdscript insert", start, N)
	start = OS.get_ticks_usec()
	for i in N:
		hash_node.update_object(nodes[i], Rect2(positions[i] + moved, BOX))
	hash_node.query_range(far)
	_note("node update", start, N)
	start = OS.get_ticks_usec()
	for i in N:
		gd.update(nodes[i], Rect2(positions[i] + moved, BOX))
	gd.query_range(far)
	_note("gdscript update", start, N)
	_queries(gd)
	start = OS.get_ticks_usec()
	for i in N:
		hash_node.remove(nodes[i])
	hash_node.query_range(far)
	_note("node remove", start, N)
	start = OS.get_ticks_usec()
	for i in N:
		gd.remove(nodes[i])
	gd.query_range(far)
	_note("gdscript remove", start, N)


func _queries(gd) -> void:
	var centers := PoolVector2Array()
	for q in QUERIES:
		centers.append(positions[(q * 7919) % N] + Vector2(13, 17))
	var size := Vector2(SPACING * 1.5, SPACING)     # 2 to 4 cells: 8 to 16 objects
	var radius := 56.0                               # about 10 boxes
	var results := {}
	for who in ["node", "gdscript"]:
		var counted := 0
		var start := OS.get_ticks_usec()
		for c in centers:
			counted += (hash_node.query_nearby(c, size) if who == "node" else gd.query_range(Rect2(c, size))).size()
		_note(who + " query_nearby", start, QUERIES)
		results[who + " nearby"] = counted
		counted = 0
		start = OS.get_ticks_usec()
		for c in centers:
			counted += (hash_node.query_range(Rect2(c, size)) if who == "node" else gd.query_range(Rect2(c, size))).size()
		_note(who + " query_range", start, QUERIES)
		results[who + " range"] = counted
		counted = 0
		start = OS.get_ticks_usec()
		for c in centers:
			counted += (hash_node.query_radius(c, radius) if who == "node" else gd.query_radius(c, radius)).size()
		_note(who + " query_radius", start, QUERIES)
		results[who + " radius"] = counted
	var windows := PoolVector2Array()
	var sizes := PoolVector2Array()
	for k in BATCH:
		windows.append(centers[k])
		sizes.append(size)
	var batch_start := OS.get_ticks_usec()
	for call in BATCH_CALLS - 1:
		hash_node.query_range_batch(windows, sizes)
	var batch: Dictionary = hash_node.query_range_batch(windows, sizes)
	_note("node query_range_batch", batch_start, BATCH * BATCH_CALLS)
	var offsets: PoolIntArray = batch["offsets"]
	for k in BATCH:
		var single: Array = hash_node.query_range(Rect2(windows[k], size))
		var answered := []
		for j in range(offsets[k], offsets[k + 1]):
			answered.append(batch["objects"][j])
		if answered != single:
			same = false
			printerr("PER-OBJECT query_range_batch: window %d found %s, query_range %s" % [k, answered, single])
			break
	# Where one query_range's time goes: the engine's own call (no face), a call
	# that does nothing (the plugin's crossing and the engine's dispatch), and
	# the core's time as the engine measures it.
	var engine = hash_node._engine
	var op = hash_node._op
	var call_start := OS.get_ticks_usec()
	for c in centers:
		engine.run(op.query_range, c.x, c.y, size.x, size.y, false, hash_node.ALL_LAYERS)
	_note("engine query_range", call_start, QUERIES)
	call_start = OS.get_ticks_usec()
	for c in centers:
		engine.run(op.safe_bound)
	_note("engine call doing nothing", call_start, QUERIES)
	var core_us := 0.0
	for c in centers:
		engine.run(op.query_range, c.x, c.y, size.x, size.y, false, hash_node.ALL_LAYERS)
		core_us += 1000.0 * hash_node.get_stats()["last_query_ms"]
	best["core query_range"] = min(best.get("core query_range", INF), core_us / QUERIES)
	for kind in ["nearby", "range", "radius"]:
		if results["node " + kind] != results["gdscript " + kind]:
			same = false
			printerr("PER-OBJECT %s: node found %d, GDScript hash %d" % [kind, results["node " + kind], results["gdscript " + kind]])
	if not best.has("results"):
		best["results"] = true
		print("per-object queries: %.1f results each on average (nearby, range), %.1f (radius)" % [
			results["node nearby"] / float(QUERIES), results["node radius"] / float(QUERIES)])


func _note(what: String, start: int, calls: int) -> void:
	var us := (OS.get_ticks_usec() - start) / float(calls)
	best[what] = min(best.get(what, INF), us)
