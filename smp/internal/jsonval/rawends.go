package jsonval

import "sync"

// Skipping a container of a raw document scans its bytes; expanding the
// document level by level down a deep path would scan the bytes below
// again at every level. ScanRaw, which reads the whole document once,
// records where each container of at least SkipMin bytes ends, and
// SkipValue looks a container up once it has scanned SkipMin bytes of it:
// every byte is scanned a bounded number of times, however deep. Below
// SkipMin, scanning costs less than the lookup.

// SkipMin is the span from which a container's end is recorded.
const SkipMin = 64

// rawEnds is what ScanRaw learns of a document besides its validity.
type rawEnds struct {
	// tape holds the containers of SkipMin bytes or more in the order
	// they start (by decreasing start distance, see span).
	tape []span
	// uniqueKeys says no object of the document holds a key twice, so a
	// key's first member is its value (see UniqueKeys).
	uniqueKeys bool
	// scratch is the scan's working memory, the tape's included: it is
	// recycled once the ends are released.
	scratch *scanScratch
}

// scanScratch is the memory ScanRaw works in: the stacks of the open
// containers and the tape, kept from one scan to the next.
type scanScratch struct {
	tape   []span
	open   []openContainer
	hashes []uint64
	starts []int
}

// startScan takes a scan's memory for ends and returns its stacks, empty.
func startScan(ends *rawEnds) scanStacks {
	sc := scratches.Get().(*scanScratch)
	ends.scratch, ends.tape = sc, sc.tape[:0]
	return scanStacks{open: sc.open[:0], keys: keySets{hashes: sc.hashes[:0], starts: sc.starts[:0], unique: true}}
}

// keep ends a scan that accepted its document: what it learnt of the keys
// goes to ends, and its stacks, grown, to its memory.
func (e *rawEnds) keep(st scanStacks) {
	e.uniqueKeys = st.keys.unique
	e.scratch.open, e.scratch.hashes, e.scratch.starts = st.open, st.keys.hashes, st.keys.starts
}

// scratches recycles the scans' working memory.
var scratches = sync.Pool{New: func() any { return new(scanScratch) }}

// recycle hands the scan's memory to the next scan; the ends are no
// longer known after it.
func (e *rawEnds) recycle() {
	if sc := e.scratch; sc != nil {
		sc.tape, e.scratch, e.tape = e.tape[:0], nil, nil
		scratches.Put(sc)
	}
}

// span is where a container starts and where it ends (after its last
// byte), both as the distance to the end of the document's backing array
// (cap of a slice starting there), so every slice of the document finds
// them.
type span struct{ start, end int }

// Count is the number of container ends recorded.
func (e rawEnds) Count() int { return len(e.tape) }

// close records the end of the container of tape entry k, or drops the
// entry when the container is shorter than SkipMin. The entries after k
// are its descendants, shorter still, so already dropped.
func (e *rawEnds) close(k, end int) {
	if e.tape[k].start-end < SkipMin {
		e.tape = e.tape[:k]
		return
	}
	e.tape[k].end = end
}

// find returns the end of the container starting at distance start.
func (e *rawEnds) find(start int) (int, bool) {
	lo, hi := 0, len(e.tape)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if e.tape[mid].start > start {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(e.tape) && e.tape[lo].start == start {
		return e.tape[lo].end, true
	}
	return 0, false
}

type endsEntry struct {
	ends rawEnds
	// lo, hi delimit the scanned document, as distances to the end of
	// the backing array: uniqueKeys holds only within it.
	lo, hi int
	refs   int
}

// liveEnds holds the ends of the documents being applied, by the last
// byte of their backing arrays. The entries say only where containers of
// those bytes end, true of any slice of them.
var liveEnds struct {
	sync.Mutex
	m sync.Map // *byte → *endsEntry
}

// backingEnd identifies a slice's backing array: its last byte.
func backingEnd(r []byte) *byte {
	full := r[:cap(r)]
	return &full[len(full)-1]
}

// RegisterEnds makes a document's container ends known to SkipValue until
// release is called.
func RegisterEnds(doc []byte, ends rawEnds) (release func()) {
	if len(ends.tape) == 0 {
		ends.recycle()
		return func() {}
	}
	k := backingEnd(doc)
	liveEnds.Lock()
	defer liveEnds.Unlock()
	var e *endsEntry
	if v, ok := liveEnds.m.Load(k); ok {
		e = v.(*endsEntry) // the same bytes, applied concurrently
		ends.recycle()
	} else {
		e = &endsEntry{ends: ends, lo: cap(doc) - len(doc), hi: cap(doc)}
		liveEnds.m.Store(k, e)
	}
	e.refs++
	return func() {
		liveEnds.Lock()
		defer liveEnds.Unlock()
		if e.refs--; e.refs == 0 {
			liveEnds.m.Delete(k)
			e.ends.recycle() // no apply of these bytes reads them any more
		}
	}
}

// KnownEnd returns the index in r after the container starting at start,
// if its document recorded it.
func KnownEnd(r []byte, start int) (int, bool) {
	v, ok := liveEnds.m.Load(backingEnd(r))
	if !ok {
		return 0, false
	}
	d, ok := v.(*endsEntry).ends.find(cap(r) - start)
	if end := cap(r) - d; ok && end > start && end <= len(r) {
		return end, true
	}
	return 0, false
}

// UniqueKeys reports whether r lies within a registered document in
// which no object holds a key twice: then the first member of a key is
// the one that counts, and a search for it may stop there.
func UniqueKeys(r []byte) bool {
	if cap(r) == 0 {
		return false
	}
	v, ok := liveEnds.m.Load(backingEnd(r))
	if !ok {
		return false
	}
	e := v.(*endsEntry)
	return e.ends.uniqueKeys && cap(r) <= e.hi && cap(r)-len(r) >= e.lo
}
