package bench

import (
	"encoding/json"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/applyconfigurations"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// structured-merge-diff (server-side apply's engine) as a Go user calls
// it: on the built-in types through client-go's schema of them, and on
// a merge list through a schema written for it.

// smdComparison is structured-merge-diff's result of Compare.
type smdComparison = typed.Comparison

// smdDeployment calls structured-merge-diff on Deployments.
type smdDeployment struct {
	tc      managedfields.TypeConverter
	updater *merge.Updater
	current *appsv1.Deployment
	// managed is what applying the last-applied configuration left:
	// kubectl owns its fields.
	managed fieldpath.ManagedFields
}

// smdVersion is the only version the benchmarks' objects have.
const smdVersion = fieldpath.APIVersion("apps/v1")

// smdSameVersion converts nothing: every object has one version.
type smdSameVersion struct{}

func (smdSameVersion) Convert(v *typed.TypedValue, _ fieldpath.APIVersion) (*typed.TypedValue, error) {
	return v, nil
}

func (smdSameVersion) IsMissingVersionError(error) bool { return false }

func newSMDDeployment(tb testing.TB, c *deploymentCase) *smdDeployment {
	scheme := runtime.NewScheme()
	if err := appsv1.AddToScheme(scheme); err != nil {
		tb.Fatal(err)
	}
	s := &smdDeployment{
		tc:      applyconfigurations.NewTypeConverter(scheme),
		updater: (&merge.UpdaterBuilder{Converter: smdSameVersion{}}).BuildUpdater(),
		current: c.current,
	}
	empty := must[*typed.TypedValue](tb)(s.tc.ObjectToTyped(&appsv1.Deployment{TypeMeta: c.original.TypeMeta}))
	original := must[*typed.TypedValue](tb)(s.tc.ObjectToTyped(c.original))
	_, managed, err := s.updater.Apply(empty, original, smdVersion, fieldpath.ManagedFields{}, "kubectl", true)
	if err != nil {
		tb.Fatal(err)
	}
	s.managed = managed
	return s
}

// toDeployment converts a typed value back to a Deployment.
func (s *smdDeployment) toDeployment(v *typed.TypedValue) (*appsv1.Deployment, error) {
	obj, err := s.tc.TypedToObject(v)
	if err != nil {
		return nil, err
	}
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, err
	}
	out := &appsv1.Deployment{}
	return out, runtime.DefaultUnstructuredConverter.FromUnstructured(u, out)
}

// merge merges config into live: Merge of their typed values.
func (s *smdDeployment) merge(live, config *appsv1.Deployment) (*appsv1.Deployment, error) {
	lv, cv, err := s.typedPair(live, config)
	if err != nil {
		return nil, err
	}
	m, err := lv.Merge(cv)
	if err != nil {
		return nil, err
	}
	return s.toDeployment(m)
}

// compare is Compare of two objects' typed values.
func (s *smdDeployment) compare(a, b *appsv1.Deployment) (*typed.Comparison, error) {
	av, bv, err := s.typedPair(a, b)
	if err != nil {
		return nil, err
	}
	return av.Compare(bv)
}

// typedPair converts two objects to typed values.
func (s *smdDeployment) typedPair(a, b *appsv1.Deployment) (*typed.TypedValue, *typed.TypedValue, error) {
	av, err := s.tc.ObjectToTyped(a)
	if err != nil {
		return nil, nil, err
	}
	bv, err := s.tc.ObjectToTyped(b)
	return av, bv, err
}

// apply is server-side apply of config by kubectl onto the live object,
// which kubectl last applied the original to.
func (s *smdDeployment) apply(config *appsv1.Deployment) (*appsv1.Deployment, error) {
	lv, cv, err := s.typedPair(s.current, config)
	if err != nil {
		return nil, err
	}
	res, _, err := s.updater.Apply(lv, cv, smdVersion, s.managed, "kubectl", true)
	if err != nil {
		return nil, err
	}
	return s.toDeployment(res)
}

// smdListSchema is mapListDoc's schema: items is a list keyed by name.
const smdListSchema = `types:
- name: doc
  map:
    fields:
    - name: items
      type:
        list:
          elementType:
            namedType: kv
          elementRelationship: associative
          keys: [name]
- name: kv
  map:
    fields:
    - name: name
      type:
        scalar: string
    - name: value
      type:
        scalar: string
`

// smdList calls structured-merge-diff on mapListDoc's JSON.
type smdList struct {
	doc typed.ParseableType
}

func newSMDList(tb testing.TB) *smdList {
	p, err := typed.NewParser(typed.YAMLObject(smdListSchema))
	if err != nil {
		tb.Fatal(err)
	}
	return &smdList{doc: p.Type("doc")}
}

// typedOf decodes a document and types it.
func (s *smdList) typedOf(data []byte) (*typed.TypedValue, error) {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return s.doc.FromUnstructured(v)
}

// typedPair decodes and types two documents.
func (s *smdList) typedPair(a, b []byte) (*typed.TypedValue, *typed.TypedValue, error) {
	av, err := s.typedOf(a)
	if err != nil {
		return nil, nil, err
	}
	bv, err := s.typedOf(b)
	return av, bv, err
}

// merge merges patch into original, from bytes to bytes.
func (s *smdList) merge(original, patch []byte) ([]byte, error) {
	ov, pv, err := s.typedPair(original, patch)
	if err != nil {
		return nil, err
	}
	m, err := ov.Merge(pv)
	if err != nil {
		return nil, err
	}
	return value.ToJSON(m.AsValue())
}

// compare is Compare of two documents.
func (s *smdList) compare(a, b []byte) (*typed.Comparison, error) {
	av, bv, err := s.typedPair(a, b)
	if err != nil {
		return nil, err
	}
	return av.Compare(bv)
}
