package smp_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/smp"
)

// The typed API is checked against the JSON engine: the typed result must
// equal what the JSON entry points give for the values' json.Marshal'd
// documents (decoded, then json.Unmarshal'd into T for Apply).

// typedTB is what the checks need of a test: *testing.T and *rapid.T.
type typedTB interface {
	require.TestingT
	Helper()
	Fatalf(format string, args ...any)
	Logf(format string, args ...any)
}

// typedDecode decodes JSON with UseNumber, for comparing patches.
func typedDecode(t typedTB, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	require.NoError(t, dec.Decode(&v), "%s", data)
	return v
}

func typedMarshal(t typedTB, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	require.NoError(t, err)
	return data
}

// typedPatchJSON decodes a typed patch's wire form.
func typedPatchJSON(t typedTB, p smp.Patch) any {
	t.Helper()
	return typedDecode(t, typedMarshal(t, p))
}

// typedErrKinds reports the kinds of two errors, to compare failures.
func typedSameFailure(t typedTB, typedErr, jsonErr error) {
	t.Helper()
	if jsonErr == nil {
		require.NoError(t, typedErr)
		return
	}
	require.Error(t, typedErr, "the JSON engine fails with %v", jsonErr)
	require.Equal(t, smp.KindOf(jsonErr), smp.KindOf(typedErr), "typed: %v\nJSON: %v", typedErr, jsonErr)
}

// checkTypedDiff compares Diff with DiffJSON and returns the patch.
func checkTypedDiff[T any](t typedTB, original, modified T, opts ...smp.Option) smp.Patch {
	t.Helper()
	got, err := smp.Diff(original, modified, opts...)
	want, jerr := smp.DiffJSON(typedMarshal(t, original), typedMarshal(t, modified), *new(T), opts...)
	typedSameFailure(t, err, jerr)
	if jerr != nil {
		return smp.Patch{}
	}
	if d := cmp.Diff(typedDecode(t, want), typedPatchJSON(t, got)); d != "" {
		t.Fatalf("Diff differs from DiffJSON (-json +typed):\n%s\noriginal: %s\nmodified: %s", d, typedMarshal(t, original), typedMarshal(t, modified))
	}
	return got
}

// checkTypedThreeWay compares ThreeWay with ThreeWayJSON.
func checkTypedThreeWay[T any](t typedTB, original, modified, current T, opts ...smp.Option) (smp.Patch, error) {
	t.Helper()
	got, err := smp.ThreeWay(original, modified, current, opts...)
	want, jerr := smp.ThreeWayJSON(typedMarshal(t, original), typedMarshal(t, modified), typedMarshal(t, current), *new(T), opts...)
	typedSameFailure(t, err, jerr)
	if jerr != nil {
		if smp.IsConflict(jerr) {
			var te, je *smp.Error
			require.ErrorAs(t, err, &te)
			require.ErrorAs(t, jerr, &je)
			require.Equal(t, je.Error(), te.Error())
			require.Equal(t, je.Conflicts, te.Conflicts)
		}
		return smp.Patch{}, err
	}
	if d := cmp.Diff(typedDecode(t, want), typedPatchJSON(t, got)); d != "" {
		t.Fatalf("ThreeWay differs from ThreeWayJSON (-json +typed):\n%s\noriginal: %s\nmodified: %s\ncurrent: %s", d,
			typedMarshal(t, original), typedMarshal(t, modified), typedMarshal(t, current))
	}
	return got, nil
}

// checkTypedApply compares Apply with ApplyJSON followed by json.Unmarshal.
func checkTypedApply[T any](t typedTB, current T, patch smp.Patch, opts ...smp.Option) (T, error) {
	t.Helper()
	got, err := smp.Apply(current, patch, opts...)
	var want T
	data, jerr := smp.ApplyJSON(typedMarshal(t, current), typedMarshal(t, patch), *new(T), opts...)
	if jerr != nil {
		// The engine's own error: the typed one must be the same.
		require.Error(t, err, "ApplyJSON fails with %v", jerr)
		require.Equal(t, smp.KindOf(jerr), smp.KindOf(err), "typed: %v\nJSON: %v", err, jerr)
		if smp.KindOf(jerr) != smp.ErrRetainKeys && smp.KindOf(jerr) != smp.ErrLimit {
			// (Which field breaks $retainKeys, or a limit, is the first
			// the engine meets in a map: it varies from run to run.)
			require.Equal(t, jerr.Error(), err.Error())
		}
	} else {
		jerr = json.Unmarshal(data, &want)
	}
	if jerr == nil {
		require.NoError(t, err, "ApplyJSON gives %s", data)
	} else {
		require.Error(t, err, "the JSON path fails with %v", jerr)
		var zero T
		require.True(t, cmp.Equal(zero, got), "a failed Apply returns the zero value")
		return got, err
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("Apply differs from ApplyJSON+Unmarshal (-json +typed):\n%s\ncurrent: %s\npatch: %s", d, typedMarshal(t, current), typedMarshal(t, patch))
	}
	return got, nil
}

