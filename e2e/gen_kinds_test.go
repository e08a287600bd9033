package e2e

import (
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// generatedKind draws an original object and a modified version of it
// that differs only where the server allows an update.
type generatedKind struct {
	kind string
	pair func(g *gen, name string) (original, modified any)
}

// twice draws two independent objects of one kind.
func twice[T any](f func(g *gen, name string) T) func(g *gen, name string) (any, any) {
	return func(g *gen, name string) (any, any) { return f(g, name), f(g, name) }
}

func (g *gen) replicas() *int32 {
	if g.chance(0.5) {
		return nil // left to an autoscaler, or to the default
	}
	r := int32(g.r.IntN(4))
	return &r
}

var generatedKinds = []generatedKind{
	{"Deployment", twice(func(g *gen, name string) *appsv1.Deployment {
		sel := map[string]string{"app": name}
		d := &appsv1.Deployment{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"}, ObjectMeta: g.objectMeta(name)}
		d.Spec = appsv1.DeploymentSpec{Replicas: g.replicas(), Selector: &metav1.LabelSelector{MatchLabels: sel}, Template: g.template(sel, "")}
		switch g.r.IntN(3) {
		case 0:
			d.Spec.Strategy.Type = appsv1.RecreateDeploymentStrategyType
		case 1:
			surge := intstr.FromString(g.pick([]string{"25%", "50%"}))
			d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType, RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &surge}}
		}
		return d
	})},
	{"StatefulSet", twice(func(g *gen, name string) *appsv1.StatefulSet {
		sel := map[string]string{"app": name}
		s := &appsv1.StatefulSet{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "StatefulSet"}, ObjectMeta: g.objectMeta(name)}
		s.Spec = appsv1.StatefulSetSpec{Replicas: g.replicas(), ServiceName: name, Selector: &metav1.LabelSelector{MatchLabels: sel}, Template: g.template(sel, "")}
		if g.chance(0.5) {
			partition := int32(g.r.IntN(3))
			s.Spec.UpdateStrategy = appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType, RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: &partition}}
		}
		s.Spec.MinReadySeconds = int32(g.r.IntN(2) * 5)
		return s
	})},
	{"DaemonSet", twice(func(g *gen, name string) *appsv1.DaemonSet {
		sel := map[string]string{"app": name}
		d := &appsv1.DaemonSet{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "DaemonSet"}, ObjectMeta: g.objectMeta(name)}
		d.Spec = appsv1.DaemonSetSpec{Selector: &metav1.LabelSelector{MatchLabels: sel}, Template: g.template(sel, "")}
		if g.chance(0.5) {
			d.Spec.UpdateStrategy.Type = appsv1.OnDeleteDaemonSetStrategyType
		}
		return d
	})},
	{"ReplicaSet", twice(func(g *gen, name string) *appsv1.ReplicaSet {
		sel := map[string]string{"app": name}
		r := &appsv1.ReplicaSet{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"}, ObjectMeta: g.objectMeta(name)}
		r.Spec = appsv1.ReplicaSetSpec{Replicas: g.replicas(), Selector: &metav1.LabelSelector{MatchLabels: sel}, Template: g.template(sel, "")}
		return r
	})},
	{"CronJob", twice(func(g *gen, name string) *batchv1.CronJob {
		c := &batchv1.CronJob{TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: "CronJob"}, ObjectMeta: g.objectMeta(name)}
		c.Spec.Schedule = g.pick([]string{"*/5 * * * *", "0 3 * * *"})
		c.Spec.JobTemplate.Spec.Template = g.template(nil, corev1.RestartPolicyOnFailure)
		if g.chance(0.5) {
			c.Spec.ConcurrencyPolicy = batchv1.ForbidConcurrent
		}
		return c
	})},
	{"Pod", func(g *gen, name string) (any, any) { return g.podPair(name) }},
	{"Service", twice(func(g *gen, name string) *corev1.Service {
		s := &corev1.Service{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Service"}, ObjectMeta: g.objectMeta(name)}
		s.Spec.Selector = g.labels(labelKeys, map[string]string{"app": name})
		for _, n := range subset(g, []string{"80", "443", "53"}, 1) {
			port := map[string]int32{"80": 80, "443": 443, "53": 53}[n]
			s.Spec.Ports = append(s.Spec.Ports, corev1.ServicePort{Name: "tcp-" + n, Port: port, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(port + 8000)})
			if n == "53" && g.chance(0.5) { // one port number, two protocols
				s.Spec.Ports = append(s.Spec.Ports, corev1.ServicePort{Name: "udp-" + n, Port: port, Protocol: corev1.ProtocolUDP})
			}
		}
		return s
	})},
	{"ConfigMap", twice(func(g *gen, name string) *corev1.ConfigMap {
		c := &corev1.ConfigMap{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, ObjectMeta: g.objectMeta(name), Data: map[string]string{}}
		for _, k := range subset(g, []string{"a.conf", "b.conf", "mode"}, 0) {
			c.Data[k] = g.pick([]string{"on", "off", "x=1\ny=2\n"})
		}
		return c
	})},
	{"Secret", twice(func(g *gen, name string) *corev1.Secret {
		s := &corev1.Secret{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"}, ObjectMeta: g.objectMeta(name), Type: corev1.SecretTypeOpaque, Data: map[string][]byte{}}
		for _, k := range subset(g, []string{"user", "password", "token"}, 0) {
			s.Data[k] = []byte(g.pick([]string{"s3cret", "hunter2"}))
		}
		return s
	})},
	{"ServiceAccount", twice(func(g *gen, name string) *corev1.ServiceAccount {
		s := &corev1.ServiceAccount{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ServiceAccount"}, ObjectMeta: g.objectMeta(name)}
		for _, n := range subset(g, []string{"registry-a", "registry-b"}, 0) {
			s.ImagePullSecrets = append(s.ImagePullSecrets, corev1.LocalObjectReference{Name: n})
		}
		if g.chance(0.5) {
			b := g.chance(0.5)
			s.AutomountServiceAccountToken = &b
		}
		return s
	})},
	{"Role", twice(func(g *gen, name string) *rbacv1.Role {
		r := &rbacv1.Role{TypeMeta: metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "Role"}, ObjectMeta: g.objectMeta(name)}
		for range 1 + g.r.IntN(3) {
			r.Rules = append(r.Rules, rbacv1.PolicyRule{APIGroups: []string{g.pick([]string{"", "apps"})},
				Resources: subset(g, []string{"pods", "services", "deployments"}, 1), Verbs: subset(g, []string{"get", "list", "watch"}, 1)})
		}
		return r
	})},
	{"NetworkPolicy", twice(func(g *gen, name string) *networkingv1.NetworkPolicy {
		n := &networkingv1.NetworkPolicy{TypeMeta: metav1.TypeMeta{APIVersion: "networking.k8s.io/v1", Kind: "NetworkPolicy"}, ObjectMeta: g.objectMeta(name)}
		n.Spec.PodSelector = metav1.LabelSelector{MatchLabels: g.labels(labelKeys, nil)}
		for range g.r.IntN(3) {
			port := intstr.FromInt32(int32(80 + g.r.IntN(3)))
			n.Spec.Ingress = append(n.Spec.Ingress, networkingv1.NetworkPolicyIngressRule{
				Ports: []networkingv1.NetworkPolicyPort{{Port: &port}},
				From:  []networkingv1.NetworkPolicyPeer{{PodSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"role": g.pick([]string{"a", "b"})}}}},
			})
		}
		if g.chance(0.5) {
			n.Spec.PolicyTypes = []networkingv1.PolicyType{networkingv1.PolicyTypeIngress}
		}
		return n
	})},
	{"PodDisruptionBudget", twice(func(g *gen, name string) *policyv1.PodDisruptionBudget {
		p := &policyv1.PodDisruptionBudget{TypeMeta: metav1.TypeMeta{APIVersion: "policy/v1", Kind: "PodDisruptionBudget"}, ObjectMeta: g.objectMeta(name)}
		p.Spec.Selector = &metav1.LabelSelector{MatchLabels: g.labels(labelKeys, map[string]string{"app": name})}
		v := intstr.FromInt32(int32(1 + g.r.IntN(2)))
		if g.chance(0.5) {
			v = intstr.FromString("50%")
		}
		if g.chance(0.5) {
			p.Spec.MinAvailable = &v
		} else {
			p.Spec.MaxUnavailable = &v
		}
		return p
	})},
	{"HorizontalPodAutoscaler", twice(func(g *gen, name string) *autoscalingv2.HorizontalPodAutoscaler {
		h := &autoscalingv2.HorizontalPodAutoscaler{TypeMeta: metav1.TypeMeta{APIVersion: "autoscaling/v2", Kind: "HorizontalPodAutoscaler"}, ObjectMeta: g.objectMeta(name)}
		minReplicas := int32(1 + g.r.IntN(2))
		h.Spec = autoscalingv2.HorizontalPodAutoscalerSpec{MinReplicas: &minReplicas, MaxReplicas: int32(3 + g.r.IntN(5)),
			ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: name}}
		for _, r := range subset(g, []string{"cpu", "memory"}, 0) {
			u := int32(50 + 10*g.r.IntN(4))
			h.Spec.Metrics = append(h.Spec.Metrics, autoscalingv2.MetricSpec{Type: autoscalingv2.ResourceMetricSourceType,
				Resource: &autoscalingv2.ResourceMetricSource{Name: corev1.ResourceName(r), Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: &u}}})
		}
		return h
	})},
	{"Ingress", twice(func(g *gen, name string) *networkingv1.Ingress {
		in := &networkingv1.Ingress{TypeMeta: metav1.TypeMeta{APIVersion: "networking.k8s.io/v1", Kind: "Ingress"}, ObjectMeta: g.objectMeta(name)}
		prefix := networkingv1.PathTypePrefix
		for _, host := range subset(g, []string{"a.example.com", "b.example.com"}, 1) {
			rule := networkingv1.IngressRule{Host: host, IngressRuleValue: networkingv1.IngressRuleValue{HTTP: &networkingv1.HTTPIngressRuleValue{}}}
			for _, p := range subset(g, []string{"/", "/api", "/static"}, 1) {
				rule.HTTP.Paths = append(rule.HTTP.Paths, networkingv1.HTTPIngressPath{Path: p, PathType: &prefix,
					Backend: networkingv1.IngressBackend{Service: &networkingv1.IngressServiceBackend{Name: g.pick([]string{"web", "api"}), Port: networkingv1.ServiceBackendPort{Number: 80}}}})
			}
			in.Spec.Rules = append(in.Spec.Rules, rule)
		}
		if g.chance(0.5) {
			in.Spec.TLS = []networkingv1.IngressTLS{{Hosts: []string{"a.example.com"}, SecretName: "tls"}}
		}
		return in
	})},
	{"LimitRange", twice(func(g *gen, name string) *corev1.LimitRange {
		l := &corev1.LimitRange{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "LimitRange"}, ObjectMeta: g.objectMeta(name)}
		item := corev1.LimitRangeItem{Type: corev1.LimitTypeContainer, Default: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse(g.pick([]string{"256Mi", "512Mi"}))}}
		if g.chance(0.5) {
			item.DefaultRequest = corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("128Mi")}
		}
		l.Spec.Limits = []corev1.LimitRangeItem{item}
		return l
	})},
}
