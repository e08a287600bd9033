package smp_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp"
)

// The rules the typed fuzz targets check, on the JSON of typed values.
// Two-way results compare as the type sees them: encoding/json's output of
// the values, byte for byte (nil and empty collections apart where the
// type keeps them apart); three-way results compare with nil ≡ empty, as
// docs/compat.md says three-way patches treat them (kubernetes#48164).

// fuzzUnaddressable reports whether a document holds what no patch can
// say, so that the round trip cannot hold there: a merge-list element
// lacking a key field (MissingMergeKey; property RoundTrip's exception),
// or a map key starting with "$", which a patch reads as a directive
// (property's generators draw none).
func fuzzUnaddressable[T any](t *testing.T, docs ...[]byte) bool {
	t.Helper()
	st := fuzzSchema[T](t)
	for _, doc := range docs {
		v := fuzzJSON(t, doc)
		if missing, _ := fuzzKeyProblems(v, st, ""); missing != "" || fuzzDollarKey(v) {
			return true
		}
	}
	return false
}

// fuzzDollarKey reports whether a typed value's JSON holds a key starting
// with "$": only a map's data key can.
func fuzzDollarKey(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if strings.HasPrefix(k, "$") || fuzzDollarKey(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if fuzzDollarKey(e) {
				return true
			}
		}
	}
	return false
}

func fuzzSchema[T any](t *testing.T) *reflectschema.Type {
	st, err := reflectschema.For[T]()
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// fuzzJSON decodes JSON with UseNumber; it fails the test on bad JSON.
func fuzzJSON(t *testing.T, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("not JSON: %v: %s", err, data)
	}
	return v
}

// fuzzKeyProblems returns the path of a merge-list element lacking a key
// field (or holding it as null), and of a merge list repeating a key.
func fuzzKeyProblems(v any, st *reflectschema.Type, path string) (missing, dup string) {
	record := func(m, d string) {
		if missing == "" {
			missing = m
		}
		if dup == "" {
			dup = d
		}
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			switch st.Kind {
			case reflectschema.Struct:
				f := st.Field(k)
				if f == nil {
					continue
				}
				if l, ok := e.([]any); ok && f.Patch.IsMergeList() && len(f.Patch.MergeKey) > 0 {
					record(fuzzListKeys(l, f.Patch.MergeKey, path+"."+k))
				}
				record(fuzzKeyProblems(e, f.Type, path+"."+k))
			case reflectschema.Map:
				record(fuzzKeyProblems(e, st.Elem, path+"."+k))
			}
		}
	case []any:
		if st.Kind == reflectschema.List {
			for i, e := range x {
				record(fuzzKeyProblems(e, st.Elem, fmt.Sprintf("%s[%d]", path, i)))
			}
		}
	}
	return missing, dup
}

func fuzzListKeys(l []any, keys []string, path string) (missing, dup string) {
	seen := map[string]bool{}
	for i, e := range l {
		m, _ := e.(map[string]any)
		var id []string
		for _, k := range keys {
			kv, ok := m[k]
			if !ok || kv == nil {
				if missing == "" {
					missing = fmt.Sprintf("%s[%d].%s", path, i, k)
				}
				break
			}
			id = append(id, fmt.Sprint(kv))
		}
		if len(id) == len(keys) {
			s := strings.Join(id, "\x00")
			if seen[s] && dup == "" {
				dup = fmt.Sprintf("%s[%d]", path, i)
			}
			seen[s] = true
		}
	}
	return missing, dup
}

// fuzzPrune removes nulls and empty objects and lists, recursively: the
// document as a three-way patch sees it (nil ≡ empty).
func fuzzPrune(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if e = fuzzPrune(e); e != nil {
				out[k] = e
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	case []any:
		if len(x) == 0 {
			return nil
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = fuzzPrune(e)
		}
		return out
	}
	return v
}

// fuzzLeaves collects the scalars (not null) reached from v through
// objects only, by dotted path.
func fuzzLeaves(v any, path string, into map[string]any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			fuzzLeaves(e, path+"."+k, into)
		}
	case []any, nil:
	default:
		into[path] = x
	}
}

