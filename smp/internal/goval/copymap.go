package goval

import (
	"errors"
	"maps"
	"reflect"
	"unicode/utf8"

	"github.com/typedpatch/typedpatch/smp/internal/errpath"
)

// copyMap copies a map. Keys that are one JSON key keep the value
// json.Marshal writes last (mapkeys.go). A copy that fails runs again in
// key order from the outermost map, so that the error is the same every
// time.
func (c *Copier) copyMap(dst, src reflect.Value, n *Node) error {
	if src.IsNil() {
		return nil
	}
	if c.sorted || n.keyMode == keyText {
		return c.copyMapInOrder(dst, src, n)
	}
	c.maps++
	out, err := c.copyMapEntries(src, n)
	c.maps--
	if err == errKeyOrder || err != nil && c.maps == 0 {
		c.sorted = true
		err = c.copyMapInOrder(dst, src, n)
		c.sorted = false
		return err
	}
	if err != nil {
		return err
	}
	dst.Set(out)
	return nil
}

// errKeyOrder says that a map's keys must be copied in JSON order.
var errKeyOrder = errors.New("keys collide")

// copyMapEntries copies a map whose string keys are valid UTF-8, in any
// order.
func (c *Copier) copyMapEntries(src reflect.Value, n *Node) (reflect.Value, error) {
	if n.StringMap {
		return copyStringMap(src)
	}
	t := src.Type()
	out := reflect.MakeMapWithSize(t, src.Len())
	// The map copies in keys and values, so one of each serves every entry.
	s := c.scratch()
	k, ev := s.Take(t.Key()), s.Take(t.Elem())
	defer func() { s.Give(k); s.Give(ev) }()
	var it reflect.MapIter
	it.Reset(src)
	for it.Next() {
		k.SetIterKey(&it)
		if k.Kind() == reflect.String && !utf8.ValidString(k.String()) {
			return reflect.Value{}, errKeyOrder
		}
		ev.SetIterValue(&it)
		if err := c.copyEntry(out, k, ev, n); err != nil {
			return reflect.Value{}, err
		}
	}
	return out, nil
}

// copyStringMap copies a map convertible to map[string]string: cloned
// whole when every key and value is valid UTF-8, else entry by entry with
// the values repaired.
func copyStringMap(src reflect.Value) (reflect.Value, error) {
	in := AsStringMap(src)
	valid := true
	for k, v := range in {
		if !utf8.ValidString(k) {
			return reflect.Value{}, errKeyOrder
		}
		valid = valid && utf8.ValidString(v)
	}
	var out map[string]string
	if valid {
		out = maps.Clone(in)
	} else {
		out = make(map[string]string, len(in))
		for k, v := range in {
			out[k] = WireString(v)
		}
	}
	return reflect.ValueOf(out).Convert(src.Type()), nil
}

// copyMapInOrder copies a map's entries in json.Marshal's order.
func (c *Copier) copyMapInOrder(dst, src reflect.Value, n *Node) error {
	entries, err := jsonMapEntries(src, n)
	if err != nil {
		return err
	}
	t := src.Type()
	out := reflect.MakeMapWithSize(t, len(entries))
	ev := reflect.New(t.Elem()).Elem()
	for _, e := range entries {
		key := e.key
		switch {
		case n.keyMode == keyText:
			if key, err = MapKeyFromText(e.text, t.Key(), nil); err != nil {
				return err
			}
		case key.Kind() == reflect.String:
			key = reflect.New(t.Key()).Elem()
			key.SetString(e.text)
		}
		ev.Set(src.MapIndex(e.key))
		if err := c.copyEntry(out, key, ev, n); err != nil {
			return err
		}
	}
	dst.Set(out)
	return nil
}

// copyEntry copies value ev of key k into map out. Plain data is copied
// already, a marshaller's value met before is replaced in place, anything
// else is copied from ev into a new value.
func (c *Copier) copyEntry(out, k, ev reflect.Value, n *Node) error {
	v := ev
	if !copiedInPlace(ev, n.Elem) && !c.recall(ev, ev, n.Elem) {
		v = reflect.New(out.Type().Elem()).Elem()
		if err := c.CopyValue(v, Detach(ev, n.Elem), n.Elem); err != nil {
			return under(err, errpath.FieldStep(WireString(FmtKey(k))))
		}
	}
	out.SetMapIndex(k, v)
	return nil
}

// copiedInPlace reports whether a shallow copy of a value is the copy
// wanted: a marshaller of plain data.
func copiedInPlace(v reflect.Value, n *Node) bool {
	return n.Marshaler && n.plainCopy && v.Kind() != reflect.Pointer
}
