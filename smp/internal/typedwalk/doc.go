// Package typedwalk is the engine's walk of Go values: typed Apply, Diff
// and ThreeWay walk the values with reflect through goval's plans and
// follow package engine's rules and list plans, implementing the
// interfaces those plans read lists through (objItems, objElems,
// typedValues, typedDocs), the builders objects and values merge into
// (structObj, mapObj, goValue) and the nil ≡ empty rewrites read documents
// through (doc). Values go into a patch as JSON, never through a JSON
// round trip of the documents; untyped values and types that marshal
// themselves are handed to package engine in JSON form.
package typedwalk
