package smp

import "github.com/typedpatch/typedpatch/smp/internal/jsonval"

// Patch is a strategic merge patch, as [Diff] and [ThreeWay] make it and
// [Apply] takes it. It marshals to the Kubernetes wire format with
// encoding/json (objects with sorted keys) and unmarshals from it. The
// zero Patch is the empty patch. A Patch is immutable: no operation
// changes it, and [Patch.Map] returns a copy.
type Patch struct {
	m map[string]any // decoded: map[string]any, []any, string, json.Number, bool, nil
	// within holds the depth and list-length limits the patch's decoding
	// checked it against (bounded); zero when it was not checked.
	within jsonval.Limits
}

// ParsePatch reads a patch in the wire format. Empty input and null are
// the empty patch. Errors are *Error with kind ErrInvalidJSON, ErrNotObject
// or ErrLimit (the default limits apply).
func ParsePatch(data []byte) (Patch, error) {
	m, err := jsonval.DecodeLimited(data, "patch", jsonval.DefaultLimits())
	if err != nil {
		return Patch{}, public(err)
	}
	return Patch{m: m, within: jsonval.DefaultLimits().Bounded()}, nil
}

// checkedWithin reports whether the patch is known to be within l's
// depth and list-length limits: its decoding checked limits as tight.
func (p Patch) checkedWithin(l jsonval.Limits) bool {
	c := p.within
	if c.MaxDepth <= 0 {
		return false
	}
	l = l.Bounded()
	return c.MaxDepth <= l.MaxDepth && (l.MaxListLength <= 0 || c.MaxListLength > 0 && c.MaxListLength <= l.MaxListLength)
}

// MarshalJSON writes the patch in the wire format.
func (p Patch) MarshalJSON() ([]byte, error) {
	if p.m == nil {
		return []byte("{}"), nil
	}
	b, err := jsonval.Encode(p.m)
	return b, public(err)
}

// UnmarshalJSON reads a patch in the wire format, as [ParsePatch] does.
func (p *Patch) UnmarshalJSON(data []byte) error {
	q, err := ParsePatch(data)
	if err != nil {
		return err
	}
	*p = q
	return nil
}

// IsEmpty reports whether the patch changes nothing: it has no keys.
func (p Patch) IsEmpty() bool { return len(p.m) == 0 }

// Map returns a deep copy of the patch as Go values: maps, slices,
// strings, booleans, nil, and numbers as int64 (uint64 above its range)
// or float64, as Kubernetes' map API gives them.
func (p Patch) Map() map[string]any {
	if p.m == nil {
		return map[string]any{}
	}
	return jsonval.ToGo(p.m).(map[string]any)
}

// String returns the patch in the wire format.
func (p Patch) String() string {
	b, err := p.MarshalJSON()
	if err != nil {
		return "<invalid patch: " + err.Error() + ">"
	}
	return string(b)
}

// patchMap returns the decoded patch, never nil.
func (p Patch) patchMap() map[string]any {
	if p.m == nil {
		return map[string]any{}
	}
	return p.m
}
