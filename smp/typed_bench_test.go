package smp_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// The typed API against the JSON path a user holding typed values takes:
// json.Marshal the values, call the JSON entry point, json.Unmarshal the
// result (for Apply). The documents: a fixtures Deployment with 10
// containers, each with environment, ports, mounts and resources, and a
// release's changes.

func typedBenchContainer(i int) exampletypes.Container {
	name := fmt.Sprintf("app-%d", i)
	c := exampletypes.Container{
		Name:  name,
		Image: fmt.Sprintf("registry.example.com/team/%s:v1.4.%d", name, i),
		Args:  []string{"--config=/etc/app/config.yaml", "--log-level=info"},
		Resources: exampletypes.ResourceRequirements{
			Requests: exampletypes.ResourceList{"cpu": exampletypes.MustParseQuantity("250m"), "memory": exampletypes.MustParseQuantity("256Mi")},
			Limits:   exampletypes.ResourceList{"cpu": exampletypes.MustParseQuantity("1"), "memory": exampletypes.MustParseQuantity("512Mi")},
		},
		VolumeMounts: []exampletypes.VolumeMount{
			{Name: "config", MountPath: "/etc/app", ReadOnly: true},
			{Name: "data", MountPath: "/var/lib/app"},
		},
		Ports: []exampletypes.ContainerPort{
			{Name: "http", ContainerPort: int32(8080 + 10*i)},
			{Name: "metrics", ContainerPort: int32(9090 + 10*i)},
		},
		ReadinessProbe: &exampletypes.Probe{ProbeHandler: exampletypes.ProbeHandler{HTTPGet: &exampletypes.HTTPGetAction{Path: "/ready", Port: exampletypes.FromString("http")}}, PeriodSeconds: 5},
	}
	for _, kv := range [][2]string{
		{"LOG_FORMAT", "json"},
		{"DB_HOST", "db.internal.example.com"},
		{"DB_POOL_SIZE", "20"},
		{"FEATURE_FLAGS", "search,export"},
		{"REGION", "eu-west-1"},
	} {
		c.Env = append(c.Env, exampletypes.EnvVar{Name: kv[0], Value: kv[1]})
	}
	return c
}

// typedBenchOriginal is the last applied configuration.
func typedBenchOriginal(n int) *exampletypes.Deployment {
	replicas := int32(3)
	labels := map[string]string{"app.kubernetes.io/name": "web", "app.kubernetes.io/part-of": "shop"}
	d := &exampletypes.Deployment{
		TypeMeta:   exampletypes.TypeMeta{Kind: "Deployment", APIVersion: "apps/v1"},
		ObjectMeta: exampletypes.ObjectMeta{Name: "web", Namespace: "shop", Labels: labels, Annotations: map[string]string{"team": "storefront"}},
		Spec: exampletypes.DeploymentSpec{
			Replicas: &replicas,
			Selector: &exampletypes.LabelSelector{MatchLabels: labels},
			Template: exampletypes.PodTemplateSpec{
				ObjectMeta: exampletypes.ObjectMeta{Labels: labels},
				Spec: exampletypes.PodSpec{
					ServiceAccountName: "web",
					Volumes: []exampletypes.Volume{
						{Name: "config", VolumeSource: exampletypes.VolumeSource{ConfigMap: &exampletypes.ConfigMapVolumeSource{LocalObjectReference: exampletypes.LocalObjectReference{Name: "web-config"}}}},
						{Name: "data", VolumeSource: exampletypes.VolumeSource{EmptyDir: &exampletypes.EmptyDirVolumeSource{}}},
					},
				},
			},
		},
	}
	for i := range n {
		d.Spec.Template.Spec.Containers = append(d.Spec.Template.Spec.Containers, typedBenchContainer(i))
	}
	return d
}

// typedBenchModified makes a release's changes: a new image, a port added, an
// environment value changed and one removed, more replicas.
func typedBenchModified(n int) *exampletypes.Deployment {
	d := typedBenchOriginal(n)
	replicas := int32(5)
	d.Spec.Replicas = &replicas
	cs := d.Spec.Template.Spec.Containers
	cs[0].Image = "registry.example.com/team/app-0:v1.5.0"
	cs[0].Ports = append(cs[0].Ports, exampletypes.ContainerPort{Name: "grpc", ContainerPort: 7070})
	last := &cs[n-1]
	last.Env[1].Value = "db-replica.internal.example.com"
	last.Env = append(last.Env[:3], last.Env[4:]...)
	return d
}

