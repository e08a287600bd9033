package bench

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp"
)

// Kubernetes' own test vectors for strategicpatch live in its
// patch_test.go, in the module cache next to the code under comparison.
// They are read from there at test time (parsed, never copied), and run
// through this engine with the checks Kubernetes' own tests make.

// mergeItem has the shape and tags of the type Kubernetes' vectors patch
// (MergeItem in its patch_test.go). MergeItemPtr's patchMergeKey has no
// effect on a pointer to a struct: reflectschema ignores it, as Kubernetes
// does where the JSON there is an object.
type mergeItem struct {
	Name                  string               `json:"name,omitempty"`
	Value                 string               `json:"value,omitempty"`
	Other                 string               `json:"other,omitempty"`
	MergingList           []mergeItem          `json:"mergingList,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	NonMergingList        []mergeItem          `json:"nonMergingList,omitempty"`
	MergingIntList        []int                `json:"mergingIntList,omitempty" patchStrategy:"merge"`
	NonMergingIntList     []int                `json:"nonMergingIntList,omitempty"`
	MergeItemPtr          *mergeItem           `json:"mergeItemPtr,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	SimpleMap             map[string]string    `json:"simpleMap,omitempty"`
	ReplacingItem         runtime.RawExtension `json:"replacingItem,omitempty" patchStrategy:"replace"`
	JSONItem              struct{ Raw []byte } `json:"jsonItem,omitempty"`
	RetainKeysMap         retainKeysMergeItem  `json:"retainKeysMap,omitempty" patchStrategy:"retainKeys"`
	RetainKeysMergingList []mergeItem          `json:"retainKeysMergingList,omitempty" patchStrategy:"merge,retainKeys" patchMergeKey:"name"`
}

