package smp

import (
	"encoding/json"
	"maps"

	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
	"github.com/typedpatch/typedpatch/smp/internal/rfcpatch"
)

// A server takes a strategic merge patch only for kinds it has Go types
// for; for custom resources it takes a JSON merge patch (RFC 7386) or a
// JSON patch (RFC 6902). The functions below turn a live object and a
// strategic merge patch (from Diff, ThreeWay or their JSON forms) into
// either, so that the server's object becomes what Apply computes
// locally.

// MergePatchJSON returns the JSON merge patch (RFC 7386) that turns live
// into the result of ApplyJSON(live, patch, dataStruct, opts...). A merge
// patch replaces lists whole, so it is right only against live itself:
// where live has metadata.resourceVersion, the patch carries it, and a
// server refuses the patch (409 Conflict) once the object has changed.
// WithResourceVersionCheck(false) leaves it out; a patch that deletes the
// resourceVersion leaves it to that precondition, and one that sets
// another is an ErrInvalidValue error. A merge patch cannot set
// a member to null (null deletes, and its applier drops the null members
// of the objects it sets), so a member the result holds as null may be
// absent after it: the same object to a server that decodes it into Go
// types; JSONPatchJSON keeps it exactly.
func MergePatchJSON(live, patch []byte, dataStruct any, opts ...Option) ([]byte, error) {
	lm, rm, _, cfg, err := applyForServer(live, patch, dataStruct, opts)
	if err != nil {
		return nil, public(err)
	}
	out, err := mergePatchOf(lm, rm, cfg)
	return out, public(err)
}

// JSONPatchJSON returns the JSON patch (RFC 6902), a JSON array of
// operations, that turns live into the result of ApplyJSON(live, patch,
// dataStruct, opts...). Where live has metadata.resourceVersion, the first
// operation tests it, so that a server refuses the patch (422) once the
// object has changed; WithResourceVersionCheck(false) leaves it out. The
// operations change one field or one list element each: elements of a
// list merged by key are found by that key, others by position. Paths are
// escaped as RFC 6901 says.
func JSONPatchJSON(live, patch []byte, dataStruct any, opts ...Option) ([]byte, error) {
	lm, rm, s, cfg, err := applyForServer(live, patch, dataStruct, opts)
	if err != nil {
		return nil, public(err)
	}
	out, err := jsonPatchOf(lm, rm, s, cfg, len(live)+len(patch))
	return out, public(err)
}

// MergePatch is MergePatchJSON for a typed live object: the JSON merge
// patch that turns live's JSON encoding into that of Apply(live, patch,
// opts...). A field that encodes as null is taken as absent, as decoding
// into T takes it.
func MergePatch[T any](live T, patch Patch, opts ...Option) ([]byte, error) {
	lm, rm, _, cfg, _, err := typedForServer(live, patch, opts)
	if err != nil {
		return nil, public(err)
	}
	out, err := mergePatchOf(lm, rm, cfg)
	return out, public(err)
}

// JSONPatch is JSONPatchJSON for a typed live object: the JSON patch that
// turns live's JSON encoding into that of Apply(live, patch, opts...), a
// field that encodes as null taken as absent.
func JSONPatch[T any](live T, patch Patch, opts ...Option) ([]byte, error) {
	lm, rm, s, cfg, size, err := typedForServer(live, patch, opts)
	if err != nil {
		return nil, public(err)
	}
	out, err := jsonPatchOf(lm, rm, s, cfg, size)
	return out, public(err)
}

// WithResourceVersionCheck(false) leaves the live object's
// metadata.resourceVersion out of MergePatch, MergePatchJSON, JSONPatch
// and JSONPatchJSON: the server then applies the patch to whatever object
// it holds, which is safe only when nothing else writes it, since those
// patches replace lists whole or address elements by position.
func WithResourceVersionCheck(check bool) Option {
	return optionFunc(func(c *config) { c.NoResourceVersion = !check })
}

