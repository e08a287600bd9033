package openapischema

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	rs "github.com/typedpatch/typedpatch/reflectschema"
)

// builder turns the schemas of one document into types. Types reached by
// $ref are registered before they are filled, so cycles end in a
// placeholder that is complete by the time anything reads it; patch
// metadata, which depends on the element types, is decided in finish.
type builder struct {
	doc      map[string]any
	document int                       // the YAML stream's document number, 0 for one
	refs     map[string]*rs.Type       // by target pointer: built or being built
	fields   []pendingField            // struct fields, in the order built
	lists    []*rs.Type                // lists whose element was being built
	roots    []*rs.Type                // every type to seal
	meta     *rs.Type                  // the ObjectMeta of embedded resources
	extMemo  map[string]map[string]any // extensions reached through each $ref
}

// pendingField is a field whose patch metadata finish decides.
type pendingField struct {
	field *rs.Field
	node  map[string]any // the property's schema
	ptr   string
}

func newBuilder(doc map[string]any) *builder {
	return &builder{doc: doc, refs: map[string]*rs.Type{}, extMemo: map[string]map[string]any{}}
}

func (b *builder) fail(reason Reason, ptr, format string, args ...any) *Error {
	return &Error{Reason: reason, Pointer: ptr, Document: b.document, Msg: fmt.Sprintf(format, args...)}
}

// schema returns the type of the schema node at ptr.
func (b *builder) schema(v any, ptr string) (*rs.Type, error) {
	node, ok := v.(map[string]any)
	if !ok {
		if v == true { // JSON Schema's "anything"
			return &rs.Type{Kind: rs.Untyped}, nil
		}
		return nil, b.fail(ReasonInvalid, ptr, "a schema must be an object, not %s", describe(v))
	}
	if ref, ok := node["$ref"]; ok {
		return b.ref(ref, ptr)
	}
	if m, mptr, err := b.allOfTarget(node, ptr); err != nil || m != nil {
		if err != nil {
			return nil, err
		}
		return b.schema(m, mptr)
	}
	t := &rs.Type{}
	return t, b.fill(t, node, ptr)
}

// allOfTarget returns the one member of node's allOf that gives it a
// structure, when node has none of its own (the $ref wrapped to carry
// extensions). Members carrying only validations are ignored.
func (b *builder) allOfTarget(node map[string]any, ptr string) (any, string, error) {
	all, ok := node["allOf"].([]any)
	if !ok || structural(node) {
		return nil, "", nil
	}
	var found []int
	for i, m := range all {
		if mm, ok := m.(map[string]any); ok && (mm["$ref"] != nil || structural(mm)) {
			found = append(found, i)
		}
	}
	switch len(found) {
	case 0:
		return nil, "", nil
	case 1:
		return all[found[0]], child(ptr, "allOf", strconv.Itoa(found[0])), nil
	}
	return nil, "", b.fail(ReasonUnsupported, child(ptr, "allOf"), "allOf combines %d schemas; only one $ref or schema is supported", len(found))
}

// structural reports whether a node says what JSON value it describes.
func structural(n map[string]any) bool {
	for _, k := range []string{"type", "properties", "items", "additionalProperties", "x-kubernetes-int-or-string", "x-kubernetes-preserve-unknown-fields", "x-kubernetes-embedded-resource"} {
		if _, ok := n[k]; ok {
			return true
		}
	}
	return false
}

