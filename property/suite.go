package property

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp"
)

// suite holds what the properties of one type share.
type suite struct {
	cfg         *config
	typ         reflect.Type // T; nil for a schema without one (CheckSchema)
	schema      *reflectschema.Type
	root        node
	unique      *generator // merge keys unique in each list
	dups        *generator // merge keys may repeat
	engines     []engine
	recommended bool // the type has recommended merge keys
}

func newSuite[T any](cfg *config) (*suite, error) {
	typ := reflect.TypeFor[T]()
	st, err := reflectschema.Of(typ)
	if err != nil {
		return nil, err
	}
	if st.Kind != reflectschema.Struct {
		return nil, fmt.Errorf("property: %s is not a struct type", typ)
	}
	s := &suite{
		cfg: cfg, typ: typ, schema: st, root: node{t: st},
		unique:      newGenerator(cfg, st, false, ""),
		dups:        newGenerator(cfg, st, true, ""),
		engines:     []engine{jsonEngine{dataStruct: reflect.New(st.Go).Interface()}},
		recommended: hasRecommendedKeys(st),
	}
	if cfg.typed {
		if e := typedEngine[T](); e != nil {
			s.engines = append(s.engines, e)
		}
	}
	return s, nil
}

// opts returns the user's engine options followed by extra.
func (s *suite) opts(extra ...smp.Option) []smp.Option {
	out := append([]smp.Option{smp.WithDirectives(smp.DirectivesAll)}, s.cfg.engine...)
	return append(out, extra...)
}

// trio is one case's documents.
type trio struct{ o, m, c doc }

// draw draws an original, a modified made from it by edits (or drawn
// apart), and with current a third document made by edits from original
// or from modified.
func (s *suite) draw(t *rapid.T, g *generator, current bool) trio {
	if s.typ == nil {
		return s.drawJSON(t, g, current)
	}
	root := site{n: s.root, typ: s.typ}
	ov := g.value(t, root)
	mg := g.withRole("modified: ")
	var mv reflect.Value
	if chance(t, "modified: drawn apart from original", 6) {
		mv = mg.value(t, root)
	} else {
		mv = mg.mutate(t, root, ov)
	}
	tr := trio{o: s.doc(t, ov), m: s.doc(t, mv)}
	if current {
		base := ov
		if chance(t, "current: made from modified", 4) {
			base = mv
		}
		tr.c = s.doc(t, g.withRole("current: ").mutate(t, root, base))
	}
	return tr
}

func (s *suite) doc(t *rapid.T, v reflect.Value) doc {
	b, err := json.Marshal(v.Interface())
	if err != nil {
		t.Fatalf("property: the generator drew a %s that does not marshal: %v", s.typ, err)
	}
	return doc{v: v.Interface(), b: b}
}

func (s *suite) fail(t *rapid.T, r report) {
	t.Helper()
	t.Fatalf("%s", r.yaml())
}

// canon decodes a document into the Go type and encodes it again: the
// document as the type sees it, as JSON. Without a Go type it is
// canonJSON's.
func (s *suite) canon(data []byte) ([]byte, error) {
	if s.typ == nil {
		return canonJSON(data)
	}
	v := reflect.New(s.schema.Go)
	if err := json.Unmarshal(data, v.Interface()); err != nil {
		return nil, fmt.Errorf("the document does not decode into %s: %w", s.schema.Go, err)
	}
	return json.Marshal(v.Interface())
}

// compareDocs lists how got differs from want as the Go type sees them,
// and any directive left in got. With order false, merge-list order is
// not compared.
func (s *suite) compareDocs(got, want []byte, order bool) []string {
	var out []string
	if k := directiveIn(got); k != "" {
		out = append(out, "the result holds a directive: "+k)
	}
	if bytes.Equal(got, want) {
		return out
	}
	cg, err := s.canon(got)
	if err != nil {
		return append(out, err.Error())
	}
	cw, err := s.canon(want)
	if err != nil {
		return append(out, err.Error())
	}
	if bytes.Equal(cg, cw) {
		return out
	}
	var diffs []string
	for _, d := range docDiff(mustDecode(cg), mustDecode(cw), s.root) {
		if order || !strings.HasSuffix(d, ": order differs") {
			diffs = append(diffs, d)
		}
	}
	if order && len(diffs) == 0 {
		diffs = append(diffs, "the documents differ as "+s.schema.String())
	}
	return append(out, diffs...)
}

// directiveIn returns the path of a "$" key in a JSON document, or "".
func directiveIn(data []byte) string {
	if !bytes.Contains(data, []byte(`"$`)) {
		return ""
	}
	return directiveKey(mustDecode(data), "")
}

// directiveKey returns the path of a "$" key in a document, or "".
func directiveKey(v any, path string) string {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if strings.HasPrefix(k, "$") {
				return joinField(path, k)
			}
			if p := directiveKey(x[k], joinField(path, k)); p != "" {
				return p
			}
		}
	case []any:
		for i, e := range x {
			if p := directiveKey(e, fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
	}
	return ""
}

// samePatch reports whether two patches are the same JSON.
func samePatch(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	da, err1 := decode(a)
	db, err2 := decode(b)
	return err1 == nil && err2 == nil && reflect.DeepEqual(da, db)
}

func mustDecode(data []byte) any {
	v, err := decode(data)
	if err != nil {
		return nil
	}
	return v
}

// olderSets are the generations before DirectivesAll, oldest first.
var olderSets = []smp.DirectiveSet{smp.DirectivesLegacy, smp.DirectivesSetElementOrder, smp.DirectivesRetainKeys}

// allSets are the generations, newest first (where shrinking goes).
var allSets = []smp.DirectiveSet{smp.DirectivesAll, smp.DirectivesRetainKeys, smp.DirectivesSetElementOrder, smp.DirectivesLegacy}
