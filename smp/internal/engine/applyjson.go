package engine

import "github.com/typedpatch/typedpatch/smp/internal/jsonval"

// jsonObj is the ObjBuilder of decoded JSON: res is the live object
// (nil when absent) until Open makes it the result; owned says the live
// object is this merge's to change, so that it may be the result itself.
type jsonObj struct {
	a     *Applier
	res   map[string]any
	owned bool
}

func (o jsonObj) Open(pm map[string]any, _ []string, keep map[string]bool, replace bool, _ slot, _ *pathNode) (jsonObj, bool, bool, error) {
	om := o.res
	if replace {
		om, o.owned = nil, false
	}
	o.res = om
	if !o.owned {
		o.res = make(map[string]any, len(om)+len(pm))
		for k, v := range om {
			o.res[k] = v
		}
	}
	if keep != nil {
		for k := range o.res {
			if !keep[k] {
				delete(o.res, k)
			}
		}
	}
	return o, false, false, nil
}

func (o jsonObj) Place(_ int, name string) (string, *slot, bool) { return name, nil, true }

func (o jsonObj) Remove(name string) { delete(o.res, name) }

func (o jsonObj) Plain() map[string]any { return o.res }

func (o jsonObj) Set(name string, v any, _ string, _ *pathNode) error {
	o.res[name] = v
	return nil
}

func (o jsonObj) Merge(name string, pv any, c slot, at *pathNode) error {
	ov, present := o.res[name]
	v, keep, err := MergeValueOf(o.a, jsonValue{a: o.a, ov: ov, present: present}, pv, c, at)
	if err != nil {
		return err
	}
	if keep {
		o.res[name] = v
	} else {
		delete(o.res, name)
	}
	return nil
}

func (o jsonObj) LiveList(name string) ([]any, bool, bool, any) {
	ov, present := o.res[name]
	ov = jsonval.Expand(ov)
	if ol, isList := ov.([]any); isList {
		return ol, true, present, nil
	}
	return nil, false, present, ov
}

func (o jsonObj) KeepNull(string, *pathNode) error { return nil }

func (o jsonObj) MergeList(name string, in ListInput, c slot, at *pathNode) error {
	l, err := o.a.MergeList(in, c, at)
	if err != nil {
		return err
	}
	o.res[name] = l
	return nil
}

// jsonValue is the ValueSink of decoded JSON: the live value ov, if
// present.
type jsonValue struct {
	a       *Applier
	ov      any
	present bool
}

func (v jsonValue) Leaf(pv any, _ *pathNode) (any, bool, error) { return pv, true, nil }

func (v jsonValue) Undeclared() (jsonValue, any, bool) {
	if v.present {
		v.ov = jsonval.Expand(v.ov)
	}
	return v, v.ov, v.present
}

func (v jsonValue) Object(pm map[string]any, s slot, replace bool, at *pathNode) (any, bool, error) {
	om, owned := expandObject(v.ov, s)
	return v.a.mergeObject(om, pm, s, replace, owned, at)
}

func (v jsonValue) List(in ListInput, s slot, at *pathNode) (any, bool, error) {
	ol, isList := jsonval.Expand(v.ov).([]any)
	in.Orig, in.OrigPresent = ol, v.present && isList
	l, err := v.a.MergeList(in, s, at)
	return l, true, err
}

// expandObject returns live value v as an object to merge into, nil if
// it is none. From a raw object it makes a map, this merge's alone
// (owned), whose keys share the names of s's fields.
func expandObject(v any, s slot) (om map[string]any, owned bool) {
	switch v := v.(type) {
	case map[string]any:
		return v, false
	case jsonval.Raw:
		if jsonval.RawKind(v) == jsonval.KindObject {
			return jsonval.ExpandNamed(v, s.Type.FieldName), true
		}
	}
	return nil, false
}
