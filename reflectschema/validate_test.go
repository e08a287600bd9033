package reflectschema_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/typedpatch/typedpatch/reflectschema"
)

// vaPort is the element type the merge key cases point into.
type vaPort struct {
	Name     string     `json:"name"`
	Port     int32      `json:"port"`
	Protocol string     `json:"protocol"`
	A        string     `json:"a"`
	Meta     vaMeta     `json:"meta"`
	Hosts    []string   `json:"hosts"`
	Extra    any        `json:"extra"`
	Quantity vaQuantity `json:"quantity"`
}

type vaMeta struct {
	Labels map[string]string `json:"labels"`
}

// vaQuantity marshals itself, like resource.Quantity: atomic, not scalar.
type vaQuantity struct{ v int }

func (q vaQuantity) MarshalJSON() ([]byte, error) { return fmt.Appendf(nil, "%d", q.v), nil }

type VaEmbedded struct {
	Names []vaPort `json:"names" patchStrategy:"merge" patchMergeKey:"nope"`
}

// Merge keys.

type vaKeyNotAField struct {
	Ports []vaPort `json:"ports" patchStrategy:"merge" patchMergeKey:"nope"`
}

type vaKeyIsGoName struct {
	Ports []vaPort `json:"ports" patchStrategy:"merge" patchMergeKey:"Port"`
}

type vaMultiKeyNotAField struct {
	Ports []vaPort `json:"ports" patchStrategy:"merge" patchMergeKey:"port,proto"`
}

type vaKeyIsStruct struct {
	Ports []vaPort `json:"ports" patchStrategy:"merge" patchMergeKey:"meta"`
}

type vaKeyIsList struct {
	Ports []*vaPort `json:"ports" patchStrategy:"merge" patchMergeKey:"name,hosts"`
}

type vaKeyIsUntyped struct {
	Ports []vaPort `json:"ports" patchStrategy:"merge" patchMergeKey:"extra"`
}

type vaKeyIsAtomic struct {
	Ports []vaPort `json:"ports" patchStrategy:"merge" patchMergeKey:"quantity"`
}

type vaDuplicateKey struct {
	Ports []vaPort `json:"ports" patchStrategy:"merge" patchMergeKey:"a,a"`
}

// vaDuplicateKeyOnStruct is malformed: ignoring a key that has no effect
// does not excuse it.
type vaDuplicateKeyOnStruct struct {
	Port vaPort `json:"port" patchMergeKey:"a,a"`
}

type vaEmptyKey struct {
	Ports []vaPort `json:"ports" patchStrategy:"merge" patchMergeKey:"port,"`
}

type vaMergeWithoutKey struct {
	Ports []vaPort `json:"ports" patchStrategy:"merge"`
}

type vaMergeWithoutKeyPtrs struct {
	Ports []*vaPort `json:"ports,omitempty" patchStrategy:"merge,retainKeys"`
}

type vaInlinedBadKey struct {
	VaEmbedded
	Own string `json:"own"`
}

// Strategies.

type vaUnknownStrategy struct {
	Ports []vaPort `json:"ports" patchStrategy:"mrege" patchMergeKey:"name"`
}

type vaTwoStrategies struct {
	Ports []vaPort `json:"ports" patchStrategy:"merge,replace" patchMergeKey:"name"`
}

type vaTwoStrategiesBar struct {
	Ports []vaPort `json:"ports" patchStrategy:"replace|merge"`
}

type vaRetainKeysTwice struct {
	Union vaPort `json:"union" patchStrategy:"retainKeys|retainKeys"`
}

type vaNoStrategy struct {
	Ports []vaPort `json:"ports" patchStrategy:","`
}

type vaRetainKeysWithoutMerge struct {
	Ports []vaPort `json:"ports" patchStrategy:"retainKeys" patchMergeKey:"name"`
}

// Recommended keys.

type vaRecommendedNotPrefixed struct {
	Ports []vaPort `json:"ports" patchStrategy:"merge" patchMergeKey:"port" recommendedPatchMergeKey:"protocol,port"`
}

type vaRecommendedShorter struct {
	Ports []vaPort `json:"ports" patchStrategy:"merge" patchMergeKey:"port,protocol" recommendedPatchMergeKey:"port"`
}

