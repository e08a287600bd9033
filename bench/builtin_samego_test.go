package bench

import (
	"bytes"
	"hash/fnv"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/typedpatch/typedpatch/smp"
)

// sameAsGoCases is the number of generated triples per kind.
const sameAsGoCases = 20

// For every bundled kind, this engine gives the same bytes with the
// bundled schema as with the Go type: two-way patches, their application,
// and three-way patches (or the same kind of error), on generated objects.
func TestBuiltinSameAsGoTypes(t *testing.T) {
	kinds, _, err := builtinKinds()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range kinds {
		goType, bundled := kindSchemas(t, k)
		goObj := reflect.New(k.Go).Interface()
		run := &diffRun{kind: k, goType: goType}
		h := fnv.New64a()
		h.Write([]byte(k.APIVersion() + "/" + k.GVK.Kind))
		for seed := range uint64(sameAsGoCases) {
			g := &kindGen{r: rand.New(rand.NewPCG(seed, h.Sum64())), maxDepth: 10}
			d := run.generate(g)
			ops := []struct {
				name string
				do   func(schema any) ([]byte, error)
			}{
				{"two-way", func(s any) ([]byte, error) { return smp.DiffJSON(d[0], d[1], s) }},
				{"apply", func(s any) ([]byte, error) {
					p, err := smp.DiffJSON(d[0], d[1], s)
					if err != nil {
						return nil, err
					}
					return smp.ApplyJSON(d[2], p, s)
				}},
				{"three-way", func(s any) ([]byte, error) {
					return smp.ThreeWayJSON(d[0], d[1], d[2], s, smp.WithOverwrite(seed%2 == 0))
				}},
			}
			for _, op := range ops {
				want, werr := op.do(goObj)
				got, gerr := op.do(bundled)
				if (werr == nil) != (gerr == nil) || smp.IsConflict(werr) != smp.IsConflict(gerr) || !bytes.Equal(want, got) {
					t.Fatalf("%s %s seed %d %s: Go type %s %v, bundled %s %v\noriginal: %s\nmodified: %s\ncurrent: %s",
						k.APIVersion(), k.GVK.Kind, seed, op.name, want, werr, got, gerr, d[0], d[1], d[2])
				}
			}
		}
	}
}
