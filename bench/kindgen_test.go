package bench

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	rs "github.com/typedpatch/typedpatch/reflectschema"
)

// kindGen makes random values of any k8s.io/api type, driven by the
// type's reflectschema schema: small pools of names and numbers so that
// merge keys collide between documents, lists of 0 to 4 elements, each
// merge list's keys set and distinct, sets without duplicates, valid
// quantities, int-or-strings and times, and a depth bound. mutate edits
// a value the way a user or a controller would: a few fields changed,
// added or dropped, list elements added, dropped, reordered or edited.
type kindGen struct {
	r        *rand.Rand
	maxDepth int
	budget   int // optional struct fields still to set; 0 stops them
}

var (
	genStrings = []string{"a", "b", "c"}
	genTimes   = []time.Time{
		time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC),
		time.Date(2025, 6, 7, 8, 9, 10, 0, time.UTC),
	}
	genQuantities = []string{"1", "500m", "2Gi", "100Mi"}
)

// special makes the types that marshal themselves: each a valid value.
// Types not listed here (RawExtension, FieldsV1) stay zero: their JSON is
// arbitrary, and docs/compat.md says Kubernetes cannot merge objects in
// them ("self marshalling types are atomic").
var special = map[reflect.Type]func(g *kindGen) reflect.Value{
	reflect.TypeFor[resource.Quantity](): func(g *kindGen) reflect.Value {
		return reflect.ValueOf(resource.MustParse(pick(g, genQuantities)))
	},
	reflect.TypeFor[intstr.IntOrString](): func(g *kindGen) reflect.Value {
		if g.r.IntN(2) == 0 {
			return reflect.ValueOf(intstr.FromInt32(int32(1 + g.r.IntN(3))))
		}
		return reflect.ValueOf(intstr.FromString(pick(g, []string{"a", "25%"})))
	},
	reflect.TypeFor[metav1.Time](): func(g *kindGen) reflect.Value {
		return reflect.ValueOf(metav1.NewTime(pick(g, genTimes)))
	},
	reflect.TypeFor[metav1.MicroTime](): func(g *kindGen) reflect.Value {
		return reflect.ValueOf(metav1.NewMicroTime(pick(g, genTimes)))
	},
	reflect.TypeFor[metav1.Duration](): func(g *kindGen) reflect.Value {
		return reflect.ValueOf(metav1.Duration{Duration: time.Duration(1+g.r.IntN(3)) * time.Second})
	},
}

func pick[T any](g *kindGen, pool []T) T { return pool[g.r.IntN(len(pool))] }

// chance reports true with probability p.
func (g *kindGen) chance(p float64) bool { return g.r.Float64() < p }

// fieldChance is the probability that a struct field at depth d is set:
// high near the root, lower deeper, so objects stay small. Fields without
// omitempty, which the API requires, are set more often.
func fieldChance(d int) float64 { return max(0.6-0.05*float64(d), 0.25) }

// value returns a random value of Go type gt, whose schema is t; meta is
// the patch metadata of the field holding it.
func (g *kindGen) value(gt reflect.Type, t *rs.Type, meta rs.PatchMeta, d int) reflect.Value {
	v := reflect.New(gt).Elem()
	if gt.Kind() == reflect.Pointer {
		if d > g.maxDepth {
			return v
		}
		v.Set(reflect.New(gt.Elem()))
		v.Elem().Set(g.value(gt.Elem(), t, meta, d))
		return v
	}
	if mk, ok := special[gt]; ok {
		return mk(g)
	}
	switch t.Kind {
	case rs.Scalar:
		g.scalar(v)
	case rs.Struct:
		if d <= g.maxDepth {
			for _, f := range t.Fields {
				p := fieldChance(d)
				if !f.OmitEmpty && !f.OmitZero {
					p = 0.85 // a field the API requires, such as containers
				}
				if g.budget > 0 && g.chance(p) {
					g.budget--
					g.setField(v, f, g.value(f.GoType, f.Type, f.Patch, d+1))
				}
			}
		}
	case rs.List:
		if d <= g.maxDepth {
			n := g.r.IntN(5 - min(d/3, 3))
			for range n {
				v.Set(reflect.Append(v, g.value(gt.Elem(), t.Elem, rs.PatchMeta{}, d+1)))
			}
			g.fixList(v, t, meta)
		}
	case rs.Map:
		if d <= g.maxDepth {
			for range g.r.IntN(4) {
				g.setMapEntry(v, t, d)
			}
		}
	}
	return v
}

func (g *kindGen) setMapEntry(v reflect.Value, t *rs.Type, d int) {
	if v.IsNil() {
		v.Set(reflect.MakeMap(v.Type()))
	}
	k := reflect.New(v.Type().Key()).Elem()
	k.SetString(pick(g, genStrings))
	v.SetMapIndex(k, g.value(v.Type().Elem(), t.Elem, rs.PatchMeta{}, d+1))
}

// setField sets a struct field, through inlined structs; a nil embedded
// pointer on the way leaves it unset.
func (g *kindGen) setField(v reflect.Value, f *rs.Field, x reflect.Value) {
	if fv, err := v.FieldByIndexErr(f.Index); err == nil {
		fv.Set(x)
	}
}