type vaRecommendedWithoutKey struct {
	Ports []vaPort `json:"ports" patchStrategy:"merge" recommendedPatchMergeKey:"port,protocol"`
}

type vaRecommendedDuplicate struct {
	Ports []vaPort `json:"ports" patchStrategy:"merge" patchMergeKey:"a" recommendedPatchMergeKey:"a,a"`
}

type vaRecommendedNotAField struct {
	Ports []vaPort `json:"ports" patchStrategy:"merge" patchMergeKey:"port" recommendedPatchMergeKey:"port,proto"`
}

type vaRecommendedNotScalar struct {
	Ports []vaPort `json:"ports" patchStrategy:"merge" patchMergeKey:"port" recommendedPatchMergeKey:"port,meta"`
}

// Tags and shapes.

type vaInlineNotEmbedded struct {
	Spec vaPort `json:",inline"`
}

type VaPort vaPort

type vaInlineWithName struct {
	VaPort `json:"port,inline"`
}

type vaInlineNonStruct struct {
	VaScalar `json:",inline"`
}

type VaScalar string

type vaChan struct {
	Events chan int `json:"events"`
}

type vaFunc struct {
	Callback func() `json:"callback"`
}

type vaComplex struct {
	Z complex128 `json:"z"`
}

type vaListOfChans struct {
	Events []chan int `json:"events"`
}

type vaMapOfChans struct {
	ByName map[string]chan int `json:"byName"`
}

type vaMapBoolKey struct {
	ByFlag map[bool]string `json:"byFlag"`
}

type vaMapKey struct{ A, B int }

type vaMapStructKey struct {
	ByPort map[vaMapKey]string `json:"byPort"`
}

type vaNestedBad struct {
	Name  string `json:"name"`
	Inner vaChan `json:"inner"`
}

// vaMalformed has a tag go vet would refuse to compile past, so it is
// built at run time.
var vaMalformed = reflect.StructOf([]reflect.StructField{
	{Name: "Name", Type: reflect.TypeFor[string](), Tag: `json:"name"`},
	{Name: "Ports", Type: reflect.TypeFor[[]vaPort](), Tag: `json:"ports" patchStrategy:merge`},
})

var vaMalformedInlined = reflect.StructOf([]reflect.StructField{
	{Name: "Inner", Type: reflect.StructOf([]reflect.StructField{
		{Name: "Bad", Type: reflect.TypeFor[string](), Tag: `json:"bad`},
	}), Anonymous: true},
})

