package bench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// argoInSync and argoOutOfSync check the verdict and decode the prediction.
func argoInSync(t *testing.T, dr *argoDiffResult) {
	assert.False(t, dr.modified, "out of sync:\nlive      %s\npredicted %s", dr.normalizedLive, dr.predictedLive)
}

func argoOutOfSync[T any](t *testing.T, dr *argoDiffResult) *T {
	assert.True(t, dr.modified, "in sync although git changed: %s", dr.predictedLive)
	return consumerDecode[T](t, dr.predictedLive)
}

// argoScenarios are states of an application's Deployment "web", Service
// and ConfigMap. The verdicts and predictions are what Argo CD is meant to
// report; none is read from an engine.
func argoScenarios() []argoScenario {
	app := `
      - name: app
        image: shop/web:2.0.0
        ports: [{containerPort: 8080}]`
	appLive := `
      - name: app
        image: shop/web:2.0.0
        imagePullPolicy: IfNotPresent
        terminationMessagePath: /dev/termination-log
        ports: [{containerPort: 8080, protocol: TCP}]`
	sidecar := `
      - {name: istio-proxy, image: "istio/proxyv2:1.24.0", args: [proxy, sidecar]}`
	scenarios := []argoScenario{{
		name:        "in sync: server defaults, status and an injected sidecar are no drift",
		newObj:      newDeployment,
		lastApplied: consumerDeploy(`replicas: 3`, app),
		config:      consumerDeploy(`replicas: 3`, app),
		live:        consumerDeployLive(`replicas: 3`, appLive+sidecar),
		check:       argoInSync,
	}, {
		name:        "replicas scaled by hand",
		newObj:      newDeployment,
		lastApplied: consumerDeploy(`replicas: 3`, app),
		config:      consumerDeploy(`replicas: 3`, app),
		live:        consumerDeployLive(`replicas: 6`, appLive),
		check: func(t *testing.T, dr *argoDiffResult) {
			d := argoOutOfSync[appsv1.Deployment](t, dr)
			assert.Equal(t, int32(3), *d.Spec.Replicas, "sync restores git's replicas")
		},
	}, {
		name:        "image bumped in git, injected sidecar stays out of the diff",
		newObj:      newDeployment,
		lastApplied: consumerDeploy(`replicas: 3`, app),
		config: consumerDeploy(`replicas: 3`, `
      - {name: app, image: "shop/web:2.1.0", ports: [{containerPort: 8080}]}`),
		live: consumerDeployLive(`replicas: 3`, appLive+sidecar),
		check: func(t *testing.T, dr *argoDiffResult) {
			d := argoOutOfSync[appsv1.Deployment](t, dr)
			assert.Equal(t, []string{"app", "istio-proxy"}, consumerNames(d.Spec.Template.Spec))
			assert.Equal(t, "shop/web:2.1.0", d.Spec.Template.Spec.Containers[0].Image)
			assert.Equal(t, corev1.PullIfNotPresent, d.Spec.Template.Spec.Containers[0].ImagePullPolicy)
		},
	}, {
		name:        "container removed from git while a sidecar was injected",
		newObj:      newDeployment,
		lastApplied: consumerDeploy(`replicas: 3`, app+"\n      - {name: worker, image: \"shop/worker:2.0.0\"}"),
		config:      consumerDeploy(`replicas: 3`, app),
		live:        consumerDeployLive(`replicas: 3`, appLive+"\n      - {name: worker, image: \"shop/worker:2.0.0\"}"+sidecar),
		check: func(t *testing.T, dr *argoDiffResult) {
			d := argoOutOfSync[appsv1.Deployment](t, dr)
			assert.Equal(t, []string{"app", "istio-proxy"}, consumerNames(d.Spec.Template.Spec))
		},
	}, argoEnvVolumeScenario(), {
		name:        "labels: git changes one, another writer added one",
		newObj:      newDeployment,
		lastApplied: consumerDeployment("metadata: {name: web, labels: {app: web, version: v1}}", "replicas: 3", app, ""),
		config:      consumerDeployment("metadata: {name: web, labels: {app: web, version: v2}}", "replicas: 3", app, ""),
		live:        consumerDeployLiveMeta("labels: {app: web, version: v1, team: payments}", "replicas: 3", appLive),
		check: func(t *testing.T, dr *argoDiffResult) {
			d := argoOutOfSync[appsv1.Deployment](t, dr)
			assert.Equal(t, map[string]string{"app": "web", "version": "v2", "team": "payments"}, d.Labels)
			assert.Equal(t, "shop", d.Namespace, "the namespace Argo CD strips from git's side stays")
		},
	}, {
		name:        "strategy switched to Recreate in git",
		newObj:      newDeployment,
		lastApplied: consumerDeploy("replicas: 1\n  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1}}", app),
		config:      consumerDeploy("replicas: 1\n  strategy: {type: Recreate}", app),
		live:        consumerDeployLive("replicas: 1\n  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 25%}}", appLive),
		check: func(t *testing.T, dr *argoDiffResult) {
			d := argoOutOfSync[appsv1.Deployment](t, dr)
			assert.Equal(t, appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}, d.Spec.Strategy)
		},
	}, {
		name:   "no last-applied: an env var added by hand is not drift",
		newObj: newDeployment,
		config: consumerDeploy(`replicas: 3`, app+"\n        env: [{name: MODE, value: live}]"),
		live:   consumerDeployLive(`replicas: 3`, appLive+"\n        env: [{name: MODE, value: live}, {name: DEBUG, value: \"1\"}]"),
		check:  argoInSync, // a two-way diff has no original to delete from
	}}
	return append(scenarios,
		argoServiceScenario("no last-applied: service in sync with server defaults", "8080", argoInSync),
		argoServiceScenario("no last-applied: service retargeted in git", "9090", func(t *testing.T, dr *argoDiffResult) {
			s := argoOutOfSync[corev1.Service](t, dr)
			assert.Equal(t, "10.96.0.42", s.Spec.ClusterIP, "the allocated IP stays")
			assert.Equal(t, []corev1.ServicePort{
				{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(9090)},
			}, s.Spec.Ports)
		}),
		argoConfigMapScenario())
}

