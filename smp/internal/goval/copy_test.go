package goval_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/typedpatch/typedpatch/smp/internal/goval"
)

// TestCopyValueAsRoundTrip: a copy is what json.Unmarshal makes of
// json.Marshal's output, and shares no map, slice or pointer with its
// source, whether the source is read from memory or through reflect.
func TestCopyValueAsRoundTrip(t *testing.T) {
	root := rootOf(t)
	for name, v := range trickyTable() {
		want := roundTrip(t, v)
		for _, src := range []reflect.Value{reflect.ValueOf(v), reflect.ValueOf(&v).Elem(), reflect.ValueOf(&v)} {
			dst := reflect.New(src.Type()).Elem()
			var c goval.Copier
			err := c.CopyValue(dst, src, root.Node)
			c.Release()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got := reflect.Indirect(dst).Interface()
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(tricky{})); diff != "" {
				t.Errorf("%s (addressable %v, %v): copy differs from a JSON round trip (-want +got):\n%s", name, src.CanAddr(), src.Type(), diff)
			}
			if p, ok := shared(src, dst); ok {
				t.Errorf("%s (addressable %v, %v): copy shares %s with its source", name, src.CanAddr(), src.Type(), p)
			}
		}
	}
}

// TestCopyValueMutateCopy: writing through every map, slice and pointer
// of a copy leaves the source's JSON as it was.
func TestCopyValueMutateCopy(t *testing.T) {
	root := rootOf(t)
	for name, v := range trickyTable() {
		before, _ := json.Marshal(v)
		dst := reflect.New(reflect.TypeFor[tricky]()).Elem()
		var c goval.Copier
		if err := c.CopyValue(dst, reflect.ValueOf(&v).Elem(), root.Node); err != nil {
			t.Fatal(err)
		}
		c.Release()
		scribble(dst)
		if after, _ := json.Marshal(v); string(after) != string(before) {
			t.Errorf("%s: writing to the copy changed the source from %s to %s", name, before, after)
		}
	}
}

// refs collects the maps, slice arrays and pointers v reaches, by
// address, with the path where each is met.
func refs(v reflect.Value, path string, into map[unsafe.Pointer]string) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		into[v.UnsafePointer()] = path
		refs(v.Elem(), path, into)
	case reflect.Interface:
		if !v.IsNil() {
			refs(v.Elem(), path, into)
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		into[v.UnsafePointer()] = path
		it := v.MapRange()
		for it.Next() {
			refs(it.Value(), path+"["+it.Key().String()+"]", into)
		}
	case reflect.Slice:
		if v.Cap() > 0 {
			into[v.UnsafePointer()] = path
		}
		for i := range v.Len() {
			refs(v.Index(i), path+"[]", into)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			refs(v.Field(i), path+"."+v.Type().Field(i).Name, into)
		}
	}
}

// shared returns a map, slice or pointer both a and b reach.
func shared(a, b reflect.Value) (string, bool) {
	ra, rb := map[unsafe.Pointer]string{}, map[unsafe.Pointer]string{}
	refs(a, "", ra)
	refs(b, "", rb)
	for p, path := range rb {
		if _, ok := ra[p]; ok {
			return path, true
		}
	}
	return "", false
}

// scribble changes every settable string, number and boolean v reaches,
// and adds an entry to every map.
func scribble(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			scribble(v.Elem())
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			scribble(e)
			v.SetMapIndex(k, e)
		}
		if v.Type().Key().Kind() == reflect.String {
			v.SetMapIndex(reflect.ValueOf("scribbled").Convert(v.Type().Key()), reflect.Zero(v.Type().Elem()))
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			scribble(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				scribble(v.Field(i))
			}
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString(v.String() + "!")
		}
	case reflect.Int, reflect.Int64:
		if v.CanSet() {
			v.SetInt(v.Int() + 1)
		}
	case reflect.Uint8:
		if v.CanSet() {
			v.SetUint(v.Uint() + 1)
		}
	case reflect.Float64:
		if v.CanSet() {
			v.SetFloat(v.Float() + 1)
		}
	case reflect.Bool:
		if v.CanSet() {
			v.SetBool(!v.Bool())
		}
	}
}
