package reflectschema

import (
	"reflect"
	"sync"
)

// cache maps a reflect.Type (never a pointer) to its finished *Type or the
// error building it.
var (
	cache   sync.Map // map[reflect.Type]cacheEntry
	buildMu sync.Mutex
)

type cacheEntry struct {
	t   *Type
	err error
}

func lookupCache(t reflect.Type) (*Type, bool) {
	if e, ok := cache.Load(t); ok && e.(cacheEntry).err == nil {
		return e.(cacheEntry).t, true
	}
	return nil, false
}

// Of returns the schema of t. Pointers are followed. Any Go type encodable
// as JSON is accepted; the schema of a type and of every type it reaches is
// built once, validated, and cached. Concurrent first calls are safe.
func Of(t reflect.Type) (*Type, error) {
	if t == nil {
		return nil, &Error{Type: reflect.TypeFor[any](), Rule: RuleUnsupported, Msg: "nil type"}
	}
	t, err := deref(t)
	if err != nil {
		return nil, err
	}
	if e, ok := cache.Load(t); ok {
		ce := e.(cacheEntry)
		return ce.t, ce.err
	}
	buildMu.Lock()
	defer buildMu.Unlock()
	if e, ok := cache.Load(t); ok {
		ce := e.(cacheEntry)
		return ce.t, ce.err
	}
	b := &builder{built: map[reflect.Type]*Type{}}
	st, err := b.typeOf(t)
	if err == nil {
		err = b.validateKeys()
	}
	if err != nil {
		// Only the root remembers the failure; the types it reached are
		// rebuilt if asked for, so each reports its own error.
		cache.Store(t, cacheEntry{err: err})
		return nil, err
	}
	for bt, bst := range b.built {
		cache.Store(bt, cacheEntry{t: bst})
	}
	return st, nil
}

// For returns the schema of T.
func For[T any]() (*Type, error) { return Of(reflect.TypeFor[T]()) }

// OfValue returns the schema of v's dynamic type, which must be a struct or
// a pointer to one: the form Kubernetes' strategicpatch takes its
// dataStruct argument in. A *Type is returned as it is.
func OfValue(v any) (*Type, error) {
	if st, ok := v.(*Type); ok {
		if st == nil {
			return nil, &Error{Type: reflect.TypeFor[*Type](), Rule: RuleNotStruct, Msg: "nil *Type"}
		}
		return st, nil
	}
	if v == nil {
		return nil, &Error{Type: reflect.TypeFor[any](), Rule: RuleNotStruct, Msg: "nil data struct"}
	}
	if isPatchMetaLookup(reflect.TypeOf(v)) {
		return nil, &Error{Type: reflect.TypeOf(v), Rule: RuleNotStruct,
			Msg: "a patch-meta lookup (LookupPatchMeta) is not a data struct: pass the data struct itself, or use package kube/strategicpatch"}
	}
	st, err := Of(reflect.TypeOf(v))
	if err != nil {
		return nil, err
	}
	if st.Kind != Struct {
		return nil, &Error{Type: st.Go, Rule: RuleNotStruct, Msg: "schema root must be a struct, not a " + st.Kind.String()}
	}
	return st, nil
}

// isPatchMetaLookup reports whether t implements Kubernetes'
// strategicpatch.LookupPatchMeta (as PatchMetaFromStruct does): its
// fields describe a lookup, not the data, so reading its tags would give
// a schema without one merge list.
func isPatchMetaLookup(t reflect.Type) bool {
	if t.Kind() != reflect.Pointer {
		t = reflect.PointerTo(t)
	}
	_, ok := t.MethodByName("LookupPatchMetadataForStruct")
	return ok
}