// ref returns the type a $ref names; at is the pointer of the node
// holding the $ref. A target that is itself only a $ref (or a one-member
// allOf) is an alias: it is the type it finally names.
func (b *builder) ref(v any, at string) (*rs.Type, error) {
	target, ok := v.(string)
	if !ok {
		return nil, b.fail(ReasonInvalid, at, "$ref must be a string, not %s", describe(v))
	}
	if t, ok := b.refs[target]; ok {
		return t, nil
	}
	chain, node, err := b.follow(target, at)
	if err != nil {
		return nil, err
	}
	final := chain[len(chain)-1]
	t, done := b.refs[final]
	if !done {
		m, isMap := node.(map[string]any)
		if !isMap {
			return nil, b.fail(ReasonInvalid, final, "a schema must be an object, not %s", describe(node))
		}
		t = &rs.Type{Name: typeName(chain)}
		b.refs[final] = t
		b.roots = append(b.roots, t)
		if err := b.fill(t, m, final); err != nil {
			return nil, err
		}
	}
	for _, p := range chain {
		b.refs[p] = t
	}
	return t, nil
}

// follow resolves a $ref through aliases to the schema that says what
// the value is, or to a pointer already built. It returns the pointers
// passed, the last one that schema's.
func (b *builder) follow(target, at string) ([]string, any, error) {
	var chain []string
	seen := map[string]bool{}
	for {
		if !strings.HasPrefix(target, "#") {
			return nil, nil, b.fail(ReasonUnsupported, at, "$ref %q is not in this document", target)
		}
		if seen[target] {
			return nil, nil, b.fail(ReasonDanglingRef, at, "$ref %q is a cycle of $refs that never reaches a schema", target)
		}
		seen[target] = true
		chain = append(chain, target)
		if _, built := b.refs[target]; built {
			return chain, nil, nil
		}
		node, ok := b.resolve(target)
		if !ok {
			return nil, nil, b.fail(ReasonDanglingRef, at, "$ref %q names no schema", target)
		}
		m, isMap := node.(map[string]any)
		if !isMap || structural(m) {
			return chain, node, nil
		}
		if ref, ok := m["$ref"]; ok {
			next, isStr := ref.(string)
			if !isStr {
				return nil, nil, b.fail(ReasonInvalid, target, "$ref must be a string, not %s", describe(ref))
			}
			at, target = target, next
			continue
		}
		member, mptr, err := b.allOfTarget(m, target)
		if err != nil || member == nil {
			return chain, node, err
		}
		at, target = target, mptr
	}
}

