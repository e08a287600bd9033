package reflectschema

import (
	"cmp"
	"reflect"
	"strconv"
)

// Rule names the rule a type broke.
type Rule string

// The rules [Of] checks.
const (
	RuleTag         Rule = "tag"            // a malformed struct tag
	RuleInline      Rule = "inline"         // ",inline" where encoding/json would not inline
	RuleConflict    Rule = "conflict"       // two fields with one JSON name at one depth
	RuleStrategy    Rule = "strategy"       // an unknown or misplaced patchStrategy
	RuleMergeKey    Rule = "mergeKey"       // a patchMergeKey that cannot identify elements
	RuleRecommended Rule = "recommendedKey" // a recommendedPatchMergeKey that breaks the multi-field merge key proposal's rules
	RuleUnsupported Rule = "unsupported"    // a type encoding/json cannot encode
	RuleNotStruct   Rule = "notStruct"      // a schema root that is not a struct
	RuleIncomplete  Rule = "incomplete"     // a schema without a Go type missing a part (see Seal)
)

// Error reports a type whose tags or shape the schema cannot accept.
type Error struct {
	// Type is the struct type holding the offending field; nil for a
	// schema without Go types.
	Type reflect.Type
	// Field is the Go name of the field, dotted through inlined structs;
	// empty when the type itself is at fault.
	Field string
	// Rule is the rule broken.
	Rule Rule
	// Msg says what is wrong.
	Msg string
	// Path locates the fault in a schema without Go types, from its root:
	// "spec.containers[].ports".
	Path string
}

// Error returns "reflectschema: pkg.Type.Field: message", or for a
// schema without Go types "reflectschema: path: message".
func (e *Error) Error() string {
	if e.Type == nil {
		return "reflectschema: " + cmp.Or(e.Path, "(root)") + ": " + e.Msg
	}
	where := e.Type.String()
	if e.Field != "" {
		where += "." + e.Field
	}
	return "reflectschema: " + where + ": " + e.Msg
}

func quote(s string) string { return strconv.Quote(s) }
