package goval

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

// countedAmount counts its MarshalJSON calls; its pointer makes a copy go
// through its methods.
type countedAmount struct {
	Unit string
	ref  *int
}

var countedCalls atomic.Int64

func (a countedAmount) MarshalJSON() ([]byte, error) {
	countedCalls.Add(1)
	return json.Marshal(strings.ToLower(a.Unit))
}

func (a *countedAmount) UnmarshalJSON(b []byte) error {
	return json.Unmarshal(b, &a.Unit)
}

type countedDoc struct {
	A countedAmount `json:"a"`
}

// copyCounted copies a countedDoc holding unit through a new Copier, as
// one Apply does, and returns the copy and the MarshalJSON calls it made.
func copyCounted(t *testing.T, n *Node, unit string) (string, int64) {
	t.Helper()
	before := countedCalls.Load()
	src := reflect.ValueOf(&countedDoc{A: countedAmount{Unit: unit}}).Elem()
	dst := reflect.New(src.Type()).Elem()
	var c Copier
	defer c.Release()
	if err := c.CopyValue(dst, src, n); err != nil {
		t.Fatal(err)
	}
	return dst.Interface().(countedDoc).A.Unit, countedCalls.Load() - before
}

// TestRoundTripsByContent: a value met again in a later copy, its string
// at another address, is not marshalled again; a full memory stops
// remembering but copies as well.
func TestRoundTripsByContent(t *testing.T) {
	n, err := planOfGo(reflect.TypeFor[countedDoc]())
	if err != nil {
		t.Fatal(err)
	}
	first := strings.Repeat("K", 2) + "i"
	if got, calls := copyCounted(t, n, first); got != "kki" || calls != 1 {
		t.Fatalf("first copy: %q with %d calls, want \"kki\" with 1", got, calls)
	}
	again := strings.Clone(first)
	if got, calls := copyCounted(t, n, again); got != "kki" || calls != 0 {
		t.Fatalf("copy of the same content: %q with %d calls, want \"kki\" with 0", got, calls)
	}
	if got, calls := copyCounted(t, n, "KKj"); got != "kkj" || calls != 1 {
		t.Fatalf("copy of another content: %q with %d calls, want \"kkj\" with 1", got, calls)
	}

	// A long value is copied through its methods every time, and not
	// kept.
	long := strings.Repeat("L", maxContentBytes)
	for range 2 {
		if got, calls := copyCounted(t, n, long); got != strings.ToLower(long) || calls != 1 {
			t.Fatalf("copy of a %d-byte value: %d calls, want 1 each time", len(long), calls)
		}
	}
	trips := n.Fields[0].Node.trips
	if _, kept := trips.done.Load().find(trips.content(nil, unsafe.Pointer(&countedAmount{Unit: long}), unsafe.Sizeof(countedAmount{}))); kept {
		t.Fatalf("a %d-byte value is remembered", len(long))
	}
	for i := range maxRoundTrips + 10 {
		unit := "U" + strconv.Itoa(i)
		if got, _ := copyCounted(t, n, unit); got != strings.ToLower(unit) {
			t.Fatalf("copy of %q: %q", unit, got)
		}
	}
	if l := trips.done.Load().len(); l != maxRoundTrips {
		t.Fatalf("%d round trips remembered, want the bound %d", l, maxRoundTrips)
	}
	last := "U" + strconv.Itoa(maxRoundTrips+5)
	if got, calls := copyCounted(t, n, last); got != strings.ToLower(last) || calls != 1 {
		t.Fatalf("copy beyond the bound: %q with %d calls, want %q with 1", got, calls, strings.ToLower(last))
	}
}

// TestStringOffsets checks where contents find a type's strings: inside
// nested structs and arrays, none in a long array of bytes, and no plan
// for a type of more than maxContentStrings strings.
func TestStringOffsets(t *testing.T) {
	type pair struct {
		N int64
		S string
	}
	type nested struct {
		A string
		P [3]pair
		B [1 << 20]byte
		Z string
	}
	var v nested
	want := []uintptr{
		unsafe.Offsetof(v.A),
		unsafe.Offsetof(v.P) + unsafe.Offsetof(v.P[0].S),
		unsafe.Offsetof(v.P) + unsafe.Sizeof(v.P[0]) + unsafe.Offsetof(v.P[0].S),
		unsafe.Offsetof(v.P) + 2*unsafe.Sizeof(v.P[0]) + unsafe.Offsetof(v.P[0].S),
		unsafe.Offsetof(v.Z),
	}
	got, ok := stringOffsets(reflect.TypeFor[nested](), 0, nil, 0)
	if !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("stringOffsets = %v, %v; want %v", got, ok, want)
	}
	if r := newRoundTrips(reflect.TypeFor[[maxContentStrings + 1]string]()); r != nil {
		t.Fatalf("a type of %d strings is planned: %v", maxContentStrings+1, r.strs)
	}
	if r := newRoundTrips(reflect.TypeFor[[maxContentStrings]string]()); r == nil || len(r.strs) != maxContentStrings {
		t.Fatalf("a type of %d strings is not planned", maxContentStrings)
	}
}

// zoneOfTrips is the location every zonedStamp decodes to, as
// metav1.Time decodes to time.Local.
var zoneOfTrips = time.FixedZone("trips", 3600)

