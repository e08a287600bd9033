// Package property checks the strategic-merge-patch engine (package smp)
// on your own API types with property-based tests: it draws random
// documents of a type from its schema, derives modified and current
// documents from them by edits, runs the engine, and checks that the
// results obey the rules of the patch format. A failing case is shrunk
// (by pgregory.net/rapid) and printed as YAML.
//
// Run every property on a type from a test:
//
//	func TestPatchProperties(t *testing.T) {
//		property.Check[myapi.Widget](t)
//	}
//
// or a subset, one's own way:
//
//	for _, p := range property.Properties[myapi.Widget](property.Only(property.RoundTrip)) {
//		t.Run(p.Name, p.Test)
//	}
//
// # The properties
//
// Each is a named subtest; [Property.Doc] says exactly what it checks and
// which behaviours of the engine it states as exceptions.
//
//   - RoundTrip: Apply(o, Diff(o, m)) == m, on the JSON and the typed API,
//     and the two APIs write the same patch.
//   - Identity: Diff(o, o) and ThreeWay(o, o, o) are empty; applying an
//     empty patch changes nothing.
//   - ThreeWay: Apply(c, ThreeWay(o, m, c)) follows Kubernetes' three-way
//     rules leaf by leaf (merge-list elements addressed by key), and a
//     conflict is reported exactly when current changed a field the patch
//     overwrites.
//   - Idempotence: applying a patch the differ made twice equals applying
//     it once.
//   - Order: with $setElementOrder, the result lists modified's items in
//     modified's order.
//   - SkewOldClient, SkewOldServer, SkewSuperset: the strategic merge patch document's version-skew
//     rules (docs/skew.md): an older client's patch works the same on the
//     current applier; a current patch is correct on an older applier,
//     except where docs/skew.md says it is not; and a current patch,
//     without the newer directives, includes the older differ's patch.
//
// # The documents
//
// [Generate] draws values of any struct type reflectschema accepts, and
// [Mutate] edits them; both are rapid generators, usable on their own.
// Values come from small pools, so that documents drawn apart share merge
// keys and values: lists merge, reorder and delete rather than only add.
// Merge keys are unique within a list (the properties that allow it also
// draw lists repeating a key); recommended and multi-field keys repeat
// their single fields; unions (retainKeys) get one member. Map values are
// never null, and map keys never start with "$" (a patch could not say
// either). Types that marshal themselves are drawn from [OverrideType]
// registrations or from a pool of JSON values they accept. [Override]
// and [Omit] set or leave out values by JSON path.
//
// Every draw is labelled with the JSON path it fills
// ("spec.containers[1].name"; "modified: ..." and "current: ..." for the
// edits), so rapid's log of a failing case reads as the documents.
//
// # Schemas without Go types
//
// [CheckSchema] runs the suite on a schema with no Go type, such as one
// package openapischema reads from a CustomResourceDefinition or an
// OpenAPI document:
//
//	schemas, err := openapischema.Read(crdYAML)
//	...
//	rollout, err := schemas.Lookup("argoproj.io/v1alpha1", "Rollout")
//	...
//	property.CheckSchema(t, rollout)
//
// [GenerateJSON] draws its documents as JSON from the schema alone (the
// same pools, key roles and edits as for Go values; scalars by JSON type
// and format; atomic values from a pool of JSON values; untyped and
// preserve-unknown-fields subtrees as small objects), and every property
// runs through the JSON API only: the typed API needs a Go type. Results
// are compared as JSON, absent, null and empty values alike.
//
// # How many cases
//
// Each property runs [DefaultChecks] cases (1,000) unless [Checks] says
// otherwise. rapid's own -rapid.checks flag (or RAPID_CHECKS) overrides
// both, so that a local run can go further:
//
//	go test ./property/ -rapid.checks=100000
//
// -rapid.seed and -rapid.failfile reproduce a failure, as rapid prints.
package property
