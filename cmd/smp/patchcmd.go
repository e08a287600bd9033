package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/typedpatch/typedpatch/smp"
)

// errChanged makes diff --exit-code exit 1 after printing its patches.
var errChanged = errors.New("the documents differ")

// result is the output for one object: a document, or the operands it is
// missing from.
type result struct {
	id      identity
	doc     []byte
	missing []string
	list    *listDoc // the List apply's ORIGINAL had the object in, if any
	// inferred says the object was written without apiVersion and kind
	inferred bool
	src      *object // apply's ORIGINAL object
	// unchanged says that a patch converted by --patch-type changes nothing.
	unchanged bool
}

// engineFunc computes one object's output from its documents, in the
// order of the operands.
type engineFunc func(dataStruct any, docs [][]byte, opts []smp.Option) ([]byte, error)

// patchRun reads the operands, pairs their objects, runs fn on each group
// and prints the results. keep names the operand whose lone documents are
// printed unchanged (apply's ORIGINAL), or is -1. key is the JSON name of
// each document in -o json output of several objects.
type patchRun struct {
	roles []string
	keep  int
	key   string
	fn    engineFunc
	// empty, if not -1, is the operand an object may be missing from: it
	// is then an empty object (three-way's ORIGINAL, for an object never
	// applied, as kubectl apply does without its annotation).
	empty int
	// note says what it means that an object is missing from some
	// operands (diff, three-way); nil where a patch document that
	// matches no object is an error (apply).
	note func(missing []string) string
	// live, if not -1, is the operand read from a server (three-way's
	// CURRENT), which may be newer than the schemas: an unknown field
	// there is at most a warning.
	live int
	// base is the operand a --patch-type patch is written against
	// (diff's ORIGINAL, three-way's CURRENT); -1 for apply.
	base int
}

func (r *patchRun) run(e *env, o *options, operands []string) error {
	sc, err := loadSchemas(o)
	if err != nil {
		return err
	}
	sides := make([][]object, len(operands))
	for i, name := range operands {
		role := r.role(i, len(operands))
		if name == inlineName {
			sides[i], err = parseDocuments(role, "--patch", []byte(o.inline))
		} else {
			sides[i], err = readFile(e, role, name)
		}
		if err != nil {
			return err
		}
	}
	if o.typeName == "" {
		var all []object // whole objects: not apply's patches
		for i, side := range sides {
			if r.keep < 0 || i == r.keep {
				all = append(all, side...)
			}
		}
		if err := sc.addItemCRDs(all); err != nil {
			return err
		}
		if err := sc.defaultNamespace(sides, o.namespace, o.namespaceSet); err != nil {
			return err
		}
	}
	var results []result
	if len(sides) <= len(r.roles) {
		results, err = r.pass(e, o, sc, r.roles, sides)
	} else {
		results, err = r.applyInTurn(e, o, sc, sides, func(i int) string { return r.role(i, len(sides)) })
	}
	if err != nil {
		return err
	}
	if err := writeResults(e, results, o.output, r.key); err != nil {
		return err
	}
	if r.note != nil {
		for _, res := range results {
			if len(res.missing) > 0 {
				fmt.Fprintf(e.stderr, "smp: %s: not in %s: %s\n", res.id, strings.Join(res.missing, " or "), r.note(res.missing))
			}
		}
	}
	if o.exitCode && changed(results) {
		return errChanged
	}
	return nil
}

// pass pairs the objects of the operands and computes each one's output.
func (r *patchRun) pass(e *env, o *options, sc *schemas, roles []string, sides [][]object) ([]result, error) {
	groups, err := pairObjects(roles, sides)
	if err != nil {
		return nil, err
	}
	if r.note == nil {
		if err := unmatched(roles, groups, sides); err != nil {
			return nil, err
		}
	}
	rr := *r
	rr.roles = roles
	results := make([]result, 0, len(groups))
	for _, g := range groups {
		res, err := rr.runGroup(e, o, sc, g)
		if err != nil {
			if len(groups) > 1 {
				return nil, fmt.Errorf("%s: %w", g.id, err)
			}
			return nil, err
		}
		results = append(results, res)
	}
	return results, nil
}

// applyInTurn applies several patches (apply's operands after ORIGINAL)
// one after the other: each to the result of the ones before it. role
// names operand i.
func (r *patchRun) applyInTurn(e *env, o *options, sc *schemas, sides [][]object, role func(i int) string) ([]result, error) {
	current := sides[0]
	var results []result
	for i := 1; i < len(sides); i++ {
		var err error
		results, err = r.pass(e, o, sc, []string{role(0), role(i)}, [][]object{current, sides[i]})
		if err != nil {
			return nil, err
		}
		current = make([]object, len(results))
		for j, res := range results {
			current[j] = *res.src
			current[j].json, current[j].checked = res.doc, true
		}
	}
	return results, nil
}

