package main

import (
	"encoding/json"
	"fmt"
)

// identity names a Kubernetes object: the four fields that pair the
// documents of several files.
type identity struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
}

// String renders the identity as "apps/v1 Deployment default/web".
func (id identity) String() string {
	name := id.Name
	if id.Namespace != "" {
		name = id.Namespace + "/" + name
	}
	s := id.APIVersion + " " + id.Kind
	if name != "" {
		s += " " + name
	}
	return clean(bounded(s))
}

// complete reports whether the identity can pair documents.
func (id identity) complete() bool {
	return id.APIVersion != "" && id.Kind != "" && id.Name != ""
}

// object is one document of a file, as JSON.
type object struct {
	role  string // the operand it came from, such as ORIGINAL
	index int    // its place in the file, from 1
	json  []byte
	text  []byte // the YAML or JSON it was read from, for messages
	id    identity
	item  int      // its place among the items of a List, from 1; 0 if none
	list  *listDoc // the List it is an item of, or nil
	// inferred says its apiVersion and kind are its typed List's.
	inferred bool
	// checked says it is the result of a patch already validated.
	checked bool
	// prefix is where the object is in text, if not at its root: an item
	// of a List, a patch of a KRM function's config.
	prefix []step
	// where, if not "", names its place for messages instead of place.
	where string
}

// place names where the object is in its file: "document 2", or "document
// 2, item 5" for an item of a List.
func (o *object) place() string {
	if o.where != "" {
		return o.where
	}
	if o.item > 0 {
		return fmt.Sprintf("document %d, item %d", o.index, o.item)
	}
	return fmt.Sprintf("document %d", o.index)
}

// identify reads a document's apiVersion, kind, namespace and name; a
// document that is not an object has none.
func identify(js []byte) identity {
	var doc struct {
		APIVersion any `json:"apiVersion"`
		Kind       any `json:"kind"`
		Metadata   struct {
			Namespace any `json:"namespace"`
			Name      any `json:"name"`
		} `json:"metadata"`
	}
	if json.Unmarshal(js, &doc) != nil {
		var bare struct {
			APIVersion any `json:"apiVersion"`
			Kind       any `json:"kind"`
		}
		if json.Unmarshal(js, &bare) != nil {
			return identity{}
		}
		doc.APIVersion, doc.Kind = bare.APIVersion, bare.Kind
	}
	str := func(v any) string { s, _ := v.(string); return s }
	return identity{str(doc.APIVersion), str(doc.Kind), str(doc.Metadata.Namespace), str(doc.Metadata.Name)}
}

// group is the documents of one object in each operand; nil where an
// operand has none.
type group struct {
	id   identity
	objs []*object
}

// missing returns the roles the group has no document in.
func (g *group) missing(roles []string) []string {
	var out []string
	for i, o := range g.objs {
		if o == nil {
			out = append(out, roles[i])
		}
	}
	return out
}

// pairObjects groups the documents of the operands. When each operand has
// one document they form one group whatever they say; otherwise documents
// are paired by apiVersion, kind, namespace and name, in the order they
// first appear.
func pairObjects(roles []string, sides [][]object) ([]*group, error) {
	single := true
	for _, s := range sides {
		single = single && len(s) == 1
	}
	if single {
		g := &group{objs: make([]*object, len(sides))}
		for i := range sides {
			o := &sides[i][0]
			g.objs[i] = o
			switch {
			case g.id.Kind == "":
				g.id = o.id
			case o.id.Kind != "" && (o.id.Kind != g.id.Kind || o.id.APIVersion != g.id.APIVersion):
				return nil, &kindError{fmt.Sprintf("%s is %s, but %s is %s: a patch is between versions of one kind", roles[i], o.id, g.firstRole(), g.id)}
			}
		}
		return []*group{g}, nil
	}
	byID := map[identity]*group{}
	var groups []*group
	for i, side := range sides {
		for j := range side {
			o := &side[j]
			if !o.id.complete() {
				return nil, &inputError{role: roles[i], name: "", err: fmt.Errorf("%s has no apiVersion, kind or metadata.name; smp pairs the documents of several by them", o.place()), noName: true}
			}
			g := byID[o.id]
			if g == nil {
				g = &group{id: o.id, objs: make([]*object, len(sides))}
				byID[o.id] = g
				groups = append(groups, g)
			}
			if g.objs[i] != nil {
				return nil, &inputError{role: roles[i], err: fmt.Errorf("%s and %s are both %s", g.objs[i].place(), o.place(), o.id), noName: true}
			}
			g.objs[i] = o
		}
	}
	return groups, nil
}

// unmatched reports the patch documents (of the second operand) that name
// no object of the first: a typo in a name or namespace must not pass for
// a patch that changes nothing.
func unmatched(roles []string, groups []*group, sides [][]object) error {
	if len(groups) == 1 && len(sides[0]) == 1 && len(sides[1]) == 1 {
		target, patch := sides[0][0].id, sides[1][0].id
		if target.complete() && patch.complete() && target != patch {
			return &inputError{role: roles[1], noName: true, err: fmt.Errorf("the patch is for %s, but %s is %s", patch, roles[0], target)}
		}
		return nil
	}
	var msgs []string
	var elsewhere map[identity]string // an object of the first operand, without its namespace -> the namespace
	for _, g := range groups {
		p := g.objs[1]
		if p == nil || g.objs[0] != nil {
			continue
		}
		if elsewhere == nil {
			elsewhere = map[identity]string{}
			for _, o := range sides[0] {
				id := o.id
				id.Namespace = ""
				if _, ok := elsewhere[id]; !ok {
					elsewhere[id] = o.id.Namespace
				}
			}
		}
		msg := fmt.Sprintf("%s, %s, matches no object of %s", p.place(), p.id, roles[0])
		id := p.id
		id.Namespace = ""
		if ns, ok := elsewhere[id]; ok {
			msg += fmt.Sprintf(" (it has one in namespace %s: give metadata.namespace, or -n)", quote(ns))
		}
		msgs = append(msgs, msg)
	}
	if len(msgs) == 0 {
		return nil
	}
	const most = 5 // the message names at most this many
	if len(msgs) > most {
		msgs = append(msgs[:most], fmt.Sprintf("and %d more documents match no object", len(msgs)-most))
	}
	return &validationError{role: roles[1], lines: msgs}
}
