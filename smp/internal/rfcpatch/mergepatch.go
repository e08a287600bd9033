package rfcpatch

import (
	"github.com/typedpatch/typedpatch/smp/internal/jsonval"
)

// MergePatch returns the RFC 7386 patch that turns live into result, up
// to object members holding null: a merge patch writes null only to
// delete, and its applier drops the null members of the objects it sets,
// so a member that holds null in result may be absent after the patch (as
// it is to a Go type decoding the object).
func MergePatch(live, result map[string]any) map[string]any {
	out := map[string]any{}
	for k := range live {
		if _, ok := result[k]; !ok {
			out[k] = nil
		}
	}
	for k, rv := range result {
		lv, had := live[k]
		lo, lok := lv.(map[string]any)
		ro, rok := rv.(map[string]any)
		switch {
		case had && lok && rok:
			if sub := MergePatch(lo, ro); len(sub) > 0 {
				out[k] = sub
			}
		case had && jsonval.Equal(lv, rv):
		case rv == nil:
			if had {
				out[k] = nil
			}
		default:
			out[k] = rv
		}
	}
	return out
}

// DropNullMembers removes, in place, the object members of v that hold
// null, at any depth: where Go types decode the JSON, null and absent are
// the same value.
func DropNullMembers(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if e == nil {
				delete(v, k)
				continue
			}
			DropNullMembers(e)
		}
	case []any:
		for _, e := range v {
			DropNullMembers(e)
		}
	}
}