func TestValidationErrors(t *testing.T) {
	type tc struct {
		name  string
		typ   reflect.Type
		field string             // the Go field named
		rule  reflectschema.Rule // the rule broken
		says  []string           // what the message must mention
	}
	tests := []tc{
		// A merge key names JSON fields of the element type.
		{"key not a field", reflect.TypeFor[vaKeyNotAField](), "Ports", reflectschema.RuleMergeKey,
			[]string{`"nope"`, "vaPort"}},
		{"key is the Go name", reflect.TypeFor[vaKeyIsGoName](), "Ports", reflectschema.RuleMergeKey,
			[]string{`"Port"`}},
		{"second key not a field", reflect.TypeFor[vaMultiKeyNotAField](), "Ports", reflectschema.RuleMergeKey,
			[]string{`"proto"`}},
		// ... that hold scalars.
		{"key field is a struct", reflect.TypeFor[vaKeyIsStruct](), "Ports", reflectschema.RuleMergeKey,
			[]string{`"meta"`, "struct"}},
		{"key field is a list", reflect.TypeFor[vaKeyIsList](), "Ports", reflectschema.RuleMergeKey,
			[]string{`"hosts"`, "list"}},
		{"key field is untyped", reflect.TypeFor[vaKeyIsUntyped](), "Ports", reflectschema.RuleMergeKey,
			[]string{`"extra"`, "untyped"}},
		{"key field is atomic", reflect.TypeFor[vaKeyIsAtomic](), "Ports", reflectschema.RuleMergeKey,
			[]string{`"quantity"`, "atomic"}},
		// Keys that have no effect are ignored instead: see vet_test.go.
		{"duplicated key", reflect.TypeFor[vaDuplicateKey](), "Ports", reflectschema.RuleMergeKey,
			[]string{`"a,a"`, "twice"}},
		{"duplicated key on a struct", reflect.TypeFor[vaDuplicateKeyOnStruct](), "Port", reflectschema.RuleMergeKey,
			[]string{`"a,a"`, "twice"}},
		{"empty key", reflect.TypeFor[vaEmptyKey](), "Ports", reflectschema.RuleMergeKey,
			[]string{`"port,"`, "empty"}},
		{"merge list of structs without key", reflect.TypeFor[vaMergeWithoutKey](), "Ports", reflectschema.RuleMergeKey,
			[]string{"merge", "patchMergeKey", "vaPort"}},
		{"merge list of pointers without key", reflect.TypeFor[vaMergeWithoutKeyPtrs](), "Ports", reflectschema.RuleMergeKey,
			[]string{"merge", "patchMergeKey", "vaPort"}},
		// Errors inside inlined structs name the outer type and the path.
		{"inlined field", reflect.TypeFor[vaInlinedBadKey](), "VaEmbedded.Names", reflectschema.RuleMergeKey,
			[]string{`"nope"`}},

		{"unknown strategy", reflect.TypeFor[vaUnknownStrategy](), "Ports", reflectschema.RuleStrategy,
			[]string{`"mrege"`}},
		{"merge and replace", reflect.TypeFor[vaTwoStrategies](), "Ports", reflectschema.RuleStrategy,
			[]string{"merge", "replace"}},
		{"replace|merge", reflect.TypeFor[vaTwoStrategiesBar](), "Ports", reflectschema.RuleStrategy,
			[]string{"merge", "replace"}},
		{"retainKeys twice", reflect.TypeFor[vaRetainKeysTwice](), "Union", reflectschema.RuleStrategy,
			[]string{"retainKeys"}},
		{"no strategy", reflect.TypeFor[vaNoStrategy](), "Ports", reflectschema.RuleStrategy,
			[]string{`","`}},
		{"retainKeys on a list without merge", reflect.TypeFor[vaRetainKeysWithoutMerge](), "Ports", reflectschema.RuleStrategy,
			[]string{"retainKeys", "merge"}},

		// Recommended keys extend the default key.
		{"recommended not starting with the key", reflect.TypeFor[vaRecommendedNotPrefixed](), "Ports", reflectschema.RuleRecommended,
			[]string{`"protocol,port"`, `"port"`}},
		{"recommended shorter than the key", reflect.TypeFor[vaRecommendedShorter](), "Ports", reflectschema.RuleRecommended,
			[]string{`"port"`, `"port,protocol"`}},
		{"recommended without key", reflect.TypeFor[vaRecommendedWithoutKey](), "Ports", reflectschema.RuleRecommended,
			[]string{"patchMergeKey"}},
		{"recommended duplicated key", reflect.TypeFor[vaRecommendedDuplicate](), "Ports", reflectschema.RuleRecommended,
			[]string{`"a,a"`, "twice"}},
		{"recommended key not a field", reflect.TypeFor[vaRecommendedNotAField](), "Ports", reflectschema.RuleRecommended,
			[]string{`"proto"`}},
		{"recommended key not a scalar", reflect.TypeFor[vaRecommendedNotScalar](), "Ports", reflectschema.RuleRecommended,
			[]string{`"meta"`, "struct"}},

		{"malformed tag", vaMalformed, "Ports", reflectschema.RuleTag,
			[]string{"patchStrategy:merge"}},
		{"malformed tag in inlined struct", vaMalformedInlined, "Inner.Bad", reflectschema.RuleTag,
			[]string{`json:\"bad`}},
		{"inline on a named field", reflect.TypeFor[vaInlineNotEmbedded](), "Spec", reflectschema.RuleInline,
			[]string{"inline"}},
		{"inline on an embedded struct with a name", reflect.TypeFor[vaInlineWithName](), "VaPort", reflectschema.RuleInline,
			[]string{"inline"}},
		{"inline on an embedded non-struct", reflect.TypeFor[vaInlineNonStruct](), "VaScalar", reflectschema.RuleInline,
			[]string{"inline"}},

		// Kinds encoding/json cannot encode.
		{"chan field", reflect.TypeFor[vaChan](), "Events", reflectschema.RuleUnsupported,
			[]string{"chan int"}},
		{"func field", reflect.TypeFor[vaFunc](), "Callback", reflectschema.RuleUnsupported,
			[]string{"func()"}},
		{"complex field", reflect.TypeFor[vaComplex](), "Z", reflectschema.RuleUnsupported,
			[]string{"complex128"}},
		{"list of chans", reflect.TypeFor[vaListOfChans](), "Events", reflectschema.RuleUnsupported,
			[]string{"chan int"}},
		{"map of chans", reflect.TypeFor[vaMapOfChans](), "ByName", reflectschema.RuleUnsupported,
			[]string{"chan int"}},
		{"map with bool keys", reflect.TypeFor[vaMapBoolKey](), "ByFlag", reflectschema.RuleUnsupported,
			[]string{"map[bool]string", "key type bool"}},
		{"map with struct keys", reflect.TypeFor[vaMapStructKey](), "ByPort", reflectschema.RuleUnsupported,
			[]string{"key type reflectschema_test.vaMapKey"}},
		// A struct reached through a field reports its own field.
		{"bad field of a field's struct", reflect.TypeFor[vaNestedBad](), "Events", reflectschema.RuleUnsupported,
			[]string{"chan int"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := reflectschema.Of(tt.typ)
			require.Nil(t, st)
			owner := tt.typ
			if tt.name == "bad field of a field's struct" {
				owner = reflect.TypeFor[vaChan]()
			}
			e := requireRuleError(t, err, owner, tt.field, tt.rule)
			for _, s := range tt.says {
				assert.Contains(t, e.Msg, s)
			}

			// Wrapped, it is still found.
			wrapped := fmt.Errorf("building schema: %w", err)
			var e2 *reflectschema.Error
			require.ErrorAs(t, wrapped, &e2)
			assert.Same(t, e, e2)

			// The failure is remembered.
			st, err2 := reflectschema.Of(tt.typ)
			assert.Nil(t, st)
			assert.Equal(t, err, err2)
		})
	}
}