func (g *kindGen) scalar(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(pick(g, genStrings))
	case reflect.Bool:
		v.SetBool(g.r.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(g.r.IntN(4)))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(g.r.IntN(4)))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(pick(g, []float64{0, 0.5, 2}))
	case reflect.Slice: // []byte
		v.SetBytes([]byte(pick(g, genStrings)))
	default:
		panic(fmt.Sprintf("kindGen: scalar of kind %v", v.Kind()))
	}
}

// fixList makes a list valid for its patch metadata: every element of a
// keyed merge list carries its key fields, and no two share a key; a
// merge list of scalars holds no duplicates.
func (g *kindGen) fixList(v reflect.Value, t *rs.Type, meta rs.PatchMeta) {
	if !meta.IsMergeList() {
		return
	}
	seen := map[string]bool{}
	out := reflect.MakeSlice(v.Type(), 0, v.Len())
	for i := range v.Len() {
		e := v.Index(i)
		id := ""
		if len(meta.MergeKey) == 0 {
			id = fmt.Sprint(e.Interface())
		}
		for _, k := range meta.MergeKey {
			kv := keyField(e, t.Elem, k)
			if kv.IsZero() {
				g.nonZeroScalar(kv)
			}
			id += fmt.Sprint(kv.Interface()) + "\x00"
		}
		if !seen[id] {
			seen[id] = true
			out = reflect.Append(out, e)
		}
	}
	if out.Len() == 0 {
		out = reflect.Zero(v.Type())
	}
	v.Set(out)
}

// keyField returns the settable key field k of a list element.
func keyField(e reflect.Value, t *rs.Type, k string) reflect.Value {
	for e.Kind() == reflect.Pointer {
		e = e.Elem()
	}
	kv := e.FieldByIndex(t.Field(k).Index)
	if kv.Kind() == reflect.Pointer {
		if kv.IsNil() {
			kv.Set(reflect.New(kv.Type().Elem()))
		}
		kv = kv.Elem()
	}
	return kv
}

func (g *kindGen) nonZeroScalar(v reflect.Value) {
	for v.IsZero() {
		g.scalar(v)
	}
}

// mutate edits v (of schema t, held by a field with meta) in place.
func (g *kindGen) mutate(v reflect.Value, t *rs.Type, meta rs.PatchMeta, d int) {
	if v.Kind() == reflect.Pointer {
		switch {
		case v.IsNil():
			if g.chance(0.1) {
				v.Set(g.value(v.Type(), t, meta, d))
			}
		case g.chance(0.1):
			v.SetZero()
		default:
			g.mutate(v.Elem(), t, meta, d)
		}
		return
	}
	if _, ok := special[v.Type()]; ok || t.Kind == rs.Scalar {
		if g.chance(0.3) {
			v.Set(g.value(v.Type(), t, meta, d))
		}
		return
	}
	switch t.Kind {
	case rs.Struct:
		for _, f := range t.Fields {
			fv, err := v.FieldByIndexErr(f.Index)
			switch {
			case err != nil:
			case g.chance(0.05):
				fv.SetZero()
			case g.chance(0.08):
				fv.Set(g.value(f.GoType, f.Type, f.Patch, d+1))
			case !fv.IsZero() && g.chance(0.5):
				g.mutate(fv, f.Type, f.Patch, d+1)
			}
		}
	case rs.List:
		g.mutateList(v, t, meta, d)
	case rs.Map:
		g.mutateMap(v, t, d)
	}
}

func (g *kindGen) mutateList(v reflect.Value, t *rs.Type, meta rs.PatchMeta, d int) {
	switch n := v.Len(); {
	case n > 0 && g.chance(0.25): // drop one
		i := g.r.IntN(n)
		v.Set(reflect.AppendSlice(v.Slice(0, i), v.Slice(i+1, n)))
	case g.chance(0.25) && d <= g.maxDepth: // insert one
		i := g.r.IntN(n + 1)
		out := reflect.MakeSlice(v.Type(), 0, n+1)
		out = reflect.AppendSlice(out, v.Slice(0, i))
		out = reflect.Append(out, g.value(v.Type().Elem(), t.Elem, rs.PatchMeta{}, d+1))
		v.Set(reflect.AppendSlice(out, v.Slice(i, n)))
	case n > 1 && g.chance(0.2): // swap two
		i, j := g.r.IntN(n), g.r.IntN(n)
		a, b := v.Index(i).Interface(), v.Index(j).Interface()
		v.Index(i).Set(reflect.ValueOf(b))
		v.Index(j).Set(reflect.ValueOf(a))
	}
	for i := range v.Len() {
		if g.chance(0.5) {
			g.mutate(v.Index(i), t.Elem, rs.PatchMeta{}, d+1)
		}
	}
	g.fixList(v, t, meta)
}

func (g *kindGen) mutateMap(v reflect.Value, t *rs.Type, d int) {
	keys := v.MapKeys()
	switch {
	case len(keys) > 0 && g.chance(0.25):
		v.SetMapIndex(pick(g, keys), reflect.Value{})
	case g.chance(0.25) && d <= g.maxDepth:
		g.setMapEntry(v, t, d)
	}
	for _, k := range v.MapKeys() {
		if g.chance(0.5) {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			g.mutate(e, t.Elem, rs.PatchMeta{}, d+1)
			v.SetMapIndex(k, e)
		}
	}
}
