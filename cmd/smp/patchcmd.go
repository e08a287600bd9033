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
	// live is the operand a --patch-type patch is written against.
	live int
}

func (r *patchRun) run(e *env, o *options, operands []string) error {
	sc, err := loadSchemas(o)
	if err != nil {
		return err
	}
	sides := make([][]object, len(operands))
	for i, name := range operands {
		if name == inlineName {
			sides[i], err = parseDocuments(r.roles[i], "--patch", []byte(o.inline))
		} else {
			sides[i], err = readFile(e, r.roles[i], name)
		}
		if err != nil {
			return err
		}
	}
	groups, err := pairObjects(r.roles, sides)
	if err != nil {
		return err
	}
	results := make([]result, 0, len(groups))
	for _, g := range groups {
		res, err := r.runGroup(e, o, sc, g)
		if err != nil {
			if len(groups) > 1 {
				return fmt.Errorf("%s: %w", g.id, err)
			}
			return err
		}
		results = append(results, res)
	}
	if err := writeResults(e, results, o.output, r.key); err != nil {
		return err
	}
	if o.exitCode && changed(results) {
		return errChanged
	}
	return nil
}

// runGroup computes the output for one object.
func (r *patchRun) runGroup(e *env, o *options, sc *schemas, g *group) (result, error) {
	if r.empty >= 0 && g.objs[r.empty] == nil && len(g.missing(r.roles)) == 1 {
		g.objs[r.empty] = &object{role: r.roles[r.empty], json: []byte("{}")}
	}
	res := result{id: g.id, missing: g.missing(r.roles)}
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
	docs := make([][]byte, len(g.objs))
	for i, obj := range g.objs {
		docs[i] = obj.json
	}
	res.doc, err = r.fn(ds, docs, o.smpOptions())
	if smp.KindOf(err) != smp.ErrUnknownField {
		return asPatchType(o, res, err, ds, docs[r.live], o.smpOptions())
	}
	var se *smp.Error
	errors.As(err, &se)
	if !o.mergeUnknown {
		return res, &unknownField{path: se.Path.String(), schema: name}
	}
	fmt.Fprintf(e.stderr, "smp: warning: objects or lists meet under %s, a field the schema of %s does not have; merged as plain JSON\n", quote(se.Path.String()), name)
	opts := append(o.smpOptions(), smp.WithMergeUnknown(true))
	res.doc, err = r.fn(ds, docs, opts)
	return asPatchType(o, res, err, ds, docs[r.live], opts)
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
