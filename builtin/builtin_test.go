package builtin

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/typedpatch/typedpatch/openapischema"
	"github.com/typedpatch/typedpatch/reflectschema"
)

func TestLookup(t *testing.T) {
	for _, c := range []struct{ apiVersion, kind, field string }{
		{"apps/v1", "Deployment", "spec"},
		{"v1", "Pod", "spec"},
		{"v1", "ConfigMap", "data"},
		{"batch/v1", "CronJob", "spec"},
		{"networking.k8s.io/v1", "NetworkPolicy", "spec"},
		{"autoscaling/v2", "HorizontalPodAutoscaler", "spec"},
		{"extensions/v1beta1", "Ingress", "spec"},
	} {
		typ, err := Lookup(c.apiVersion, c.kind)
		if err != nil {
			t.Fatalf("%s %s: %v", c.apiVersion, c.kind, err)
		}
		if typ.Kind != reflectschema.Struct || typ.Go != nil || typ.Field(c.field) == nil || typ.Field("metadata") == nil {
			t.Errorf("%s %s: want a struct without a Go type with metadata and %s, got %v", c.apiVersion, c.kind, c.field, typ)
		}
		if err := typ.Validate(); err != nil {
			t.Errorf("%s %s: %v", c.apiVersion, c.kind, err)
		}
	}
}

// Lists, options and kinds of other modules are not bundled; the error
// says which was asked for, cut when long, and what is bundled nearby.
func TestLookupUnknown(t *testing.T) {
	for _, c := range []struct{ apiVersion, kind, hint string }{
		{"apps/v1", "DeploymentList", "that apiVersion holds ControllerRevision, DaemonSet, Deployment, ReplicaSet, … (5 in all)"},
		{"v1", "PodLogOptions", "that apiVersion holds Binding,"},
		{"v1", "Status", "that apiVersion holds Binding,"},
		{"apiextensions.k8s.io/v1beta1", "CustomResourceDefinition", "known: apiextensions.k8s.io/v1 CustomResourceDefinition"},
		{"apps/v2", "Deployment", "known: apps/v1 Deployment"},
		{"apps/v1", "deployment", "known: apps/v1 Deployment"},
		{"", "", "no kind in that apiVersion; the schemas define 174 kinds in"},
		{"example.com/v1", "Widget", "no kind in that apiVersion"},
		{"v1", strings.Repeat("K", 1000), `"…(1000 bytes): unknown kind; that apiVersion holds`},
	} {
		typ, err := Lookup(c.apiVersion, c.kind)
		if typ != nil || !errors.Is(err, ErrUnknownKind) || !errors.Is(err, openapischema.ErrUnknownKind) {
			t.Errorf("%q %q: got %v, %v", c.apiVersion, c.kind, typ, err)
			continue
		}
		msg := err.Error()
		want := "builtin: openapischema: apiVersion " + strconv.Quote(c.apiVersion) + " kind "
		if len(msg) > 320 || !strings.HasPrefix(msg, want) || !strings.Contains(msg, c.hint) {
			t.Errorf("%q %q: message %q, want %q...%q", c.apiVersion, c.kind, msg, want, c.hint)
		}
	}
}

// The kinds users patch most are bundled under each apiVersion they are
// served at, and every listed kind can be looked up.
func TestKinds(t *testing.T) {
	have := map[string]bool{}
	for _, k := range Kinds() {
		have[k.APIVersion()+" "+k.Kind] = true
		if _, err := Lookup(k.APIVersion(), k.Kind); err != nil {
			t.Error(err)
		}
	}
	for _, want := range []string{
		"apps/v1 Deployment", "apps/v1 StatefulSet", "apps/v1 DaemonSet", "batch/v1 Job", "batch/v1 CronJob",
		"v1 Pod", "v1 Service", "v1 Secret", "networking.k8s.io/v1 Ingress", "networking.k8s.io/v1 NetworkPolicy",
		"autoscaling/v1 HorizontalPodAutoscaler", "autoscaling/v2 HorizontalPodAutoscaler",
		"rbac.authorization.k8s.io/v1 ClusterRole", "policy/v1 PodDisruptionBudget",
	} {
		if !have[want] {
			t.Errorf("%s is not bundled", want)
		}
	}
	if len(have) < 150 {
		t.Errorf("only %d kinds bundled", len(have))
	}
}

// First use from many goroutines decodes once; all see the same schema.
func TestConcurrentFirstUse(t *testing.T) {
	var wg sync.WaitGroup
	got := make([]*reflectschema.Type, 8)
	for i := range got {
		wg.Go(func() { got[i], _ = Lookup("v1", "Pod") })
	}
	wg.Wait()
	for _, g := range got {
		if g == nil || g != got[0] {
			t.Fatalf("lookups differ: %v", got)
		}
	}
}

// Corrupt data is an error, never a panic.
func TestDecodeCorrupt(t *testing.T) {
	for _, d := range [][]byte{nil, []byte("not gzip"), data[:len(data)/2]} {
		if _, err := decode(d); err == nil {
			t.Errorf("%d bytes: no error", len(d))
		}
	}
}

// BenchmarkDecode measures the first use: gunzip and read the document.
func BenchmarkDecode(b *testing.B) {
	for b.Loop() {
		if _, err := decode(data); err != nil {
			b.Fatal(err)
		}
	}
}

// The package documentation states the number of kinds and the size of
// the data as they are.
func TestDocumentedSize(t *testing.T) {
	src, err := os.ReadFile("builtin.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Join(strings.Fields(strings.ReplaceAll(string(src), "\n//", "")), " ")
	for _, want := range []string{
		"The data is the " + strconv.Itoa(len(Kinds())) + " kinds",
		"embedded gzip'd: " + withCommas(len(data)) + " bytes",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("the package documentation does not say %q", want)
		}
	}
}

func withCommas(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Every cluster-scoped kind listed is bundled: a typo in the generated
// list would leave its kind namespaced.
func TestClusterScopedBundled(t *testing.T) {
	for k := range clusterScoped {
		apiVersion, kind, _ := strings.Cut(k, " ")
		if namespaced, ok := Namespaced(apiVersion, kind); !ok || namespaced {
			t.Errorf("Namespaced(%q, %q) = %v, %v", apiVersion, kind, namespaced, ok)
		}
	}
	if len(clusterScoped) < 50 {
		t.Errorf("%d cluster-scoped kinds", len(clusterScoped))
	}
}
