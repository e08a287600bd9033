package openapischema_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/typedpatch/typedpatch/openapischema"
	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp"
)

// load reads a testdata document.
func load(t *testing.T, file string) *openapischema.Schemas {
	t.Helper()
	data, err := os.ReadFile("testdata/" + file)
	require.NoError(t, err)
	s, err := openapischema.Read(data)
	require.NoError(t, err, file)
	return s
}

func kind(t *testing.T, file, apiVersion, kind string) *reflectschema.Type {
	t.Helper()
	st, err := load(t, file).Lookup(apiVersion, kind)
	require.NoError(t, err, file)
	return st
}

func js(t *testing.T, y string) []byte {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(y))
	require.NoError(t, err)
	return j
}

// patchCase is an edit of a custom resource: original turned into
// modified, and the same change made on live, which holds extras a
// controller or webhook added; want is live with the change.
type patchCase struct {
	name, file, apiVersion, kind string
	original, modified, live     string
	want                         string
}

var patchCases = []patchCase{{
	name: "rollout pod template", file: "rollout-crd.yaml", apiVersion: "argoproj.io/v1alpha1", kind: "Rollout",
	original: `
metadata: {name: web, labels: {app: web}}
spec:
  replicas: 3
  strategy:
    canary:
      steps: [{setWeight: 20}, {pause: {duration: 1h}}]
      trafficRouting:
        plugins: {argoproj-labs/gatewayAPI: {httpRoute: web, namespace: default}}
  template:
    spec:
      containers:
      - name: app
        image: app:v1
        args: [--port=8080]
        env: [{name: A, value: "1"}]
        ports: [{containerPort: 8080, protocol: TCP}]
        resources: {limits: {cpu: 500m}}`,
	modified: `
metadata: {name: web, labels: {app: web}}
spec:
  replicas: 3
  strategy:
    canary:
      steps: [{setWeight: 50}]
      trafficRouting:
        plugins: {argoproj-labs/gatewayAPI: {httpRoute: web-v2, namespace: default}}
  template:
    spec:
      containers:
      - name: app
        image: app:v2
        args: [--port=8080, --debug]
        env: [{name: A, value: "2"}, {name: B, value: "3"}]
        ports: [{containerPort: 8080, protocol: TCP}, {containerPort: 9090, protocol: TCP}]
        resources: {limits: {cpu: "1"}}`,
	// A mesh injected a sidecar, an env var and a UDP port on 8080; a
	// plugin controller added its own settings; the steps were edited live.
	live: `
metadata: {name: web, labels: {app: web}, finalizers: [example.com/protect]}
spec:
  replicas: 3
  strategy:
    canary:
      steps: [{setWeight: 10}, {pause: {}}]
      trafficRouting:
        plugins: {argoproj-labs/gatewayAPI: {httpRoute: web, namespace: default, injected: true}}
  template:
    spec:
      containers:
      - name: app
        image: app:v1
        args: [--port=8080]
        env: [{name: A, value: "1"}, {name: INJECTED, value: "yes"}]
        ports: [{containerPort: 8080, protocol: TCP}, {containerPort: 8080, protocol: UDP}]
        resources: {limits: {cpu: 500m}}
      - {name: istio-proxy, image: proxyv2:1.24}`,
	want: `
metadata: {name: web, labels: {app: web}, finalizers: [example.com/protect]}
spec:
  replicas: 3
  strategy:
    canary:
      steps: [{setWeight: 50}]
      trafficRouting:
        plugins: {argoproj-labs/gatewayAPI: {httpRoute: web-v2, namespace: default, injected: true}}
  template:
    spec:
      containers:
      - name: app
        image: app:v2
        args: [--port=8080, --debug]
        env: [{name: A, value: "2"}, {name: B, value: "3"}, {name: INJECTED, value: "yes"}]
        ports: [{containerPort: 8080, protocol: TCP}, {containerPort: 9090, protocol: TCP}, {containerPort: 8080, protocol: UDP}]
        resources: {limits: {cpu: "1"}}
      - {name: istio-proxy, image: proxyv2:1.24}`,
}, {
	name: "httproute atomic lists", file: "httproute-crd.yaml", apiVersion: "gateway.networking.k8s.io/v1", kind: "HTTPRoute",
	original: `
metadata: {name: store}
spec:
  parentRefs: [{name: gw}]
  hostnames: [store.example.com]
  rules:
  - matches: [{path: {type: PathPrefix, value: /}, headers: [{name: env, value: canary}]}]
    backendRefs: [{name: store-v1, port: 8080, weight: 90}, {name: store-v2, port: 8080, weight: 10}]`,
	modified: `
metadata: {name: store}
spec:
  parentRefs: [{name: gw}]
  hostnames: [store.example.com, shop.example.com]
  rules:
  - matches: [{path: {type: PathPrefix, value: /}, headers: [{name: env, value: canary}]}]
    backendRefs: [{name: store-v1, port: 8080, weight: 50}, {name: store-v2, port: 8080, weight: 50}]
    timeouts: {request: 10s}`,
	// hostnames and rules are atomic: what live added to them is replaced;
	// the label a controller added to metadata survives.
	live: `
metadata: {name: store, labels: {team: shop}}
spec:
  parentRefs: [{name: gw}]
  hostnames: [store.example.com, extra.example.com]
  rules:
  - matches: [{path: {type: PathPrefix, value: /}, headers: [{name: env, value: canary}]}]
    backendRefs: [{name: store-v1, port: 8080, weight: 90}, {name: store-v2, port: 8080, weight: 10}, {name: mirror, port: 80}]`,
	want: `
metadata: {name: store, labels: {team: shop}}
spec:
  parentRefs: [{name: gw}]
  hostnames: [store.example.com, shop.example.com]
  rules:
  - matches: [{path: {type: PathPrefix, value: /}, headers: [{name: env, value: canary}]}]
    backendRefs: [{name: store-v1, port: 8080, weight: 50}, {name: store-v2, port: 8080, weight: 50}]
    timeouts: {request: 10s}`,
}, {
	name: "certificate dns name set", file: "certificate-crd.yaml", apiVersion: "cert-manager.io/v1", kind: "Certificate",
	original: `
metadata: {name: web-tls}
spec:
  secretName: web-tls
  issuerRef: {name: letsencrypt, kind: ClusterIssuer}
  dnsNames: [example.com, www.example.com, old.example.com]
  usages: [server auth]
  ipAddresses: [10.0.0.1]`,
	modified: `
metadata: {name: web-tls}
spec:
  secretName: web-tls
  issuerRef: {name: letsencrypt, kind: ClusterIssuer}
  dnsNames: [example.com, www.example.com, api.example.com]
  usages: [server auth, client auth]
  ipAddresses: [10.0.0.2]
  secretTemplate: {labels: {team: web}}`,
	live: `
metadata: {name: web-tls}
spec:
  secretName: web-tls
  issuerRef: {name: letsencrypt, kind: ClusterIssuer}
  dnsNames: [example.com, www.example.com, old.example.com, extra.example.com]
  usages: [server auth]
  ipAddresses: [10.0.0.1, 10.0.0.9]
status: {conditions: [{type: Ready, status: "True"}]}`,
	want: `
metadata: {name: web-tls}
spec:
  secretName: web-tls
  issuerRef: {name: letsencrypt, kind: ClusterIssuer}
  dnsNames: [example.com, www.example.com, api.example.com, extra.example.com]
  usages: [server auth, client auth]
  ipAddresses: [10.0.0.2]
  secretTemplate: {labels: {team: web}}
status: {conditions: [{type: Ready, status: "True"}]}`,
}, {
	name: "openapi v3 port and protocol key", file: "openapi-v3.yaml", apiVersion: "example.com/v1", kind: "GameServer",
	original: `
metadata: {name: gs, finalizers: [a]}
spec:
  ports: [{port: 7777, protocol: UDP, name: game}]
  players: [ann]
  maxSurge: 1
  health: {periodSeconds: 5}
  template: {apiVersion: v1, kind: Pod, metadata: {labels: {x: "1"}}, spec: {nodeName: n1}}`,
	modified: `
metadata: {name: gs, finalizers: [a, b]}
spec:
  ports: [{port: 7777, protocol: UDP, name: game-udp}, {port: 8080, protocol: TCP, name: http}]
  players: [ann, bob]
  maxSurge: 25%
  template: {apiVersion: v1, kind: Pod, metadata: {labels: {x: "2"}}, spec: {nodeName: n1, hostNetwork: true}}`,
	live: `
metadata: {name: gs, finalizers: [a, injected]}
spec:
  ports: [{port: 7777, protocol: UDP, name: game}, {port: 7777, protocol: TCP, name: game-tcp}]
  players: [ann, carol]
  maxSurge: 1
  health: {periodSeconds: 5}
  template: {apiVersion: v1, kind: Pod, metadata: {labels: {x: "1", y: "1"}}, spec: {nodeName: n1, priority: 3}}`,
	want: `
metadata: {name: gs, finalizers: [a, b, injected]}
spec:
  ports: [{port: 7777, protocol: UDP, name: game-udp}, {port: 8080, protocol: TCP, name: http}, {port: 7777, protocol: TCP, name: game-tcp}]
  players: [ann, bob, carol]
  maxSurge: 25%
  template: {apiVersion: v1, kind: Pod, metadata: {labels: {x: "2", y: "1"}}, spec: {nodeName: n1, priority: 3, hostNetwork: true}}`,
}, {
	name: "openapi v2 deployment", file: "openapi-v2.json", apiVersion: "apps/v1", kind: "Deployment",
	original: `
metadata: {name: web}
spec:
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1}}
  template:
    spec:
      containers: [{name: app, image: app:v1, ports: [{containerPort: 80}]}]
      volumes: [{name: data, emptyDir: {}}]`,
	modified: `
metadata: {name: web}
spec:
  strategy: {type: Recreate}
  template:
    spec:
      containers: [{name: app, image: app:v2, ports: [{containerPort: 80}, {containerPort: 443}]}]
      volumes: [{name: data, configMap: {name: cfg}}]`,
	live: `
metadata: {name: web, ownerReferences: [{uid: u1, name: o, kind: K, apiVersion: v1}]}
spec:
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1}}
  template:
    spec:
      containers: [{name: app, image: app:v1, ports: [{containerPort: 80}]}, {name: sidecar, image: s:1}]
      volumes: [{name: data, emptyDir: {}}, {name: injected, emptyDir: {medium: Memory}}]`,
	want: `
metadata: {name: web, ownerReferences: [{uid: u1, name: o, kind: K, apiVersion: v1}]}
spec:
  strategy: {type: Recreate}
  template:
    spec:
      containers: [{name: app, image: app:v2, ports: [{containerPort: 80}, {containerPort: 443}]}, {name: sidecar, image: s:1}]
      volumes: [{name: data, configMap: {name: cfg}}, {name: injected, emptyDir: {medium: Memory}}]`,
}}

func TestPatchCustomResources(t *testing.T) {
	for _, c := range patchCases {
		t.Run(c.name, func(t *testing.T) {
			st := kind(t, c.file, c.apiVersion, c.kind)
			original, modified, live, want := js(t, c.original), js(t, c.modified), js(t, c.live), js(t, c.want)

			patch, err := smp.DiffJSON(original, modified, st)
			require.NoError(t, err)
			got, err := smp.ApplyJSON(original, patch, st)
			require.NoError(t, err)
			assert.JSONEq(t, string(modified), string(got), "apply(original, diff) = modified; patch %s", patch)

			got, err = smp.ApplyJSON(live, patch, st)
			require.NoError(t, err)
			assert.JSONEq(t, string(want), string(got), "the change lands on live, live's extras survive; patch %s", patch)

			three, err := smp.ThreeWayJSON(original, modified, live, st, smp.WithOverwrite(true))
			require.NoError(t, err)
			got, err = smp.ApplyJSON(live, three, st)
			require.NoError(t, err)
			assert.JSONEq(t, string(want), string(got), "three-way; patch %s", three)
		})
	}
}