func typedMustParse(t typedTB, s string) smp.Patch {
	t.Helper()
	p, err := smp.ParsePatch([]byte(s))
	require.NoError(t, err)
	return p
}

// typedClone deep-copies a value exactly: nil and empty stay apart, and
// structs are copied whole (so unexported fields come along) before their
// exported pointers, slices and maps are copied in turn.
func typedClone[T any](v T) T {
	var out T
	src := reflect.ValueOf(&v).Elem()
	dst := reflect.ValueOf(&out).Elem()
	typedCloneInto(dst, src)
	return out
}

func typedCloneInto(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		p := reflect.New(src.Type().Elem())
		typedCloneInto(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := range src.Len() {
			typedCloneInto(s.Index(i), src.Index(i))
		}
		dst.Set(s)
	case reflect.Map:
		if src.IsNil() {
			return
		}
		m := reflect.MakeMapWithSize(src.Type(), src.Len())
		it := src.MapRange()
		for it.Next() {
			e := reflect.New(src.Type().Elem()).Elem()
			typedCloneInto(e, it.Value())
			m.SetMapIndex(it.Key(), e)
		}
		dst.Set(m)
	case reflect.Struct:
		dst.Set(src)
		for i := range src.NumField() {
			if dst.Field(i).CanSet() {
				dst.Field(i).SetZero()
				typedCloneInto(dst.Field(i), src.Field(i))
			}
		}
	case reflect.Interface:
		if src.IsNil() {
			return
		}
		e := reflect.New(src.Elem().Type()).Elem()
		typedCloneInto(e, src.Elem())
		dst.Set(e)
	case reflect.Array:
		for i := range src.Len() {
			typedCloneInto(dst.Index(i), src.Index(i))
		}
	default:
		dst.Set(src)
	}
}

// typedMutableParts collects the addresses of every pointer target, slice
// array and map a value reaches, to find values two trees share.
func typedMutableParts(v reflect.Value, into map[uintptr]string, path string) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || v.Type() == reflect.TypeFor[*time.Location]() {
			return // a time's location is immutable, and shared by design
		}
		into[v.Pointer()] = path
		typedMutableParts(v.Elem(), into, path)
	case reflect.Slice:
		if v.IsNil() || v.Cap() == 0 {
			return
		}
		into[v.Pointer()] = path
		for i := range v.Len() {
			typedMutableParts(v.Index(i), into, fmt.Sprintf("%s[%d]", path, i))
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		into[v.Pointer()] = path
		it := v.MapRange()
		for it.Next() {
			typedMutableParts(it.Value(), into, fmt.Sprintf("%s[%v]", path, it.Key()))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			typedMutableParts(v.Field(i), into, path+"."+v.Type().Field(i).Name)
		}
	case reflect.Interface:
		if !v.IsNil() {
			typedMutableParts(v.Elem(), into, path)
		}
	case reflect.Array:
		for i := range v.Len() {
			typedMutableParts(v.Index(i), into, fmt.Sprintf("%s[%d]", path, i))
		}
	}
}

// requireTypedNoSharing fails when b reaches a pointer, slice or map a reaches.
func requireTypedNoSharing(t typedTB, a, b any) {
	t.Helper()
	pa, pb := map[uintptr]string{}, map[uintptr]string{}
	typedMutableParts(reflect.ValueOf(a), pa, "current")
	typedMutableParts(reflect.ValueOf(b), pb, "result")
	for p, where := range pb {
		if other, ok := pa[p]; ok {
			t.Fatalf("the result shares %s with %s", where, other)
		}
	}
}
