package bench

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// helmScenarios are upgrades of a release "web" in namespace "shop". The
// expectations say what the upgrade is for; none is read from an engine.
func helmScenarios() []helmScenario {
	return []helmScenario{{
		name:   "image bump and env var added, replicas owned by an autoscaler",
		newObj: newDeployment,
		previous: consumerDeploy(`minReadySeconds: 5`, `
      - name: app
        image: shop/web:1.4.0
        env:
        - {name: LOG_LEVEL, value: info}`),
		chart: consumerDeploy(`minReadySeconds: 5`, `
      - name: app
        image: shop/web:1.5.0
        env:
        - {name: LOG_LEVEL, value: info}
        - {name: FEATURE_CART, value: "on"}`),
		live: consumerDeployLive(`minReadySeconds: 5
  replicas: 5`, `
      - name: app
        image: shop/web:1.4.0
        imagePullPolicy: IfNotPresent
        terminationMessagePath: /dev/termination-log
        env:
        - {name: LOG_LEVEL, value: info}`),
		check: func(t *testing.T, stored []byte) {
			d := consumerDecode[appsv1.Deployment](t, stored)
			assert.Equal(t, int32(5), *d.Spec.Replicas, "the chart leaves replicas to the autoscaler: its value stays")
			app := consumerContainer(d.Spec.Template.Spec, "app")
			require.NotNil(t, app)
			assert.Equal(t, "shop/web:1.5.0", app.Image)
			assert.Equal(t, []corev1.EnvVar{{Name: "LOG_LEVEL", Value: "info"}, {Name: "FEATURE_CART", Value: "on"}}, app.Env)
			assert.Equal(t, corev1.PullIfNotPresent, app.ImagePullPolicy, "server defaults stay")
			assert.Equal(t, int32(5), d.Status.ReadyReplicas, "status stays")
		},
	}, {
		name:   "container removed from the chart while a sidecar was injected",
		newObj: newDeployment,
		previous: consumerDeploy(`replicas: 2`, `
      - {name: app, image: "shop/web:1.4.0"}
      - {name: log-shipper, image: "fluent/fluent-bit:3.0"}`),
		chart: consumerDeploy(`replicas: 2`, `
      - {name: app, image: "shop/web:1.4.0"}`),
		live: consumerDeployLive(`replicas: 2`, `
      - {name: app, image: "shop/web:1.4.0", imagePullPolicy: IfNotPresent}
      - {name: log-shipper, image: "fluent/fluent-bit:3.0", imagePullPolicy: IfNotPresent}
      - {name: istio-proxy, image: "istio/proxyv2:1.24.0", args: [proxy, sidecar]}`),
		check: func(t *testing.T, stored []byte) {
			d := consumerDecode[appsv1.Deployment](t, stored)
			assert.Equal(t, []string{"app", "istio-proxy"}, consumerNames(d.Spec.Template.Spec),
				"the chart's removed container goes, the injected sidecar stays")
		},
	}, {
		name:   "labels and annotations another writer changed",
		newObj: newDeployment,
		previous: helmDeployMeta(`
  labels: {app: web, helm.sh/chart: web-1.0.0}
  annotations: {owner: team-a, checksum/config: aaa111}`),
		chart: helmDeployMeta(`
  labels: {app: web, helm.sh/chart: web-1.1.0}
  annotations: {owner: team-a}`),
		live: helmDeployMeta(`
  labels: {app: web, helm.sh/chart: web-1.0.0, env: prod}
  annotations: {owner: team-b, checksum/config: aaa111, deployment.kubernetes.io/revision: "4"}` + consumerLiveMeta),
		check: func(t *testing.T, stored []byte) {
			d := consumerDecode[appsv1.Deployment](t, stored)
			assert.Equal(t, map[string]string{"app": "web", "helm.sh/chart": "web-1.1.0", "env": "prod"}, d.Labels,
				"the chart's label is updated, the label added with kubectl stays")
			assert.Equal(t, map[string]string{"owner": "team-a", "deployment.kubernetes.io/revision": "4"}, d.Annotations,
				"the chart's value wins (overwrite), its dropped annotation goes, the controller's stays")
		},
	}, {
		name:   "metrics port added, server filled the protocol",
		newObj: newDeployment,
		previous: consumerDeploy(`replicas: 2`, `
      - name: app
        image: shop/web:1.4.0
        ports: [{name: http, containerPort: 8080}]`),
		chart: consumerDeploy(`replicas: 2`, `
      - name: app
        image: shop/web:1.4.0
        ports: [{name: http, containerPort: 8080}, {name: metrics, containerPort: 9090}]`),
		live: consumerDeployLive(`replicas: 2`, `
      - name: app
        image: shop/web:1.4.0
        ports: [{name: http, containerPort: 8080, protocol: TCP}]`),
		check: func(t *testing.T, stored []byte) {
			d := consumerDecode[appsv1.Deployment](t, stored)
			app := consumerContainer(d.Spec.Template.Spec, "app")
			require.NotNil(t, app)
			assert.Equal(t, []corev1.ContainerPort{
				{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP},
				{Name: "metrics", ContainerPort: 9090},
			}, app.Ports)
		},
	}, {
		name:   "config volume switched from a ConfigMap to a Secret",
		newObj: newDeployment,
		previous: helmDeployVolumes(`
      - {name: config, configMap: {name: web-config}}`, false),
		chart: helmDeployVolumes(`
      - {name: config, secret: {secretName: web-config}}`, false),
		live: helmDeployVolumes(`
      - {name: config, configMap: {name: web-config, defaultMode: 420}}
      - {name: istio-envoy, emptyDir: {medium: Memory}}`, true),
		check: func(t *testing.T, stored []byte) {
			d := consumerDecode[appsv1.Deployment](t, stored)
			vols := d.Spec.Template.Spec.Volumes
			require.Len(t, vols, 2)
			assert.Equal(t, "config", vols[0].Name)
			assert.Nil(t, vols[0].ConfigMap, "retainKeys drops the old source")
			require.NotNil(t, vols[0].Secret)
			assert.Equal(t, "web-config", vols[0].Secret.SecretName)
			assert.Equal(t, "istio-envoy", vols[1].Name, "the injected volume stays")
		},
	}, {
		name:   "strategy switched to Recreate",
		newObj: newDeployment,
		previous: consumerDeploy(`replicas: 1
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}`, `
      - {name: app, image: "shop/db-migrator:2"}`),
		chart: consumerDeploy(`replicas: 1
  strategy: {type: Recreate}`, `
      - {name: app, image: "shop/db-migrator:2"}`),
		live: consumerDeployLive(`replicas: 1
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}`, `
      - {name: app, image: "shop/db-migrator:2"}`),
		check: func(t *testing.T, stored []byte) {
			d := consumerDecode[appsv1.Deployment](t, stored)
			assert.Equal(t, appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}, d.Spec.Strategy,
				"Recreate with rollingUpdate would be rejected by validation")
		},
	}, {
		// The chart keeps one pod annotation: dropping them all is the
		// kubernetes#48164 difference (docs/compat.md, three-way patches).
		name:     "pod annotation dropped from the chart after kubectl rollout restart",
		newObj:   newDeployment,
		previous: helmDeployPodAnnotations(`{checksum/config: aaa111, prometheus.io/scrape: "true"}`, false),
		chart:    helmDeployPodAnnotations(`{prometheus.io/scrape: "true"}`, false),
		live: helmDeployPodAnnotations(`{checksum/config: aaa111, prometheus.io/scrape: "true",
          kubectl.kubernetes.io/restartedAt: "2026-11-20T08:00:00Z"}`, true),
		check: func(t *testing.T, stored []byte) {
			d := consumerDecode[appsv1.Deployment](t, stored)
			assert.Equal(t, map[string]string{
				"prometheus.io/scrape":              "true",
				"kubectl.kubernetes.io/restartedAt": "2026-11-20T08:00:00Z",
			}, d.Spec.Template.Annotations, "the chart's dropped annotation goes, the restart stamp stays")
		},
	}, helmServiceScenario(), helmConfigMapScenario(), {
		name:   "live object deleted out of band",
		newObj: newDeployment,
		previous: consumerDeploy(`replicas: 2`, `
      - {name: app, image: "shop/web:1.4.0"}
      - {name: log-shipper, image: "fluent/fluent-bit:3.0"}`),
		chart: consumerDeploy(`replicas: 3`, `
      - {name: app, image: "shop/web:1.5.0"}`),
		live: "null",
		check: func(t *testing.T, created []byte) {
			d := consumerDecode[appsv1.Deployment](t, created)
			assert.Equal(t, int32(3), *d.Spec.Replicas)
			assert.Equal(t, []string{"app"}, consumerNames(d.Spec.Template.Spec))
			assert.Equal(t, "shop/web:1.5.0", d.Spec.Template.Spec.Containers[0].Image)
		},
	}}
}