func argoConfigMapScenario() argoScenario {
	cm := func(meta, data string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web-config, namespace: shop" + meta + "}\ndata: " + data
	}
	return argoScenario{
		name:        "configmap: key removed in git, key added by another writer",
		newObj:      newConfigMap,
		lastApplied: cm("", `{a: '1', b: '2'}`),
		config:      cm("", `{a: '1'}`),
		live:        cm(", uid: 0b6e9c1a", `{a: '1', b: '2', extra: x}`),
		check: func(t *testing.T, dr *argoDiffResult) {
			c := argoOutOfSync[corev1.ConfigMap](t, dr)
			assert.Equal(t, map[string]string{"a": "1", "extra": "x"}, c.Data)
		},
	}
}

func argoEnvVolumeScenario() argoScenario {
	deploy := func(env, volume string, live bool) string {
		containers := `
      - name: app
        image: shop/web:2.0.0
        env: ` + env + `
        volumeMounts: [{name: config, mountPath: /etc/web}]
      volumes: [` + volume + `]`
		if live {
			return consumerDeployLive("replicas: 3", containers)
		}
		return consumerDeploy("replicas: 3", containers)
	}
	oldEnv := `[{name: DB_HOST, value: db}, {name: DB_PORT, value: "5432"}]`
	oldVolume := `{name: config, configMap: {name: web-config}}`
	return argoScenario{
		name:        "env var inserted and volume switched to a secret in git",
		newObj:      newDeployment,
		lastApplied: deploy(oldEnv, oldVolume, false),
		config: deploy(`[{name: DB_HOST, value: db}, {name: DB_USER, value: web}, {name: DB_PORT, value: "5432"}]`,
			`{name: config, secret: {secretName: web-config}}`, false),
		live: deploy(oldEnv, `{name: config, configMap: {name: web-config, defaultMode: 420}}`, true),
		check: func(t *testing.T, dr *argoDiffResult) {
			d := argoOutOfSync[appsv1.Deployment](t, dr)
			spec := d.Spec.Template.Spec
			require.Len(t, spec.Containers, 1)
			assert.Equal(t, []corev1.EnvVar{
				{Name: "DB_HOST", Value: "db"}, {Name: "DB_USER", Value: "web"}, {Name: "DB_PORT", Value: "5432"},
			}, spec.Containers[0].Env, "git's order")
			require.Len(t, spec.Volumes, 1)
			assert.Nil(t, spec.Volumes[0].ConfigMap, "retainKeys drops the old source")
			require.NotNil(t, spec.Volumes[0].Secret)
			assert.Equal(t, "web-config", spec.Volumes[0].Secret.SecretName)
		},
	}
}

// argoServiceScenario is Service "web" from git with targetPort target
// against a live one holding targetPort 8080 and the server's defaults,
// with no last-applied configuration (a server-side or Helm-created object).
func argoServiceScenario(name, target string, check func(*testing.T, *argoDiffResult)) argoScenario {
	return argoScenario{
		name:   name,
		newObj: newService,
		config: `
apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: ` + target + `}]`,
		live: `
apiVersion: v1
kind: Service
metadata:
  name: web` + consumerLiveMeta + `
spec:
  type: ClusterIP
  clusterIP: 10.96.0.42
  clusterIPs: [10.96.0.42]
  sessionAffinity: None
  selector: {app: web}
  ports: [{name: http, port: 80, protocol: TCP, targetPort: 8080}]
status: {loadBalancer: {}}`,
		check: check,
	}
}
