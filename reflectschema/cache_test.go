package reflectschema_test

import (
	"reflect"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/reflectschema"
)

type caOnce struct {
	Name  string      `json:"name"`
	Items []caOnceRef `json:"items" patchStrategy:"merge" patchMergeKey:"id"`
}

type caOnceRef struct {
	ID string `json:"id"`
}

func TestOfReturnsTheCachedPointer(t *testing.T) {
	first, err := reflectschema.Of(reflect.TypeFor[caOnce]())
	require.NoError(t, err)
	second, err := reflectschema.Of(reflect.TypeFor[caOnce]())
	require.NoError(t, err)
	assert.Same(t, first, second)

	// Pointers are followed to the same schema; For is Of.
	viaPtr, err := reflectschema.Of(reflect.TypeFor[**caOnce]())
	require.NoError(t, err)
	assert.Same(t, first, viaPtr)
	assert.Same(t, first, mustFor[caOnce](t))

	// Types reached while building are cached too, as the same pointers.
	ref := mustFor[caOnceRef](t)
	assert.Same(t, first.Field("items").Type.Elem, ref)
	assert.Same(t, first.Field("items").Type, mustFor[[]caOnceRef](t))
}

// Fresh types, used by no other test, so that the first Of of each happens
// concurrently. caShared is reached from all of them.
type (
	caShared struct {
		ID   string `json:"id"`
		Next *caShared
	}
	caFresh0 struct{ S caShared }
	caFresh1 struct{ S *caShared }
	caFresh2 struct {
		S []caShared `patchStrategy:"merge" patchMergeKey:"id"`
	}
	caFresh3 struct{ S map[string]caShared }
	caFresh4 struct {
		S  []*caShared `patchStrategy:"merge" patchMergeKey:"id"`
		F0 caFresh0
	}
	caFresh5 struct {
		caShared
		Own string
	}
	caFresh6 struct {
		Back *caFresh7
		S    caShared
	}
	caFresh7 struct {
		Back []caFresh6
	}
	// caFreshBad fails; every caller must get the failure.
	caFreshBad struct {
		S []caShared `patchStrategy:"merge"`
	}
)

func TestConcurrentFirstUse(t *testing.T) {
	types := []reflect.Type{
		reflect.TypeFor[caFresh0](),
		reflect.TypeFor[*caFresh1](),
		reflect.TypeFor[caFresh2](),
		reflect.TypeFor[caFresh3](),
		reflect.TypeFor[caFresh4](),
		reflect.TypeFor[caFresh5](),
		reflect.TypeFor[caFresh6](),
		reflect.TypeFor[caFresh7](),
		reflect.TypeFor[caFreshBad](),
		reflect.TypeFor[caShared](),
	}
	const goroutines = 64
	type result struct {
		st  *reflectschema.Type
		err error
	}
	results := make([][]result, goroutines)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for g := range goroutines {
		results[g] = make([]result, len(types))
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			// Each goroutine starts at a different type.
			for i := range types {
				k := (g + i) % len(types)
				st, err := reflectschema.Of(types[k])
				results[g][k] = result{st, err}
				if st != nil {
					// Read the schema while others build: -race checks
					// it was published safely.
					for _, f := range st.Fields {
						_ = f.Type.Kind
						_ = st.Field(f.Name)
					}
				}
			}
		}()
	}
	close(start)
	wg.Wait()

	bad := len(types) - 2
	for k, typ := range types {
		want := results[0][k]
		if k == bad {
			var e *reflectschema.Error
			require.ErrorAs(t, want.err, &e, "%v", typ)
			assert.Equal(t, reflectschema.RuleMergeKey, e.Rule)
		} else {
			require.NoError(t, want.err, "%v", typ)
			require.NotNil(t, want.st)
		}
		for g := 1; g < goroutines; g++ {
			assert.Same(t, want.st, results[g][k].st, "%v: goroutine %d got another schema", typ, g)
			assert.Equal(t, want.err, results[g][k].err, "%v: goroutine %d", typ, g)
		}
		again, err := reflectschema.Of(typ)
		assert.Same(t, want.st, again)
		assert.Equal(t, want.err, err)
	}

	// The shared type is one schema wherever it is reached from.
	shared := results[0][len(types)-1].st
	at := func(k int) *reflectschema.Type { return results[0][k].st }
	assert.Same(t, shared, at(0).Field("S").Type)
	assert.Same(t, shared, at(1).Field("S").Type)
	assert.Same(t, shared, at(2).Field("S").Type.Elem)
	assert.Same(t, shared, at(3).Field("S").Type.Elem)
	assert.Same(t, shared, at(4).Field("S").Type.Elem)
	assert.Same(t, at(0), at(4).Field("F0").Type)
	assert.Same(t, shared, at(6).Field("S").Type)
	assert.Same(t, shared, shared.Field("Next").Type)
	assert.Same(t, at(7), at(6).Field("Back").Type)
	assert.Same(t, at(6), at(7).Field("Back").Type.Elem)
	assert.Equal(t, []string{"id", "Next", "Own"}, fieldNames(at(5)))
}
