package main

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/typedpatch/typedpatch/builtin"
	"github.com/typedpatch/typedpatch/openapischema"
	"github.com/typedpatch/typedpatch/reflectschema"
)

// shortNames are the short names kubectl accepts for built-in kinds, as
// the API server's discovery lists them.
var shortNames = map[string][]string{
	"Pod": {"po"}, "Service": {"svc"}, "ConfigMap": {"cm"}, "Namespace": {"ns"}, "Node": {"no"},
	"PersistentVolume": {"pv"}, "PersistentVolumeClaim": {"pvc"}, "ServiceAccount": {"sa"},
	"ReplicationController": {"rc"}, "Endpoints": {"ep"}, "Event": {"ev"}, "LimitRange": {"limits"},
	"ResourceQuota": {"quota"}, "ComponentStatus": {"cs"}, "DaemonSet": {"ds"}, "Deployment": {"deploy"},
	"ReplicaSet": {"rs"}, "StatefulSet": {"sts"}, "HorizontalPodAutoscaler": {"hpa"}, "CronJob": {"cj"},
	"CertificateSigningRequest": {"csr"}, "Ingress": {"ing"}, "NetworkPolicy": {"netpol"},
	"PodDisruptionBudget": {"pdb"}, "PriorityClass": {"pc"}, "StorageClass": {"sc"},
	"CustomResourceDefinition": {"crd", "crds"}, "VolumeAttributesClass": {"vac"},
}

// resourceName returns the resource a kind is served as: its lower-case
// plural, by the rule of Kubernetes' UnsafeGuessKindToResource (the one
// exception among built-in kinds, Endpoints, is its own plural).
func resourceName(kind string) string {
	s := strings.ToLower(kind)
	switch {
	case s == "endpoints":
		return s
	case strings.HasSuffix(s, "s"):
		return s + "es"
	case strings.HasSuffix(s, "y"):
		return strings.TrimSuffix(s, "y") + "ies"
	}
	return s + "s"
}

// kindRef is a kind found by name, with its schema.
type kindRef struct {
	gvk openapischema.GVK
	t   *reflectschema.Type
}

// resolveResource finds the kind that name means, as kubectl explain
// does: a kind in any case ("deployment"), a resource ("deployments") or a
// short name ("deploy"), among the --schema files' kinds (and their CRDs'
// names) and the built-in ones. apiVersion, if not "", chooses among the
// versions; else a --schema kind comes first, then the core group, then
// the most stable version.
func (s *schemas) resolveResource(name, apiVersion string) (kindRef, error) {
	lower := strings.ToLower(name)
	matches := func(kind string) bool {
		if strings.ToLower(kind) == lower || resourceName(kind) == lower || slices.Contains(shortNames[kind], lower) {
			return true
		}
		for _, c := range s.crds {
			if c.kind == kind && (c.plural == lower || c.singular == lower || slices.Contains(c.shortNames, lower)) {
				return true
			}
		}
		return false
	}
	var found []kindRef
	for _, f := range s.files {
		for _, k := range f.Kinds() {
			if !matches(k.Kind) {
				continue
			}
			if t, err := f.Lookup(k.APIVersion(), k.Kind); err == nil { // listed by Kinds, so found
				found = append(found, kindRef{k, t})
			}
		}
	}
	fromFiles := len(found)
	for _, k := range builtin.Kinds() {
		if !matches(k.Kind) {
			continue
		}
		if t, err := builtin.Lookup(k.APIVersion(), k.Kind); err == nil { // listed by Kinds, so found
			found = append(found, kindRef{k, t})
		}
	}
	if len(found) == 0 {
		return kindRef{}, usageErrorf("%s is no kind, resource or short name of a built-in kind or of a --schema file", quote(name))
	}
	if apiVersion != "" {
		var versions []string
		for _, k := range found {
			if k.gvk.APIVersion() == apiVersion || k.gvk.Group == apiVersion {
				return k, nil
			}
			versions = append(versions, k.gvk.APIVersion())
		}
		return kindRef{}, usageErrorf("%s is not served at --api-version %s; it is at %s", found[0].gvk.Kind, quote(apiVersion), strings.Join(versions, ", "))
	}
	slices.SortStableFunc(found[fromFiles:], func(a, b kindRef) int {
		return cmp.Or(
			cmp.Compare(min(len(a.gvk.Group), 1), min(len(b.gvk.Group), 1)), // the core group first
			cmp.Compare(versionRank(b.gvk.Version), versionRank(a.gvk.Version)),
			cmp.Compare(a.gvk.Group, b.gvk.Group))
	})
	return found[0], nil
}

// versionRank orders Kubernetes API versions as its discovery does: v2
// above v1 above v1beta2 above v1beta1 above v1alpha1.
func versionRank(v string) int {
	rest, ok := strings.CutPrefix(v, "v")
	if !ok {
		return 0
	}
	i := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
	if i < 0 {
		i = len(rest)
	}
	major, err := strconv.Atoi(rest[:i])
	if err != nil {
		return 0
	}
	stage, minor := 3, 0
	switch {
	case strings.HasPrefix(rest[i:], "beta"):
		stage = 2
		minor, _ = strconv.Atoi(rest[i+4:])
	case strings.HasPrefix(rest[i:], "alpha"):
		stage = 1
		minor, _ = strconv.Atoi(rest[i+5:])
	case i < len(rest):
		return 0
	}
	return stage*1_000_000 + major*1000 + minor
}

// String names the kind as documents do: "apps/v1 Deployment".
func (k kindRef) String() string { return fmt.Sprintf("%s %s", k.gvk.APIVersion(), k.gvk.Kind) }
