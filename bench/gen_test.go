package bench

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"
)

// Small pools of names make the three documents overlap, so lists merge,
// reorder and delete rather than only add.
var (
	names  = []string{"a", "b", "c", "d", "e"}
	images = []string{"nginx:1", "nginx:2", "busybox"}
)

// uniqueSubset draws distinct names in a random order.
func uniqueSubset(t *rapid.T, label string, pool []string) []string {
	return rapid.SliceOfNDistinct(rapid.SampledFrom(pool), 0, len(pool), rapid.ID[string]).Draw(t, label)
}

func genEnv(t *rapid.T, label string) []corev1.EnvVar {
	var env []corev1.EnvVar
	for _, n := range uniqueSubset(t, label+".env", names) {
		env = append(env, corev1.EnvVar{Name: "E" + n, Value: rapid.SampledFrom([]string{"", "x", "y"}).Draw(t, label+".value")})
	}
	return env
}

func genContainer(t *rapid.T, label, name string) corev1.Container {
	c := corev1.Container{Name: name, Image: rapid.SampledFrom(images).Draw(t, label+".image")}
	c.Env = genEnv(t, label)
	for _, p := range rapid.SliceOfNDistinct(rapid.IntRange(80, 84), 0, 3, rapid.ID[int]).Draw(t, label+".ports") {
		c.Ports = append(c.Ports, corev1.ContainerPort{ContainerPort: int32(p), Protocol: corev1.ProtocolTCP})
	}
	c.Args = rapid.SliceOfN(rapid.SampledFrom(names), 0, 2).Draw(t, label+".args")
	return c
}

func genVolume(t *rapid.T, label, name string) corev1.Volume {
	v := corev1.Volume{Name: name}
	switch rapid.IntRange(0, 2).Draw(t, label+".source") {
	case 0:
		v.EmptyDir = &corev1.EmptyDirVolumeSource{Medium: corev1.StorageMediumMemory}
	case 1:
		v.HostPath = &corev1.HostPathVolumeSource{Path: "/" + name}
	default:
		v.ConfigMap = &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: name}}
	}
	return v
}

func genDeployment(t *rapid.T, label string) *appsv1.Deployment {
	d := &appsv1.Deployment{
		TypeMeta:   metav1.TypeMeta{Kind: "Deployment", APIVersion: "apps/v1"},
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
	}
	d.Labels = map[string]string{}
	for _, n := range uniqueSubset(t, label+".labels", names) {
		d.Labels[n] = rapid.SampledFrom([]string{"1", "2"}).Draw(t, label+".label")
	}
	d.Finalizers = uniqueSubset(t, label+".finalizers", names)
	if rapid.Bool().Draw(t, label+".hasReplicas") {
		r := rapid.Int32Range(0, 3).Draw(t, label+".replicas")
		d.Spec.Replicas = &r
	}
	if rapid.Bool().Draw(t, label+".rolling") {
		mu := intstr.FromInt32(rapid.Int32Range(0, 2).Draw(t, label+".maxUnavailable"))
		d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
			RollingUpdate: &appsv1.RollingUpdateDeployment{MaxUnavailable: &mu}}
	} else if rapid.Bool().Draw(t, label+".recreate") {
		d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}
	}
	for _, n := range uniqueSubset(t, label+".containers", names[:3]) {
		d.Spec.Template.Spec.Containers = append(d.Spec.Template.Spec.Containers, genContainer(t, fmt.Sprintf("%s.c[%s]", label, n), n))
	}
	for _, n := range uniqueSubset(t, label+".volumes", names[:3]) {
		d.Spec.Template.Spec.Volumes = append(d.Spec.Template.Spec.Volumes, genVolume(t, fmt.Sprintf("%s.v[%s]", label, n), n))
	}
	return d
}
