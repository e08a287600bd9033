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
	return fmt.Sprintf("%s (%s): %s", e.role, clean(bounded(name)), cleanLines(bounded(e.err.Error())))
}

func (e *inputError) Unwrap() error { return e.err }

// readDocument reads the file name ("-" for stdin), in YAML or JSON, and
// returns it as JSON. role names the operand in errors.
func readDocument(e *env, role, name string) ([]byte, error) {
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
	if n := countDocuments(data); n > 1 {
		return nil, &inputError{role: role, name: name, err: fmt.Errorf("%d YAML documents; smp reads one", n)}
	}
	js, err := yaml.YAMLToJSONStrict(data) // duplicate keys are errors
	if err != nil {
		return nil, &inputError{role: role, name: name, err: fmt.Errorf("not a YAML or JSON document: %w", err)}
	}
	return js, nil
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

// readDocuments reads the operands, naming them by roles in errors.
func readDocuments(e *env, roles, names []string) ([][]byte, error) {
	docs := make([][]byte, len(names))
	for i, name := range names {
		doc, err := readDocument(e, roles[i], name)
		if err != nil {
			return nil, err
		}
		docs[i] = doc
	}
	return docs, nil
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
