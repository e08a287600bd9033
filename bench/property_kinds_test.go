package bench

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	certificatesv1 "k8s.io/api/certificates/v1"
	corev1 "k8s.io/api/core/v1"
	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	lifecyclev1alpha1 "k8s.io/api/lifecycle/v1alpha1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	resourcev1 "k8s.io/api/resource/v1"
	resourcev1alpha3 "k8s.io/api/resource/v1alpha3"
	schedulingv1alpha3 "k8s.io/api/scheduling/v1alpha3"
	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	storagev1 "k8s.io/api/storage/v1"
	storagemigrationv1 "k8s.io/api/storagemigration/v1"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/typedpatch/typedpatch/property"
	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp"
)

// propertyKindChecks is the number of cases each property runs on each
// kind by default, which CI affords; README gives the command that runs
// 1,000.
const propertyKindChecks = 40

// propertyKind is one kind the property suite runs on.
type propertyKind struct {
	typ   reflect.Type
	check func(*testing.T, ...property.Option)
}

func kindOf[T any]() propertyKind {
	return propertyKind{typ: reflect.TypeFor[T](), check: property.Check[T]}
}

// propertyKinds are the kinds of k8s.io/api the property suite runs on:
// every workload kind and the kinds users patch most, and every kind with
// a merge list of its own besides metadata's finalizers and
// ownerReferences, in its newest version (TestPropertyKindsCover checks
// that none is missing). Deployment is README's example,
// TestDeploymentPatches.
var propertyKinds = []propertyKind{
	kindOf[appsv1.DaemonSet](),
	kindOf[appsv1.ReplicaSet](),
	kindOf[appsv1.StatefulSet](),
	kindOf[batchv1.Job](),
	kindOf[batchv1.CronJob](),
	kindOf[corev1.Pod](),
	kindOf[corev1.PodTemplate](),
	kindOf[corev1.ReplicationController](),
	kindOf[corev1.Service](),
	kindOf[corev1.ConfigMap](),
	kindOf[corev1.Node](),
	kindOf[corev1.PersistentVolumeClaim](),
	kindOf[networkingv1.Ingress](),
	kindOf[networkingv1.NetworkPolicy](),
	kindOf[autoscalingv2.HorizontalPodAutoscaler](),
	kindOf[policyv1.PodDisruptionBudget](),
	kindOf[rbacv1.ClusterRole](),
	// The other kinds with merge lists of their own.
	kindOf[corev1.Namespace](),
	kindOf[corev1.ServiceAccount](),
	kindOf[corev1.ComponentStatus](),
	kindOf[admissionregistrationv1.MutatingWebhookConfiguration](),
	kindOf[admissionregistrationv1.ValidatingWebhookConfiguration](),
	kindOf[admissionregistrationv1.MutatingAdmissionPolicy](),
	kindOf[admissionregistrationv1.ValidatingAdmissionPolicy](),
	kindOf[certificatesv1.PodCertificateRequest](),
	kindOf[flowcontrolv1.FlowSchema](),
	kindOf[flowcontrolv1.PriorityLevelConfiguration](),
	kindOf[lifecyclev1alpha1.Eviction](),
	kindOf[lifecyclev1alpha1.EvictionRequest](),
	kindOf[networkingv1.ServiceCIDR](),
	kindOf[resourcev1.ResourceClaim](),
	kindOf[resourcev1.DeviceTaintRule](),
	kindOf[resourcev1alpha3.ResourcePoolStatusRequest](),
	kindOf[schedulingv1beta1.PodGroup](),
	kindOf[schedulingv1beta1.Workload](),
	kindOf[schedulingv1alpha3.CompositePodGroup](),
	kindOf[storagev1.CSINode](),
	kindOf[storagemigrationv1.StorageVersionMigration](),
}

// TestPropertyKinds runs every property of the suite on each kind of
// propertyKinds, in a subtest named by group, version and kind
// ("apps.v1.DaemonSet").
func TestPropertyKinds(t *testing.T) {
	names := kindNames(t)
	for _, k := range propertyKinds {
		t.Run(names[k.typ], func(t *testing.T) {
			k.check(t, property.Checks(propertyKindChecks))
		})
	}
}

// kindNames names the Go types of k8s.io/api's kinds by group, version
// and kind, dot-separated.
func kindNames(t *testing.T) map[reflect.Type]string {
	t.Helper()
	kinds, _, err := builtinKinds()
	require.NoError(t, err)
	names := map[reflect.Type]string{}
	for _, k := range kinds {
		names[k.Go] = strings.ReplaceAll(k.APIVersion(), "/", ".") + "." + k.GVK.Kind
	}
	return names
}