// zonedStamp decodes to a time in zoneOfTrips, a pointer every round trip
// shares; freshStamp decodes to a pointer made anew each time.
type zonedStamp struct{ T time.Time }

type freshStamp struct{ P *int64 }

var zonedCalls atomic.Int64

func (z zonedStamp) MarshalJSON() ([]byte, error) {
	zonedCalls.Add(1)
	return json.Marshal(z.T.Unix())
}

func (z *zonedStamp) UnmarshalJSON(b []byte) error {
	var s int64
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	z.T = time.Unix(s, 0).In(zoneOfTrips)
	return nil
}

func (f freshStamp) MarshalJSON() ([]byte, error) {
	if f.P == nil {
		return []byte("0"), nil
	}
	return json.Marshal(*f.P)
}

func (f *freshStamp) UnmarshalJSON(b []byte) error {
	f.P = new(int64)
	return json.Unmarshal(b, f.P)
}

type stampDoc struct {
	Z zonedStamp `json:"z"`
	F freshStamp `json:"f"`
}

// TestRoundTripsSharedPointers: a round trip whose result points only
// where every round trip of it points (a location) is remembered, and a
// copy made from it is the round trip; one that points to memory it made
// is not, so no two copies share it. A value holding a pointer round
// trips have shared is then remembered by its content too; one holding
// any other pointer is not.
func TestRoundTripsSharedPointers(t *testing.T) {
	n, err := planOfGo(reflect.TypeFor[stampDoc]())
	if err != nil {
		t.Fatal(err)
	}
	copies := func(src stampDoc) ([]stampDoc, int64) {
		var out []stampDoc
		before := zonedCalls.Load()
		for range 3 {
			dst := reflect.New(n.GoType).Elem()
			var c Copier
			if err := c.CopyValue(dst, reflect.ValueOf(&src).Elem(), n); err != nil {
				t.Fatal(err)
			}
			c.Release()
			out = append(out, dst.Interface().(stampDoc))
		}
		calls := zonedCalls.Load() - before
		var want stampDoc
		if err := json.Unmarshal(mustJSON(t, src), &want); err != nil {
			t.Fatal(err)
		}
		for i, c := range out {
			if !reflect.DeepEqual(c, want) || c.Z.T.Location() != zoneOfTrips {
				t.Fatalf("copy %d of %v: %+v, want the round trip %+v", i, src.Z.T, c, want)
			}
			if c.F.P == nil || i > 0 && c.F.P == out[0].F.P {
				t.Fatalf("copy %d shares its pointer %p with the first copy", i, c.F.P)
			}
		}
		return out, calls
	}
	if _, calls := copies(stampDoc{Z: zonedStamp{time.Unix(1700000000, 0).UTC()}}); calls != 2 {
		t.Fatalf("%d MarshalJSON calls for three copies, want 2 (the first copy's, and its check)", calls)
	}
	if _, calls := copies(stampDoc{Z: zonedStamp{time.Unix(1700000001, 0).In(zoneOfTrips)}}); calls != 2 {
		t.Fatalf("in the shared zone: %d MarshalJSON calls for three copies, want 2", calls)
	}
	other := time.FixedZone("trips", 3600) // the same zone, another pointer
	if _, calls := copies(stampDoc{Z: zonedStamp{time.Unix(1700000002, 0).In(other)}}); calls != 3 {
		t.Fatalf("in another zone: %d MarshalJSON calls for three copies, want 3", calls)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// plainMix holds every kind of word plainCheck reads, beside strings and
// numbers it does not.
type plainMix struct {
	S   string
	N   int64
	P   *int
	L   []byte
	M   map[string]int
	I   any
	F   func()
	Arr [2]*int
	In  struct {
		C chan int
		S string
	}
}

// TestPlainCheck: a value is plain exactly when each of its pointers,
// slices, maps, interfaces, functions and channels, in nested structs
// and arrays too, is nil; strings and numbers do not count.
func TestPlainCheck(t *testing.T) {
	plain := plainCheck(reflect.TypeFor[plainMix]())
	one := 1
	sets := []func(*plainMix){
		func(v *plainMix) { v.P = &one },
		func(v *plainMix) { v.L = []byte{} },
		func(v *plainMix) { v.M = map[string]int{} },
		func(v *plainMix) { v.I = 0 },
		func(v *plainMix) { v.F = func() {} },
		func(v *plainMix) { v.Arr[1] = &one },
		func(v *plainMix) { v.In.C = make(chan int) },
	}
	v := plainMix{S: "s", N: 7, In: struct {
		C chan int
		S string
	}{S: "t"}}
	if !plain(unsafe.Pointer(&v)) {
		t.Fatal("a value of strings and numbers is not plain")
	}
	for i, set := range sets {
		w := v
		set(&w)
		if plain(unsafe.Pointer(&w)) {
			t.Fatalf("value %d, with a word set, is plain", i)
		}
	}
	if plainCheck(reflect.TypeFor[[maxNilWords + 1]*int]())(unsafe.Pointer(new([maxNilWords + 1]*int))) {
		t.Fatalf("an array of %d pointers is plain", maxNilWords+1)
	}
}
