package strategicpatch

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/util/mergepatch"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp"
)

// dataStructMeta returns the schema a dataStruct argument stands for: a
// struct or a pointer to one (its tags), a LookupPatchMeta of this package
// or a *reflectschema.Type (itself). A LookupPatchMeta of another package,
// such as Kubernetes' own PatchMetaFromStruct, is refused: read as a data
// struct it would describe none of the document's fields, and the patch
// would silently be a JSON merge patch.
func dataStructMeta(dataStruct interface{}) (LookupPatchMeta, error) {
	switch v := dataStruct.(type) {
	case PatchMetaFromStruct, *PatchMetaFromStruct, PatchMetaFromOpenAPI, *PatchMetaFromOpenAPI,
		PatchMetaFromOpenAPIV3, *PatchMetaFromOpenAPIV3:
		return v.(LookupPatchMeta), nil
	case *reflectschema.Type:
		if v == nil {
			return nil, mergepatch.ErrBadArgKind(struct{}{}, nil)
		}
		return typeMeta{v}, nil
	}
	if dataStruct != nil {
		if _, ok := reflect.TypeOf(dataStruct).MethodByName("LookupPatchMetadataForStruct"); ok {
			return nil, fmt.Errorf("strategicpatch: the data struct is a %T, a LookupPatchMeta of another package: pass a value of the Go type to patch, or use a *UsingLookupPatchMeta function", dataStruct)
		}
	}
	return NewPatchMetaFromStruct(dataStruct)
}

// typeMeta is the LookupPatchMeta of an engine schema.
type typeMeta struct{ t *reflectschema.Type }

func (m typeMeta) LookupPatchMetadataForStruct(key string) (LookupPatchMeta, PatchMeta, error) {
	f := m.t.Field(key)
	if f == nil {
		return nil, PatchMeta{}, FieldNotFoundError{Path: m.t.String(), Field: key}
	}
	return typeMeta{f.Type}, PatchMeta{
		patchStrategies: strings.Split(f.Patch.StrategyTag(), ","),
		patchMergeKey:   strings.Join(f.Patch.MergeKey, ","),
	}, nil
}

func (m typeMeta) LookupPatchMetadataForSlice(key string) (LookupPatchMeta, PatchMeta, error) {
	sub, meta, err := m.LookupPatchMetadataForStruct(key)
	if err != nil {
		return nil, PatchMeta{}, err
	}
	t := sub.(typeMeta).t
	if t.Kind != reflectschema.List {
		return nil, PatchMeta{}, fmt.Errorf("expected slice or array type, but got: %s", t.Kind)
	}
	return typeMeta{t.Elem}, meta, nil
}

func (m typeMeta) Name() string { return m.t.String() }

// kubeError returns the error Kubernetes returns for an engine error: its
// mergepatch sentinel value where it has one, so that callers comparing
// with == (as kube-apiserver does) see it; else the *smp.Error.
func kubeError(err error) error {
	var e *smp.Error
	if err == nil || !errors.As(err, &e) {
		return err
	}
	switch e.Kind {
	case smp.ErrInvalidJSON, smp.ErrNotObject:
		return mergepatch.ErrBadJSONDoc
	case smp.ErrMixedList:
		if strings.HasSuffix(e.Msg, "holds an array") {
			return mergepatch.ErrNoListOfLists
		}
	case smp.ErrRetainKeys:
		// Kubernetes declares ErrPatchContentNotMatchRetainKeys but
		// returns this one for a field the list leaves out.
		return mergepatch.ErrBadPatchFormatForRetainKeys
	case smp.ErrSetElementOrder:
		return &textError{"the order in patch list doesn't match $setElementOrder list", e}
	case smp.ErrMissingMergeKey:
		return &textError{"element does not contain declared merge key", e}
	case smp.ErrUnknownField:
		return &textError{"unable to find api field", e}
	case smp.ErrInvalidDirective, smp.ErrDirectiveNotAllowed, smp.ErrUnknownDirective:
		if s := directiveSentinel(e.Path); s != nil {
			return s
		}
	}
	return err
}

// directiveSentinel returns the sentinel of the directive a path ends in
// or passes through, or nil.
func directiveSentinel(p smp.Path) error {
	for i := len(p) - 1; i >= 0; i-- {
		f, ok := p[i].(smp.FieldStep)
		if !ok {
			continue
		}
		switch {
		case f == "$retainKeys":
			return mergepatch.ErrBadPatchFormatForRetainKeys
		case strings.HasPrefix(string(f), "$setElementOrder"):
			return mergepatch.ErrBadPatchFormatForSetElementOrderList
		case strings.HasPrefix(string(f), "$deleteFromPrimitiveList"):
			return mergepatch.ErrBadPatchFormatForPrimitiveList
		}
		return nil
	}
	return nil
}

// textError is an engine error with Kubernetes' words for it first, for
// callers that match its text; errors.As still finds the *smp.Error.
type textError struct {
	kube string
	err  *smp.Error
}

func (e *textError) Error() string { return e.err.Path.String() + ": " + e.kube + ": " + e.err.Msg }

func (e *textError) Unwrap() error { return e.err }
