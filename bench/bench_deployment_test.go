package bench

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	k8s "k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/typedpatch/typedpatch/smp"
)

// deploymentCase is one Deployment benchmark input: the last applied
// configuration (original), the new configuration (modified), and the
// object as the server holds it (current: original plus defaults, status,
// and a controller's annotation).
type deploymentCase struct {
	containers                  int
	original, modified, current *appsv1.Deployment
	// The same as JSON, and the patches the operations work on.
	ob, mb, cb []byte
	twoWay     []byte // Diff(original, modified)
	threeWay   []byte // ThreeWay(original, modified, current)
	applied    []byte // Apply(current, twoWay)
}

// deploymentContainerCounts are the sizes measured.
var deploymentContainerCounts = []int{1, 10}

// benchContainer is a container as people write them: an image, five
// environment variables, two ports, two volume mounts, requests and
// limits.
func benchContainer(i int) corev1.Container {
	name := fmt.Sprintf("app-%d", i)
	c := corev1.Container{
		Name:  name,
		Image: fmt.Sprintf("registry.example.com/team/%s:v1.4.%d", name, i),
		Args:  []string{"--config=/etc/app/config.yaml", "--log-level=info"},
		Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{
				corev1.ResourceCPU:    resource.MustParse("250m"),
				corev1.ResourceMemory: resource.MustParse("256Mi"),
			},
			Limits: corev1.ResourceList{
				corev1.ResourceCPU:    resource.MustParse("1"),
				corev1.ResourceMemory: resource.MustParse("512Mi"),
			},
		},
		VolumeMounts: []corev1.VolumeMount{
			{Name: "config", MountPath: "/etc/app", ReadOnly: true},
			{Name: "data", MountPath: "/var/lib/app"},
		},
		Ports: []corev1.ContainerPort{
			{Name: "http", ContainerPort: int32(8080 + 10*i)},
			{Name: "metrics", ContainerPort: int32(9090 + 10*i)},
		},
	}
	for _, kv := range [][2]string{
		{"LOG_FORMAT", "json"},
		{"DB_HOST", "db.internal.example.com"},
		{"DB_POOL_SIZE", "20"},
		{"FEATURE_FLAGS", "search,export"},
		{"REGION", "eu-west-1"},
	} {
		c.Env = append(c.Env, corev1.EnvVar{Name: kv[0], Value: kv[1]})
	}
	return c
}

// benchDeploymentOriginal returns the last applied Deployment with n
// containers.
func benchDeploymentOriginal(n int) *appsv1.Deployment {
	replicas := int32(3)
	labels := map[string]string{"app.kubernetes.io/name": "web", "app.kubernetes.io/part-of": "shop"}
	d := &appsv1.Deployment{
		TypeMeta: metav1.TypeMeta{Kind: "Deployment", APIVersion: "apps/v1"},
		ObjectMeta: metav1.ObjectMeta{
			Name:        "web",
			Namespace:   "shop",
			Labels:      labels,
			Annotations: map[string]string{"team": "storefront"},
		},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					ServiceAccountName: "web",
					Volumes: []corev1.Volume{
						{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
							LocalObjectReference: corev1.LocalObjectReference{Name: "web-config"}}}},
						{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
					},
				},
			},
		},
	}
	for i := range n {
		d.Spec.Template.Spec.Containers = append(d.Spec.Template.Spec.Containers, benchContainer(i))
	}
	return d
}

// benchDeploymentModified makes the changes of a release: a new image,
// an environment value changed, a port added, an environment variable
// deleted, and more replicas.
func benchDeploymentModified(n int) *appsv1.Deployment {
	d := benchDeploymentOriginal(n)
	replicas := int32(5)
	d.Spec.Replicas = &replicas
	cs := d.Spec.Template.Spec.Containers
	cs[0].Image = "registry.example.com/team/app-0:v1.5.0"
	cs[0].Ports = append(cs[0].Ports, corev1.ContainerPort{Name: "grpc", ContainerPort: 7070})
	last := &cs[n-1]
	last.Env[1].Value = "db-replica.internal.example.com"
	last.Env = append(last.Env[:3], last.Env[4:]...) // drop FEATURE_FLAGS
	return d
}

// benchDeploymentCurrent is original as the server holds it: defaulted,
// with metadata, status, and an annotation a controller added.
func benchDeploymentCurrent(n int) *appsv1.Deployment {
	d := benchDeploymentOriginal(n)
	d.UID = "6f1c2a9e-8e3b-4c55-9d0e-3f7a2b1c4d5e"
	d.ResourceVersion = "123456"
	d.Generation = 4
	d.CreationTimestamp = metav1.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	d.Annotations = map[string]string{"team": "storefront", "deployment.kubernetes.io/revision": "4"}
	limit, deadline := int32(10), int32(600)
	d.Spec.RevisionHistoryLimit = &limit
	d.Spec.ProgressDeadlineSeconds = &deadline
	maxSurge, maxUnavailable := intstr.FromString("25%"), intstr.FromString("25%")
	d.Spec.Strategy = appsv1.DeploymentStrategy{
		Type:          appsv1.RollingUpdateDeploymentStrategyType,
		RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &maxSurge, MaxUnavailable: &maxUnavailable},
	}
	grace := int64(30)
	ps := &d.Spec.Template.Spec
	ps.RestartPolicy = corev1.RestartPolicyAlways
	ps.DNSPolicy = corev1.DNSClusterFirst
	ps.SchedulerName = "default-scheduler"
	ps.TerminationGracePeriodSeconds = &grace
	ps.SecurityContext = &corev1.PodSecurityContext{}
	mode := int32(0o644)
	ps.Volumes[0].ConfigMap.DefaultMode = &mode
	for i := range ps.Containers {
		c := &ps.Containers[i]
		c.ImagePullPolicy = corev1.PullIfNotPresent
		c.TerminationMessagePath = corev1.TerminationMessagePathDefault
		c.TerminationMessagePolicy = corev1.TerminationMessageReadFile
		for j := range c.Ports {
			c.Ports[j].Protocol = corev1.ProtocolTCP
		}
	}
	d.Status = appsv1.DeploymentStatus{
		ObservedGeneration: 4, Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3,
		Conditions: []appsv1.DeploymentCondition{
			{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Reason: "MinimumReplicasAvailable",
				Message: "Deployment has minimum availability."},
			{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: "NewReplicaSetAvailable",
				Message: `ReplicaSet "web-5d4f8b7c9" has successfully progressed.`},
		},
	}
	return d
}

