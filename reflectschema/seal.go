package reflectschema

import (
	"slices"
	"strconv"
	"strings"
)

// ParsePatchMeta reads patch metadata as Kubernetes spells it in struct
// tags and in OpenAPI extensions: a strategy such as "merge,retainKeys"
// (or "merge|retainKeys"), and merge keys separated by commas. Empty
// strings declare nothing.
func ParsePatchMeta(strategy, mergeKey, recommendedKey string) (PatchMeta, error) {
	s, retain, err := parseStrategy(strategy)
	if err != nil {
		return PatchMeta{}, err
	}
	keys, err := parseKeys(tagMergeKey, mergeKey)
	if err != nil {
		return PatchMeta{}, err
	}
	rec, err := parseKeys(tagRecommendedKey, recommendedKey)
	if err != nil {
		return PatchMeta{}, err
	}
	return PatchMeta{Strategy: s, RetainKeys: retain, MergeKey: keys, RecommendedMergeKey: rec}, nil
}

// Seal checks a schema built without [Of] (by hand, or read from a
// document), indexes its struct fields by name, and marks it checked, so
// that [Type.Validate] returns at once for it. Call it once, before the
// schema is shared; the schema must not change afterwards. Parts built by
// [Of] or sealed before are left as they are.
func Seal(root *Type) error {
	nodes, err := collect(root, true)
	if err != nil {
		return err
	}
	if err := checkFields(nodes); err != nil {
		return err
	}
	for _, n := range nodes {
		n.t.sealed = true
	}
	return nil
}

// Validate reports what makes the schema reachable from t unusable: a
// missing element or field type, an unknown kind or JSON type, duplicate
// or unindexed struct fields (build such schemas with [Seal]), and patch
// metadata [Field.Validate] rejects. It changes nothing, and returns at
// once for schemas built by [Of] or sealed.
func (t *Type) Validate() error {
	nodes, err := collect(t, false)
	if err != nil {
		return err
	}
	return checkFields(nodes)
}

// Validate checks a field's patch metadata against its type: merge and
// retainKeys only on lists and objects, merge keys only on lists, each
// naming a scalar field of the element struct, and recommended keys that
// start with the merge key. [Of] drops from struct tags what has no effect
// instead (see [Vet]), so its fields pass.
func (f *Field) Validate() error {
	if f == nil {
		return &Error{Rule: RuleIncomplete, Msg: "nil field"}
	}
	if rule, msg := f.problem(); msg != "" {
		return &Error{Rule: rule, Msg: msg, Path: f.Name}
	}
	return nil
}

// trusted reports whether t was checked when built: by Of, or by Seal.
func (t *Type) trusted() bool {
	if t.sealed {
		return true
	}
	if t.Go == nil {
		return false
	}
	c, ok := lookupCache(t.Go)
	return ok && c == t
}

// node is one type reached from a root, with the step that reached it
// from its parent (an index into the node list), so a path is built only
// for an error.
type node struct {
	t      *Type
	parent int
	step   string
}

func pathOf(nodes []node, i int, last string) string {
	var steps []string
	if last != "" {
		steps = append(steps, last)
	}
	for ; i > 0; i = nodes[i].parent {
		steps = append(steps, nodes[i].step)
	}
	var out strings.Builder
	for _, s := range slices.Backward(steps) {
		if out.Len() > 0 && !strings.HasPrefix(s, "[") {
			out.WriteByte('.')
		}
		out.WriteString(s)
	}
	return out.String()
}

// collect lists the untrusted types reachable from root, checking each
// one's shape; with index set it builds missing field indexes.
func collect(root *Type, index bool) ([]node, error) {
	if root == nil {
		return nil, &Error{Rule: RuleIncomplete, Msg: "nil schema"}
	}
	if root.trusted() {
		return nil, nil
	}
	nodes := []node{{t: root, parent: -1}}
	seen := map[*Type]bool{root: true}
	push := func(t *Type, parent int, step string) error {
		if t == nil {
			return &Error{Rule: RuleIncomplete, Path: pathOf(nodes, parent, step), Msg: "no type"}
		}
		if !seen[t] && !t.trusted() {
			seen[t] = true
			nodes = append(nodes, node{t: t, parent: parent, step: step})
		}
		return nil
	}
	for i := 0; i < len(nodes); i++ {
		t := nodes[i].t
		fail := func(msg string) error {
			return &Error{Rule: RuleIncomplete, Path: pathOf(nodes, i, ""), Msg: msg}
		}
		if msg := t.shapeProblem(index); msg != "" {
			return nil, fail(msg)
		}
		switch t.Kind {
		case List:
			if err := push(t.Elem, i, "[]"); err != nil {
				return nil, err
			}
		case Map:
			if err := push(t.Elem, i, "[*]"); err != nil {
				return nil, err
			}
		case Struct:
			for _, f := range t.Fields {
				if err := push(f.Type, i, f.Name); err != nil {
					return nil, err
				}
			}
		}
	}
	return nodes, nil
}

// shapeProblem says what is wrong with t itself, or "". With index set it
// builds a missing field index.
func (t *Type) shapeProblem(index bool) string {
	switch t.Kind {
	case Scalar:
		switch t.JSONType {
		case "", JSONString, JSONInteger, JSONNumber, JSONBoolean:
		default:
			return "unknown JSON type " + quote(t.JSONType)
		}
	case List, Map:
		if t.Elem == nil {
			return "a " + t.Kind.String() + " without an element type"
		}
	case Struct:
		return t.fieldsProblem(index)
	case Atomic, Untyped:
	default:
		return "invalid kind " + strconv.Itoa(int(t.Kind))
	}
	return ""
}

