package e2e

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The changes another writer makes to a live object between two applies.
const (
	driftLabel     = "drift.example.com/writer" // a label, on every kind
	driftReplicas  = 5.0                        // an autoscaler's replicas, where the configuration leaves them out
	driftSidecar   = "injected-proxy"           // a container an admission webhook adds to pod templates
	driftEnv       = "INJECTED_BY"              // an environment variable it adds to the first container
	driftEnvValues = "webhook"
)

// drift is what another writer changed on one object.
type drift struct {
	replicas  bool
	podSpec   []string // the path of the pod template's spec, if it got a sidecar
	container string   // the container given driftEnv
}

// podSpecPaths are where pod templates are in kinds whose template may
// change after creation.
var podSpecPaths = map[string][]string{
	"Deployment":  {"spec", "template", "spec"},
	"StatefulSet": {"spec", "template", "spec"},
	"DaemonSet":   {"spec", "template", "spec"},
	"ReplicaSet":  {"spec", "template", "spec"},
	"CronJob":     {"spec", "jobTemplate", "spec", "template", "spec"},
}

// applyDrift changes live as another writer would: a label; replicas on
// kinds that scale when neither manifest sets them; a sidecar and an
// environment variable in pod templates.
func applyDrift(c patchCase, live object) drift {
	var d drift
	meta := live["metadata"].(object)
	labels, _ := meta["labels"].(object)
	if labels == nil {
		labels = object{}
		meta["labels"] = labels
	}
	labels[driftLabel] = "another"
	_, scales := podSpecPaths[c.kind]
	if scales && c.kind != "DaemonSet" && c.kind != "CronJob" &&
		field(c.original, "spec", "replicas") == nil && field(c.modified, "spec", "replicas") == nil {
		live["spec"].(object)["replicas"] = driftReplicas
		d.replicas = true
	}
	if path, ok := podSpecPaths[c.kind]; ok {
		spec := field(live, path...).(object)
		containers := spec["containers"].([]any)
		first := containers[0].(object)
		env, _ := first["env"].([]any)
		first["env"] = append(env, object{"name": driftEnv, "value": driftEnvValues})
		spec["containers"] = append(containers, object{"name": driftSidecar, "image": "proxy.example.com/proxy:1.0"})
		d.podSpec, d.container = path, first["name"].(string)
	}
	return d
}

// kept fails the test if stored lost a change of the other writer that the
// configuration did not touch, and removes those changes from stored.
func (d drift) kept(t testing.TB, c patchCase, stored object, intended object) {
	t.Helper()
	labels, _ := field(stored, "metadata", "labels").(object)
	if labels[driftLabel] != "another" {
		t.Errorf("the other writer's label is gone: labels %v", labels)
	}
	delete(labels, driftLabel)
	if len(labels) == 0 {
		delete(stored["metadata"].(object), "labels")
	}
	if d.replicas {
		if r := field(stored, "spec", "replicas"); r != driftReplicas {
			t.Errorf("spec.replicas = %v, want the autoscaler's %v", r, driftReplicas)
		}
		stored["spec"].(object)["replicas"] = field(intended, "spec", "replicas")
	}
	if d.podSpec == nil {
		return
	}
	spec := field(stored, d.podSpec...).(object)
	var rest []any
	sidecar := false
	for _, e := range spec["containers"].([]any) {
		ctr := e.(object)
		switch ctr["name"] {
		case driftSidecar:
			sidecar = true
			continue
		case d.container:
			// A configuration that drops a container's whole env list
			// deletes it, the other writer's variable with it, as kubectl
			// apply does.
			if !removeEnv(ctr) && configuresEnv(c.modified, d) {
				t.Errorf("container %s lost %s", d.container, driftEnv)
			}
		}
		rest = append(rest, ctr)
	}
	if !sidecar {
		t.Errorf("the sidecar %s is gone", driftSidecar)
	}
	spec["containers"] = rest
}

// removeEnv removes driftEnv from a container and reports whether it was
// there.
func removeEnv(ctr object) bool {
	env, _ := ctr["env"].([]any)
	var rest []any
	found := false
	for _, e := range env {
		if e.(object)["name"] == driftEnv && cmp.Equal(e.(object)["value"], driftEnvValues) {
			found = true
			continue
		}
		rest = append(rest, e)
	}
	if len(rest) == 0 {
		delete(ctr, "env")
	} else {
		ctr["env"] = rest
	}
	return found
}

// configuresEnv reports whether the manifest gives the container that got
// driftEnv an env list.
func configuresEnv(manifest object, d drift) bool {
	containers, _ := field(manifest, d.podSpec...).(object)["containers"].([]any)
	for _, e := range containers {
		if ctr := e.(object); ctr["name"] == d.container {
			env, _ := ctr["env"].([]any)
			return len(env) > 0
		}
	}
	return false
}
