package e2e

import (
	"fmt"
	"math/rand/v2"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// gen draws random objects that a server accepts: small pools of names so
// that an original and a modified version share list elements, which then
// merge, move, change or go; every reference valid (mounts name volumes,
// selectors match templates); immutable fields left to the caller.
type gen struct {
	r *rand.Rand
}

func newGen(seed uint64) *gen { return &gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))} }

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

func (g *gen) pick(pool []string) string { return pool[g.r.IntN(len(pool))] }

// subset draws distinct members of pool in a random order, at least min.
func subset[T any](g *gen, pool []T, min int) []T {
	p := append([]T(nil), pool...)
	g.r.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p[:min+g.r.IntN(len(p)-min+1)]
}

// labels draws a label map from pool, with fixed added.
func (g *gen) labels(pool []string, fixed map[string]string) map[string]string {
	m := map[string]string{}
	for _, k := range subset(g, pool, 0) {
		m[k] = g.pick([]string{"one", "two"})
	}
	for k, v := range fixed {
		m[k] = v
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

var (
	containerNames = []string{"app", "web", "log"}
	images         = []string{"nginx:1.25", "nginx:1.27", "busybox:1.36"}
	envNames       = []string{"MODE", "LEVEL", "PORT", "DEBUG"}
	volumeNames    = []string{"data", "conf", "cache"}
	labelKeys      = []string{"tier", "team", "track"}
	quantities     = []string{"100m", "250m", "64Mi", "128Mi"}
)

func (g *gen) env() []corev1.EnvVar {
	var env []corev1.EnvVar
	for _, n := range subset(g, envNames, 0) {
		env = append(env, corev1.EnvVar{Name: n, Value: g.pick([]string{"", "1", "x"})})
	}
	return env
}

// ports draws a container's ports, numbered and named apart from the
// other containers' (the server warns of a port two containers share).
// Container "app" (in every configuration) now and then has one number
// twice, once per protocol, which Kubernetes' merge key (containerPort
// alone) confuses.
func (g *gen) ports(container string) []corev1.ContainerPort {
	offset := int32(slices.Index(containerNames, container) + 1)
	var ports []corev1.ContainerPort
	for _, number := range subset(g, []int32{80, 443, 8080}, 0) {
		number += offset
		name := fmt.Sprintf("%c-%d", container[0], number)
		ports = append(ports, corev1.ContainerPort{Name: name + "t", ContainerPort: number, Protocol: corev1.ProtocolTCP})
		if container == "app" && g.chance(0.2) {
			ports = append(ports, corev1.ContainerPort{Name: name + "u", ContainerPort: number, Protocol: corev1.ProtocolUDP})
		}
	}
	g.r.Shuffle(len(ports), func(i, j int) { ports[i], ports[j] = ports[j], ports[i] })
	return ports
}

func (g *gen) resources() corev1.ResourceRequirements {
	var rr corev1.ResourceRequirements
	if g.chance(0.5) {
		rr.Limits = corev1.ResourceList{corev1.ResourceMemory: resource.MustParse(g.pick(quantities[2:]))}
	}
	if g.chance(0.5) {
		rr.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(g.pick(quantities[:2]))}
	}
	return rr
}

func (g *gen) container(name string, volumes []string) corev1.Container {
	c := corev1.Container{Name: name, Image: g.pick(images), Env: g.env(), Ports: g.ports(name), Resources: g.resources()}
	if g.chance(0.4) {
		c.Args = subset(g, []string{"--verbose", "--once", "run"}, 1)
	}
	for _, v := range subset(g, volumes, 0) {
		c.VolumeMounts = append(c.VolumeMounts, corev1.VolumeMount{Name: v, MountPath: "/mnt/" + v, ReadOnly: g.chance(0.3)})
	}
	return c
}

func (g *gen) volume(name string) corev1.Volume {
	v := corev1.Volume{Name: name}
	if g.chance(0.5) {
		v.EmptyDir = &corev1.EmptyDirVolumeSource{}
		if g.chance(0.5) {
			v.EmptyDir.Medium = corev1.StorageMediumMemory
		}
	} else {
		v.ConfigMap = &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "cfg-" + name}}
	}
	return v
}

// podSpec draws a pod's spec; restartPolicy is the caller's.
func (g *gen) podSpec(restartPolicy corev1.RestartPolicy) corev1.PodSpec {
	var spec corev1.PodSpec
	volumes := subset(g, volumeNames, 0)
	for _, v := range volumes {
		spec.Volumes = append(spec.Volumes, g.volume(v))
	}
	names := append(subset(g, containerNames[1:], 0), "app")
	g.r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	for _, n := range names {
		spec.Containers = append(spec.Containers, g.container(n, volumes))
	}
	if g.chance(0.3) {
		spec.InitContainers = []corev1.Container{{Name: "init", Image: g.pick(images), Args: []string{"true"}}}
	}
	spec.RestartPolicy = restartPolicy
	if g.chance(0.5) {
		spec.NodeSelector = map[string]string{"disk": g.pick([]string{"ssd", "hdd"})}
	}
	for _, k := range subset(g, []string{"dedicated", "gpu"}, 0) {
		spec.Tolerations = append(spec.Tolerations, corev1.Toleration{Key: k, Operator: corev1.TolerationOpEqual, Value: g.pick([]string{"a", "b"}), Effect: corev1.TaintEffectNoSchedule})
	}
	if g.chance(0.3) {
		grace := int64(g.r.IntN(3) * 10)
		spec.TerminationGracePeriodSeconds = &grace
	}
	return spec
}

// template draws a pod template whose labels include selector's.
func (g *gen) template(selector map[string]string, restartPolicy corev1.RestartPolicy) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: g.labels(labelKeys, selector)},
		Spec:       g.podSpec(restartPolicy),
	}
}

// objectMeta draws labels and annotations for an object named name.
func (g *gen) objectMeta(name string) metav1.ObjectMeta {
	m := metav1.ObjectMeta{Name: name, Labels: g.labels(labelKeys, nil)}
	if g.chance(0.5) {
		m.Annotations = map[string]string{"note": g.pick([]string{"a", "b"})}
	}
	return m
}

// podPair draws a pod and a version of it with only what a pod may change
// in place: images, labels, annotations, added tolerations.
func (g *gen) podPair(name string) (original, modified *corev1.Pod) {
	original = &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: g.objectMeta(name),
		Spec:       g.podSpec(""),
	}
	modified = original.DeepCopy()
	modified.ObjectMeta = g.objectMeta(name)
	for i := range modified.Spec.Containers {
		modified.Spec.Containers[i].Image = g.pick(images)
	}
	if g.chance(0.5) {
		modified.Spec.Tolerations = append(modified.Spec.Tolerations, corev1.Toleration{Key: "spot", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule})
	}
	return original, modified
}
