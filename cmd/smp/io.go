package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"sigs.k8s.io/yaml"
)

// stdinName is the file name that stands for standard input.
const stdinName = "-"

// inputError is a file that cannot be read (bad usage) or is not YAML or
// JSON (an invalid document).
type inputError struct {
	role, name string // the operand, such as ORIGINAL, and the file name
	unreadable bool
	noName     bool // the message names the role only
	err        error
}

func (e *inputError) Error() string {
	name := e.name
	if name == stdinName {
		name = "standard input"
	}
	if e.unreadable {
		return fmt.Sprintf("cannot read %s: %s", e.role, cleanLines(bounded(e.err.Error())))
	}
	if e.noName {
		return fmt.Sprintf("%s: %s", e.role, cleanLines(bounded(e.err.Error())))
	}
	return fmt.Sprintf("%s (%s): %s", e.role, clean(bounded(name)), cleanLines(bounded(e.err.Error())))
}

func (e *inputError) Unwrap() error { return e.err }

// readFile reads the file name ("-" for stdin), in YAML or JSON, and
// returns its documents as objects. role names the operand in errors.
func readFile(e *env, role, name string) ([]object, error) {
	var (
		data []byte
		err  error
	)
	if name == stdinName {
		data, err = io.ReadAll(e.stdin)
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return nil, &inputError{role: role, name: name, unreadable: true, err: err}
	}
	return parseDocuments(role, name, data)
}

// parseDocuments splits data at its "---" lines and converts each document
// to JSON.
func parseDocuments(role, name string, data []byte) ([]object, error) {
	chunks := []chunk{{text: data, line: 1}}
	if countDocuments(data) > 1 {
		chunks = splitDocuments(data)
	}
	objs := make([]object, 0, len(chunks))
	for i, c := range chunks {
		js, err := yaml.YAMLToJSONStrict(c.text) // duplicate keys are errors
		if err != nil {
			err = explainYAMLError(c, err)
			if len(chunks) > 1 {
				err = fmt.Errorf("document %d: %w", i+1, err)
			}
			return nil, &inputError{role: role, name: name, err: fmt.Errorf("not a YAML or JSON document: %w", err)}
		}
		obj := object{role: role, index: i + 1, json: js, text: c.text, id: identify(js)}
		items, err := unwrapList(obj)
		if err != nil {
			return nil, &inputError{role: role, name: name, err: err}
		}
		if items == nil {
			items = []object{obj}
		}
		objs = append(objs, items...)
	}
	return objs, nil
}

// chunk is one document of a YAML stream and the line of the file its
// first line is.
type chunk struct {
	text []byte
	line int
}

// splitDocuments returns the documents of a YAML stream that hold more
// than comments. A document starts on its "---" line, the marker cut off:
// text after it belongs to the document.
func splitDocuments(data []byte) []chunk {
	var (
		docs []chunk
		cur  = chunk{line: 1}
		n    = 0
	)
	flush := func(next int) {
		if hasDocument(cur.text) {
			docs = append(docs, cur)
		}
		cur = chunk{line: next}
	}
	for line := range bytes.Lines(data) {
		n++
		if isDocumentMarker(line) {
			flush(n)
			if bytes.HasPrefix(line, []byte("---")) {
				cur.text = append(cur.text, line[3:]...)
			} else {
				cur.line = n + 1
			}
			continue
		}
		cur.text = append(cur.text, line...)
	}
	flush(n)
	return docs
}

// hasDocument reports whether text holds more than comments.
func hasDocument(text []byte) bool {
	for line := range bytes.Lines(text) {
		if hasContent(line) {
			return true
		}
	}
	return false
}

// explainYAMLError says so when the YAML parser failed on a tab, which it
// reports as a character that cannot start a token; the line is the file's.
func explainYAMLError(c chunk, err error) error {
	if !strings.Contains(err.Error(), "cannot start any token") && !strings.Contains(err.Error(), "tab") {
		return err
	}
	n := c.line - 1
	for line := range bytes.Lines(c.text) {
		n++
		indent := line[:len(line)-len(bytes.TrimLeft(line, " \t"))]
		if bytes.IndexByte(indent, '\t') >= 0 {
			return fmt.Errorf("line %d is indented with a tab; YAML indents with spaces only", n)
		}
	}
	return err
}

// countDocuments counts the YAML documents in data that hold more than
// comments. YAML forbids a line starting "---" or "..." inside a document,
// so such lines always separate documents.
func countDocuments(data []byte) int {
	n, content := 0, false
	for line := range bytes.Lines(data) {
		if isDocumentMarker(line) {
			if content {
				n++
			}
			content = hasContent(line[3:])
			continue
		}
		content = content || hasContent(line)
	}
	if content {
		n++
	}
	return n
}

// isDocumentMarker reports whether line starts or ends a YAML document.
func isDocumentMarker(line []byte) bool {
	if !bytes.HasPrefix(line, []byte("---")) && !bytes.HasPrefix(line, []byte("...")) {
		return false
	}
	return len(line) == 3 || strings.ContainsRune(" \t\r\n", rune(line[3]))
}

// hasContent reports whether a line holds more than a comment or a
// directive such as %YAML 1.2.
func hasContent(line []byte) bool {
	t := bytes.TrimSpace(line)
	return len(t) > 0 && t[0] != '#' && t[0] != '%'
}

// writeDocument prints a JSON document to standard output as YAML, or as
// indented JSON with sorted keys.
func writeDocument(e *env, doc []byte, format string) error {
	var out []byte
	switch format {
	case "json":
		dec := json.NewDecoder(bytes.NewReader(doc))
		dec.UseNumber() // print numbers as they were written
		var v any
		if err := dec.Decode(&v); err != nil {
			return fmt.Errorf("internal error: the engine returned invalid JSON: %w", err)
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b) // maps encode with sorted keys
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			return err
		}
		out = b.Bytes()
	default:
		y, err := yaml.JSONToYAML(doc)
		if err != nil {
			return fmt.Errorf("internal error: cannot print the result as YAML: %w", err)
		}
		out = y
	}
	if _, err := e.stdout.Write(out); err != nil {
		return fmt.Errorf("writing the output: %w", err)
	}
	return nil
}
