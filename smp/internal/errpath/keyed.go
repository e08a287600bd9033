package errpath

// KeyedErr keeps, of the errors met under the keys of one object, the one
// under the least key: the one a walk in key order meets first, whatever
// order the map is visited in. Err is that error.
type KeyedErr struct {
	key string
	Err error
}

// Keep records err, met under key k, if it is the least key's so far.
func (e *KeyedErr) Keep(k string, err error) {
	if err != nil && (e.Err == nil || k < e.key) {
		e.key, e.Err = k, err
	}
}
