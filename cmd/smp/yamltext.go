package main

import (
	yaml "go.yaml.in/yaml/v3"
)

// scalarText returns the text a YAML document wrote for the scalar at the
// given place, or "" if it cannot be found (an alias, a merge key, JSON
// parsed differently). Only messages need it, so the document is parsed
// again, once per message.
func scalarText(text []byte, at []step) string {
	var root yaml.Node
	if yaml.Unmarshal(text, &root) != nil || root.Kind != yaml.DocumentNode || len(root.Content) == 0 {
		return ""
	}
	n := root.Content[0]
	for _, s := range at {
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
			if next == nil {
				return ""
			}
			n = next
		default:
			return ""
		}
	}
	if n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}
