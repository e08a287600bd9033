// Package jsonval is JSON as the engine holds it, values and text, with no
// Go type behind them (the map API's untyped Go maps enter and leave
// through FromGo and ToGo).
//
// It holds values decoded with UseNumber and their kinds, equality and
// scalar keys (numbers compared by value, in time linear in their text);
// lazy raw values (Raw) that a document keeps until a patch reaches them,
// scanned once (ScanRaw); the writer (AppendJSON); limits on depth, size
// and length (Limits) and the cycle guard of walks over Go values
// (Guard). It knows nothing of schemas or patches.
package jsonval