// newDeploymentCase builds the inputs and checks that both engines agree
// on every output, so that no benchmark measures an error path or a
// different result.
func newDeploymentCase(tb testing.TB, n int) *deploymentCase {
	c := &deploymentCase{
		containers: n,
		original:   benchDeploymentOriginal(n),
		modified:   benchDeploymentModified(n),
		current:    benchDeploymentCurrent(n),
	}
	c.ob, c.mb, c.cb = marshal(tb, c.original), marshal(tb, c.modified), marshal(tb, c.current)
	schema := &appsv1.Deployment{}
	meta := must[k8s.PatchMetaFromStruct](tb)(k8s.NewPatchMetaFromStruct(schema))

	c.twoWay = must[[]byte](tb)(smp.DiffJSON(c.ob, c.mb, schema))
	sameJSON(tb, "two-way", c.twoWay, must[[]byte](tb)(k8s.CreateTwoWayMergePatch(c.ob, c.mb, schema)))
	c.applied = must[[]byte](tb)(smp.ApplyJSON(c.cb, c.twoWay, schema))
	sameJSON(tb, "apply", c.applied, must[[]byte](tb)(k8s.StrategicMergePatch(c.cb, c.twoWay, schema)))
	c.threeWay = must[[]byte](tb)(smp.ThreeWayJSON(c.ob, c.mb, c.cb, schema, smp.WithOverwrite(true)))
	sameJSON(tb, "three-way", c.threeWay, must[[]byte](tb)(k8s.CreateThreeWayMergePatch(c.ob, c.mb, c.cb, meta, true)))
	return c
}

// benchDeploymentTyped, when set (bench_typed_test.go), runs the typed
// API's benchmarks of a case under the name prefix.
var benchDeploymentTyped func(b *testing.B, c *deploymentCase, prefix string)

// BenchmarkDeployment measures the three operations on an apps/v1
// Deployment of 1 and 10 containers, through the JSON API (bytes in,
// bytes out) of both engines, and through the typed API
// (bench_typed_test.go, …/typed/… and …/typed-bytes/…).
func BenchmarkDeployment(b *testing.B) {
	for _, n := range deploymentContainerCounts {
		c := newDeploymentCase(b, n)
		schema := &appsv1.Deployment{}
		meta := must[k8s.PatchMetaFromStruct](b)(k8s.NewPatchMetaFromStruct(schema))
		prefix := "containers=" + strconv.Itoa(n)

		b.Run(prefix+"/twoway/json/ours", func(b *testing.B) {
			benchBytes(b, func() ([]byte, error) { return smp.DiffJSON(c.ob, c.mb, schema) })
		})
		b.Run(prefix+"/twoway/json/k8s", func(b *testing.B) {
			benchBytes(b, func() ([]byte, error) { return k8s.CreateTwoWayMergePatch(c.ob, c.mb, schema) })
		})
		b.Run(prefix+"/twoway/bare", func(b *testing.B) {
			benchBare(b, [][]byte{c.ob, c.mb}, c.twoWay)
		})

		b.Run(prefix+"/apply/json/ours", func(b *testing.B) {
			benchBytes(b, func() ([]byte, error) { return smp.ApplyJSON(c.cb, c.twoWay, schema) })
		})
		b.Run(prefix+"/apply/json/k8s", func(b *testing.B) {
			benchBytes(b, func() ([]byte, error) { return k8s.StrategicMergePatch(c.cb, c.twoWay, schema) })
		})
		b.Run(prefix+"/apply/bare", func(b *testing.B) {
			benchBare(b, [][]byte{c.cb, c.twoWay}, c.applied)
		})

		b.Run(prefix+"/threeway/json/ours", func(b *testing.B) {
			benchBytes(b, func() ([]byte, error) { return smp.ThreeWayJSON(c.ob, c.mb, c.cb, schema, smp.WithOverwrite(true)) })
		})
		b.Run(prefix+"/threeway/json/k8s", func(b *testing.B) {
			benchBytes(b, func() ([]byte, error) { return k8s.CreateThreeWayMergePatch(c.ob, c.mb, c.cb, meta, true) })
		})
		b.Run(prefix+"/threeway/bare", func(b *testing.B) {
			benchBare(b, [][]byte{c.ob, c.mb, c.cb}, c.threeWay)
		})

		if benchDeploymentTyped != nil {
			benchDeploymentTyped(b, c, prefix)
		}
	}
}
