// Package jsonval is the engine's JSON values and text: values decoded
// with UseNumber and their kinds, equality and scalar keys (numbers
// compared by value, in time linear in their text); lazy raw values (Raw)
// that a document keeps until a patch reaches them, scanned once
// (ScanRaw); the writer (AppendJSON); conversion of Go values to and from
// decoded JSON; limits on depth, size and length (Limits) and the cycle
// guard of walks over Go values (Guard). It knows nothing of schemas or
// patches.
package jsonval
