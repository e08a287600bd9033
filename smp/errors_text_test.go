package smp_test

import (
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

func TestPathStringQuotesWhatIsNotPlain(t *testing.T) {
	long := strings.Repeat("é", 100) // 200 bytes: cut at a rune boundary
	for _, tc := range []struct {
		path smp.Path
		want string
	}{
		{nil, "<root>"},
		{smp.Path{smp.FieldStep("spec"), smp.FieldStep("containers"), smp.KeyStep{{Name: "name", Value: "nginx"}},
			smp.FieldStep("ports"), smp.KeyStep{{Name: "containerPort", Value: "80"}, {Name: "protocol", Value: "TCP"}}},
			"spec.containers[name=nginx].ports[containerPort=80,protocol=TCP]"},
		{smp.Path{smp.FieldStep("spec"), smp.FieldStep("$setElementOrder/containers"), smp.IndexStep(3)}, "spec.$setElementOrder/containers[3]"},
		{smp.Path{smp.FieldStep("a.b")}, `"a.b"`},
		{smp.Path{smp.FieldStep("a"), smp.FieldStep("b[0]")}, `a."b[0]"`},
		{smp.Path{smp.FieldStep("")}, `""`},
		{smp.Path{smp.FieldStep("<root>")}, `"<root>"`},
		{smp.Path{smp.FieldStep(`say "hi"`)}, `"say \"hi\""`},
		{smp.Path{smp.FieldStep("ünïcode déjà")}, "ünïcode déjà"},
		{smp.Path{smp.FieldStep("a\nb"), smp.FieldStep("\x1b[31m"), smp.FieldStep("\x00"), smp.FieldStep("\xff"), smp.FieldStep("\u202e")},
			`"a\nb"."\x1b[31m"."\x00"."\xff"."\u202e"`},
		{smp.Path{smp.FieldStep("m"), smp.KeyStep{{Name: "port", Value: "1.5"}, {Name: "host", Value: "a.example"}}}, "m[port=1.5,host=a.example]"},
		{smp.Path{smp.FieldStep("m"), smp.KeyStep{{Name: "name", Value: "a,b=c]"}}}, `m[name="a,b=c]"]`},
		{smp.Path{smp.FieldStep("m"), smp.KeyStep{{Name: "a=b", Value: ""}}}, `m["a=b"=""]`},
		{smp.Path{smp.FieldStep("m"), smp.KeyStep{{Name: "name", Value: "<absent>"}}}, "m[name=<absent>]"},
		{smp.Path{smp.FieldStep(long)}, `"` + strings.Repeat("é", 32) + `"…(200 bytes)`},
		{smp.Path{smp.FieldStep(strings.Repeat("a", 128))}, strings.Repeat("a", 128)},
		{smp.Path{smp.FieldStep(strings.Repeat("a", 129))}, `"` + strings.Repeat("a", 64) + `"…(129 bytes)`},
	} {
		assert.Equal(t, tc.want, tc.path.String(), "%#v", tc.path)
	}
}

// hostileComponents are names and values that a path must print apart.
var hostileComponents = []string{"a", "b", "a.b", "a[0]", "a]", "[", "]", "=", ",", `"`, `"a"`, "", "<root>", "<absent>",
	"a=b", "a,b=c", "\n", `\`, `\"`, "0", "1.5", "x\x1b[31m", "\xff", "\u202e", " ", "é"}

// TestPathStringInjective prints every path of up to two steps made of
// hostile components, and of up to five steps drawn by rapid: no two
// different paths print the same.
func TestPathStringInjective(t *testing.T) {
	// short are the steps of one component; steps adds every one-field key.
	short := []smp.Step{smp.IndexStep(0), smp.IndexStep(12), smp.IndexStep(-1), smp.KeyStep{}}
	for _, c := range hostileComponents {
		short = append(short, smp.FieldStep(c), smp.KeyStep{{Name: c, Value: "a"}, {Name: "b", Value: c}})
	}
	steps := short
	for _, c := range hostileComponents {
		for _, v := range hostileComponents {
			steps = append(steps, smp.KeyStep{{Name: c, Value: v}})
		}
	}
	printed := map[string]smp.Path{"<root>": nil}
	add := func(ps ...smp.Path) {
		for _, p := range ps {
			s := p.String()
			if prev, ok := printed[s]; ok {
				require.Equal(t, prev, p, "two paths print as %q", s)
			}
			printed[s] = p
		}
	}
	for _, a := range steps {
		add(smp.Path{a})
		for _, b := range short {
			add(smp.Path{a, b}, smp.Path{b, a})
		}
	}

	component := rapid.OneOf(rapid.SampledFrom(hostileComponents), rapid.StringN(0, 6, -1))
	step := rapid.OneOf(
		rapid.Map(component, func(s string) smp.Step { return smp.FieldStep(s) }),
		rapid.Map(rapid.IntRange(-2, 20), func(i int) smp.Step { return smp.IndexStep(i) }),
		rapid.Map(rapid.SliceOfN(rapid.Map(rapid.SliceOfN(component, 2, 2), func(nv []string) smp.KeyField {
			return smp.KeyField{Name: nv[0], Value: nv[1]}
		}), 0, 3), func(k []smp.KeyField) smp.Step { return smp.KeyStep(k) }),
	)
	rapid.Check(t, func(t *rapid.T) {
		p := rapid.SliceOfN(step, 0, 5).Draw(t, "p")
		q := rapid.SliceOfN(step, 0, 5).Draw(t, "q")
		if len(p) == 0 && len(q) == 0 {
			return
		}
		if smp.Path(p).String() == smp.Path(q).String() && !equalPaths(p, q) {
			t.Fatalf("%#v and %#v both print as %q", p, q, smp.Path(p).String())
		}
	})
}

func equalPaths(p, q []smp.Step) bool {
	a, _ := json.Marshal(p)
	b, _ := json.Marshal(q)
	return string(a) == string(b) && len(p) == len(q) && stepTypes(p) == stepTypes(q)
}

func stepTypes(p []smp.Step) string {
	var b strings.Builder
	for _, s := range p {
		switch s.(type) {
		case smp.FieldStep:
			b.WriteByte('f')
		case smp.KeyStep:
			b.WriteByte('k')
		case smp.IndexStep:
			b.WriteByte('i')
		}
	}
	return b.String()
}

// hostileStrings come from an input: names, keys and values that must
// reach Error() escaped, bounded, and told apart.
var hostileStrings = []string{"a\nb", "\x1b[31mred\x1b[0m", "\x1b]0;title\x07", "x\x00y", "\xff\xfe", "a.b", "a[0]", "a]b",
	"a,b", "a=b", `a"b`, `"a"`, "", "<root>", "\u202eevil", "\r\n", "\t", strings.Repeat("m", 1<<20), "plain"}

// hostileInput is a patch (or modified document) built around one
// hostile string h, and what to check of the error it gets.
type hostileInput struct {
	name  string
	doc   func(h string) string
	field bool // h is the last step of the error's path
}

// jsonString writes s as a JSON string, escaping only what JSON requires,
// so that its invalid UTF-8 and terminal escapes reach the decoder.
func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[c>>4])
			b.WriteByte("0123456789abcdef"[c&15])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// decoded is s as a JSON decoder reads it back from jsonString(s):
// invalid UTF-8 becomes U+FFFD.
func decoded(t *testing.T, s string) string {
	var out string
	require.NoError(t, json.Unmarshal([]byte(jsonString(s)), &out))
	return out
}

var hostileInputs = []hostileInput{
	{name: "map key", doc: func(h string) string { return `{"metadata":{"labels":{` + jsonString(h) + `:5}}}` }, field: true},
	{name: "merge key value", doc: func(h string) string {
		return `{"spec":{"containers":[{"name":` + jsonString(h) + `,"ports":[{"containerPort":"x"}]}]}}`
	}},
	{name: "unknown directive", doc: func(h string) string { return `{"spec":{` + jsonString("$"+h) + `:1}}` }},
	{name: "$patch value", doc: func(h string) string { return `{"metadata":{"$patch":` + jsonString(h) + `}}` }},
	{name: "$patchMergeKey name", doc: func(h string) string {
		return `{"spec":{"containers":[{"name":"n","ports":[{"$patchMergeKey":[` + jsonString(h) + `],"containerPort":1}]}]}}`
	}},
	{name: "retainKeys field", doc: func(h string) string {
		return `{"spec":{"volumes":[{"name":"v","$retainKeys":["name"],` + jsonString(h) + `:{}}]}}`
	}, field: true},
}

// checkErrorText asserts that an error's text has no control character
// or invalid UTF-8, and a bounded length.
func checkErrorText(t *testing.T, what string, err error) string {
	t.Helper()
	require.Error(t, err, what)
	var e *smp.Error
	require.True(t, errors.As(err, &e), "%s: %T", what, err)
	s := err.Error()
	assert.True(t, utf8.ValidString(s), "%s: invalid UTF-8 in %q", what, s)
	for _, r := range s {
		if r != ' ' && !unicode.IsPrint(r) {
			assert.Failf(t, "control character", "%s: %U in %q", what, r, s)
			break
		}
	}
	assert.LessOrEqual(t, len(s), 1024, "%s: %q", what, s)
	return s
}

func TestHostileInputInErrors(t *testing.T) {
	const original = `{"spec":{"containers":[{"name":"n"}]}}`
	apis := map[string]func(doc string) error{
		"ApplyJSON": func(doc string) error {
			_, err := smp.ApplyJSON([]byte(original), []byte(doc), &exampletypes.Pod{})
			return err
		},
		"ApplyMap": func(doc string) error {
			var p smp.JSONMap
			d := json.NewDecoder(strings.NewReader(doc))
			d.UseNumber()
			if err := d.Decode(&p); err != nil {
				return err
			}
			_, err := smp.ApplyMap(smp.JSONMap{}, p, &exampletypes.Pod{})
			return err
		},
		"typed Apply": func(doc string) error {
			p, err := smp.ParsePatch([]byte(doc))
			if err != nil {
				return err
			}
			_, err = smp.Apply(exampletypes.Pod{Spec: exampletypes.PodSpec{Containers: []exampletypes.Container{{Name: "n"}}}}, p)
			return err
		},
	}
	for api, run := range apis {
		for _, in := range hostileInputs {
			printed := map[string]string{}
			for _, h := range hostileStrings {
				what := api + ", " + in.name + " " + quoteShort(h)
				err := run(in.doc(h))
				s := checkErrorText(t, what, err)
				if in.field {
					var e *smp.Error
					require.ErrorAs(t, err, &e)
					assert.Equal(t, smp.FieldStep(decoded(t, h)), e.Path[len(e.Path)-1], "%s: the path holds the input as it is", what)
				}
				if prev, dup := printed[s]; dup {
					t.Errorf("%s and %s print the same error %q", what, prev, s)
				}
				printed[s] = what
			}
		}
	}
}

func TestHostileInputInDiffErrors(t *testing.T) {
	printed := map[string]string{}
	for _, h := range hostileStrings {
		// Too deep below two hostile keys: the path names both.
		doc := `{"metadata":{"labels":{` + jsonString(h) + `:{` + jsonString(h+"2") + `:{"c":1}}}}}`
		_, err := smp.DiffJSON([]byte(`{}`), []byte(doc), &exampletypes.Pod{}, smp.WithLimits(smp.Limits{MaxDepth: 3}))
		s := checkErrorText(t, "DiffJSON "+quoteShort(h), err)
		assert.Equal(t, smp.ErrLimit, smp.KindOf(err), s)
		if prev, dup := printed[s]; dup {
			t.Errorf("DiffJSON %s and %s print the same error %q", quoteShort(h), prev, s)
		}
		printed[s] = quoteShort(h)
		// Not JSON after a hostile string: the decoder's error is quoted.
		_, err = smp.DiffJSON([]byte(`{}`), []byte(`{"a":`+h), &exampletypes.Pod{})
		checkErrorText(t, "DiffJSON of invalid JSON "+quoteShort(h), err)
	}
}

// TestHostileMapKeysInErrors: the map API takes Go strings as they are,
// invalid UTF-8 included; the path keeps them, Error() escapes them.
func TestHostileMapKeysInErrors(t *testing.T) {
	printed := map[string]string{}
	for _, h := range hostileStrings {
		p := smp.JSONMap{"metadata": map[string]any{"labels": map[string]any{h: json.Number("5")}}}
		_, err := smp.ApplyMap(smp.JSONMap{}, p, &exampletypes.Pod{})
		s := checkErrorText(t, "map API "+quoteShort(h), err)
		var e *smp.Error
		require.ErrorAs(t, err, &e)
		assert.Equal(t, smp.FieldStep(h), e.Path[len(e.Path)-1])
		if prev, dup := printed[s]; dup {
			t.Errorf("map API %s and %s print the same error %q", quoteShort(h), prev, s)
		}
		printed[s] = quoteShort(h)
	}
}

// TestHostileKeysInConflicts: a three-way conflict under a hostile map
// key, through the typed and the JSON API.
func TestHostileKeysInConflicts(t *testing.T) {
	pod := func(h, v string) exampletypes.Pod {
		return exampletypes.Pod{ObjectMeta: exampletypes.ObjectMeta{Labels: map[string]string{h: v}}}
	}
	doc := func(h, v string) []byte { return []byte(`{"metadata":{"labels":{` + jsonString(h) + `:"` + v + `"}}}`) }
	typed, js := map[string]string{}, map[string]string{}
	for _, h := range hostileStrings {
		_, err := smp.ThreeWay(pod(h, "1"), pod(h, "2"), pod(h, "3"))
		require.True(t, smp.IsConflict(err), "%v", err)
		s := checkErrorText(t, "ThreeWay "+quoteShort(h), err)
		if prev, dup := typed[s]; dup {
			t.Errorf("ThreeWay %s and %s print the same error %q", quoteShort(h), prev, s)
		}
		typed[s] = quoteShort(h)

		_, err = smp.ThreeWayJSON(doc(h, "1"), doc(h, "2"), doc(h, "3"), &exampletypes.Pod{}, smp.WithOverwrite(false))
		require.True(t, smp.IsConflict(err), "%v", err)
		s = checkErrorText(t, "ThreeWayJSON "+quoteShort(h), err)
		if prev, dup := js[s]; dup {
			t.Errorf("ThreeWayJSON %s and %s print the same error %q", quoteShort(h), prev, s)
		}
		js[s] = quoteShort(h)
	}
}

// TestOversizedNumberInErrors: a 100,000-digit number is echoed cut, in
// the message and in a merge key of the path.
func TestOversizedNumberInErrors(t *testing.T) {
	big := "7" + strings.Repeat("0", 100_000)
	patches := []string{
		`{"spec":{"terminationGracePeriodSeconds":` + big + `}}`,
		`{"spec":{"containers":[{"name":"n","ports":[{"containerPort":` + big + `}]}]}}`,
		`{"spec":{"tolerations":[{"key":"k","tolerationSeconds":` + big + `}]}}`,
	}
	for _, p := range patches {
		_, err := smp.ApplyJSON([]byte(`{}`), []byte(p), &exampletypes.Pod{})
		s := checkErrorText(t, "ApplyJSON", err)
		assert.Equal(t, smp.ErrInvalidValue, smp.KindOf(err), s)
		assert.Contains(t, s, "(100001 bytes)", "the length of what was cut")
		assert.Contains(t, s, `"7000`, "the start of the number")
		pp, err := smp.ParsePatch([]byte(p))
		require.NoError(t, err)
		_, err = smp.Apply(exampletypes.Pod{}, pp)
		s = checkErrorText(t, "Apply", err)
		assert.Contains(t, s, "(100001 bytes)")
	}
}

// TestLongListsInMessagesAreCut: a message naming other paths or elements
// names at most a few of them.
func TestLongListsInMessagesAreCut(t *testing.T) {
	var orig, cur, mod strings.Builder
	for i := range 2000 {
		sep := map[bool]string{true: "", false: ","}[i == 0]
		orig.WriteString(sep + `"k` + strconv.Itoa(i) + `":"a"`)
		cur.WriteString(sep + `"k` + strconv.Itoa(i) + `":"b"`)
		mod.WriteString(sep + `"k` + strconv.Itoa(i) + `":"c"`)
	}
	wrap := func(b *strings.Builder) []byte { return []byte(`{"metadata":{"labels":{` + b.String() + `}}}`) }
	_, err := smp.ThreeWayJSON(wrap(&orig), wrap(&mod), wrap(&cur), &exampletypes.Pod{}, smp.WithOverwrite(false))
	require.True(t, smp.IsConflict(err), "%v", err)
	s := checkErrorText(t, "conflict", err)
	assert.Contains(t, s, "1999 more:")
	var e *smp.Error
	require.ErrorAs(t, err, &e)
	assert.Len(t, e.Conflicts, 2000, "the error's data keeps every path")

	var ports strings.Builder
	for i := range 50 {
		if i > 0 {
			ports.WriteByte(',')
		}
		ports.WriteString(`{"containerPort":53,"protocol":"P` + strconv.Itoa(i) + `"}`)
	}
	live := `{"spec":{"containers":[{"name":"nginx","ports":[` + ports.String() + `]}]}}`
	patch := `{"spec":{"containers":[{"name":"nginx","ports":[{"$patchMergeKey":["containerPort"],"containerPort":53,"hostPort":1}]}]}}`
	_, err = smp.ApplyJSON([]byte(live), []byte(patch), &exampletypes.Pod{})
	s = checkErrorText(t, "ambiguous", err)
	assert.Equal(t, smp.ErrAmbiguousMergeKey, smp.KindOf(err))
	assert.Contains(t, s, "it matches 50 elements")
	assert.Contains(t, s, "[containerPort=53,protocol=P7], …")
	assert.NotContains(t, s, "protocol=P8]")
}

// TestErrorsDocQuoting runs the examples of docs/errors.md's section on
// quoting, which TestErrorsDoc (one section per kind) does not read.
func TestErrorsDocQuoting(t *testing.T) {
	data, err := os.ReadFile("../docs/errors.md")
	require.NoError(t, err)
	doc := string(data)
	start := strings.Index(doc, "\n## How input is quoted\n")
	require.GreaterOrEqual(t, start, 0)
	end := strings.Index(doc[start+1:], "\n## ")
	require.Greater(t, end, 0)
	examples := errorExample.FindAllStringSubmatch(doc[start:start+1+end], -1)
	require.NotEmpty(t, examples)
	original := originalBlock.FindStringSubmatch(doc)
	require.NotNil(t, original)
	for _, ex := range examples {
		err := runErrorExample(ex[1], original[1], ex[2])
		require.Error(t, err, ex[2])
		assert.Equal(t, ex[3], err.Error())
	}
}

// quoteShort names a hostile input in a test message.
func quoteShort(s string) string {
	if len(s) > 40 {
		return jsonString(s[:20]) + "…"
	}
	return jsonString(s)
}