// TestPropertyKindsCover checks that propertyKinds and README's example
// hold, in some version (extensions/v1beta1's workloads are apps' kinds),
// every kind of k8s.io/api with a merge list outside metadata, and that
// each of their types is a kind.
func TestPropertyKindsCover(t *testing.T) {
	kinds, _, err := builtinKinds()
	require.NoError(t, err)
	covered := map[string]bool{}
	names := kindNames(t)
	for _, k := range append(slices.Clip(propertyKinds), kindOf[appsv1.Deployment]()) {
		require.Contains(t, names, k.typ, "%s is not a kind of k8s.io/api", k.typ)
		covered[k.typ.Name()] = true
	}
	for _, k := range kinds {
		if !strings.HasPrefix(k.Go.PkgPath(), "k8s.io/api/") {
			// The suite covers k8s.io/api; the CustomResourceDefinition
			// and APIService builtin bundles too are other modules' kinds.
			continue
		}
		st, err := reflectschema.Of(k.Go)
		require.NoError(t, err)
		if p := mergeListBelow(st, map[*reflectschema.Type]bool{}); p != "" && !covered[k.GVK.Kind] {
			t.Errorf("%s %s has a merge list (%s) and no version of it is in propertyKinds", k.APIVersion(), k.GVK.Kind, p)
		}
	}
}

// mergeListBelow returns the path of a merge list in t outside metadata,
// or "".
func mergeListBelow(t *reflectschema.Type, seen map[*reflectschema.Type]bool) string {
	if t == nil || seen[t] {
		return ""
	}
	seen[t] = true
	for _, f := range t.Fields {
		if f.Name == "metadata" {
			continue
		}
		if f.Patch.IsMergeList() {
			return f.Name
		}
		if p := mergeListBelow(f.Type, seen); p != "" {
			return f.Name + "." + p
		}
	}
	if p := mergeListBelow(t.Elem, seen); p != "" {
		return "[]." + p
	}
	return ""
}

// propertyKindCases are inputs on which the property suite once failed on
// these kinds: the engine's three-way patch, or its conflict, is
// Kubernetes' own on them. Package property tests its model on the cases
// where the engine was right, package smp the one where it was not (the
// ClusterRole's rules).
var propertyKindCases = []struct {
	name      string
	schema    any
	o, m, c   string
	overwrite bool
}{
	{"an element current added union members to keeps them out with $retainKeys, ordered", &corev1.Pod{},
		`{"spec":{"volumes":[{"name":"c","secret":{"secretName":"c"}}]}}`,
		`{"spec":{"volumes":[{"name":"c","secret":{"secretName":"c"}}]}}`,
		`{"spec":{"volumes":[{"name":"c","hostPath":{"path":"a"},"secret":{"secretName":"c"}}]}}`, true},
	{"null in an element current added conflicts with modified's value", &corev1.Pod{},
		`{"spec":{"evictionResponders":[{"name":"b","priority":null}]}}`,
		`{"spec":{"evictionResponders":[{"name":"a","priority":1}]}}`,
		`{"spec":{"evictionResponders":[{"name":"a","priority":null}]}}`, false},
	{"null in an object current added conflicts with modified's empty list", &corev1.Pod{},
		`{"spec":{"volumes":[{"name":"c"}]}}`,
		`{"spec":{"volumes":[{"name":"c","cephfs":{"monitors":[],"path":"a"}}]}}`,
		`{"spec":{"volumes":[{"name":"c","cephfs":{"monitors":null,"path":"a"}}]}}`, false},
	{"a field null in current and absent in original conflicts", &corev1.Pod{},
		`{"spec":{"hostname":"x"}}`, `{"spec":{"hostname":"x","priority":1}}`, `{"spec":{"hostname":"x","priority":null}}`, false},
	{"a list replaced whole keeps an element holding null", &rbacv1.ClusterRole{},
		`{"rules":[{"verbs":[]}]}`, `{"rules":[{"verbs":[""]},{"verbs":null}]}`, `{"rules":[{"verbs":["a"]}]}`, true},
	{"a replace object never conflicts", &policyv1.PodDisruptionBudget{},
		`{"spec":{}}`, `{"spec":{"selector":{"matchLabels":{"a":"y"}}}}`, `{"spec":{"selector":{"matchLabels":{"a":"x"}}}}`, false},
}

// TestPropertyKindCasesKubernetes checks that on each of
// propertyKindCases the engine's three-way patch, or its conflict, is
// Kubernetes'.
func TestPropertyKindCasesKubernetes(t *testing.T) {
	for _, c := range propertyKindCases {
		t.Run(c.name, func(t *testing.T) {
			meta, err := k8s.NewPatchMetaFromStruct(c.schema)
			require.NoError(t, err)
			want, kerr := k8s.CreateThreeWayMergePatch([]byte(c.o), []byte(c.m), []byte(c.c), meta, c.overwrite)
			got, err := smp.ThreeWayJSON([]byte(c.o), []byte(c.m), []byte(c.c), c.schema, smp.WithOverwrite(c.overwrite))
			if mergepatch.IsConflict(kerr) {
				require.True(t, smp.IsConflict(err), "Kubernetes reports a conflict; the engine: %s, %v", got, err)
				return
			}
			require.NoError(t, kerr)
			require.NoError(t, err)
			assert.JSONEq(t, string(want), string(got))
		})
	}
}
