package bench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/typedpatch/typedpatch/property"
	"github.com/typedpatch/typedpatch/smp"
)

// propertyKindChecks is the number of cases each property runs on each
// kind by default, which CI affords; README gives the command that runs
// 1,000.
const propertyKindChecks = 40

// propertyKinds are the kinds of k8s.io/api the property suite runs on:
// every workload kind and the kinds users patch most, each with merge
// lists of its own besides metadata's finalizers and ownerReferences.
// Deployment is README's example, TestDeploymentPatches.
var propertyKinds = []struct {
	name  string
	check func(*testing.T, ...property.Option)
}{
	{"apps.v1.DaemonSet", property.Check[appsv1.DaemonSet]},
	{"apps.v1.ReplicaSet", property.Check[appsv1.ReplicaSet]},
	{"apps.v1.StatefulSet", property.Check[appsv1.StatefulSet]},
	{"batch.v1.Job", property.Check[batchv1.Job]},
	{"batch.v1.CronJob", property.Check[batchv1.CronJob]},
	{"v1.Pod", property.Check[corev1.Pod]},
	{"v1.PodTemplate", property.Check[corev1.PodTemplate]},
	{"v1.ReplicationController", property.Check[corev1.ReplicationController]},
	{"v1.Service", property.Check[corev1.Service]},
	{"v1.ConfigMap", property.Check[corev1.ConfigMap]},
	{"v1.Node", property.Check[corev1.Node]},
	{"v1.PersistentVolumeClaim", property.Check[corev1.PersistentVolumeClaim]},
	{"networking.v1.Ingress", property.Check[networkingv1.Ingress]},
	{"networking.v1.NetworkPolicy", property.Check[networkingv1.NetworkPolicy]},
	{"autoscaling.v2.HorizontalPodAutoscaler", property.Check[autoscalingv2.HorizontalPodAutoscaler]},
	{"policy.v1.PodDisruptionBudget", property.Check[policyv1.PodDisruptionBudget]},
	{"rbac.v1.ClusterRole", property.Check[rbacv1.ClusterRole]},
}

// TestPropertyKinds runs every property of the suite on each kind of
// propertyKinds.
func TestPropertyKinds(t *testing.T) {
	for _, k := range propertyKinds {
		t.Run(k.name, func(t *testing.T) {
			k.check(t, property.Checks(propertyKindChecks))
		})
	}
}

// propertyKindCases are inputs on which the property suite once failed on
// these kinds, where the engine was right: its three-way patch or
// conflict is Kubernetes' own. The property package tests its model on
// them.
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