type retainKeysMergeItem struct {
	Name           string            `json:"name,omitempty"`
	Value          string            `json:"value,omitempty"`
	Other          string            `json:"other,omitempty"`
	SimpleMap      map[string]string `json:"simpleMap,omitempty"`
	MergingIntList []int             `json:"mergingIntList,omitempty" patchStrategy:"merge"`
	MergingList    []mergeItem       `json:"mergingList,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	NonMergingList []mergeItem       `json:"nonMergingList,omitempty"`
}

// vector is one Kubernetes test case, as JSON.
type vector struct {
	Description                                                         string
	Original, Modified, Current, TwoWay, ThreeWay, Result, TwoWayResult []byte
	ExpectedError                                                       string
	sorted                                                              bool // expectations sorted by merge key (the YAML data sets)
}

// knownDifferences are vectors whose expectation this project does not
// meet on purpose, with the docs/compat.md section that says why.
var knownDifferences = map[string]string{
	"delete map from nested map": "delete directive on a map",
	"$deleteFromPrimitiveList should delete item from a list without merge patch strategy": "directives on fields without their strategy",
	"add map to merging list by pointer":                                                   "a pointer to a struct holding a list",
	"add map to merging list by pointer with conflict":                                     "a pointer to a struct holding a list",
	"add field to map in merging list by pointer":                                          "a pointer to a struct holding a list",
	"add field to map in merging list by pointer with conflict":                            "a pointer to a struct holding a list",
	"delete and reorder in one list, reorder in another":                                   "a pointer to a struct holding a list",
	"behavior of set element order for a merging list with duplicate":                      "duplicated merge keys",
	"behavior of set element order for a merging int list with duplicate":                  "duplicated merge keys",
}

func TestKubernetesVectors(t *testing.T) {
	doc, err := os.ReadFile("../docs/compat.md")
	require.NoError(t, err)
	for _, why := range knownDifferences {
		require.Contains(t, string(doc), "\n### "+why+"\n", "docs/compat.md explains it")
	}
	sets := loadVectors(t)
	schema, err := reflectschema.For[mergeItem]()
	require.NoError(t, err)
	for _, vs := range sets {
		for i := range vs {
			vs[i].sortInputs(t, schema)
		}
	}
	total := 0
	for name, vs := range sets {
		for _, v := range vs {
			total++
			t.Run(name+"/"+v.Description, func(t *testing.T) {
				if why, ok := knownDifferences[v.Description]; ok {
					t.Skip("docs/compat.md: " + why)
				}
				if name == "custom" {
					checkApply(t, v, v.Original, v.TwoWay, v.twoWayResult(), schema)
					return
				}
				runVector(t, v, schema)
			})
		}
	}
	require.Greater(t, total, 100, "vectors found")
	t.Logf("%d Kubernetes vectors, %d of them known differences", total, len(knownDifferences))
}

// sortInputs sorts the documents of the YAML data sets by merge key, as
// Kubernetes' tests do before using them (its sortJsonOrFail).
func (v *vector) sortInputs(t *testing.T, schema *reflectschema.Type) {
	if !v.sorted {
		return
	}
	for _, doc := range []*[]byte{&v.Original, &v.Modified, &v.Current, &v.TwoWay, &v.ThreeWay, &v.Result, &v.TwoWayResult} {
		if *doc != nil {
			b, err := json.Marshal(sortLikeKubernetes(decodeVector(t, *doc), schema))
			require.NoError(t, err)
			*doc = b
		}
	}
}

func (v vector) twoWayResult() []byte {
	if v.TwoWayResult != nil {
		return v.TwoWayResult
	}
	return v.Modified
}

func runVector(t *testing.T, v vector, schema *reflectschema.Type) {
	if v.TwoWay != nil || v.Modified != nil {
		patch, err := smp.DiffJSON(v.Original, v.Modified, schema)
		require.NoError(t, err, "two-way")
		samePatch(t, v, "two-way", v.TwoWay, patch, schema)
		checkApply(t, v, v.Original, patch, v.twoWayResult(), schema)
	}
	if v.Current == nil && v.ThreeWay == nil {
		return
	}
	patch, err := smp.ThreeWayJSON(v.Original, v.Modified, v.Current, schema)
	if err != nil {
		require.True(t, smp.IsConflict(err), "three-way: %v", err)
		require.Contains(t, v.Description, "conflict", "unexpected conflict: %v", err)
		if len(v.Result) == 0 {
			return
		}
		patch, err = smp.ThreeWayJSON(v.Original, v.Modified, v.Current, schema, smp.WithOverwrite(true))
		require.NoError(t, err, "three-way with overwrite")
	} else {
		require.False(t, strings.Contains(v.Description, "conflict") || len(v.Result) == 0, "expected a conflict")
	}
	samePatch(t, v, "three-way", v.ThreeWay, patch, schema)
	checkApply(t, v, v.Current, patch, v.Result, schema)
}

func samePatch(t *testing.T, v vector, what string, want, got []byte, schema *reflectschema.Type) {
	t.Helper()
	w := decodeVector(t, want)
	if v.sorted {
		w = sortLikeKubernetes(w, schema)
	}
	if d := gocmp.Diff(w, decodeVector(t, got)); d != "" {
		t.Fatalf("%s patch (-want +got):\n%s\ngot: %s", what, d, got)
	}
}

func checkApply(t *testing.T, v vector, doc, patch, want []byte, schema *reflectschema.Type) {
	t.Helper()
	// The vectors put numbers in string fields: Kubernetes does not check
	// value types, this engine does unless told not to.
	res, err := smp.ApplyJSON(doc, patch, schema, smp.WithTypeChecks(false))
	if v.ExpectedError != "" {
		require.Error(t, err, "expected an error containing %q", v.ExpectedError)
		return
	}
	require.NoError(t, err, "apply %s", patch)
	w := decodeVector(t, want)
	if v.sorted {
		w = sortLikeKubernetes(w, schema)
	}
	if d := gocmp.Diff(w, decodeVector(t, res)); d != "" {
		t.Fatalf("result (-want +got):\n%s\npatch: %s", d, patch)
	}
}

func decodeVector(t *testing.T, data []byte) any {
	t.Helper()
	if data == nil {
		return nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&v), "%s", data)
	return v
}

// sortLikeKubernetes sorts what Kubernetes' test helper sortMergeListsByName
// sorts in its expectations: merge lists by merge key, merge lists of
// scalars (deduplicated), $retainKeys and $deleteFromPrimitiveList lists.
func sortLikeKubernetes(v any, t *reflectschema.Type) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := map[string]any{}
	for k, e := range m {
		switch {
		case k == "$retainKeys" || strings.HasPrefix(k, "$deleteFromPrimitiveList/"):
			e = sortScalars(e.([]any))
		case strings.HasPrefix(k, "$"):
		default:
			var f *reflectschema.Field
			if t != nil {
				f = t.Field(k)
			}
			switch ev := e.(type) {
			case map[string]any:
				if f != nil {
					e = sortLikeKubernetes(ev, f.Type)
				}
			case []any:
				if f != nil && f.Patch.IsMergeList() && len(ev) > 0 {
					if _, objects := ev[0].(map[string]any); !objects {
						e = sortScalars(slices.CompactFunc(sortScalars(ev), func(a, b any) bool { return fmt.Sprint(a) == fmt.Sprint(b) }))
					} else {
						l := make([]any, len(ev))
						for i, x := range ev {
							l[i] = sortLikeKubernetes(x, f.Type.Elem)
						}
						key := f.Patch.MergeKey[0]
						slices.SortStableFunc(l, func(a, b any) int {
							return cmp.Compare(fmt.Sprint(a.(map[string]any)[key]), fmt.Sprint(b.(map[string]any)[key]))
						})
						e = l
					}
				}
			}
		}
		out[k] = e
	}
	return out
}

func sortScalars(l []any) []any {
	l = slices.Clone(l)
	slices.SortStableFunc(l, func(a, b any) int { return cmp.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
	return l
}

// loadVectors parses Kubernetes' patch_test.go from the module cache.
func loadVectors(t *testing.T) map[string][]vector {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "k8s.io/apimachinery").Output()
	require.NoError(t, err)
	file := filepath.Join(strings.TrimSpace(string(out)), "pkg", "util", "strategicpatch", "patch_test.go")
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	require.NoError(t, err)
	sets := map[string][]vector{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			if len(vs.Values) != 1 {
				continue
			}
			switch name := vs.Names[0].Name; name {
			case "createStrategicMergePatchTestCaseData", "customStrategicMergePatchTestCaseData":
				sets[strings.TrimSuffix(name, "StrategicMergePatchTestCaseData")+"-yaml"] = yamlVectors(t, byteLit(t, vs.Values[0]))
			case "strategicMergePatchRawTestCases", "customStrategicMergePatchRawTestCases":
				sets[strings.TrimSuffix(name, "StrategicMergePatchRawTestCases")+"-raw"] = rawVectors(t, vs.Values[0])
			}
		}
	}
	require.Len(t, sets, 4, "the four vector sets of patch_test.go")
	sets["custom"] = append(sets["custom-yaml"], sets["custom-raw"]...)
	delete(sets, "custom-yaml")
	delete(sets, "custom-raw")
	return sets
}

// byteLit evaluates []byte(`...`) or a string literal.
func byteLit(t *testing.T, e ast.Expr) []byte {
	if c, ok := e.(*ast.CallExpr); ok {
		e = c.Args[0]
	}
	lit, ok := e.(*ast.BasicLit)
	require.True(t, ok, "literal expected, got %T", e)
	s, err := strconv.Unquote(lit.Value)
	require.NoError(t, err)
	return []byte(s)
}

func yamlVectors(t *testing.T, data []byte) []vector {
	var tc struct {
		TestCases []struct {
			Description                                                         string
			Original, Modified, Current, TwoWay, ThreeWay, Result, TwoWayResult map[string]any
		}
	}
	require.NoError(t, yaml.Unmarshal(data, &tc))
	var out []vector
	for _, c := range tc.TestCases {
		v := vector{Description: c.Description, sorted: true}
		for _, p := range []struct {
			dst *[]byte
			src map[string]any
		}{{&v.Original, c.Original}, {&v.Modified, c.Modified}, {&v.Current, c.Current}, {&v.TwoWay, c.TwoWay},
			{&v.ThreeWay, c.ThreeWay}, {&v.Result, c.Result}, {&v.TwoWayResult, c.TwoWayResult}} {
			if p.src != nil {
				b, err := json.Marshal(p.src)
				require.NoError(t, err)
				*p.dst = b
			}
		}
		out = append(out, v)
	}
	return out
}

func rawVectors(t *testing.T, e ast.Expr) []vector {
	list, ok := e.(*ast.CompositeLit)
	require.True(t, ok)
	var out []vector
	for _, el := range list.Elts {
		var v vector
		for _, kv := range el.(*ast.CompositeLit).Elts {
			kv := kv.(*ast.KeyValueExpr)
			switch kv.Key.(*ast.Ident).Name {
			case "Description":
				v.Description = string(byteLit(t, kv.Value))
			case "StrategicMergePatchRawTestCaseData":
				for _, f := range kv.Value.(*ast.CompositeLit).Elts {
					f := f.(*ast.KeyValueExpr)
					val := byteLit(t, f.Value)
					if f.Key.(*ast.Ident).Name == "ExpectedError" {
						v.ExpectedError = string(val)
						continue
					}
					j, err := yaml.YAMLToJSON(val)
					require.NoError(t, err)
					switch f.Key.(*ast.Ident).Name {
					case "Original":
						v.Original = j
					case "Modified":
						v.Modified = j
					case "Current":
						v.Current = j
					case "TwoWay":
						v.TwoWay = j
					case "ThreeWay":
						v.ThreeWay = j
					case "Result":
						v.Result = j
					case "TwoWayResult":
						v.TwoWayResult = j
					}
				}
			}
		}
		out = append(out, v)
	}
	return out
}
