package bench

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"io"
	"os"
	"testing"

	rs "github.com/typedpatch/typedpatch/reflectschema"
)

// builtinDataFile is the bundled schemas of package builtin.
const builtinDataFile = "../builtin/kinds.json.gz"

var updateBuiltin = flag.Bool("update-builtin", false, "rewrite "+builtinDataFile+" from k8s.io/api")

// builtinDocument writes the schema of every built-in kind as one OpenAPI
// v3 document: reflectschema.OpenAPISchemas of the kinds' Go types, each
// kind's schema marked with x-kubernetes-group-version-kind. The JSON is
// compact, its keys sorted: the same types give the same bytes.
func builtinDocument() ([]byte, error) {
	kinds, _, err := builtinKinds()
	if err != nil {
		return nil, err
	}
	types := make([]*rs.Type, len(kinds))
	for i, k := range kinds {
		if types[i], err = rs.Of(k.Go); err != nil {
			return nil, err
		}
	}
	names, schemas := rs.OpenAPISchemas(types...)
	for i, k := range kinds {
		s := schemas[names[i]]
		gvks, _ := s["x-kubernetes-group-version-kind"].([]any)
		s["x-kubernetes-group-version-kind"] = append(gvks, map[string]any{
			"group": k.GVK.Group, "version": k.GVK.Version, "kind": k.GVK.Kind,
		})
	}
	return json.Marshal(map[string]any{
		"openapi":    "3.0.0",
		"info":       map[string]any{"title": "Kubernetes built-in kinds (k8s.io/api v0.37.2)", "version": "v0.37.2"},
		"components": map[string]any{"schemas": schemas},
	})
}

func gzipBytes(data []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(data); err != nil {
		return nil, err
	}
	err = zw.Close()
	return buf.Bytes(), err
}

func gunzipBytes(data []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// The committed data is what the generator writes from k8s.io/api today:
// compared decompressed, so a change in the compressor alone does not
// matter. Rewrite it with go test -run TestBuiltinDataCurrent -update-builtin.
func TestBuiltinDataCurrent(t *testing.T) {
	doc, err := builtinDocument()
	if err != nil {
		t.Fatal(err)
	}
	if *updateBuiltin {
		gz, err := gzipBytes(doc)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(builtinDataFile, gz, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %d bytes (%d uncompressed)", builtinDataFile, len(gz), len(doc))
		return
	}
	gz, err := os.ReadFile(builtinDataFile)
	if err != nil {
		t.Fatal(err)
	}
	committed, err := gunzipBytes(gz)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, doc) {
		t.Fatalf("%s is stale (%d bytes uncompressed, generated %d): rerun with -update-builtin", builtinDataFile, len(committed), len(doc))
	}
}
