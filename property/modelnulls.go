package property

// Nulls in the documents, as Kubernetes' conflict check sees them.

// nullChanges adds to out the paths where the changes from original o to
// current c hold a field that is null on one side and absent on the
// other, as a Go pointer, slice or map without omitempty renders when
// its object appears: Kubernetes' diff writes such a field in the
// changes (null), so a patch setting it conflicts, where the leaves of
// the model, null being absent, show no change. An object both hold
// empty (nil ≡ empty) holds no such change. Objects merged field by field
// and merge-list elements (by whole key) are walked; other values are
// compared whole.
func nullChanges(o, c any, n node, path string, out map[string]bool) {
	switch cv := c.(type) {
	case map[string]any:
		if n.wholeObject() {
			return
		}
		om, _ := o.(map[string]any)
		if isEmpty(om) && isEmpty(cv) {
			return
		}
		for k, ce := range cv {
			oe, inO := om[k]
			if ce == nil && !inO {
				out[joinField(path, k)] = true
				continue
			}
			nullChanges(oe, ce, n.child(k), joinField(path, k), out)
		}
		for k, oe := range om {
			if _, inC := cv[k]; oe == nil && !inC {
				out[joinField(path, k)] = true
			}
		}
	case []any:
		if !n.keyedList() {
			return
		}
		keys := n.fullKey()
		ol, _ := o.([]any)
		byID := map[string]any{}
		for _, e := range ol {
			byID[elementID(keys, e)] = e
		}
		for _, e := range cv {
			if m, ok := e.(map[string]any); ok {
				nullChanges(byID[elementID(keys, e)], m, n.elem(), path+keyStep(keys, m), out)
			}
		}
	}
}