// fuzzCheckThreeWayRules checks, with every directive and overwrite,
// r = Apply(current, ThreeWay(original, modified, current)) against the
// rules of property ThreeWay that hold without a model of merge lists:
// r is modified when current is original or modified; every scalar
// modified sets through objects only is modified's in r; every such
// scalar original had and modified has not is gone from r. Without
// overwrite, ThreeWay succeeds with the same patch or reports a conflict.
// Documents with a merge-list element lacking its key or repeating one,
// or with a map key starting with "$", are left out, as property
// ThreeWay leaves them out.
func fuzzCheckThreeWayRules[T any](t *testing.T, o, m, c T, seedOrder, skewSafe bool) {
	t.Helper()
	opts := []smp.Option{smp.WithDirectives(smp.DirectivesAll), smp.WithSkewSafe(skewSafe)}
	if seedOrder {
		opts = append(opts, smp.WithOrdering(smp.SeedOrder))
	}
	st := fuzzSchema[T](t)
	ob, mb, cb := typedMarshal(t, o), typedMarshal(t, m), typedMarshal(t, c)
	od, md, cd := fuzzJSON(t, ob), fuzzJSON(t, mb), fuzzJSON(t, cb)
	for _, d := range []any{od, md, cd} {
		if missing, dup := fuzzKeyProblems(d, st, ""); missing != "" || dup != "" || fuzzDollarKey(d) {
			return
		}
	}
	pw, err := smp.ThreeWay(o, m, c, append(opts, smp.WithOverwrite(true))...)
	if err != nil {
		t.Fatalf("ThreeWay with overwrite fails: %v\noriginal: %s\nmodified: %s\ncurrent:  %s", err, ob, mb, cb)
	}
	r, err := smp.Apply(c, pw, opts...)
	if err != nil {
		t.Fatalf("Apply(current, ThreeWay(original, modified, current)) fails: %v\npatch: %s\noriginal: %s\nmodified: %s\ncurrent:  %s", err, pw, ob, mb, cb)
	}
	rb := typedMarshal(t, r)
	fail := func(claim string) {
		t.Helper()
		t.Fatalf("%s fails:\nresult:   %s\npatch:    %s\noriginal: %s\nmodified: %s\ncurrent:  %s", claim, rb, pw, ob, mb, cb)
	}
	rd := fuzzJSON(t, rb)
	pm, pr := fuzzPrune(md), fuzzPrune(rd)
	if reflect.DeepEqual(fuzzPrune(cd), fuzzPrune(od)) && !reflect.DeepEqual(pm, pr) {
		fail("with current == original, Apply(current, ThreeWay(...)) == modified")
	}
	if reflect.DeepEqual(fuzzPrune(cd), pm) && !reflect.DeepEqual(pm, pr) {
		fail("with current == modified, Apply(current, ThreeWay(...)) == modified")
	}
	ol, ml, rl := map[string]any{}, map[string]any{}, map[string]any{}
	fuzzLeaves(od, "", ol)
	fuzzLeaves(md, "", ml)
	fuzzLeaves(rd, "", rl)
	for p, v := range ml {
		if rl[p] != v {
			fail(fmt.Sprintf("modified's %s (%v) is in the result (%v)", p, v, rl[p]))
		}
	}
	for p := range ol {
		if _, inM := ml[p]; !inM {
			if v, inR := rl[p]; inR && !writtenWhenAbsent[T](t, rd, p, v) {
				fail(fmt.Sprintf("original's %s, which modified drops, is gone from the result (%v)", p, v))
			}
		}
	}
	pn, err := smp.ThreeWay(o, m, c, opts...)
	switch {
	case err != nil && !smp.IsConflict(err):
		t.Fatalf("ThreeWay without overwrite fails with %v", err)
	case err == nil:
		if d := cmp.Diff(fuzzJSON(t, typedMarshal(t, pw)), fuzzJSON(t, typedMarshal(t, pn))); d != "" {
			t.Fatalf("without a conflict, the patch differs with overwrite (-overwrite +not):\n%s", d)
		}
	}
}

// writtenWhenAbsent reports whether T writes leaf path p (a "."-joined
// path through objects) of document d with value v even when d lacks it:
// a field without omitempty, whose zero value is its absence for T.
func writtenWhenAbsent[T any](t *testing.T, d any, p string, v any) bool {
	t.Helper()
	without := fuzzWithout(d, strings.Split(p, ".")[1:])
	if without == nil {
		return false
	}
	b, err := json.Marshal(without)
	if err != nil {
		return false
	}
	var x T
	if json.Unmarshal(b, &x) != nil {
		return false
	}
	leaves := map[string]any{}
	fuzzLeaves(fuzzJSON(t, typedMarshal(t, x)), "", leaves)
	w, ok := leaves[p]
	return ok && w == v
}

// fuzzWithout returns a copy of d without the leaf at path, or nil if
// there is none.
func fuzzWithout(d any, path []string) any {
	m, ok := d.(map[string]any)
	if !ok || len(path) == 0 {
		return nil
	}
	e, ok := m[path[0]]
	if !ok {
		return nil
	}
	out := maps.Clone(m)
	if len(path) == 1 {
		delete(out, path[0])
		return out
	}
	sub := fuzzWithout(e, path[1:])
	if sub == nil {
		return nil
	}
	out[path[0]] = sub
	return out
}