func helmServiceScenario() helmScenario {
	return helmScenario{
		name:   "service: port retargeted, port added, selector narrowed",
		newObj: newService,
		previous: `
apiVersion: v1
kind: Service
metadata: {name: web, labels: {app: web}}
spec:
  selector: {app: web, tier: frontend}
  ports: [{name: http, port: 80, targetPort: 8080}]`,
		chart: `
apiVersion: v1
kind: Service
metadata: {name: web, labels: {app: web}}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: http}, {name: https, port: 443, targetPort: 8443}]`,
		live: `
apiVersion: v1
kind: Service
metadata:
  name: web
  labels: {app: web}` + consumerLiveMeta + `
spec:
  type: ClusterIP
  clusterIP: 10.96.12.34
  clusterIPs: [10.96.12.34]
  sessionAffinity: None
  ipFamilies: [IPv4]
  internalTrafficPolicy: Cluster
  selector: {app: web, tier: frontend}
  ports: [{name: http, port: 80, protocol: TCP, targetPort: 8080}]
status: {loadBalancer: {}}`,
		check: func(t *testing.T, stored []byte) {
			s := consumerDecode[corev1.Service](t, stored)
			assert.Equal(t, "10.96.12.34", s.Spec.ClusterIP, "the allocated IP stays")
			assert.Equal(t, map[string]string{"app": "web"}, s.Spec.Selector)
			assert.Equal(t, []corev1.ServicePort{
				{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromString("http")},
				{Name: "https", Port: 443, TargetPort: intstr.FromInt32(8443)},
			}, s.Spec.Ports)
		},
	}
}

