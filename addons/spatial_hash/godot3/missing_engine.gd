extends Reference
# What a SpatialHash2D or SpatialHash3D node holds when it could not make its Python engine:
# every call answers why (so every method of the node reports it), and the
# engine's method numbers all read as 0.

var why: String


func _init(reason: String) -> void:
	why = reason


func run(_a = null, _b = null, _c = null, _d = null, _e = null, _f = null, _g = null, _h = null,
		_i = null, _j = null, _k = null):
	return why


func _get(_method):
	return 0
