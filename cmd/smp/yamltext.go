package main

import (
	"strings"

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
	n, _ := t.find(at)
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

// key returns the text written for the key of the map entry at the given
// place, or "".
func (t *textTree) key(at []step) string {
	if _, k := t.find(at); k != nil {
		return k.Value
	}
	return ""
}

// yaml11Bool returns the boolean YAML 1.1 reads an unquoted key as, as
// sigs.k8s.io/yaml's keys print it ("true", "false"), or "".
func yaml11Bool(k *yaml.Node) string {
	if k.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		return ""
	}
	switch strings.ToLower(k.Value) {
	case "y", "yes", "on", "true":
		return "true"
	case "n", "no", "off", "false":
		return "false"
	}
	return ""
}

// find returns the node at the given place and, for a map entry, its key.
func (t *textTree) find(at []step) (node, key *yaml.Node) {
	n := t.root
	for _, s := range at {
		if n == nil {
			return nil, nil
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
				if k := n.Content[i]; k.Value == s.key || yaml11Bool(k) == s.key {
					next, key = n.Content[i+1], k
				}
			}
			n = next
		default:
			return nil, nil
		}
	}
	return n, key
}
