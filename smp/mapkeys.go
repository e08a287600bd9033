package smp

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"
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
func jsonMapEntries(v reflect.Value, n *tnode) ([]mapEntry, error) {
	out := make([]mapEntry, 0, v.Len())
	it := v.MapRange()
	for it.Next() {
		k := it.Key()
		raw, err := rawKeyText(k, n)
		if err != nil {
			return nil, err
		}
		out = append(out, mapEntry{key: k, raw: raw, text: wireString(raw)})
	}
	slices.SortFunc(out, func(a, b mapEntry) int {
		if c := strings.Compare(a.raw, b.raw); c != 0 || n.keyMode != keyText {
			return c
		}
		return strings.Compare(fmt.Sprintf("%#v", a.key), fmt.Sprintf("%#v", b.key))
	})
	return out, nil
}

// rawKeyText is mapKeyText before UTF-8 repair.
func rawKeyText(k reflect.Value, n *tnode) (string, error) {
	if n.keyMode == keyString {
		return k.String(), nil
	}
	if n.keyMode == keyText && !(k.Kind() == reflect.Pointer && k.IsNil()) {
		b, err := k.Interface().(interface{ MarshalText() ([]byte, error) }).MarshalText()
		if err != nil {
			return "", newError(ErrInvalidValue, nil, "cannot encode map key of %s: %v", k.Type(), err)
		}
		return string(b), nil
	}
	return mapKeyText(k, n)
}

// keysCollide reports whether a map's keys may not be one JSON key each,
// or differ from their JSON text: a string key that is not UTF-8, or any
// key with a MarshalText method.
func (s *scratch) keysCollide(v reflect.Value, n *tnode) bool {
	switch {
	case n.keyMode == keyText:
		return v.Len() > 0
	case n.keyMode != keyString:
		return false
	case n.stringMap:
		for k := range asStringMap(v) {
			if !utf8.ValidString(k) {
				return true
			}
		}
		return false
	}
	collide := false
	s.eachKey(v, func(k reflect.Value) bool {
		collide = !utf8.ValidString(k.String())
		return !collide
	})
	return collide
}

// diffMapJSON diffs two maps whose keys may collide in JSON through their
// JSON, as DiffJSON diffs what json.Marshal writes for them.
func (d *tdiffer) diffMapJSON(o, m reflect.Value, n *tnode, s slot) (map[string]any, bool, error) {
	oj, mj, err := pairJSON(o, m, n)
	if err != nil {
		return nil, false, err
	}
	if d.withBase() {
		saved := d.differ.base
		defer func() { d.differ.base = saved }()
		d.differ.base = nil
		if d.tbase.IsValid() {
			if d.differ.base, err = toJSONValue(d.tbase, n, false); err != nil {
				return nil, false, err
			}
		}
	}
	p, up, err := d.diffObject(oj.(map[string]any), mj.(map[string]any), s, nil)
	if len(p) == 0 {
		p = nil
	}
	return p, up, err
}

// pairJSON converts an original and a modified value of node n.
func pairJSON(o, m reflect.Value, n *tnode) (oj, mj any, err error) {
	if oj, err = toJSONValue(o, n, false); err != nil {
		return nil, nil, err
	}
	if mj, err = toJSONValue(m, n, false); err != nil {
		return nil, nil, err
	}
	return oj, mj, nil
}