// vaValidKeys exercises keys that must pass: a multi-field key whose
// fields are scalars of named and pointer types.
type vaValidKeys struct {
	Ports []vaKeyed           `json:"ports" patchStrategy:"merge" patchMergeKey:"port,protocol" recommendedPatchMergeKey:"port,protocol,hostIP"`
	Maps  []map[string]string `json:"maps" patchStrategy:"merge" patchMergeKey:"anything"`
	Anys  []any               `json:"anys" patchStrategy:"merge" patchMergeKey:"anything"`
}

type vaProtocol string

type vaKeyed struct {
	Port     int32      `json:"port"`
	Protocol vaProtocol `json:"protocol,omitempty"`
	HostIP   *string    `json:"hostIP,omitempty"`
}

func TestValidKeys(t *testing.T) {
	st := mustFor[vaValidKeys](t)
	ports := st.Field("ports")
	assert.Equal(t, []string{"port", "protocol"}, ports.Patch.MergeKey)
	assert.Equal(t, []string{"port", "protocol", "hostIP"}, ports.Patch.RecommendedMergeKey)
	// Keys of lists of maps or of arbitrary JSON cannot be checked.
	assert.Equal(t, []string{"anything"}, st.Field("maps").Patch.MergeKey)
	assert.Equal(t, []string{"anything"}, st.Field("anys").Patch.MergeKey)
}

func TestFailedFieldTypeIsRebuiltForItsOwnError(t *testing.T) {
	// vaKeyNotAField failed on its own; reached from another type, it
	// reports its own error again rather than a cached success or the
	// outer type's error.
	_, err := reflectschema.For[vaKeyNotAField]()
	require.Error(t, err)
	type outer struct {
		Inner vaKeyNotAField `json:"inner"`
	}
	_, err = reflectschema.For[outer]()
	requireRuleError(t, err, reflect.TypeFor[vaKeyNotAField](), "Ports", reflectschema.RuleMergeKey)
}
