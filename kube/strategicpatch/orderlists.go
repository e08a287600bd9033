package strategicpatch

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/mergepatch"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp"
)

// checkOrderLists fails, as Kubernetes does, when a patch object carrying
// $setElementOrder/k meets a k that is not a list (null, a Go nil slice
// without omitempty) in itself or in the live object it merges into.
// Kubernetes meets such pairs only where it merges: fields of objects
// present on both sides, and merge-list elements paired by merge key; an
// object the patch adds is copied, never checked. t may be nil (untyped).
func checkOrderLists(live, patch map[string]interface{}, t *reflectschema.Type, at smp.Path) error {
	for k := range patch {
		name, ok := strings.CutPrefix(k, "$setElementOrder/")
		if !ok {
			continue
		}
		for _, side := range []map[string]interface{}{patch, live} {
			if v, ok := side[name]; ok {
				if _, isList := v.([]interface{}); !isList {
					return orderListError(v, append(at[:len(at):len(at)], smp.FieldStep(name)))
				}
			}
		}
	}
	for k, pv := range patch {
		lv, ok := live[k]
		if !ok || strings.HasPrefix(k, "$") {
			continue
		}
		var f *reflectschema.Field
		if t != nil {
			f = t.Field(k)
		}
		if err := checkOrderValue(lv, pv, f, t, append(at[:len(at):len(at)], smp.FieldStep(k))); err != nil {
			return err
		}
	}
	return nil
}

// checkOrderValue checks one field's live and patch values: objects field
// by field, merge lists element by element.
func checkOrderValue(lv, pv interface{}, f *reflectschema.Field, parent *reflectschema.Type, at smp.Path) error {
	var ft *reflectschema.Type
	switch {
	case f != nil:
		ft = f.Type
	case parent != nil && parent.Kind == reflectschema.Map:
		ft = parent.Elem
	}
	switch p := pv.(type) {
	case map[string]interface{}:
		if l, ok := lv.(map[string]interface{}); ok {
			return checkOrderLists(l, p, ft, at)
		}
	case []interface{}:
		l, ok := lv.([]interface{})
		if !ok || f == nil || ft == nil || ft.Kind != reflectschema.List || len(f.Patch.MergeKey) == 0 {
			return nil
		}
		return checkOrderElements(l, p, f.Patch.MergeKey, ft.Elem, at)
	}
	return nil
}

// checkOrderElements pairs the patch's elements with the live ones of the
// same merge key and checks each pair. Live elements are indexed once.
func checkOrderElements(live, patch []interface{}, key []string, elem *reflectschema.Type, at smp.Path) error {
	byKey := map[string]map[string]interface{}{}
	for _, e := range live {
		if m, ok := e.(map[string]interface{}); ok {
			if id, ok := keyOf(m, key); ok {
				if _, dup := byKey[id]; !dup {
					byKey[id] = m
				}
			}
		}
	}
	for i, e := range patch {
		m, ok := e.(map[string]interface{})
		if !ok {
			continue
		}
		id, ok := keyOf(m, key)
		if !ok || byKey[id] == nil {
			continue
		}
		if err := checkOrderLists(byKey[id], m, elem, append(at[:len(at):len(at)], smp.IndexStep(i))); err != nil {
			return err
		}
	}
	return nil
}

// keyOf returns the text of an element's merge key values.
func keyOf(m map[string]interface{}, key []string) (string, bool) {
	var b strings.Builder
	for _, k := range key {
		v, ok := m[k]
		if !ok {
			return "", false
		}
		fmt.Fprintf(&b, "%T:%v\x00", v, v)
	}
	return b.String(), true
}

// orderListError is the engine's ErrTypeMismatch at the list's path, with
// Kubernetes' words first.
func orderListError(v interface{}, at smp.Path) error {
	return &textError{mergepatch.ErrBadArgType([]interface{}{}, v).Error(), &smp.Error{
		Kind: smp.ErrTypeMismatch, Path: at,
		Msg: "$setElementOrder for a list, but the value is not a list",
	}}
}
