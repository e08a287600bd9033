package main

import (
	"slices"
	"testing"
)

// The resources Kubernetes serves the kinds as (kubectl api-resources).
func TestResourceName(t *testing.T) {
	for kind, want := range map[string]string{
		"Deployment": "deployments", "Ingress": "ingresses", "NetworkPolicy": "networkpolicies",
		"Endpoints": "endpoints", "StorageClass": "storageclasses", "APIService": "apiservices",
		"CustomResourceDefinition": "customresourcedefinitions", "PodSecurityPolicy": "podsecuritypolicies",
	} {
		if got := resourceName(kind); got != want {
			t.Errorf("resourceName(%q) = %q, want %q", kind, got, want)
		}
	}
}

// Versions sort as Kubernetes' discovery prefers them.
func TestVersionRank(t *testing.T) {
	order := []string{"v2", "v1", "v2beta1", "v1beta2", "v1beta1", "v1alpha3", "v1alpha1", "junk"}
	got := slices.Clone(order)
	slices.Reverse(got)
	slices.SortStableFunc(got, func(a, b string) int { return versionRank(b) - versionRank(a) })
	if !slices.Equal(got, order) {
		t.Errorf("sorted %q, want %q", got, order)
	}
}
