package goval

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
)

// Map keys as JSON sees them. encoding/json writes a map's entries sorted
// by their keys' text (a string key's own bytes), and each key with the
// bytes that are not UTF-8 replaced by U+FFFD: two Go keys that differ
// only there become one JSON key, written twice, and decoding keeps the
// last. So of keys that collide, the greatest (by bytes) wins, and the
// walks here follow that rule wherever keys are not all valid UTF-8.
// Keys of a type with a MarshalText method whose texts are equal are
// ordered by their %#v.

// mapEntry is a map key and its JSON text.
type mapEntry struct {
	key  reflect.Value
	raw  string // the text before UTF-8 repair, which json.Marshal sorts by
	text string
}

// jsonMapEntries returns a map's keys in the order json.Marshal writes
// them: a later entry with the same text overrides an earlier one.
func jsonMapEntries(v reflect.Value, n *Node) ([]mapEntry, error) {
	out := make([]mapEntry, 0, v.Len())
	it := v.MapRange()
	for it.Next() {
		k := it.Key()
		raw, err := rawKeyText(k, n)
		if err != nil {
			return nil, err
		}
		out = append(out, mapEntry{key: k, raw: raw, text: WireString(raw)})
	}
	slices.SortFunc(out, func(a, b mapEntry) int {
		if c := strings.Compare(a.raw, b.raw); c != 0 || n.keyMode != keyText {
			return c
		}
		return strings.Compare(fmt.Sprintf("%#v", a.key), fmt.Sprintf("%#v", b.key))
	})
	return out, nil
}

// rawKeyText is MapKeyText before UTF-8 repair.
func rawKeyText(k reflect.Value, n *Node) (string, error) {
	if n.keyMode == keyString {
		return k.String(), nil
	}
	if n.keyMode == keyText && !(k.Kind() == reflect.Pointer && k.IsNil()) {
		b, err := k.Interface().(interface{ MarshalText() ([]byte, error) }).MarshalText()
		if err != nil {
			return "", newError(errpath.ErrInvalidValue, nil, "cannot encode map key of %s: %v", k.Type(), err)
		}
		return string(b), nil
	}
	return MapKeyText(k, n)
}

// KeysCollide reports whether a map's keys may not be one JSON key each,
// or differ from their JSON text: a string key that is not UTF-8, or any
// key with a MarshalText method.
func (s *Scratch) KeysCollide(v reflect.Value, n *Node) bool {
	switch {
	case n.keyMode == keyText:
		return v.Len() > 0
	case n.keyMode != keyString:
		return false
	case n.StringMap:
		for k := range AsStringMap(v) {
			if !utf8.ValidString(k) {
				return true
			}
		}
		return false
	}
	collide := false
	s.EachKey(v, func(k reflect.Value) bool {
		collide = !utf8.ValidString(k.String())
		return !collide
	})
	return collide
}

// PairJSON converts an original and a modified value of node n.
func PairJSON(o, m reflect.Value, n *Node) (oj, mj any, err error) {
	if oj, err = ToJSONValue(o, n, false); err != nil {
		return nil, nil, err
	}
	if mj, err = ToJSONValue(m, n, false); err != nil {
		return nil, nil, err
	}
	return oj, mj, nil
}

// StringKeys reports a map whose keys are strings (of any string type),
// each its own JSON text when it is valid UTF-8.
func (n *Node) StringKeys() bool { return n.Kind == reflectschema.Map && n.keyMode == keyString }
