extends Node2D
# The seed-002 bullet hell (Godot 3 port of ../godot4/bullet_hell.gd). Godot 3
# has no custom monitors: the node's overlay (overlay = true in the scene) and
# the HUD show the numbers.

const WORLD = Vector2(1920, 1080)
const BULLETS = 10000
const ENEMIES = 100
const BULLET = Vector2(4, 4)
const ENEMY = Vector2(32, 32)

onready var hash_node = $Hash

var positions = PoolVector2Array()
var velocities = PoolVector2Array()
var sizes = PoolVector2Array()
var ids = PoolIntArray()
var enemy_hits = PoolIntArray()
var bullet_enemy_hits = 0
var hud


func _ready():
	var n = BULLETS + ENEMIES
	positions.resize(n)
	velocities.resize(n)
	sizes.resize(n)
	enemy_hits.resize(ENEMIES)
	for i in n:
		positions[i] = Vector2(randf() * WORLD.x, randf() * WORLD.y)
		velocities[i] = Vector2(rand_range(-100, 100), rand_range(-100, 100)) if i < BULLETS else Vector2.ZERO
		sizes[i] = BULLET if i < BULLETS else ENEMY
	for e in ENEMIES:
		enemy_hits[e] = 0
	ids = hash_node.insert_batch(positions, sizes)
	var layer = CanvasLayer.new()
	add_child(layer)
	hud = Label.new()
	hud.rect_position = Vector2(8, 100)
	layer.add_child(hud)


func _process(delta):
	for i in BULLETS:
		var p = positions[i] + velocities[i] * delta
		positions[i] = Vector2(fposmod(p.x, WORLD.x), fposmod(p.y, WORLD.y))
	var start = OS.get_ticks_usec()
	hash_node.update_batch(ids, positions, sizes)
	var pairs = hash_node.get_collision_pairs_packed()
	var broad_ms = (OS.get_ticks_usec() - start) / 1000.0
	bullet_enemy_hits = 0
	for k in range(0, pairs.size(), 2):
		var a = pairs[k]
		var b = pairs[k + 1]
		# ids are the insertion order: enemies are the last ENEMIES ids.
		if (a < BULLETS) != (b < BULLETS):
			enemy_hits[max(a, b) - BULLETS] += 1
			bullet_enemy_hits += 1
	hud.text = "bullets %d, enemies %d | broad phase %.2f ms (update + pairs) | overlapping pairs %d, bullet-enemy %d | FPS %d" % [
		BULLETS, ENEMIES, broad_ms, pairs.size() / 2, bullet_enemy_hits, Engine.get_frames_per_second()]
	update()


func _draw():
	for i in BULLETS:
		draw_rect(Rect2(positions[i], BULLET), Color(1, 0.85, 0.3))
	for e in ENEMIES:
		draw_rect(Rect2(positions[BULLETS + e], ENEMY), Color(0.85, 0.2, 0.25), false, 2.0)
