package reflectschema

import (
	"reflect"
	"strconv"
	"strings"
)

// Finding is a patch tag that has no effect on the field carrying it,
// which [Of] ignores as Kubernetes does: the field behaves as if the tag
// were absent.
type Finding struct {
	// Type is the struct type holding the field.
	Type reflect.Type
	// Field is the Go name of the field, dotted through inlined structs.
	Field string
	// Path is the field's JSON path from the root, with [] for list
	// elements and [*] for map values: "spec.containers[].ports".
	Path string
	// Tag is the tag as written: patchMergeKey:"name".
	Tag string
	// Reason says why the tag, or the part of it named, has no effect.
	Reason string
}

// String returns "path (pkg.Type.Field): tag: reason".
func (f Finding) String() string {
	return f.Path + " (" + f.Type.String() + "." + f.Field + "): " + f.Tag + ": " + f.Reason
}

// Vet returns the patch tags of t and of every type it reaches that have
// no effect, which Of ignores. Each struct type is reported once, at the
// first path a depth-first walk in field order reaches it by, so the order
// is deterministic and recursive types end. The error is Of's for a type
// Of rejects.
func Vet(t reflect.Type) ([]Finding, error) {
	root, err := Of(t)
	if err != nil {
		return nil, err
	}
	v := &vetter{seen: map[*Type]bool{}}
	v.walk(root, "")
	return v.findings, nil
}

// vetter walks a schema built by Of, collecting findings.
type vetter struct {
	seen     map[*Type]bool
	findings []Finding
}

func (v *vetter) walk(t *Type, path string) {
	if v.seen[t] {
		return
	}
	v.seen[t] = true
	switch t.Kind {
	case List:
		v.walk(t.Elem, path+"[]")
	case Map:
		v.walk(t.Elem, path+"[*]")
	case Struct:
		for _, f := range t.Fields {
			fpath := f.Name
			if path != "" {
				fpath = path + "." + f.Name
			}
			v.field(t.Go, f, fpath)
			v.walk(f.Type, fpath)
		}
	}
}

// field reports the tags of f that Of dropped. Of accepted them, so they
// parse.
func (v *vetter) field(owner reflect.Type, f *Field, path string) {
	tags, err := parseTags(owner.FieldByIndex(f.Index))
	if err != nil {
		return
	}
	m, err := ParsePatchMeta(tags.strategy, tags.mergeKey, tags.recKey)
	if err != nil {
		return
	}
	_, ignored := dropIneffective(m, tags, f.Type)
	for _, ig := range ignored {
		v.findings = append(v.findings, Finding{Type: owner, Field: f.GoName, Path: path, Tag: ig.tag, Reason: ig.reason})
	}
}

// ignoredTag is a tag dropped by dropIneffective, and why.
type ignoredTag struct{ tag, reason string }

// dropIneffective returns m without the parts that have no effect on a
// field of type t (whose element, for a list, must be known), and those
// parts: merge keys off lists of objects, merge on objects, scalars and
// atomics, and retainKeys on scalars, atomics and their lists. raw holds
// the tags as written. Of builds schemas with the result; Vet reports the
// parts.
func dropIneffective(m PatchMeta, raw fieldTags, t *Type) (PatchMeta, []ignoredTag) {
	var (
		out      []ignoredTag
		dropped  []string
		why      string
		keysWhy  string
		replaced = t.Kind == Scalar || t.Kind == Atomic
	)
	switch {
	case replaced:
		why = article(t.Kind) + " field is replaced whole"
		keysWhy = "merge keys identify list elements; this is " + article(t.Kind) + " field"
		if m.Strategy == Merge {
			dropped, m.Strategy = append(dropped, "merge"), Default
		}
		if m.RetainKeys {
			dropped, m.RetainKeys = append(dropped, "retainKeys"), false
		}
	case t.Kind == List:
		if e := t.Elem.Kind; e == Scalar || e == Atomic {
			elems := "the elements are " + e.String() + "s (" + t.Elem.String() + ")"
			why = elems + ", not objects"
			keysWhy = "merge keys identify objects; " + elems
			if m.RetainKeys {
				dropped, m.RetainKeys = append(dropped, "retainKeys"), false
			}
		}
	default: // Struct, Map, Untyped
		why = "objects merge by default"
		keysWhy = "merge keys identify list elements; this is " + article(t.Kind) + " field"
		if m.Strategy == Merge {
			dropped, m.Strategy = append(dropped, "merge"), Default
		}
	}
	if len(dropped) > 0 {
		verb := " has"
		if len(dropped) > 1 {
			verb = " have"
		}
		out = append(out, ignoredTag{tagText(tagStrategy, raw.strategy), strings.Join(dropped, " and ") + verb + " no effect: " + why})
	}
	if keysWhy != "" {
		if len(m.MergeKey) > 0 {
			out = append(out, ignoredTag{tagText(tagMergeKey, raw.mergeKey), keysWhy})
		}
		if len(m.RecommendedMergeKey) > 0 {
			out = append(out, ignoredTag{tagText(tagRecommendedKey, raw.recKey), keysWhy})
		}
		m.MergeKey, m.RecommendedMergeKey = nil, nil
	}
	return m, out
}

// tagText spells a tag as written in a struct: key:"value".
func tagText(key, value string) string { return key + ":" + strconv.Quote(value) }
