package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// explainCommand prints the patch schema of a kind or type.
var explainCommand = &command{
	name:     "explain",
	operands: "RESOURCE[.PATH]",
	summary:  "print how a kind, or the field at PATH, is patched",
	detail: `Explain prints the patch schema of a kind, or of the field at PATH: each
field's JSON name and kind, indented under its parent; for lists, how they
merge (strategy, merge key, recommended merge key); for retainKeys fields,
the members of the union. A struct type is described once; later uses say
where.

RESOURCE is named as kubectl explain names it: a kind in any case
(Deployment, deployment), its resource (deployments) or a short name
(deploy), of the built-in kinds or of --schema files (with a CRD's plural,
singular and short names); --api-version chooses among its versions, else
a --schema kind comes first, then the core group and the most stable
version. With --type, the example type T is described instead and the
operand is PATH alone.

PATH is a dotted field path such as spec.template.spec.containers. List
elements and map values are followed (a map's key is any name, written * in
references), and selectors such as [name=web] are ignored, so the paths of
error messages can be pasted.`,
	min: 0, max: 1,
	run: runExplain,
}

// runExplain prints the schema of the kind or type, or of the field at
// PATH.
func runExplain(e *env, o *options, operands []string) error {
	header, label, t, path, err := explainTarget(o, operands)
	if err != nil {
		return err
	}
	if path == "" {
		fmt.Fprint(e.stdout, header)
		explain(e.stdout, label, "", t, nil)
		return nil
	}
	label, at, meta, err := resolvePath(t, path)
	if err != nil {
		return err
	}
	fmt.Fprint(e.stdout, header)
	explain(e.stdout, label, label, at, meta)
	return nil
}

// explainTarget returns the schema explain and vet describe, a header
// line naming it, its label, and the PATH within it: --type's example
// type, else the kind RESOURCE names.
func explainTarget(o *options, operands []string) (header, label string, t *reflectschema.Type, path string, err error) {
	arg := ""
	if len(operands) > 0 {
		arg = operands[0]
	}
	if o.typeName != "" {
		gt, err := o.goType()
		if err != nil {
			return "", "", nil, "", err
		}
		t, err := reflectschema.Of(gt)
		return "", o.typeName, t, arg, err
	}
	resource, path, _ := strings.Cut(arg, ".")
	sc, err := loadSchemas(o)
	if err != nil {
		return "", "", nil, "", err
	}
	k, err := sc.resolveResource(resource, o.apiVersion)
	if err != nil {
		return "", "", nil, "", err
	}
	return "# " + k.String() + "\n", k.gvk.Kind, k.t, path, nil
}

// explain writes the schema of t, labelled label, and of every field below
// it. path is t's PATH ("" for the document root); meta is the patch
// metadata of the field holding t, if any.
func explain(w io.Writer, label, path string, t *reflectschema.Type, meta *reflectschema.PatchMeta) {
	x := &explainer{w: w, seen: map[*reflectschema.Type]string{}}
	x.node(0, label, path, t, meta)
}

// explainer writes a schema tree, describing each struct type once.
type explainer struct {
	w    io.Writer
	seen map[*reflectschema.Type]string // struct type -> where it was described
}

// node writes the line of one field and, the first time its struct type is
// met, the fields below it. path is the field's PATH ("" for the root,
// which is referred to by its label).
func (x *explainer) node(depth int, label, path string, t *reflectschema.Type, meta *reflectschema.PatchMeta) {
	line := strings.Repeat("  ", depth) + label + ": " + describe(t) + metaText(t, meta)
	s, elemPath := innerStruct(t, path)
	if s == nil {
		fmt.Fprintln(x.w, line)
		return
	}
	if where, ok := x.seen[s]; ok {
		fmt.Fprintf(x.w, "%s (see %s)\n", line, where)
		return
	}
	where := elemPath
	if where == "" {
		where = label
	}
	x.seen[s] = where
	fmt.Fprintln(x.w, line)
	for _, f := range s.Fields {
		x.node(depth+1, f.Name, joinPath(elemPath, f.Name), f.Type, &f.Patch)
	}
}

