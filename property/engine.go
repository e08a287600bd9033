package property

import (
	"encoding/json"
	"fmt"

	"github.com/typedpatch/typedpatch/smp"
)

// doc is one document: its Go value (a T; nil for a result of the JSON
// API) and its JSON.
type doc struct {
	v any
	b []byte
}

// engine is one API of the engine: the JSON one (ApplyJSON, DiffJSON,
// ThreeWayJSON) or the typed one (smp.Diff, smp.ThreeWay, smp.Apply).
// Both take and give JSON here, so every property checks both alike.
type engine interface {
	name() string
	diff(o, m doc, opts ...smp.Option) ([]byte, error)
	threeWay(o, m, c doc, opts ...smp.Option) ([]byte, error)
	apply(x doc, patch []byte, opts ...smp.Option) (doc, error)
}

// jsonEngine is the JSON API, with a *T as the data struct.
type jsonEngine struct {
	dataStruct any
}

func (jsonEngine) name() string { return "JSON API" }

func (e jsonEngine) diff(o, m doc, opts ...smp.Option) ([]byte, error) {
	return smp.DiffJSON(o.b, m.b, e.dataStruct, opts...)
}

func (e jsonEngine) threeWay(o, m, c doc, opts ...smp.Option) ([]byte, error) {
	return smp.ThreeWayJSON(o.b, m.b, c.b, e.dataStruct, opts...)
}

func (e jsonEngine) apply(x doc, patch []byte, opts ...smp.Option) (doc, error) {
	out, err := smp.ApplyJSON(x.b, patch, e.dataStruct, opts...)
	return doc{b: out}, err
}

// typedOrJSON returns the document's Go value, decoding its JSON into a
// new T when it has none (a result of the JSON API).
func typedOrJSON[T any](d doc) (T, error) {
	if v, ok := d.v.(T); ok {
		return v, nil
	}
	var v T
	if err := json.Unmarshal(d.b, &v); err != nil {
		return v, fmt.Errorf("decoding a document into %T: %w", v, err)
	}
	return v, nil
}