// applyForServer decodes live and applies patch to it.
func applyForServer(live, patch []byte, dataStruct any, opts []Option) (lm, rm map[string]any, s slot, cfg *config, err error) {
	cfg = newConfig(opts)
	if s, err = schemaFor(dataStruct); err != nil {
		return nil, nil, s, nil, err
	}
	if lm, err = jsonval.DecodeLimited(live, "live document", cfg.Limits); err != nil {
		return nil, nil, s, nil, err
	}
	pm, err := jsonval.DecodeLimited(patch, "patch", cfg.Limits)
	if err != nil {
		return nil, nil, s, nil, err
	}
	rm, err = engine.ApplyObject(lm, pm, s, cfg)
	return lm, rm, s, cfg, err
}

// typedForServer applies patch to live and decodes both as JSON; size is
// their encodings' length.
func typedForServer[T any](live T, patch Patch, opts []Option) (lm, rm map[string]any, s slot, cfg *config, size int, err error) {
	var zero T
	cfg = newConfig(opts)
	if s, err = schemaFor(zero); err != nil {
		return nil, nil, s, nil, 0, err
	}
	res, err := Apply(live, patch, opts...)
	if err != nil {
		return nil, nil, s, nil, 0, err
	}
	var docs [2]map[string]any
	for i, v := range [2]T{live, res} {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, nil, s, nil, 0, newError(ErrInvalidJSON, nil, "encoding the %s value: %v", [2]string{"live", "result"}[i], err)
		}
		size += len(b)
		if string(b) == "null" {
			b = []byte("{}")
		}
		if docs[i], err = jsonval.DecodeLimited(b, "live document", cfg.Limits); err != nil {
			return nil, nil, s, nil, 0, err
		}
		rfcpatch.DropNullMembers(docs[i])
	}
	return docs[0], docs[1], s, cfg, size, nil
}

// resourceVersion returns live's metadata.resourceVersion when the
// precondition is wanted. A patch that deletes it (a configuration
// without one) leaves it to the precondition: rm gets it back. One that
// sets another is an error.
func resourceVersion(lm, rm map[string]any, cfg *config) (any, bool, error) {
	if cfg.NoResourceVersion {
		return nil, false, nil
	}
	rv, ok := metaField(lm, "resourceVersion")
	if !ok {
		return nil, false, nil
	}
	got, ok := metaField(rm, "resourceVersion")
	if md, isMap := rm["metadata"].(map[string]any); !ok && isMap {
		md = maps.Clone(md) // it may be live's own
		md["resourceVersion"] = rv
		rm["metadata"] = md
		return rv, true, nil
	}
	if !ok || !jsonval.Equal(rv, got) {
		at := (*errpath.Node)(nil).Field("metadata").Field("resourceVersion")
		return nil, false, newError(ErrInvalidValue, at, "the patch changes the resourceVersion, which a server takes as a precondition (WithResourceVersionCheck(false) sends no precondition)")
	}
	return rv, true, nil
}

func metaField(m map[string]any, name string) (any, bool) {
	md, ok := m["metadata"].(map[string]any)
	if !ok {
		return nil, false
	}
	v, ok := md[name]
	return v, ok
}

func mergePatchOf(lm, rm map[string]any, cfg *config) ([]byte, error) {
	rv, ok, err := resourceVersion(lm, rm, cfg)
	if err != nil {
		return nil, err
	}
	mp := rfcpatch.MergePatch(lm, rm)
	if ok {
		md, _ := mp["metadata"].(map[string]any)
		if md == nil {
			md = map[string]any{}
			mp["metadata"] = md
		}
		md["resourceVersion"] = rv
	}
	return jsonval.Encode(mp)
}

// jsonPatchOf writes the operations; their size is bounded by a multiple
// of the inputs' (size bytes).
func jsonPatchOf(lm, rm map[string]any, s slot, cfg *config, size int) ([]byte, error) {
	rv, ok, err := resourceVersion(lm, rm, cfg)
	if err != nil {
		return nil, err
	}
	var tests []rfcpatch.Test
	if ok {
		tests = append(tests, rfcpatch.Test{Path: []string{"metadata", "resourceVersion"}, Value: rv})
	}
	out, err := rfcpatch.JSONPatch(lm, rm, s, tests, 4*size+1<<16)
	if err != nil {
		return nil, wrapError(ErrInvalidJSON, err.Error(), err)
	}
	return out, nil
}