// innerStruct returns the struct type whose fields are listed under a
// value of type t (t itself, or the struct reached through list elements
// and map values) and the PATH of that struct's values. A map of itself
// reaches none.
func innerStruct(t *reflectschema.Type, path string) (*reflectschema.Type, string) {
	met := map[*reflectschema.Type]bool{}
	for t != nil && !met[t] {
		met[t] = true
		switch t.Kind {
		case reflectschema.Struct:
			return t, path
		case reflectschema.List:
			t = t.Elem
		case reflectschema.Map:
			t, path = t.Elem, joinPath(path, "*")
		default:
			return nil, ""
		}
	}
	return nil, ""
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// describe names t's kind and Go type: "scalar int32", "list of struct
// exampletypes.Container", "map of atomic exampletypes.Quantity". A list or map
// type met again inside itself is named by its Go type.
func describe(t *reflectschema.Type) string {
	return describeIn(t, map[*reflectschema.Type]bool{})
}

func describeIn(t *reflectschema.Type, outer map[*reflectschema.Type]bool) string {
	switch t.Kind {
	case reflectschema.List, reflectschema.Map:
		if outer[t] {
			return t.String()
		}
		outer[t] = true
		return t.Kind.String() + " of " + describeIn(t.Elem, outer)
	case reflectschema.Untyped:
		return "untyped (any JSON)"
	}
	return t.Kind.String() + " " + t.String()
}

// metaText describes how a field holding t is patched, in brackets, or
// returns "" when it is patched the default way for its kind (objects
// merged, scalars replaced).
func metaText(t *reflectschema.Type, m *reflectschema.PatchMeta) string {
	if m == nil {
		if t.Kind != reflectschema.List {
			return ""
		}
		m = &reflectschema.PatchMeta{} // a list in a map: replaced whole
	}
	var parts []string
	switch {
	case t.Kind == reflectschema.List && m.Strategy == reflectschema.Merge:
		parts = append(parts, "strategy: "+m.StrategyTag())
		if len(m.MergeKey) > 0 {
			parts = append(parts, "merge key: "+strings.Join(m.MergeKey, ","))
		} else {
			parts = append(parts, "merged as a set")
		}
		if len(m.RecommendedMergeKey) > 0 {
			parts = append(parts, "recommended merge key: "+strings.Join(m.RecommendedMergeKey, ","))
		}
	case t.Kind == reflectschema.List:
		parts = append(parts, "strategy: replace")
		if m.Strategy == reflectschema.Default {
			parts[0] += " (default)"
		}
	case m.StrategyTag() != "":
		parts = append(parts, "strategy: "+m.StrategyTag())
	}
	if m.RetainKeys {
		union, what := t, "retainKeys union"
		if t.Kind == reflectschema.List {
			union, what = t.Elem, "retainKeys union, each element"
		}
		parts = append(parts, what+": "+unionMembers(union))
	}
	if len(parts) == 0 {
		return ""
	}
	return " [" + strings.Join(parts, "; ") + "]"
}

// unionMembers lists the fields a $retainKeys directive chooses among.
func unionMembers(t *reflectschema.Type) string {
	if t.Kind != reflectschema.Struct {
		return "any key"
	}
	names := make([]string, len(t.Fields))
	for i, f := range t.Fields {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

// resolvePath follows PATH from t. It returns the canonical path (JSON
// names, no selectors), the type there, and the patch metadata of the field
// holding it (nil for a map value).
func resolvePath(t *reflectschema.Type, path string) (string, *reflectschema.Type, *reflectschema.PatchMeta, error) {
	steps, err := splitPath(path)
	if err != nil {
		return "", nil, nil, err
	}
	var (
		canon string
		meta  *reflectschema.PatchMeta
	)
	for _, step := range steps {
		for t.Kind == reflectschema.List {
			t = t.Elem
		}
		switch t.Kind {
		case reflectschema.Struct:
			f := t.Field(step)
			if f == nil {
				return "", nil, nil, usageErrorf("path %s: %s has no field %s; its fields are: %s", bounded(path), bounded(orRoot(canon)), quote(step), unionMembers(t))
			}
			t, meta, canon = f.Type, &f.Patch, joinPath(canon, f.Name)
		case reflectschema.Map:
			t, meta, canon = t.Elem, nil, joinPath(canon, step)
		case reflectschema.Untyped:
			meta, canon = nil, joinPath(canon, step)
		default:
			return "", nil, nil, usageErrorf("path %s: %s is %s; it has no field %s", bounded(path), bounded(orRoot(canon)), describe(t), quote(step))
		}
	}
	return canon, t, meta, nil
}

func orRoot(path string) string {
	if path == "" {
		return "the root"
	}
	return path
}

// splitPath splits a PATH at the dots outside brackets and drops the
// bracketed selectors.
func splitPath(path string) ([]string, error) {
	var (
		steps []string
		name  strings.Builder
		depth int
	)
	end := func() error {
		if name.Len() == 0 {
			return usageErrorf("path %s has an empty field name", quote(path))
		}
		steps = append(steps, name.String())
		name.Reset()
		return nil
	}
	for _, r := range path {
		switch {
		case r == '[':
			depth++
		case r == ']':
			if depth == 0 {
				return nil, usageErrorf("path %s has an unmatched ]", quote(path))
			}
			depth--
		case depth > 0:
		case r == '.':
			if err := end(); err != nil {
				return nil, err
			}
		default:
			name.WriteRune(r)
		}
	}
	if depth > 0 {
		return nil, usageErrorf("path %s has an unmatched [", quote(path))
	}
	if err := end(); err != nil {
		return nil, err
	}
	return steps, nil
}
