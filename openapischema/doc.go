// Package openapischema reads the schemas of Kubernetes kinds from OpenAPI
// documents and CustomResourceDefinitions, so that package smp's JSON API
// can patch kinds that have no Go type, custom resources above all.
//
// [Read] accepts an OpenAPI v2 document (swagger "definitions", as a
// cluster serves at /openapi/v2), an OpenAPI v3 document
// ("components.schemas", as served at /openapi/v3/apis/GROUP/VERSION), or
// apiextensions.k8s.io/v1 CustomResourceDefinition manifests in YAML or
// JSON. [Schemas.Lookup] then finds each kind's [reflectschema.Type] by
// apiVersion and kind. List semantics come from the patch extensions
// (x-kubernetes-patch-strategy, x-kubernetes-patch-merge-key) where a
// field has them, otherwise from x-kubernetes-list-type and
// x-kubernetes-list-map-keys; docs/format.md states the precedence.
//
// A schema that cannot work is rejected by Read with an [*Error] naming
// the JSON pointer of the node at fault. The package depends on no
// Kubernetes module.
package openapischema
