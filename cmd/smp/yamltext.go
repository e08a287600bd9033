package main

import (
	yaml "go.yaml.in/yaml/v3"
)

// textTree is a document's YAML (or JSON) parsed into nodes, which keep
// each scalar's text as written. Only messages need it: a document is
// parsed again, once, when one of its messages quotes a scalar.
type textTree struct {
	root *yaml.Node // nil if the text does not parse
}

// parseText parses a document's text.
func parseText(text []byte) *textTree {
	var doc yaml.Node
	if yaml.Unmarshal(text, &doc) != nil || doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return &textTree{}
	}
	return &textTree{root: doc.Content[0]}
}

// scalar returns the text written for the scalar at the given place, or
// "" if it cannot be found (behind a merge key, say).
func (t *textTree) scalar(at []step) string {
	n := t.root
	for _, s := range at {
		if n == nil {
			return ""
		}
		for n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		switch {
		case s.index >= 0 && n.Kind == yaml.SequenceNode && s.index < len(n.Content):
			n = n.Content[s.index]
		case s.index < 0 && n.Kind == yaml.MappingNode:
			var next *yaml.Node
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == s.key {
					next = n.Content[i+1]
				}
			}
			n = next
		default:
			return ""
		}
	}
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}