func (t *Type) fieldsProblem(index bool) string {
	byName := make(map[string]*Field, len(t.Fields))
	for i, f := range t.Fields {
		switch {
		case f == nil:
			return "field " + strconv.Itoa(i) + " is nil"
		case f.Name == "":
			return "field " + strconv.Itoa(i) + " has no name"
		case byName[f.Name] != nil:
			return "two fields named " + quote(f.Name)
		}
		byName[f.Name] = f
	}
	switch {
	case t.byName != nil:
	case index:
		t.byName = byName
	case len(t.Fields) > 0:
		return "struct fields are not indexed: build the schema with reflectschema.Seal"
	}
	return ""
}

// checkFields validates the patch metadata of every field of the nodes.
func checkFields(nodes []node) error {
	for i, n := range nodes {
		if n.t.Kind != Struct {
			continue
		}
		for _, f := range n.t.Fields {
			if rule, msg := f.problem(); msg != "" {
				return &Error{Rule: rule, Path: pathOf(nodes, i, f.Name), Msg: msg}
			}
		}
	}
	return nil
}

// problem says what is wrong with f's patch metadata, or "".
func (f *Field) problem() (Rule, string) {
	if f.Type == nil {
		return RuleIncomplete, "no type"
	}
	m, kind := f.Patch, f.Type.Kind
	switch {
	case m.Strategy > Replace:
		return RuleStrategy, "unknown strategy " + strconv.Itoa(int(m.Strategy))
	case (kind == Scalar || kind == Atomic) && (m.Strategy == Merge || m.RetainKeys):
		return RuleStrategy, "patch strategy " + quote(m.StrategyTag()) + " on " + article(kind) + " field"
	case len(m.MergeKey) > 0 && kind != List:
		return RuleMergeKey, "merge key " + quote(joinKeys(m.MergeKey)) + " on " + article(kind) + " field; merge keys identify elements of lists"
	case len(m.RecommendedMergeKey) > 0 && len(m.MergeKey) == 0:
		return RuleRecommended, "recommended merge key " + quote(joinKeys(m.RecommendedMergeKey)) + " without a merge key"
	case len(m.RecommendedMergeKey) > 0 && (len(m.RecommendedMergeKey) < len(m.MergeKey) ||
		!slices.Equal(m.RecommendedMergeKey[:len(m.MergeKey)], m.MergeKey)):
		return RuleRecommended, "recommended merge key " + quote(joinKeys(m.RecommendedMergeKey)) + " must start with the merge key " + quote(joinKeys(m.MergeKey))
	case kind == List && f.Type.Elem == nil:
		return RuleIncomplete, "a list without an element type"
	case kind == List:
		return listProblem(m, f.Type.Elem)
	}
	return "", ""
}

// listProblem checks a list field's strategy and keys against its
// element type.
func listProblem(m PatchMeta, elem *Type) (Rule, string) {
	if elem.Kind == Scalar || elem.Kind == Atomic {
		if len(m.MergeKey) > 0 {
			return RuleMergeKey, "merge key " + quote(joinKeys(m.MergeKey)) + " on a list of " + elem.Kind.String() + "s (" + elem.String() + "); merge keys identify objects"
		}
		if m.RetainKeys {
			return RuleStrategy, "retainKeys on a list of " + elem.Kind.String() + "s (" + elem.String() + ")"
		}
		return "", ""
	}
	if m.Strategy == Merge && len(m.MergeKey) == 0 {
		return RuleMergeKey, "merge strategy on a list of objects (" + elem.String() + ") without a merge key"
	}
	if m.RetainKeys && m.Strategy != Merge {
		return RuleStrategy, "retainKeys on a list applies to merged elements; add merge"
	}
	if elem.Kind != Struct {
		return "", ""
	}
	for _, k := range m.RecommendedMergeKey[min(len(m.MergeKey), len(m.RecommendedMergeKey)):] {
		if msg := keyProblem(elem, k); msg != "" {
			return RuleRecommended, "recommended merge key " + quote(joinKeys(m.RecommendedMergeKey)) + ": " + msg
		}
	}
	for _, k := range m.MergeKey {
		if msg := keyProblem(elem, k); msg != "" {
			return RuleMergeKey, "merge key " + quote(joinKeys(m.MergeKey)) + ": " + msg
		}
	}
	return "", ""
}

// keyProblem says what is wrong with key as a merge key of elem, or "".
func keyProblem(elem *Type, key string) string {
	kf := elem.exactField(key)
	if kf == nil {
		return quote(key) + " is not a field of " + elem.String()
	}
	if kf.Type == nil || kf.Type.Kind != Scalar {
		return "key field " + quote(key) + " of " + elem.String() + " is " + article(kindOf(kf.Type)) + ", not a scalar"
	}
	return ""
}

func kindOf(t *Type) Kind {
	if t == nil {
		return 0
	}
	return t.Kind
}

// exactField returns the field named exactly name, using the index when
// there is one.
func (t *Type) exactField(name string) *Field {
	if t.byName != nil {
		return t.byName[name]
	}
	for _, f := range t.Fields {
		if f != nil && f.Name == name {
			return f
		}
	}
	return nil
}
