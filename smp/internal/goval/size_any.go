package goval

import (
	"reflect"
	"slices"
	"strings"

	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// The measure of values held in interfaces: decoded maps and slices, Go
// values by their type's plan, and values of types without one.

// anyValue measures the dynamic value of an interface: decoded shapes
// directly, other Go values by their type's plan, or by reflection where
// the type has none.
func (m *measure) anyValue(x any, depth int) (int, error) {
	if depth > jsonval.MaxNesting {
		return 0, nil
	}
	switch x := x.(type) {
	case nil, string, bool, float64:
		return 0, nil
	case map[string]any:
		return m.anyComposite(reflect.ValueOf(x), depth, func() error {
			if err := m.take(1 + len(x)); err != nil {
				return err
			}
			if m.sorted {
				for _, k := range jsonval.SortedKeys(x) {
					if _, err := m.anyValue(x[k], depth+1); err != nil {
						return under(err, errpath.FieldStep(k))
					}
				}
				return nil
			}
			for k, e := range x {
				if _, err := m.anyValue(e, depth+1); err != nil {
					return under(err, errpath.FieldStep(k))
				}
			}
			return nil
		})
	case []any:
		return m.anyComposite(reflect.ValueOf(x), depth, func() error {
			if err := m.take(1 + len(x)); err != nil {
				return err
			}
			for i, e := range x {
				if _, err := m.anyValue(e, depth+1); err != nil {
					return under(err, errpath.IndexStep(i))
				}
			}
			return nil
		})
	}
	v := reflect.ValueOf(x)
	switch v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Array, reflect.Struct, reflect.Interface:
	default:
		return 0, nil
	}
	n, err := m.planOf(v.Type())
	if err != nil {
		return m.reflected(v, depth)
	}
	return m.typed(v, n, depth)
}

// anyComposite measures a decoded map or slice v with body, once per
// value once values are remembered.
func (m *measure) anyComposite(v reflect.Value, depth int, body func() error) (int, error) {
	from := m.spent
	key, done, err := m.enter(v)
	if done || err != nil {
		return m.spent - from, err
	}
	if err := body(); err != nil {
		return m.spent - from, err
	}
	m.leave(key, from)
	return m.spent - from, nil
}

// reflected measures a Go value whose type has no plan (its fields
// conflict, say) by its kinds alone: every exported field, entry and
// element.
func (m *measure) reflected(v reflect.Value, depth int) (int, error) {
	if depth > jsonval.MaxNesting {
		return 0, nil
	}
	from := m.spent
	key, done, err := m.enter(v)
	if done || err != nil {
		return m.spent - from, err
	}
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			m.leave(key, from)
			return m.spent - from, nil
		}
		v = v.Elem()
	}
	err = m.reflectedBody(v, depth)
	if err == nil {
		m.leave(key, from)
	}
	return m.spent - from, err
}

func (m *measure) reflectedBody(v reflect.Value, depth int) error {
	switch v.Kind() {
	case reflect.Struct:
		if err := m.take(1 + v.NumField()); err != nil {
			return err
		}
		t := v.Type()
		for i := range v.NumField() {
			if !t.Field(i).IsExported() {
				continue
			}
			if _, err := m.reflected(v.Field(i), depth+1); err != nil {
				return under(err, errpath.FieldStep(t.Field(i).Name))
			}
		}
	case reflect.Map:
		if err := m.take(1 + v.Len()); err != nil {
			return err
		}
		return m.eachEntry(v, func(k, e reflect.Value) error {
			_, err := m.reflected(e, depth+1)
			return err
		})
	case reflect.Slice, reflect.Array:
		if err := m.take(1 + v.Len()); err != nil || v.Type().Elem().Kind() == reflect.Uint8 {
			return err
		}
		for i := range v.Len() {
			if _, err := m.reflected(v.Index(i), depth+1); err != nil {
				return under(err, errpath.IndexStep(i))
			}
		}
	}
	return nil
}

// planOf returns the plan of a dynamic value's type, remembered for the
// walk.
func (m *measure) planOf(t reflect.Type) (*Node, error) {
	if n, ok := m.plans[t]; ok {
		return n, nil
	}
	n, err := planOfGo(t)
	if err != nil {
		return nil, err
	}
	if m.plans == nil {
		m.plans = map[reflect.Type]*Node{}
	}
	m.plans[t] = n
	return n, nil
}

// eachEntry calls f on a map's entries, in the order of their keys' text
// when the walk is sorted, and names the entry in f's error.
func (m *measure) eachEntry(v reflect.Value, f func(k, e reflect.Value) error) error {
	if !m.sorted {
		it := v.MapRange()
		for it.Next() {
			if err := f(it.Key(), it.Value()); err != nil {
				return under(err, errpath.FieldStep(FmtKey(it.Key())))
			}
		}
		return nil
	}
	keys := v.MapKeys()
	texts := make([]string, len(keys))
	order := make([]int, len(keys))
	for i, k := range keys {
		texts[i], order[i] = FmtKey(k), i
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(texts[a], texts[b]) })
	for _, i := range order {
		if err := f(keys[i], v.MapIndex(keys[i])); err != nil {
			return under(err, errpath.FieldStep(texts[i]))
		}
	}
	return nil
}
