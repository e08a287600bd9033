package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

// listDoc is a List document: "v1 List", as kubectl get prints several
// objects, or a typed list such as "rbac.authorization.k8s.io/v1
// RoleList". Its items are read as objects of their own and written back
// into it.
type listDoc struct {
	apiVersion, kind string
	metadata         json.RawMessage // as written, if any
}

// isList reports whether a kind is a List's: "List" or a kind ending in
// it, as Kubernetes names its list kinds.
func isList(id identity) bool {
	return id.APIVersion != "" && strings.HasSuffix(id.Kind, "List") && id.Name == ""
}

// unwrapList returns the items of a List document as objects, or nil if
// obj is not a List. An item of a typed list (RoleList) without apiVersion
// or kind has the list's apiVersion and the kind it lists, as Kubernetes
// decodes it.
func unwrapList(obj object) ([]object, error) {
	if !isList(obj.id) {
		return nil, nil
	}
	var doc struct {
		Metadata json.RawMessage   `json:"metadata"`
		Items    []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(obj.json, &doc); err != nil || doc.Items == nil {
		return nil, nil // not a list after all: the schema decides
	}
	list := &listDoc{apiVersion: obj.id.APIVersion, kind: obj.id.Kind, metadata: doc.Metadata}
	itemKind := strings.TrimSuffix(obj.id.Kind, "List")
	items := make([]object, 0, len(doc.Items))
	for i, raw := range doc.Items {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
			return nil, fmt.Errorf("%s: item %d of the %s is not an object", obj.place(), i+1, obj.id.Kind)
		}
		js, changed := []byte(raw), false
		if itemKind != "" {
			for k, v := range map[string]string{"apiVersion": obj.id.APIVersion, "kind": itemKind} {
				if _, ok := fields[k]; !ok {
					fields[k], _ = json.Marshal(v)
					changed = true
				}
			}
			if changed {
				js, _ = json.Marshal(fields)
			}
		}
		items = append(items, object{role: obj.role, index: obj.index, item: i + 1, list: list,
			json: js, text: obj.text, id: identify(js), inferred: changed,
			prefix: []step{{key: "items", index: -1}, {index: i}}})
	}
	return items, nil
}

// listJSON returns a List document holding docs as its items.
func listJSON(l *listDoc, docs [][]byte) ([]byte, error) {
	items := make([]json.RawMessage, len(docs))
	for i, d := range docs {
		items[i] = d
	}
	out := map[string]any{"apiVersion": l.apiVersion, "kind": l.kind, "items": items}
	if len(l.metadata) > 0 {
		out["metadata"] = l.metadata
	}
	return json.Marshal(out)
}

// relist puts the results of the items of each List back into it: the
// List takes the place of its first item, and items written without
// apiVersion and kind are again.
func relist(results []result) ([]result, error) {
	var out []result
	at := map[*listDoc]int{} // where each List's result is in out
	docs := map[*listDoc][][]byte{}
	for _, r := range results {
		if r.list == nil {
			out = append(out, r)
			continue
		}
		if _, ok := at[r.list]; !ok {
			at[r.list] = len(out)
			out = append(out, result{id: identity{APIVersion: r.list.apiVersion, Kind: r.list.kind}})
		}
		doc := r.doc
		if r.inferred {
			var fields map[string]json.RawMessage
			if err := json.Unmarshal(doc, &fields); err == nil {
				delete(fields, "apiVersion")
				delete(fields, "kind")
				doc, _ = json.Marshal(fields)
			}
		}
		docs[r.list] = append(docs[r.list], doc)
	}
	for l, i := range at {
		js, err := listJSON(l, docs[l])
		if err != nil {
			return nil, err
		}
		out[i].doc = js
	}
	return out, nil
}
