package e2e

import (
	"bytes"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/smp"
)

// The DNS ports: 53/TCP and 53/UDP share containerPort, the only merge key
// the Kubernetes types give container ports. The configurations
// (dnsChanges) rename the UDP port, and give the TCP one a host port too;
// another writer adds a metrics port.
var (
	dnsTCP        = object{"name": "dns-tcp", "containerPort": 53.0, "protocol": "TCP"}
	dnsUDP        = object{"name": "dns", "containerPort": 53.0, "protocol": "UDP"}
	dnsTCPChanged = object{"name": "dns-tcp", "containerPort": 53.0, "protocol": "TCP", "hostPort": 1053.0}
	dnsUDPRenamed = object{"name": "dns-udp", "containerPort": 53.0, "protocol": "UDP"}
	dnsMetrics    = object{"name": "metrics", "containerPort": 9153.0, "protocol": "TCP"}
)

// dnsDeployment is a Deployment whose one container has ports.
func dnsDeployment(ports ...object) object {
	ps := anys(ports)
	return object{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": object{"name": "dns"},
		"spec": object{
			"selector": object{"matchLabels": object{"app": "dns"}},
			"template": object{"metadata": object{"labels": object{"app": "dns"}},
				"spec": object{"containers": []any{object{"name": "dns", "image": "dns:1", "ports": ps}}}},
		}}
}

var dnsCase = patchCase{name: "dns", apiVersion: "apps/v1", kind: "Deployment", original: dnsDeployment(dnsTCP, dnsUDP)}

// dnsChanges are the configurations tried: the UDP port renamed, and both
// ports changed.
var dnsChanges = []struct {
	name  string
	ports []object
}{{"udp", []object{dnsTCP, dnsUDPRenamed}}, {"both", []object{dnsTCPChanged, dnsUDPRenamed}}}

// The schemas the DNS Deployment is patched by: exampletypes.Deployment's
// container ports have the recommended key containerPort and protocol, so
// the differ can write $patchMergeKey for them; the Kubernetes type and
// package builtin's schema know containerPort only.
func dnsSchemas(t testing.TB) map[string]any {
	return map[string]any{"fixtures": &exampletypes.Deployment{}, "typed": dnsCase.goType(t), "builtin": dnsCase.schema(t, "builtin")}
}

// TestSharedKeyPatchMergeKeyOnRequest: the default differ writes no
// $patchMergeKey for the DNS ports, though their type recommends a key of
// two fields; DirectivesAll writes none either, the list whole
// (skew-safe); only WithSkewSafe(false) does.
func TestSharedKeyPatchMergeKeyOnRequest(t *testing.T) {
	original := encode(t, dnsCase.original)
	for _, ch := range dnsChanges {
		modified := encode(t, dnsDeployment(ch.ports...))
		for _, o := range []struct {
			name string
			opts []smp.Option
			want bool
		}{
			{"default", nil, false},
			{"all", []smp.Option{smp.WithDirectives(smp.DirectivesAll)}, false},
			{"all,unsafe", []smp.Option{smp.WithDirectives(smp.DirectivesAll), smp.WithSkewSafe(false)}, true},
		} {
			p, err := smp.DiffJSON(original, modified, &exampletypes.Deployment{}, o.opts...)
			if err != nil {
				t.Fatalf("%s/%s: DiffJSON: %v", ch.name, o.name, err)
			}
			if got := bytes.Contains(p, []byte(`"$patchMergeKey"`)); got != o.want {
				t.Errorf("%s/%s: $patchMergeKey written: %v, want %v: %s", ch.name, o.name, got, o.want, p)
			}
		}
	}
}

// dnsPatch creates the DNS Deployment in a namespace of its own, lets
// another writer add the metrics port if threeWay, computes the project's
// patch to the configuration of ports with opts and the schema, and sends it under the fieldValidation
// level. It returns the server's answer, the patch and the local result.
func dnsPatch(t *testing.T, ports []object, threeWay bool, dataStruct any, level string, opts ...smp.Option) (response, []byte, object) {
	t.Helper()
	ns := srv.newNamespace(t)
	original, modified := inNamespace(t, dnsCase.original, ns), inNamespace(t, dnsDeployment(ports...), ns)
	path, live := srv.create(t, dnsCase, ns, original, "Strict")
	var patch []byte
	var err error
	if threeWay {
		drifted := decode(t, live)
		c := field(drifted, "spec", "template", "spec", "containers").([]any)[0].(object)
		c["ports"] = append(c["ports"].([]any), dnsMetrics)
		live = srv.mustDo(t, http.StatusOK, http.MethodPut, path, withValidation("Strict", nil), "application/json", encode(t, drifted)).body
		patch, err = smp.ThreeWayJSON(original, modified, live, dataStruct, append(opts, smp.WithOverwrite(true))...)
	} else {
		patch, err = smp.DiffJSON(original, modified, dataStruct, opts...)
	}
	if err != nil {
		t.Fatalf("computing the patch: %v", err)
	}
	local, err := smp.ApplyJSON(live, patch, dataStruct)
	if err != nil {
		t.Fatalf("ApplyJSON: %v\npatch: %s", err, patch)
	}
	r, err := srv.do(http.MethodPatch, path, withValidation(level, nil), strategicMergePatch, patch)
	if err != nil {
		t.Fatal(err)
	}
	return r, patch, decode(t, local)
}

// anys is a new list of the objects.
func anys(objects []object) []any {
	out := make([]any, len(objects))
	for i, o := range objects {
		out[i] = o
	}
	return out
}