// typedBenchCurrent is the original as a server holds it: defaulted, with a
// status and a controller's annotation.
func typedBenchCurrent(n int) *exampletypes.Deployment {
	d := typedBenchOriginal(n)
	d.UID = "6f1c2a9e-8e3b-4c55-9d0e-3f7a2b1c4d5e"
	d.ResourceVersion = "123456"
	d.Generation = 4
	d.CreationTimestamp = "2025-01-02T03:04:05Z"
	d.Annotations = map[string]string{"team": "storefront", "deployment.kubernetes.io/revision": "4"}
	limit := int32(10)
	d.Spec.RevisionHistoryLimit = &limit
	maxSurge, maxUnavailable := exampletypes.FromString("25%"), exampletypes.FromString("25%")
	d.Spec.Strategy = exampletypes.DeploymentStrategy{Type: "RollingUpdate", RollingUpdate: &exampletypes.RollingUpdateDeployment{MaxSurge: &maxSurge, MaxUnavailable: &maxUnavailable}}
	grace := int64(30)
	ps := &d.Spec.Template.Spec
	ps.RestartPolicy = "Always"
	ps.DNSPolicy = "ClusterFirst"
	ps.TerminationGracePeriodSeconds = &grace
	for i := range ps.Containers {
		c := &ps.Containers[i]
		c.ImagePullPolicy = "IfNotPresent"
		for j := range c.Ports {
			c.Ports[j].Protocol = "TCP"
		}
	}
	d.Status = exampletypes.DeploymentStatus{
		ObservedGeneration: 4, Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3,
		Conditions: []exampletypes.DeploymentCondition{
			{Type: "Available", Status: "True", Reason: "MinimumReplicasAvailable", Message: "Deployment has minimum availability."},
			{Type: "Progressing", Status: "True", Reason: "NewReplicaSetAvailable", Message: `ReplicaSet "web-5d4f8b7c9" has successfully progressed.`},
		},
	}
	return d
}

type typedBenchCase struct {
	original, modified, current *exampletypes.Deployment
	ob, mb, cb                  []byte
	patch                       smp.Patch
	patchBytes                  []byte
}

func newTypedBenchCase(b *testing.B) *typedBenchCase {
	c := &typedBenchCase{original: typedBenchOriginal(10), modified: typedBenchModified(10), current: typedBenchCurrent(10)}
	var err error
	for _, x := range []struct {
		dst *[]byte
		v   any
	}{{&c.ob, c.original}, {&c.mb, c.modified}, {&c.cb, c.current}} {
		if *x.dst, err = json.Marshal(x.v); err != nil {
			b.Fatal(err)
		}
	}
	if c.patch, err = smp.Diff(c.original, c.modified); err != nil {
		b.Fatal(err)
	}
	c.patchBytes = typedMarshal(b, c.patch)
	return c
}

// BenchmarkTypedDiff compares Diff with json.Marshal×2 + DiffJSON.
func BenchmarkTypedDiff(b *testing.B) {
	c := newTypedBenchCase(b)
	b.Run("typed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := smp.Diff(c.original, c.modified); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ob, _ := json.Marshal(c.original)
			mb, _ := json.Marshal(c.modified)
			if _, err := smp.DiffJSON(ob, mb, c.original); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkTypedApply compares Apply with json.Marshal + ApplyJSON +
// json.Unmarshal.
func BenchmarkTypedApply(b *testing.B) {
	c := newTypedBenchCase(b)
	b.Run("typed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := smp.Apply(c.current, c.patch); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			cb, _ := json.Marshal(c.current)
			out, err := smp.ApplyJSON(cb, c.patchBytes, c.current)
			if err != nil {
				b.Fatal(err)
			}
			var res exampletypes.Deployment
			if err := json.Unmarshal(out, &res); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkTypedThreeWay compares ThreeWay with json.Marshal×3 +
// ThreeWayJSON, without and with the conflict check.
func BenchmarkTypedThreeWay(b *testing.B) {
	c := newTypedBenchCase(b)
	for _, overwrite := range []bool{true, false} {
		opt := smp.WithOverwrite(overwrite)
		b.Run(fmt.Sprintf("overwrite=%v/typed", overwrite), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := smp.ThreeWay(c.original, c.modified, c.current, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("overwrite=%v/json", overwrite), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ob, _ := json.Marshal(c.original)
				mb, _ := json.Marshal(c.modified)
				cb, _ := json.Marshal(c.current)
				if _, err := smp.ThreeWayJSON(ob, mb, cb, c.original, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTypedDiffEqual measures Diff of two equal values: the walk
// alone, which allocates next to nothing.
func BenchmarkTypedDiffEqual(b *testing.B) {
	a, c := typedBenchOriginal(10), typedBenchOriginal(10)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := smp.Diff(a, c); err != nil {
			b.Fatal(err)
		}
	}
}