func helmConfigMapScenario() helmScenario {
	cm := func(data string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web-config}\ndata: " + data
	}
	return helmScenario{
		name:     "configmap: key changed, key dropped, key added by an operator",
		newObj:   newConfigMap,
		previous: cm(`{cache.ttl: "60", log.format: json, feature.beta: "true"}`),
		chart:    cm(`{cache.ttl: "300", log.format: json, region: eu-west-1}`),
		live:     cm(`{cache.ttl: "60", log.format: json, feature.beta: "true", operator.injected: "yes"}`),
		check: func(t *testing.T, stored []byte) {
			c := consumerDecode[corev1.ConfigMap](t, stored)
			assert.Equal(t, map[string]string{
				"cache.ttl": "300", "log.format": "json", "region": "eu-west-1", "operator.injected": "yes",
			}, c.Data)
		},
	}
}

// helmDeployMeta is a one-container Deployment with the metadata given.
func helmDeployMeta(meta string) string {
	return consumerDeployment("metadata:\n  name: web"+meta, "replicas: 2", `
      - {name: app, image: "shop/web:1.4.0"}`, "")
}

// helmDeployVolumes is a one-container Deployment with the volumes given,
// as a manifest or (live) as the server returns it.
func helmDeployVolumes(volumes string, live bool) string {
	containers := `
      - name: app
        image: shop/web:1.4.0
        volumeMounts: [{name: config, mountPath: /etc/web}]
      volumes:` + volumes
	if live {
		return consumerDeployLive("replicas: 2", containers)
	}
	return consumerDeploy("replicas: 2", containers)
}

// helmDeployPodAnnotations is a one-container Deployment whose pod template
// has the annotations given (none if empty).
func helmDeployPodAnnotations(annotations string, live bool) string {
	containers := `
      - {name: app, image: "shop/web:1.4.0"}`
	doc := consumerDeploy("replicas: 2", containers)
	if live {
		doc = consumerDeployLive("replicas: 2", containers)
	}
	if annotations == "" {
		return doc
	}
	return strings.Replace(doc, "metadata: {labels: {app: web}}", "metadata: {labels: {app: web}, annotations: "+annotations+"}", 1)
}