// dnsPorts are an object's container ports, sorted by number and protocol.
func dnsPorts(o object) []any {
	c := field(o, "spec", "template", "spec", "containers").([]any)[0].(object)
	ports := append([]any(nil), c["ports"].([]any)...)
	sort.SliceStable(ports, func(i, j int) bool {
		a, b := ports[i].(object), ports[j].(object)
		return fmt.Sprint(a["containerPort"], a["protocol"]) < fmt.Sprint(b["containerPort"], b["protocol"])
	})
	return ports
}

func ways() []bool { return []bool{false, true} }

func wayName(threeWay bool) string {
	if threeWay {
		return "three-way"
	}
	return "two-way"
}

// TestSharedKeyOnServer sends the DNS Deployment's patch, written by
// default and with DirectivesAll, two-way and three-way, under the
// server's default fieldValidation (Warn, what client-go sends) and
// Strict: the server stores both DNS ports as configured, nothing merged
// into one, as the project computes locally, and warns of nothing.
func TestSharedKeyOnServer(t *testing.T) {
	for sn, dataStruct := range dnsSchemas(t) {
		for _, d := range []struct {
			name string
			opts []smp.Option
		}{{"default", nil}, {"all", []smp.Option{smp.WithDirectives(smp.DirectivesAll)}}} {
			for _, ch := range dnsChanges {
				for _, threeWay := range ways() {
					for _, level := range validationLevels {
						t.Run(strings.Join([]string{sn, d.name, ch.name, wayName(threeWay), levelName(level)}, "/"), func(t *testing.T) {
							t.Parallel()
							r, patch, local := dnsPatch(t, ch.ports, threeWay, dataStruct, level, d.opts...)
							if r.status != http.StatusOK {
								t.Fatalf("PATCH: status %d: %s\npatch: %s", r.status, r.body, patch)
							}
							noWarnings(t, "PATCH", r)
							stored := decode(t, r.body)
							if diff := cmp.Diff(dnsPorts(local), dnsPorts(stored)); diff != "" {
								t.Errorf("the server's ports are not the project's local result (-local +server):\n%s\npatch: %s", diff, patch)
							}
							want, got := anys(ch.ports), dnsPorts(stored)
							if threeWay { // the port another writer added stays
								want = append(want, dnsMetrics)
							}
							if diff := cmp.Diff(want, got); diff != "" {
								t.Errorf("the stored ports are not the intended ones (-want +got):\n%s\npatch: %s", diff, patch)
							}
						})
					}
				}
			}
		}
	}
}

// TestSkewSafeOffIsUnsafeOnServer documents what WithSkewSafe(false), the
// opt-out documented as unsafe toward servers, makes a kube-apiserver do:
// its patch addresses the DNS ports with $patchMergeKey, which the server
// does not know. It matches them by containerPort alone, the first port 53
// taking both changes: with the UDP port renamed, under Warn (the default)
// it stores a corrupted object, the TCP port gone (two ports 53/UDP), with
// a warning; under Strict it refuses the unknown field (422). With both
// ports changed, the second merge meets the $patchMergeKey the first left
// and the server fails (500). The engine's own applier gets the ports
// right each time.
func TestSkewSafeOffIsUnsafeOnServer(t *testing.T) {
	const unknown = `unknown field "spec.template.spec.containers[0].ports[0].$patchMergeKey"`
	for _, ch := range dnsChanges {
		for _, threeWay := range ways() {
			for _, level := range validationLevels {
				t.Run(ch.name+"/"+wayName(threeWay)+"/"+levelName(level), func(t *testing.T) {
					t.Parallel()
					r, patch, local := dnsPatch(t, ch.ports, threeWay, &exampletypes.Deployment{}, level, smp.WithDirectives(smp.DirectivesAll), smp.WithSkewSafe(false))
					if !bytes.Contains(patch, []byte(`"$patchMergeKey"`)) {
						t.Fatalf("no $patchMergeKey in the patch: %s", patch)
					}
					intended := anys(ch.ports)
					if threeWay {
						intended = append(intended, dnsMetrics)
					}
					if diff := cmp.Diff(intended, dnsPorts(local)); diff != "" {
						t.Errorf("the engine's result is not the intended ports (-want +got):\n%s", diff)
					}
					switch {
					case ch.name == "both":
						if r.status != http.StatusInternalServerError || !strings.Contains(message(t, r), `unable to find api field in struct ContainerPort for the json field "$patchMergeKey"`) {
							t.Errorf("status %d, recorded 500 (no api field $patchMergeKey): %s", r.status, r.body)
						}
					case level == "Strict":
						if r.status != http.StatusUnprocessableEntity || !strings.Contains(message(t, r), unknown) {
							t.Errorf("status %d, recorded 422 (%s): %s", r.status, unknown, r.body)
						}
					default:
						if r.status != http.StatusOK {
							t.Fatalf("status %d, recorded 200: %s", r.status, r.body)
						}
						if !strings.Contains(strings.Join(r.warnings, "\n"), strings.ReplaceAll(unknown, `"`, `\"`)) {
							t.Errorf("no warning of $patchMergeKey: %q", r.warnings)
						}
						corrupted := []any{dnsUDPRenamed, dnsUDP} // the TCP port renamed and made UDP
						if threeWay {
							corrupted = append(corrupted, dnsMetrics)
						}
						ports := field(decode(t, r.body), "spec", "template", "spec", "containers").([]any)[0].(object)["ports"]
						if diff := cmp.Diff(corrupted, ports); diff != "" {
							t.Errorf("the stored ports are not the corrupted ones recorded (-recorded +stored):\n%s", diff)
						}
					}
				})
			}
		}
	}
}

// message is the message of the server's Status answer.
func message(t testing.TB, r response) string {
	t.Helper()
	m, _ := decode(t, r.body)["message"].(string)
	return m
}
