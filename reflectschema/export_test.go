package reflectschema

// ResetCache forgets every schema built, so that a test can build types
// for the first time again, in an order of its choosing.
func ResetCache() {
	buildMu.Lock()
	defer buildMu.Unlock()
	cache.Clear()
}
