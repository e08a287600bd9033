package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/typedpatch/typedpatch/builtin"
	"github.com/typedpatch/typedpatch/openapischema"
)

// crdInfo is what a CustomResourceDefinition says of its kind beyond the
// schema: where its objects live and which versions a server serves.
type crdInfo struct {
	source     string // the file it was read from, for messages
	group      string
	kind       string
	namespaced bool
	plural     string
	singular   string
	shortNames []string
	versions   []string // every version defined
	served     []string // the versions served
}

// readCRDs returns the CustomResourceDefinitions among a file's documents.
func readCRDs(source string, objs []object) []crdInfo {
	var out []crdInfo
	for _, o := range objs {
		if o.id.Kind != "CustomResourceDefinition" || !strings.HasPrefix(o.id.APIVersion, "apiextensions.k8s.io/") {
			continue
		}
		var crd struct {
			Spec struct {
				Group string `json:"group"`
				Scope string `json:"scope"`
				Names struct {
					Kind       string   `json:"kind"`
					Plural     string   `json:"plural"`
					Singular   string   `json:"singular"`
					ShortNames []string `json:"shortNames"`
				} `json:"names"`
				Versions []struct {
					Name   string `json:"name"`
					Served bool   `json:"served"`
				} `json:"versions"`
			} `json:"spec"`
		}
		if json.Unmarshal(o.json, &crd) != nil || crd.Spec.Group == "" || crd.Spec.Names.Kind == "" {
			continue // openapischema.Read reports what is wrong with it
		}
		n := crd.Spec.Names
		info := crdInfo{source: source, group: crd.Spec.Group, kind: n.Kind, namespaced: crd.Spec.Scope != "Cluster",
			plural: n.Plural, singular: n.Singular, shortNames: n.ShortNames}
		for _, v := range crd.Spec.Versions {
			info.versions = append(info.versions, v.Name)
			if v.Served {
				info.served = append(info.served, v.Name)
			}
		}
		out = append(out, info)
	}
	return out
}

// findCRD returns the CustomResourceDefinition of the kind of apiVersion's
// group, whatever the version, or nil.
func (s *schemas) findCRD(apiVersion, kind string) *crdInfo {
	group, _, ok := strings.Cut(apiVersion, "/")
	if !ok {
		return nil
	}
	if i, ok := s.crdIndex[[2]string{group, kind}]; ok {
		return &s.crds[i]
	}
	return nil
}

// addCRDs records CustomResourceDefinitions; of two for one kind, the
// first counts.
func (s *schemas) addCRDs(infos []crdInfo) {
	if s.crdIndex == nil {
		s.crdIndex = map[[2]string]int{}
	}
	for _, c := range infos {
		key := [2]string{c.group, c.kind}
		if _, ok := s.crdIndex[key]; !ok {
			s.crdIndex[key] = len(s.crds)
		}
		s.crds = append(s.crds, c)
	}
}

// checkServed reports a custom resource whose version its definition does
// not serve: a server would refuse it.
func (s *schemas) checkServed(apiVersion, kind string) error {
	c := s.findCRD(apiVersion, kind)
	if c == nil {
		return nil
	}
	_, version, _ := strings.Cut(apiVersion, "/")
	if slices.Contains(c.served, version) {
		return nil
	}
	what := "does not define version " + quote(version)
	if slices.Contains(c.versions, version) {
		what = "defines version " + quote(version) + " but does not serve it"
	}
	served := "no version"
	if len(c.served) > 0 {
		served = strings.Join(c.served, ", ")
	}
	return &kindError{fmt.Sprintf("%s %s: the CustomResourceDefinition of %s.%s (%s) %s; it serves %s", clean(bounded(apiVersion)), clean(bounded(kind)), c.kind, c.group, clean(bounded(c.source)), what, served)}
}

// namespaced reports whether objects of a kind live in a namespace: from
// the built-in kinds, else from a CustomResourceDefinition's spec.scope.
// A kind known from neither (one of an OpenAPI document) counts as
// namespaced, as most custom resources are.
func (s *schemas) namespaced(apiVersion, kind string) bool {
	if c := s.findCRD(apiVersion, kind); c != nil {
		return c.namespaced
	}
	if ns, ok := builtin.Namespaced(apiVersion, kind); ok {
		return ns
	}
	return true
}

// defaultNamespace gives each object of a namespaced kind written without
// metadata.namespace the namespace of -n, or "default", as kubectl does,
// so that a manifest pairs with the live object kubectl get prints. With
// -n, an object in another namespace is an error, as it is for kubectl.
func (s *schemas) defaultNamespace(sides [][]object, namespace string, explicit bool) error {
	for _, side := range sides {
		for i := range side {
			o := &side[i]
			if o.id.APIVersion == "" || o.id.Kind == "" || !s.namespaced(o.id.APIVersion, o.id.Kind) {
				continue
			}
			switch {
			case o.id.Namespace == "":
				o.id.Namespace = namespace
			case explicit && o.id.Namespace != namespace:
				return &inputError{role: o.role, noName: true, err: fmt.Errorf("%s, %s, is in namespace %s, not in %s of --namespace", o.place(), o.id, quote(o.id.Namespace), quote(namespace))}
			}
		}
	}
	return nil
}

// addItemCRDs adds the schemas of the CustomResourceDefinitions among the
// documents read, after the --schema files; of two with one name, the
// later (MODIFIED's, CURRENT's) is taken.
func (s *schemas) addItemCRDs(objs []object) error {
	byName := map[string]int{}
	var crds []*object
	for i := range objs {
		o := &objs[i]
		if o.id.Kind != "CustomResourceDefinition" || o.id.APIVersion != "apiextensions.k8s.io/v1" {
			continue
		}
		if j, ok := byName[o.id.Name]; ok {
			crds[j] = o
			continue
		}
		byName[o.id.Name] = len(crds)
		crds = append(crds, o)
	}
	if len(crds) == 0 {
		return nil
	}
	raw := make([]json.RawMessage, len(crds))
	for i, c := range crds {
		raw[i] = c.json
		s.addCRDs(readCRDs(c.role+" "+c.place(), []object{*c}))
	}
	js, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": raw})
	if err != nil {
		return err
	}
	sc, err := openapischema.Read(js)
	if err != nil {
		return &inputError{role: "a CustomResourceDefinition among the documents", noName: true, err: err}
	}
	s.files = append(s.files, sc)
	return nil
}