// resolve follows a JSON pointer ("#/definitions/x") into the document.
func (b *builder) resolve(ptr string) (any, bool) {
	var cur any = b.doc
	rest := strings.TrimPrefix(ptr, "#")
	if rest == "" {
		return cur, true
	}
	if rest[0] != '/' {
		return nil, false
	}
	for _, tok := range strings.Split(rest[1:], "/") {
		tok = pointerUnescaper.Replace(tok)
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[tok]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// defName is the last token of a definition's pointer.
func defName(ptr string) string {
	return pointerUnescaper.Replace(ptr[strings.LastIndex(ptr, "/")+1:])
}

// typeName names the type a chain of pointers reaches after the last
// definition in it, not an allOf member.
func typeName(chain []string) string {
	for _, p := range slices.Backward(chain) {
		if parent := p[:max(strings.LastIndex(p, "/"), 0)]; !strings.HasSuffix(parent, "/allOf") {
			return defName(p)
		}
	}
	return defName(chain[0])
}

// fill sets t from the schema node at ptr.
func (b *builder) fill(t *rs.Type, node map[string]any, ptr string) error {
	typ, err := b.typeName(node, ptr)
	if err != nil {
		return err
	}
	switch {
	case flag(node, "x-kubernetes-int-or-string") || node["format"] == "int-or-string" || flag(node, "x-kubernetes-atomic"):
		t.Kind = rs.Atomic
	case typ == "array" || typ == "" && node["items"] != nil:
		return b.fillList(t, node, ptr)
	case typ == "object" || typ == "" && (node["properties"] != nil || node["additionalProperties"] != nil || flag(node, "x-kubernetes-embedded-resource")):
		return b.fillObject(t, node, ptr)
	case typ == "":
		t.Kind = rs.Untyped
	default:
		t.Kind, t.JSONType = rs.Scalar, typ
		t.Format, _ = node["format"].(string)
	}
	return nil
}

// typeName reads the type keyword: one of the JSON types, or "" when
// absent. A list of types naming one type and "null" names that type.
func (b *builder) typeName(node map[string]any, ptr string) (string, error) {
	var name string
	switch v := node["type"].(type) {
	case nil:
		return "", nil
	case string:
		name = v
	case []any:
		for _, e := range v {
			if s, _ := e.(string); s != "null" {
				if name != "" || s == "" {
					return "", b.fail(ReasonUnsupported, child(ptr, "type"), "a value of several types; use anyOf")
				}
				name = s
			}
		}
	default:
		return "", b.fail(ReasonInvalid, child(ptr, "type"), "type must be a string, not %s", describe(v))
	}
	switch name {
	case "array", "object", rs.JSONString, rs.JSONInteger, rs.JSONNumber, rs.JSONBoolean:
		return name, nil
	case "null":
		return "", nil
	}
	return "", b.fail(ReasonInvalid, child(ptr, "type"), "unknown type %q", name)
}

func flag(node map[string]any, ext string) bool { return node[ext] == true }

func (b *builder) fillList(t *rs.Type, node map[string]any, ptr string) error {
	t.Kind = rs.List
	items, ok := node["items"]
	if !ok {
		t.Elem = &rs.Type{Kind: rs.Untyped}
		return nil
	}
	if _, tuple := items.([]any); tuple {
		return b.fail(ReasonUnsupported, child(ptr, "items"), "items as a list of schemas (a tuple)")
	}
	elem, err := b.schema(items, child(ptr, "items"))
	if err != nil {
		return err
	}
	t.Elem = elem
	switch elem.Kind {
	case rs.List:
		t.Kind = rs.Atomic // a list of lists is replaced whole, as reflectschema does
	case 0:
		b.lists = append(b.lists, t) // the element is still being built
	}
	return nil
}

func (b *builder) fillObject(t *rs.Type, node map[string]any, ptr string) error {
	props, _ := node["properties"].(map[string]any)
	if node["properties"] != nil && props == nil {
		return b.fail(ReasonInvalid, child(ptr, "properties"), "properties must be an object, not %s", describe(node["properties"]))
	}
	embedded := flag(node, "x-kubernetes-embedded-resource")
	if props == nil && !embedded { // properties: {} is a struct without fields
		if ap, ok := node["additionalProperties"].(map[string]any); ok {
			elem, err := b.schema(ap, child(ptr, "additionalProperties"))
			t.Kind, t.Elem = rs.Map, elem
			return err
		}
		t.Kind = rs.Untyped // arbitrary or unknown fields: merged as maps
		return nil
	}
	t.Kind = rs.Struct
	// An embedded resource without properties declares none of its fields.
	t.PreserveUnknown = flag(node, "x-kubernetes-preserve-unknown-fields") || props == nil
	for _, name := range slices.Sorted(maps.Keys(props)) {
		fptr := child(ptr, "properties", name)
		ft, err := b.schema(props[name], fptr)
		if err != nil {
			return err
		}
		f := &rs.Field{Name: name, Type: ft}
		t.Fields = append(t.Fields, f)
		pnode, _ := props[name].(map[string]any)
		b.fields = append(b.fields, pendingField{field: f, node: pnode, ptr: fptr})
	}
	if embedded {
		b.embed(t)
	}
	return nil
}

// finish decides the patch metadata of every field, now that every type
// is complete, and seals the types.
func (b *builder) finish() error {
	for _, t := range b.lists {
		if t.Elem.Kind == rs.List {
			t.Kind = rs.Atomic
		}
	}
	for _, p := range b.fields {
		if err := b.decideMeta(p); err != nil {
			return err
		}
	}
	for _, t := range b.roots {
		if err := rs.Seal(t); err != nil {
			return b.fail(ReasonInvalid, "#", "%v", err)
		}
	}
	return nil
}
