package strategicpatch

import "fmt"

// SortableSliceOfMaps sorts objects by the text (%v) of one field.
type SortableSliceOfMaps struct {
	s []map[string]interface{}
	k string // key to sort on
}

func (ss SortableSliceOfMaps) Len() int { return len(ss.s) }

func (ss SortableSliceOfMaps) Less(i, j int) bool {
	return fmt.Sprintf("%v", ss.s[i][ss.k]) < fmt.Sprintf("%v", ss.s[j][ss.k])
}

func (ss SortableSliceOfMaps) Swap(i, j int) { ss.s[i], ss.s[j] = ss.s[j], ss.s[i] }

// SortableSliceOfScalars sorts scalars by their text (%v).
type SortableSliceOfScalars struct {
	s []interface{}
}

func (ss SortableSliceOfScalars) Len() int { return len(ss.s) }

func (ss SortableSliceOfScalars) Less(i, j int) bool {
	return fmt.Sprintf("%v", ss.s[i]) < fmt.Sprintf("%v", ss.s[j])
}

func (ss SortableSliceOfScalars) Swap(i, j int) { ss.s[i], ss.s[j] = ss.s[j], ss.s[i] }

// ItemAddedToModifiedSlice reports, for two sorted lists walked together,
// whether the modified item comes first: it was added.
func ItemAddedToModifiedSlice(original, modified string) bool { return original > modified }

// ItemRemovedFromModifiedSlice reports whether the original item comes
// first: it was removed.
func ItemRemovedFromModifiedSlice(original, modified string) bool { return original < modified }

// ItemMatchesOriginalAndModifiedSlice reports whether the items are equal.
func ItemMatchesOriginalAndModifiedSlice(original, modified string) bool { return original == modified }

// CreateDeleteDirective returns the merge-list element that deletes the
// element whose mergeKey is mergeKeyValue.
func CreateDeleteDirective(mergeKey string, mergeKeyValue interface{}) map[string]interface{} {
	return map[string]interface{}{mergeKey: mergeKeyValue, "$patch": "delete"}
}