// role names operand i of n: apply's patches are PATCH 1, PATCH 2 and so
// on when there are several.
func (r *patchRun) role(i, n int) string {
	if i < len(r.roles)-1 || n <= len(r.roles) {
		return r.roles[i]
	}
	return fmt.Sprintf("%s %d", r.roles[len(r.roles)-1], i-len(r.roles)+2)
}

// runGroup computes the output for one object.
func (r *patchRun) runGroup(e *env, o *options, sc *schemas, g *group) (result, error) {
	if r.empty >= 0 && g.objs[r.empty] == nil && len(g.missing(r.roles)) == 1 {
		g.objs[r.empty] = &object{role: r.roles[r.empty], json: []byte("{}")}
	}
	res := result{id: g.id, missing: g.missing(r.roles)}
	if r.keep >= 0 && g.objs[r.keep] != nil {
		res.src = g.objs[r.keep]
		res.list, res.inferred = res.src.list, res.src.inferred
	}
	if len(res.missing) > 0 {
		if r.keep >= 0 && g.objs[r.keep] != nil && len(res.missing) == len(g.objs)-1 {
			res.doc, res.missing = g.objs[r.keep].json, nil
		}
		return res, nil
	}
	ds, name, err := sc.forGroup(g)
	if err != nil {
		return res, err
	}
	if err := r.validate(e, o, ds, name, g); err != nil {
		return res, err
	}
	docs := make([][]byte, len(g.objs))
	for i, obj := range g.objs {
		docs[i] = obj.json
	}
	var base []byte // what a --patch-type patch is written against
	if r.base >= 0 {
		base = docs[r.base]
	}
	res.doc, err = r.fn(ds, docs, o.smpOptions())
	if smp.KindOf(err) != smp.ErrUnknownField {
		return asPatchType(o, res, err, ds, base, o.smpOptions())
	}
	var se *smp.Error
	errors.As(err, &se)
	if !o.mergeUnknown {
		return res, &unknownField{path: se.Path.String(), schema: name}
	}
	fmt.Fprintf(e.stderr, "smp: warning: objects or lists meet under %s, a field the schema of %s does not have; merged as plain JSON\n", quote(se.Path.String()), name)
	opts := append(o.smpOptions(), smp.WithMergeUnknown(true))
	res.doc, err = r.fn(ds, docs, opts)
	return asPatchType(o, res, err, ds, base, opts)
}

// unknownField is the engine's ErrUnknownField in the command's words.
type unknownField struct {
	path, schema string
}

func (u *unknownField) Error() string {
	return fmt.Sprintf("objects or lists meet under %s, a field the schema of %s does not have: merged as plain JSON its lists would be replaced whole, not merged by key (--merge-unknown merges it so)", quote(u.path), u.schema)
}

// changed reports whether a diff found a change.
func changed(results []result) bool {
	for _, r := range results {
		if len(r.missing) > 0 || !r.unchanged && !bytes.Equal(bytes.TrimSpace(r.doc), []byte("{}")) {
			return true
		}
	}
	return false
}

// writeResults prints one result as a bare document; several as YAML
// documents, each after a comment naming its object, or as a JSON list of
// {"object": ..., key: ...} entries.
func writeResults(e *env, results []result, format, key string) error {
	results, err := relist(results)
	if err != nil {
		return err
	}
	if len(results) == 1 && len(results[0].missing) == 0 {
		return writeDocument(e, results[0].doc, format)
	}
	if format == "json" {
		list := make([]map[string]any, len(results))
		for i, r := range results {
			entry := map[string]any{"object": r.id}
			if len(r.missing) > 0 {
				entry["missingFrom"] = r.missing
			} else {
				entry[key] = json.RawMessage(r.doc)
			}
			list[i] = entry
		}
		js, err := json.Marshal(list)
		if err != nil {
			return err
		}
		return writeDocument(e, js, format)
	}
	for i, r := range results {
		if i > 0 {
			fmt.Fprintln(e.stdout, "---")
		}
		if len(r.missing) > 0 {
			fmt.Fprintf(e.stdout, "# %s: not in %s\n", r.id, strings.Join(r.missing, " or "))
			continue
		}
		fmt.Fprintf(e.stdout, "# %s\n", r.id)
		if err := writeDocument(e, r.doc, format); err != nil {
			return err
		}
	}
	return nil
}
