package property

import (
	"encoding/json"

	"github.com/typedpatch/typedpatch/smp"
)

// typedEngine returns the typed API (smp.Diff, smp.ThreeWay, smp.Apply)
// for T. Its documents are the Go values the generators drew; its
// results are the T values Apply returns.
func typedEngine[T any]() engine { return typedAPI[T]{} }

type typedAPI[T any] struct{}

func (typedAPI[T]) name() string { return "typed API" }

func (typedAPI[T]) diff(o, m doc, opts ...smp.Option) ([]byte, error) {
	ov, err := typedOrJSON[T](o)
	if err != nil {
		return nil, err
	}
	mv, err := typedOrJSON[T](m)
	if err != nil {
		return nil, err
	}
	p, err := smp.Diff(ov, mv, opts...)
	if err != nil {
		return nil, err
	}
	return p.MarshalJSON()
}

func (typedAPI[T]) threeWay(o, m, c doc, opts ...smp.Option) ([]byte, error) {
	var vs [3]T
	for i, d := range [3]doc{o, m, c} {
		v, err := typedOrJSON[T](d)
		if err != nil {
			return nil, err
		}
		vs[i] = v
	}
	p, err := smp.ThreeWay(vs[0], vs[1], vs[2], opts...)
	if err != nil {
		return nil, err
	}
	return p.MarshalJSON()
}

func (typedAPI[T]) apply(x doc, patch []byte, opts ...smp.Option) (doc, error) {
	xv, err := typedOrJSON[T](x)
	if err != nil {
		return doc{}, err
	}
	p, err := smp.ParsePatch(patch)
	if err != nil {
		return doc{}, err
	}
	r, err := smp.Apply(xv, p, opts...)
	if err != nil {
		return doc{}, err
	}
	b, err := json.Marshal(r)
	if err != nil {
		return doc{}, err
	}
	return doc{v: r, b: b}, nil
}
