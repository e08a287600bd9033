package property

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// Reading generated values: element identities, key text, emptiness,
// map order, deep copies.

// elemID identifies a merge-list element by its whole key (objects) or
// its value (scalars), as JSON text; an absent key field has its own mark.
func elemID(e reflect.Value, n node) string {
	if !n.isObjectList() {
		return jsonText(e)
	}
	var b bytes.Buffer
	for _, f := range n.fullKey() {
		b.WriteString(keyFieldText(e, f))
		b.WriteByte(0)
	}
	return b.String()
}

// keyFieldText returns the JSON text of an element's key field, or a mark
// when the field is absent from its encoding.
func keyFieldText(e reflect.Value, name string) string {
	for e.Kind() == reflect.Pointer || e.Kind() == reflect.Interface {
		if e.IsNil() {
			return absentText
		}
		e = e.Elem()
	}
	switch e.Kind() {
	case reflect.Map:
		v := e.MapIndex(reflect.ValueOf(name).Convert(e.Type().Key()))
		if !v.IsValid() {
			return absentText
		}
		return jsonText(v)
	case reflect.Struct:
		st, err := reflectschema.Of(e.Type())
		if err != nil {
			return absentText
		}
		f := st.Field(name)
		if f == nil {
			return absentText
		}
		fv, ok := fieldGet(e, f.Index)
		if !ok || (f.OmitEmpty && isEmptyValue(fv)) || (f.OmitZero && fv.IsZero()) {
			return absentText
		}
		if fv.Kind() == reflect.Pointer && fv.IsNil() {
			return absentText
		}
		return jsonText(fv)
	}
	return absentText
}

func jsonText(v reflect.Value) string {
	b, err := json.Marshal(v.Interface())
	if err != nil {
		return "\x02" + err.Error()
	}
	return string(b)
}

// isEmptyValue is encoding/json's omitempty test.
func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64,
		reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// sortedKeys returns a map's keys in a fixed order, so that draws do not
// depend on map iteration.
func sortedKeys(m reflect.Value) []reflect.Value {
	keys := m.MapKeys()
	sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i].Interface()) < fmt.Sprint(keys[j].Interface()) })
	return keys
}

// deepCopy copies a value so that no map, slice or pointer is shared.
func deepCopy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return reflect.New(v.Type()).Elem()
		}
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(deepCopy(v.Elem()))
		out := reflect.New(v.Type()).Elem()
		out.Set(p)
		return out
	case reflect.Slice:
		if v.IsNil() {
			return reflect.New(v.Type()).Elem()
		}
		s := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			s.Index(i).Set(deepCopy(v.Index(i)))
		}
		return s
	case reflect.Map:
		if v.IsNil() {
			return reflect.New(v.Type()).Elem()
		}
		m := reflect.MakeMapWithSize(v.Type(), v.Len())
		iter := v.MapRange()
		for iter.Next() {
			m.SetMapIndex(iter.Key(), deepCopy(iter.Value()))
		}
		return m
	case reflect.Struct:
		s := reflect.New(v.Type()).Elem()
		s.Set(v)
		for i := range v.NumField() {
			if f := s.Field(i); f.CanSet() {
				f.Set(deepCopy(v.Field(i)))
			}
		}
		return s
	case reflect.Interface:
		out := reflect.New(v.Type()).Elem()
		if !v.IsNil() {
			out.Set(deepCopy(v.Elem()))
		}
		return out
	case reflect.Array:
		a := reflect.New(v.Type()).Elem()
		for i := range v.Len() {
			a.Index(i).Set(deepCopy(v.Index(i)))
		}
		return a
	}
	out := reflect.New(v.Type()).Elem()
	out.Set(v)
	return out
}
