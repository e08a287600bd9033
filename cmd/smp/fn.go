package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"sigs.k8s.io/yaml"
)

// The kinds of a KRM function's input and configuration.
const (
	resourceListAPIVersion = "config.kubernetes.io/v1"
	fnConfigAPIVersion     = "fn.typedpatch.io/v1alpha1"
	fnConfigKind           = "Patches"
)

// fnCommand runs smp as a KRM function, for kustomize and kpt.
var fnCommand = &command{
	name:     "fn",
	operands: "",
	summary:  "run as a KRM function: patch a ResourceList's items",
	detail: `Fn runs smp as a KRM function (the Kubernetes Resource Model functions
specification, as kustomize and kpt run them): it reads a
` + resourceListAPIVersion + ` ResourceList on standard input, applies to its items the
strategic merge patches its functionConfig lists, and writes the
ResourceList back. The functionConfig is

  apiVersion: ` + fnConfigAPIVersion + `
  kind: ` + fnConfigKind + `
  patches:   # patch documents, each naming its object
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec: {replicas: 3}

Patches apply in order, as apply's several PATCH files do. Schemas come
from the built-in kinds, the CustomResourceDefinitions among the items and
--schema. A patch that matches no item, is invalid or cannot apply is a
result of severity error in the ResourceList written back, with exit
status 1, as the specification asks.`,
	patch: true,
	min:   0, max: 0,
	run: runFn,
}

// fnResult is one entry of a ResourceList's results.
type fnResult struct {
	Message  string `json:"message"`
	Severity string `json:"severity"`
}

// errFnFailed makes fn exit 1 after writing its results.
var errFnFailed = errors.New("the function failed")

// runFn patches the items of the ResourceList on standard input.
func runFn(e *env, o *options, _ []string) error {
	data, err := io.ReadAll(e.stdin)
	if err != nil {
		return &inputError{role: "ResourceList", name: stdinName, unreadable: true, err: err}
	}
	list, err := readResourceList(data)
	if err != nil {
		return err
	}
	items, patches, err := fnObjects(list, data)
	if err == nil {
		var docs [][]byte
		docs, err = fnApply(e, o, items, patches)
		if err == nil {
			raw := make([]json.RawMessage, len(docs))
			for i, d := range docs {
				raw[i] = d
			}
			list["items"], err = json.Marshal(raw)
		}
	}
	if err != nil {
		list["results"], _ = json.Marshal([]fnResult{{Message: fnMessage(err), Severity: "error"}})
	}
	js, merr := json.Marshal(list)
	if merr != nil {
		return merr
	}
	if werr := writeDocument(e, js, o.output); werr != nil {
		return werr
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "smp fn: %s\n", fnMessage(err))
		return errFnFailed
	}
	return nil
}

// fnMessage is the text of an error for a result.
func fnMessage(err error) string {
	var ue *usageError
	if errors.As(err, &ue) {
		return clean(ue.msg)
	}
	return cleanLines(bounded(err.Error()))
}

// readResourceList decodes a ResourceList and checks its functionConfig.
func readResourceList(data []byte) (map[string]json.RawMessage, error) {
	js, err := yaml.YAMLToJSONStrict(data)
	if err != nil {
		return nil, &inputError{role: "ResourceList", name: stdinName, err: fmt.Errorf("not a YAML or JSON document: %w", err)}
	}
	var list map[string]json.RawMessage
	if err := json.Unmarshal(js, &list); err != nil || list == nil {
		return nil, &inputError{role: "ResourceList", name: stdinName, err: errors.New("not an object")}
	}
	if id := identify(js); id.APIVersion != resourceListAPIVersion || id.Kind != "ResourceList" {
		return nil, &inputError{role: "ResourceList", name: stdinName, err: fmt.Errorf("apiVersion and kind are %s %s; want %s ResourceList", quote(id.APIVersion), quote(id.Kind), resourceListAPIVersion)}
	}
	return list, nil
}

// fnObjects returns the items and the patches of a ResourceList as
// objects; text is its YAML, for messages.
func fnObjects(list map[string]json.RawMessage, text []byte) (items, patches []object, err error) {
	var raw []json.RawMessage
	if len(list["items"]) > 0 {
		if err := json.Unmarshal(list["items"], &raw); err != nil {
			return nil, nil, errors.New("items: not a list")
		}
	}
	for i, it := range raw {
		where := fmt.Sprintf("items[%d]", i)
		items = append(items, object{role: where, index: i + 1, where: where, json: it, text: text,
			id: identify(it), prefix: []step{{key: "items", index: -1}, {index: i}}})
	}
	var config struct {
		Patches []json.RawMessage `json:"patches"`
	}
	cfg := list["functionConfig"]
	id := identify(cfg)
	if id.APIVersion != fnConfigAPIVersion || id.Kind != fnConfigKind {
		return nil, nil, fmt.Errorf("functionConfig is %s %s; want %s %s", quote(id.APIVersion), quote(id.Kind), fnConfigAPIVersion, fnConfigKind)
	}
	if err := json.Unmarshal(cfg, &config); err != nil {
		return nil, nil, fmt.Errorf("functionConfig.patches: not a list of objects")
	}
	if len(config.Patches) == 0 {
		return nil, nil, errors.New("functionConfig.patches: no patches")
	}
	for i, p := range config.Patches {
		if !bytes.HasPrefix(bytes.TrimSpace(p), []byte("{")) {
			return nil, nil, fmt.Errorf("functionConfig.patches[%d]: not an object", i)
		}
		where := fmt.Sprintf("functionConfig.patches[%d]", i)
		patches = append(patches, object{role: where, index: i + 1, where: where, json: p, text: text,
			id: identify(p), prefix: []step{{key: "functionConfig", index: -1}, {key: "patches", index: -1}, {index: i}}})
	}
	return items, patches, nil
}

// fnApply applies each patch in turn to the items it names and returns
// the items.
func fnApply(e *env, o *options, items, patches []object) ([][]byte, error) {
	sc, err := loadSchemas(o)
	if err != nil {
		return nil, err
	}
	if err := sc.addItemCRDs(items); err != nil {
		return nil, err
	}
	sides := [][]object{items}
	for _, p := range patches {
		sides = append(sides, []object{p})
	}
	if err := sc.defaultNamespace(sides, o.namespace, o.namespaceSet); err != nil {
		return nil, err
	}
	roles := func(i int) string { return map[bool]string{true: "items", false: "functionConfig"}[i == 0] }
	results, err := applyRun.applyInTurn(e, o, sc, sides, roles)
	if err != nil {
		return nil, err
	}
	docs := make([][]byte, len(results))
	for i, res := range results {
		docs[i] = res.doc
	}
	return docs, nil
}
