// Package builtin bundles the schema of every built-in Kubernetes kind,
// so that package smp's JSON API can patch Deployments, Pods, Services
// and the rest without their Go types and without a Kubernetes module:
// pass the [reflectschema.Type] that [Lookup] returns as dataStruct.
//
// The data is the 174 kinds of every cluster: the 172 that k8s.io/api
// v0.37.2 registers that are objects users patch, with metadata, and
// apiextensions.k8s.io/v1 CustomResourceDefinition
// (k8s.io/apiextensions-apiserver) and apiregistration.k8s.io/v1
// APIService (k8s.io/kube-aggregator) at the same version. Left out are
// the List kinds, the options (ListOptions, PodLogOptions and the like),
// WatchEvent, Status, APIVersions, APIGroup, SerializedReference,
// AdmissionReview, ConversionReview and DeploymentRollback: request and
// response bodies. It
// is written by bench's generator as one OpenAPI v3 document
// (reflectschema.OpenAPISchemas of the kinds' Go types) and embedded
// gzip'd: 29,036 bytes (311,895 uncompressed). It is read with
// [openapischema.Read] on first use, once (about 45 ms of CPU time;
// BenchmarkDecode measures it); the schemas are sealed and safe for
// concurrent use.
package builtin

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"sync"

	"github.com/typedpatch/typedpatch/openapischema"
	"github.com/typedpatch/typedpatch/reflectschema"
)

//go:embed kinds.json.gz
var data []byte

// ErrUnknownKind is wrapped by the error of [Lookup] for a kind that is
// not bundled. It is [openapischema.ErrUnknownKind], so one errors.Is
// test serves both packages.
var ErrUnknownKind = openapischema.ErrUnknownKind

var load = sync.OnceValues(func() (*openapischema.Schemas, error) { return decode(data) })

// decode reads the gzip'd OpenAPI document.
func decode(gz []byte) (*openapischema.Schemas, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("builtin: bundled schemas: %w", err)
	}
	doc, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("builtin: bundled schemas: %w", err)
	}
	s, err := openapischema.Read(doc)
	if err != nil {
		return nil, fmt.Errorf("builtin: bundled schemas: %w", err)
	}
	return s, nil
}

// Lookup returns the schema of the built-in kind with the given
// apiVersion ("apps/v1", "v1") and kind ("Deployment"), as
// [openapischema.Schemas.Lookup] answers: a kind that is not bundled is an
// error wrapping [ErrUnknownKind] that names the bundled kinds nearest to
// it.
func Lookup(apiVersion, kind string) (*reflectschema.Type, error) {
	s, err := load()
	if err != nil {
		return nil, err
	}
	t, err := s.Lookup(apiVersion, kind)
	if err != nil {
		return nil, fmt.Errorf("builtin: %w", err)
	}
	return t, nil
}

// Kinds lists the bundled kinds, sorted by group, version and kind.
func Kinds() []openapischema.GVK {
	s, err := load()
	if err != nil {
		return nil
	}
	return s.Kinds()
}

// Schemas returns the bundled document as read: every kind, and every
// type a kind reaches under its definition name ("v1.PodSpec", or
// "k8s.io/api/apps/v1beta1.DeploymentSpec" where the short name is
// shared).
func Schemas() (*openapischema.Schemas, error) { return load() }
