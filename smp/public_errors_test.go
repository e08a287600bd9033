package smp_test

import (
	"encoding/json"
	"errors"
	"go/ast"
	"go/doc"
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// entryError is one failing call of an exported function of smp and the
// error it must return, written from the input and docs/errors.md.
type entryError struct {
	call      func() error
	kind      smp.ErrorKind
	path      smp.Path
	msg       string
	conflicts []smp.Path
	// cause, when set, must be in the error's chain (errors.As).
	cause any
}

// Paths of the cases below, as data.
var (
	root          smp.Path
	nodeName      = smp.Path{smp.FieldStep("spec"), smp.FieldStep("nodeName")}
	firstItem     = smp.Path{smp.FieldStep("spec"), smp.FieldStep("containers"), smp.IndexStep(0)}
	finalizers    = smp.Path{smp.FieldStep("metadata"), smp.FieldStep("finalizers")}
	resourceVer   = smp.Path{smp.FieldStep("metadata"), smp.FieldStep("resourceVersion")}
	nginxPort53   = smp.Path{smp.FieldStep("spec"), smp.FieldStep("containers"), smp.KeyStep{{Name: "name", Value: "nginx"}}, smp.FieldStep("ports"), smp.KeyStep{{Name: "containerPort", Value: "53"}}}
	nginxUDPImage = smp.Path{smp.FieldStep("spec"), smp.FieldStep("containers"), smp.KeyStep{{Name: "name", Value: "nginx"}}, smp.FieldStep("image")}
)

const (
	missingName    = "element has no merge key field \"name\" (merge key name)"
	ambiguousPort  = "$patchMergeKey containerPort is ambiguous: it matches 2 elements ([containerPort=53,protocol=TCP], [containerPort=53,protocol=UDP]); name more keys to pick one"
	conflictMsg    = "conflict: current changed it since original, and the patch changes it differently"
	preconditionNo = "precondition failed for the patch"
	notComposable  = "cannot compose patch 1 and patch 2: the set is filled by patch 2 after patch 1 removed it; no one patch can empty a set and fill it, whatever the document holds"
	rvChanged      = "the patch changes the resourceVersion, which a server takes as a precondition (WithResourceVersionCheck(false) sends no precondition)"
)

// entryErrors holds, for each exported function or method of smp that
// returns an error, calls that make it fail. Cases reach every kind of
// step (field, key of one and two fields, index), conflicts and wrapped
// causes.
func entryErrors(t *testing.T) map[string][]entryError {
	pod := func(s string) exampletypes.Pod {
		var p exampletypes.Pod
		require.NoError(t, json.Unmarshal([]byte(s), &p))
		return p
	}
	patch := func(s string) smp.Patch {
		p, err := smp.ParsePatch([]byte(s))
		require.NoError(t, err)
		return p
	}
	obj := func(s string) smp.JSONMap {
		var m smp.JSONMap
		require.NoError(t, json.Unmarshal([]byte(s), &m))
		return m
	}
	live := podWithNginx
	ambiguous := `{"spec":{"containers":[{"name":"nginx","ports":[{"$patchMergeKey":["containerPort"],"containerPort":53,"hostPort":1}]}]}}`
	noName := `{"spec":{"containers":[{"image":"x"}]}}`
	o, m, c := `{"spec":{"nodeName":"a"}}`, `{"spec":{"nodeName":"b"}}`, `{"spec":{"nodeName":"c"}}`
	co, cm, cc := `{"spec":{"containers":[{"name":"nginx","image":"a"}]}}`, `{"spec":{"containers":[{"name":"nginx","image":"b"}]}}`, `{"spec":{"containers":[{"name":"nginx","image":"c"}]}}`
	rvLive, rvPatch := `{"metadata":{"name":"p","resourceVersion":"1"}}`, `{"metadata":{"resourceVersion":"2"}}`
	refuse := smp.WithPreconditions(func(any) bool { return false })
	conflict := func(at smp.Path) entryError {
		return entryError{kind: smp.ErrConflict, path: at, msg: conflictMsg, conflicts: []smp.Path{at}}
	}
	with := func(e entryError, call func() error) entryError { e.call = call; return e }
	ambiguousErr := entryError{kind: smp.ErrAmbiguousMergeKey, path: nginxPort53, msg: ambiguousPort}
	missingErr := entryError{kind: smp.ErrMissingMergeKey, path: firstItem, msg: missingName}
	syntax := entryError{kind: smp.ErrInvalidJSON, path: root, msg: "patch is not valid JSON: invalid character 'x' looking for beginning of value", cause: new(*json.SyntaxError)}
	return map[string][]entryError{
		"Apply": {with(ambiguousErr, func() error { _, err := smp.Apply(pod(live), patch(ambiguous)); return err })},
		"ApplyInPlace": {
			with(ambiguousErr, func() error { p := pod(live); return smp.ApplyInPlace(&p, patch(ambiguous)) }),
			{kind: smp.ErrInvalidValue, path: root, msg: "ApplyInPlace: dst is a nil pointer",
				call: func() error { return smp.ApplyInPlace((*exampletypes.Pod)(nil), smp.Patch{}) }},
		},
		"ApplyJSON": {
			with(ambiguousErr, func() error { _, err := smp.ApplyJSON([]byte(live), []byte(ambiguous), exampletypes.Pod{}); return err }),
			with(syntax, func() error {
				_, err := smp.ApplyJSON([]byte(live), []byte(`{"spec":x}`), exampletypes.Pod{})
				return err
			}),
			{kind: smp.ErrSchema, path: root, msg: "reflectschema: int: schema root must be a struct, not a scalar", cause: new(error),
				call: func() error { _, err := smp.ApplyJSON([]byte(`{}`), []byte(`{}`), 5); return err }},
		},
		"ApplyMap":  {with(missingErr, func() error { _, err := smp.ApplyMap(obj(live), obj(noName), exampletypes.Pod{}); return err })},
		"CheckSize": {{kind: smp.ErrLimit, path: smp.Path{smp.FieldStep("a")}, msg: "v stands for more than 3 values of JSON (a value reached along several paths counts once per path): more than the limit MaxNodes allows", call: func() error { return smp.CheckSize(map[string]any{"a": []any{1, 2, 3}}, smp.Limits{MaxNodes: 3}, "v") }}},
		"Compose": {
			{kind: smp.ErrMissingMergeKey, path: firstItem, msg: "patch 2: " + missingName,
				call: func() error { _, err := smp.Compose[exampletypes.Pod](smp.Patch{}, patch(noName)); return err }},
			{kind: smp.ErrNotComposable, path: finalizers, msg: notComposable, call: func() error {
				_, err := smp.Compose[exampletypes.Pod](patch(`{"metadata":{"finalizers":null}}`), patch(`{"metadata":{"finalizers":["a"]}}`))
				return err
			}},
		},
		"ComposeJSON": {{kind: smp.ErrNotComposable, path: finalizers, msg: notComposable, call: func() error {
			_, err := smp.ComposeJSON(exampletypes.Pod{}, []byte(`{"metadata":{"finalizers":null}}`), []byte(`{"metadata":{"finalizers":["a"]}}`))
			return err
		}}},
		"ComposeMap": {{kind: smp.ErrNotComposable, path: finalizers, msg: notComposable, call: func() error {
			_, err := smp.ComposeMap(exampletypes.Pod{}, obj(`{"metadata":{"finalizers":null}}`), obj(`{"metadata":{"finalizers":["a"]}}`))
			return err
		}}},
		"Diff": {{kind: smp.ErrPreconditionFailed, path: root, msg: preconditionNo, call: func() error { _, err := smp.Diff(pod(o), pod(m), refuse); return err }}},
		"DiffJSON": {{kind: smp.ErrPreconditionFailed, path: root, msg: preconditionNo, call: func() error {
			_, err := smp.DiffJSON([]byte(o), []byte(m), exampletypes.Pod{}, refuse)
			return err
		}}},
		"DiffMap": {{kind: smp.ErrPreconditionFailed, path: root, msg: preconditionNo, call: func() error {
			_, err := smp.DiffMap(obj(o), obj(m), exampletypes.Pod{}, refuse)
			return err
		}}},
		"JSONPatch": {with(ambiguousErr, func() error { _, err := smp.JSONPatch(pod(live), patch(ambiguous)); return err })},
		"JSONPatchJSON": {{kind: smp.ErrInvalidValue, path: resourceVer, msg: rvChanged, call: func() error {
			_, err := smp.JSONPatchJSON([]byte(rvLive), []byte(rvPatch), exampletypes.Pod{})
			return err
		}}},
		"MergePatch": {{kind: smp.ErrInvalidValue, path: resourceVer, msg: rvChanged, call: func() error {
			_, err := smp.MergePatch(pod(rvLive), patch(rvPatch))
			return err
		}}},
		"MergePatchJSON": {with(missingErr, func() error {
			_, err := smp.MergePatchJSON([]byte(live), []byte(noName), exampletypes.Pod{})
			return err
		})},
		"ParsePatch": {with(syntax, func() error { _, err := smp.ParsePatch([]byte(`{"spec":x}`)); return err })},
		"Patch.UnmarshalJSON": {{kind: smp.ErrNotObject, path: root, msg: "patch must be a JSON object, not an array",
			call: func() error { var p smp.Patch; return p.UnmarshalJSON([]byte(`[1,2]`)) }}},
		"PatchesConflict": {{kind: smp.ErrLimit, path: smp.Path{smp.FieldStep("a"), smp.FieldStep("a")}, msg: "right patch nests deeper than the limit of 1 levels", call: func() error {
			_, err := smp.PatchesConflict(map[string]any{}, obj(`{"a":{"a":{"a":1}}}`), exampletypes.Pod{}, smp.WithLimits(smp.Limits{MaxDepth: 1}))
			return err
		}}},
		"ThreeWay": {
			with(conflict(nodeName), func() error { _, err := smp.ThreeWay(pod(o), pod(m), pod(c)); return err }),
			with(conflict(nginxUDPImage), func() error { _, err := smp.ThreeWay(pod(co), pod(cm), pod(cc)); return err }),
		},
		"ThreeWayJSON": {with(conflict(nginxUDPImage), func() error {
			_, err := smp.ThreeWayJSON([]byte(co), []byte(cm), []byte(cc), exampletypes.Pod{})
			return err
		})},
		"ThreeWayMap": {with(conflict(nodeName), func() error {
			_, err := smp.ThreeWayMap(obj(o), obj(m), obj(c), exampletypes.Pod{})
			return err
		})},
	}
}

// cannotFail lists the exported functions and methods returning an error
// that no input makes fail, and why.
var cannotFail = map[string]string{
	"Patch.MarshalJSON": "a Patch holds only decoded JSON",
	"Error.Unwrap":      "returns the cause an *Error wraps, not an error of its own",
}

// TestEveryEntryPointReturnsError: the error of every exported function
// and method of smp is an *Error, through errors.As, with its kind, path,
// message and conflicts, and errors.Is matches its kind.
func TestEveryEntryPointReturnsError(t *testing.T) {
	cases := entryErrors(t)
	for name, cs := range cases {
		for i, c := range cs {
			err := c.call()
			require.Error(t, err, "%s case %d", name, i)
			var e *smp.Error
			require.True(t, errors.As(err, &e), "%s case %d: %T is not an *smp.Error: %v", name, i, err, err)
			assert.Equal(t, c.kind, e.Kind, "%s case %d: %v", name, i, err)
			if len(c.path) == 0 {
				assert.Empty(t, e.Path, "%s case %d: %v", name, i, err)
			} else {
				assert.Equal(t, c.path, e.Path, "%s case %d: %v", name, i, err)
			}
			assert.Equal(t, c.msg, e.Msg, "%s case %d", name, i)
			assert.Equal(t, c.conflicts, e.Conflicts, "%s case %d", name, i)
			assert.Equal(t, c.path.String()+": "+c.msg, err.Error(), "%s case %d", name, i)
			assert.True(t, errors.Is(err, c.kind), "%s case %d: errors.Is(%v, %s)", name, i, err, c.kind)
			assert.Equal(t, c.kind, smp.KindOf(err), "%s case %d", name, i)
			if c.cause != nil {
				assert.True(t, errors.As(err, c.cause), "%s case %d: no %T in the chain of %v", name, i, c.cause, err)
			}
		}
	}
	fails := exportedReturningError(t)
	for name := range cannotFail {
		require.Contains(t, fails, name)
		delete(fails, name)
	}
	assert.ElementsMatch(t, slices.Sorted(maps.Keys(fails)), slices.Sorted(maps.Keys(cases)),
		"every exported function returning an error has a case (or a reason in cannotFail)")
}

// exportedReturningError lists the exported functions and methods (as
// Type.Method) of package smp with an error among their results.
func exportedReturningError(t *testing.T) map[string]bool {
	pkg := parseSMP(t)
	out := map[string]bool{}
	returnsError := func(f *doc.Func) bool {
		for _, r := range f.Decl.Type.Results.List {
			if id, ok := r.Type.(*ast.Ident); ok && id.Name == "error" {
				return true
			}
		}
		return false
	}
	add := func(prefix string, fs []*doc.Func) {
		for _, f := range fs {
			if f.Decl.Type.Results != nil && returnsError(f) {
				out[prefix+f.Name] = true
			}
		}
	}
	add("", pkg.Funcs)
	for _, typ := range pkg.Types {
		add("", typ.Funcs)
		add(typ.Name+".", typ.Methods)
	}
	require.NotEmpty(t, out)
	return out
}
