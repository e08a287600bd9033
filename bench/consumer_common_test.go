package bench

// Shared pieces of the consumer reproductions (consumer_helm_test.go,
// consumer_argocd_test.go): one set of calls made through either
// Kubernetes' strategicpatch package or the kube module's, so a
// reproduction is written once and run with both.

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"
	"sigs.k8s.io/yaml"

	kube "github.com/typedpatch/typedpatch/kube/strategicpatch"
)

// consumerEngine is one strategicpatch package, seen through the calls
// Helm, Argo CD and kube-apiserver make on it.
type consumerEngine struct {
	name string
	// threeWay is NewPatchMetaFromStruct(dataStruct) followed by
	// CreateThreeWayMergePatch with that meta: the two packages' meta types
	// differ, so the pair is one function here.
	threeWay func(original, modified, current []byte, dataStruct interface{}, overwrite bool) ([]byte, error)
	twoWay   func(original, modified []byte, dataStruct interface{}) ([]byte, error)
	apply    func(doc, patch []byte, dataStruct interface{}) ([]byte, error)
	applyMap func(doc, patch map[string]interface{}, dataStruct interface{}) (map[string]interface{}, error)
}

var consumerK8s = consumerEngine{
	name: "kubernetes",
	threeWay: func(o, m, c []byte, ds interface{}, overwrite bool) ([]byte, error) {
		meta, err := k8s.NewPatchMetaFromStruct(ds)
		if err != nil {
			return nil, err
		}
		return k8s.CreateThreeWayMergePatch(o, m, c, meta, overwrite)
	},
	twoWay: func(o, m []byte, ds interface{}) ([]byte, error) { return k8s.CreateTwoWayMergePatch(o, m, ds) },
	apply:  func(d, p []byte, ds interface{}) ([]byte, error) { return k8s.StrategicMergePatch(d, p, ds) },
	applyMap: func(d, p map[string]interface{}, ds interface{}) (map[string]interface{}, error) {
		return k8s.StrategicMergeMapPatch(d, p, ds)
	},
}

var consumerKube = consumerEngine{
	name: "kube module",
	threeWay: func(o, m, c []byte, ds interface{}, overwrite bool) ([]byte, error) {
		meta, err := kube.NewPatchMetaFromStruct(ds)
		if err != nil {
			return nil, err
		}
		return kube.CreateThreeWayMergePatch(o, m, c, meta, overwrite)
	},
	twoWay: func(o, m []byte, ds interface{}) ([]byte, error) { return kube.CreateTwoWayMergePatch(o, m, ds) },
	apply:  func(d, p []byte, ds interface{}) ([]byte, error) { return kube.StrategicMergePatch(d, p, ds) },
	applyMap: func(d, p map[string]interface{}, ds interface{}) (map[string]interface{}, error) {
		return kube.StrategicMergeMapPatch(d, p, ds)
	},
}

// consumerYAML converts a manifest written as YAML to the JSON a client
// sends or a server returns.
func consumerYAML(t *testing.T, doc string) []byte {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(doc))
	require.NoError(t, err)
	return j
}

// consumerSameErr asserts that both engines failed or neither did, and that
// a conflict on one side is a conflict on the other. It reports whether
// both succeeded.
func consumerSameErr(t *testing.T, step string, want, got error) bool {
	t.Helper()
	if (want == nil) != (got == nil) {
		t.Errorf("%s: kubernetes err = %v, kube module err = %v", step, want, got)
		return false
	}
	if want != nil {
		assert.Equal(t, mergepatch.IsConflict(want), mergepatch.IsConflict(got),
			"%s: conflict-ness differs: kubernetes %v, kube module %v", step, want, got)
		return false
	}
	return true
}

// consumerDecode decodes JSON into a typed object for the scenarios'
// expectations.
func consumerDecode[T any](t *testing.T, data []byte) *T {
	t.Helper()
	v := new(T)
	require.NoError(t, json.Unmarshal(data, v), "%s", data)
	return v
}

// consumerContainer returns the container of a pod spec with the name, or
// nil.
func consumerContainer(spec corev1.PodSpec, name string) *corev1.Container {
	for i := range spec.Containers {
		if spec.Containers[i].Name == name {
			return &spec.Containers[i]
		}
	}
	return nil
}

