// Package smallmap reads a map of up to eight entries keyed by strings
// in the runtime's own memory, without ranging over it (which draws a
// random start per loop) or hashing a key to look it up.
//
// The runtime keeps such a map in one group: a control word, a byte per
// slot whose high bit is clear when the slot is full, then eight slots,
// each laid out as a struct of the key and its value. Larger maps are
// tables of groups and are not read here. The layout is the runtime's
// own, not an API: it is checked once against maps filled and emptied in
// several orders (Readable), only on the Go releases known to lay maps
// out so, and callers read nothing unless the check holds.
package smallmap