// consumerNames lists the names of a pod spec's containers in order.
func consumerNames(spec corev1.PodSpec) []string {
	var names []string
	for _, c := range spec.Containers {
		names = append(names, c.Name)
	}
	return names
}

// consumerDefault stands in for the scheme defaulting functions
// (kubescheme.Scheme.Default) that Argo CD's diff runs: the bench module has
// the API types but not k8s.io/kubernetes' defaulters, so this sets the
// best-known server defaults of the kinds the scenarios use.
func consumerDefault(obj runtime.Object) {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		if o.Spec.Replicas == nil {
			o.Spec.Replicas = consumerInt32(1)
		}
		if o.Spec.RevisionHistoryLimit == nil {
			o.Spec.RevisionHistoryLimit = consumerInt32(10)
		}
		if o.Spec.ProgressDeadlineSeconds == nil {
			o.Spec.ProgressDeadlineSeconds = consumerInt32(600)
		}
		if o.Spec.Strategy.Type == "" {
			o.Spec.Strategy.Type = appsv1.RollingUpdateDeploymentStrategyType
		}
		consumerDefaultPod(&o.Spec.Template.Spec)
	case *corev1.Service:
		if o.Spec.Type == "" {
			o.Spec.Type = corev1.ServiceTypeClusterIP
		}
		if o.Spec.SessionAffinity == "" {
			o.Spec.SessionAffinity = corev1.ServiceAffinityNone
		}
		for i := range o.Spec.Ports {
			p := &o.Spec.Ports[i]
			if p.Protocol == "" {
				p.Protocol = corev1.ProtocolTCP
			}
			if p.TargetPort == (intstr.IntOrString{}) {
				p.TargetPort = intstr.FromInt32(p.Port)
			}
		}
	}
}

func consumerDefaultPod(spec *corev1.PodSpec) {
	if spec.RestartPolicy == "" {
		spec.RestartPolicy = corev1.RestartPolicyAlways
	}
	if spec.DNSPolicy == "" {
		spec.DNSPolicy = corev1.DNSClusterFirst
	}
	for i := range spec.Containers {
		c := &spec.Containers[i]
		if c.TerminationMessagePath == "" {
			c.TerminationMessagePath = corev1.TerminationMessagePathDefault
		}
		if c.ImagePullPolicy == "" {
			c.ImagePullPolicy = corev1.PullIfNotPresent
		}
		for j := range c.Ports {
			if c.Ports[j].Protocol == "" {
				c.Ports[j].Protocol = corev1.ProtocolTCP
			}
		}
	}
}

func consumerInt32(v int32) *int32 { return &v }

// consumerLiveMeta is what the server adds to every object's metadata.
const consumerLiveMeta = `
  namespace: shop
  uid: 6f1c2f55-2b1e-4f3a-9f0e-3c1d2a4b5c6d
  resourceVersion: "48211"
  generation: 7
  creationTimestamp: "2026-11-01T10:00:00Z"`

// consumerDeploy is the manifest of Deployment "web" with the spec fields and
// the pod spec's containers (YAML list items, with any pod spec fields
// after them) given.
func consumerDeploy(spec, containers string) string {
	return consumerDeployment("metadata: {name: web, labels: {app: web}}", spec, containers, "")
}

// consumerDeployLive is consumerDeploy as the server returns it: server
// metadata, defaults and status.
func consumerDeployLive(spec, containers string) string {
	return consumerDeployLiveMeta("labels: {app: web}", spec, containers)
}

// consumerDeployLiveMeta is consumerDeployLive with the metadata fields
// (besides name and the server's) given.
func consumerDeployLiveMeta(meta, spec, containers string) string {
	if !strings.Contains(spec, "strategy:") {
		spec += "\n  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 25%, maxUnavailable: 25%}}"
	}
	return consumerDeployment("metadata:\n  name: web\n  "+meta+consumerLiveMeta,
		spec+"\n  revisionHistoryLimit: 10\n  progressDeadlineSeconds: 600",
		containers+"\n      restartPolicy: Always\n      dnsPolicy: ClusterFirst",
		"\nstatus: {observedGeneration: 7, replicas: 5, readyReplicas: 5}")
}

// consumerDeployment assembles Deployment "web" from its parts.
func consumerDeployment(meta, spec, containers, tail string) string {
	return `
apiVersion: apps/v1
kind: Deployment
` + meta + `
spec:
  ` + spec + `
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:` + containers + tail
}
