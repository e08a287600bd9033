package smp_test

import (
	"fmt"

	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/exampletypes"
)

// Generators of fixtures values for the typed property tests. Names and
// values come from small pools, so that two values share list elements
// (which then merge, move or go) rather than only differ. Lists are drawn
// nil, empty or full, to exercise what omitempty drops; merge lists now
// and then repeat a key, to exercise the whole-list replacements.

type typedGen struct {
	t *rapid.T
}

func (g typedGen) pick(label string, pool ...string) string {
	return rapid.SampledFrom(pool).Draw(g.t, label)
}

func (g typedGen) flip(label string) bool { return rapid.Bool().Draw(g.t, label) }

func (g typedGen) intn(label string, lo, hi int) int { return rapid.IntRange(lo, hi).Draw(g.t, label) }

func (g typedGen) ptr32(label string) *int32 {
	if g.intn(label+"?", 0, 2) == 0 {
		return nil
	}
	v := int32(g.intn(label, 0, 3))
	return &v
}

func (g typedGen) boolPtr(label string) *bool {
	switch g.intn(label, 0, 2) {
	case 0:
		return nil
	case 1:
		v := true
		return &v
	}
	v := false
	return &v
}

// names draws names from a pool: distinct, or (rarely) with a repeat.
func (g typedGen) names(label string, pool []string, max int) []string {
	if g.intn(label+".repeat", 0, 9) == 0 {
		return rapid.SliceOfN(rapid.SampledFrom(pool), 0, max).Draw(g.t, label)
	}
	return rapid.SliceOfNDistinct(rapid.SampledFrom(pool), 0, min(max, len(pool)), rapid.ID[string]).Draw(g.t, label)
}

// strings draws a list of strings: nil, empty or some.
func (g typedGen) strings(label string, pool ...string) []string {
	switch g.intn(label+".shape", 0, 3) {
	case 0:
		return nil
	case 1:
		return []string{}
	}
	return rapid.SliceOfN(rapid.SampledFrom(pool), 1, 3).Draw(g.t, label)
}

func (g typedGen) stringMap(label string, keys, vals []string) map[string]string {
	switch g.intn(label+".shape", 0, 3) {
	case 0:
		return nil
	case 1:
		return map[string]string{}
	}
	m := map[string]string{}
	for _, k := range rapid.SliceOfNDistinct(rapid.SampledFrom(keys), 1, len(keys), rapid.ID[string]).Draw(g.t, label) {
		m[k] = g.pick(label+"."+k, vals...)
	}
	return m
}

func (g typedGen) quantity(label string) exampletypes.Quantity {
	return exampletypes.MustParseQuantity(g.pick(label, "100m", "250m", "1", "64Mi", "128Mi"))
}

func (g typedGen) intOrString(label string) exampletypes.IntOrString {
	if g.flip(label + ".int") {
		return exampletypes.FromInt32(int32(g.intn(label, 0, 2)))
	}
	return exampletypes.FromString(g.pick(label, "http", "25%"))
}

func (g typedGen) resources(label string) exampletypes.ResourceRequirements {
	list := func(l string) exampletypes.ResourceList {
		switch g.intn(l+".shape", 0, 3) {
		case 0:
			return nil
		case 1:
			return exampletypes.ResourceList{}
		}
		r := exampletypes.ResourceList{}
		for _, k := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"cpu", "memory"}), 1, 2, rapid.ID[string]).Draw(g.t, l) {
			r[k] = g.quantity(l + "." + k)
		}
		return r
	}
	return exampletypes.ResourceRequirements{Limits: list(label + ".limits"), Requests: list(label + ".requests")}
}

func (g typedGen) probe(label string) *exampletypes.Probe {
	if g.intn(label+"?", 0, 2) == 0 {
		return nil
	}
	p := &exampletypes.Probe{PeriodSeconds: int32(g.intn(label+".period", 0, 2))}
	switch g.intn(label+".handler", 0, 3) {
	case 0:
		p.HTTPGet = &exampletypes.HTTPGetAction{Path: g.pick(label+".path", "/", "/healthz"), Port: g.intOrString(label + ".port")}
	case 1:
		p.TCPSocket = &exampletypes.TCPSocketAction{Port: g.intOrString(label + ".port")}
	case 2:
		p.Exec = &exampletypes.ExecAction{Command: g.strings(label+".cmd", "cat", "ls")}
	}
	return p
}

func (g typedGen) container(label, name string) exampletypes.Container {
	c := exampletypes.Container{
		Name:       name,
		Image:      g.pick(label+".image", "", "nginx:1", "nginx:2", "busybox"),
		Command:    g.strings(label+".command", "sh", "-c"),
		Args:       g.strings(label+".args", "a", "b"),
		WorkingDir: g.pick(label+".wd", "", "/srv"),
		Resources:  g.resources(label + ".res"),
	}
	switch g.intn(label+".ports.shape", 0, 3) {
	case 1:
		c.Ports = []exampletypes.ContainerPort{}
	case 2:
		n := g.intn(label+".ports.n", 1, 3)
		for i := range n {
			l := fmt.Sprintf("%s.port%d", label, i)
			c.Ports = append(c.Ports, exampletypes.ContainerPort{
				Name:          g.pick(l+".name", "", "http", "dns"),
				ContainerPort: int32(g.intn(l+".port", 53, 54)),
				Protocol:      g.pick(l+".proto", "", "TCP", "UDP"),
			})
		}
	}
	for _, n := range g.names(label+".env", []string{"A", "B", "C", "D"}, 4) {
		e := exampletypes.EnvVar{Name: n, Value: g.pick(label+".env."+n, "", "x", "y")}
		if g.intn(label+".env."+n+".from", 0, 3) == 0 {
			e.ValueFrom = &exampletypes.EnvVarSource{FieldRef: &exampletypes.ObjectFieldSelector{FieldPath: g.pick(label+".fp", "metadata.name", "spec.nodeName")}}
		}
		c.Env = append(c.Env, e)
	}
	for _, p := range g.names(label+".mounts", []string{"/a", "/b", "/c"}, 3) {
		c.VolumeMounts = append(c.VolumeMounts, exampletypes.VolumeMount{Name: g.pick(label+".mount.name", "x", "y"), MountPath: p, ReadOnly: g.flip(label + ".ro")})
	}
	c.LivenessProbe = g.probe(label + ".live")
	return c
}

func (g typedGen) volume(label, name string) exampletypes.Volume {
	v := exampletypes.Volume{Name: name}
	for i := range g.intn(label+".sources", 0, 2) {
		switch g.intn(fmt.Sprintf("%s.source%d", label, i), 0, 3) {
		case 0:
			v.EmptyDir = &exampletypes.EmptyDirVolumeSource{Medium: g.pick(label+".medium", "", "Memory")}
		case 1:
			v.HostPath = &exampletypes.HostPathVolumeSource{Path: g.pick(label+".path", "/x", "/y")}
		case 2:
			v.ConfigMap = &exampletypes.ConfigMapVolumeSource{LocalObjectReference: exampletypes.LocalObjectReference{Name: g.pick(label+".cm", "", "c1")}}
		case 3:
			v.Secret = &exampletypes.SecretVolumeSource{SecretName: g.pick(label+".secret", "s1", "s2")}
		}
	}
	return v
}

func (g typedGen) podSpec(label string) exampletypes.PodSpec {
	s := exampletypes.PodSpec{
		RestartPolicy: g.pick(label+".restart", "", "Always", "Never"),
		NodeSelector:  g.stringMap(label+".nodeSelector", []string{"os", "disk"}, []string{"linux", "ssd"}),
	}
	if g.intn(label+".containers.shape", 0, 4) == 0 {
		s.Containers = []exampletypes.Container{} // a non-omitempty list: [] is not null
	} else {
		for _, n := range g.names(label+".containers", []string{"a", "b", "c"}, 3) {
			s.Containers = append(s.Containers, g.container(label+".c["+n+"]", n))
		}
	}
	for _, n := range g.names(label+".init", []string{"i1", "i2"}, 2) {
		s.InitContainers = append(s.InitContainers, exampletypes.Container{Name: n, Image: g.pick(label+".init.image", "busybox", "alpine")})
	}
	for _, n := range g.names(label+".volumes", []string{"v1", "v2", "v3"}, 3) {
		s.Volumes = append(s.Volumes, g.volume(label+".v["+n+"]", n))
	}
	if g.flip(label + ".grace?") {
		v := int64(g.intn(label+".grace", 0, 30))
		s.TerminationGracePeriodSeconds = &v
	}
	for _, n := range g.names(label+".pullSecrets", []string{"r1", "r2"}, 2) {
		s.ImagePullSecrets = append(s.ImagePullSecrets, exampletypes.LocalObjectReference{Name: n})
	}
	if g.flip(label + ".tolerations") {
		s.Tolerations = []exampletypes.Toleration{{Key: g.pick(label+".tkey", "k1", "k2"), Operator: "Exists"}}
	}
	return s
}

func (g typedGen) objectMeta(label string) exampletypes.ObjectMeta {
	m := exampletypes.ObjectMeta{
		Name:        g.pick(label+".name", "", "web"),
		Namespace:   g.pick(label+".ns", "", "default"),
		Generation:  int64(g.intn(label+".gen", 0, 2)),
		Labels:      g.stringMap(label+".labels", []string{"app", "tier", "env"}, []string{"1", "2"}),
		Annotations: g.stringMap(label+".annotations", []string{"a/b", "c"}, []string{"x", "y"}),
	}
	switch g.intn(label+".finalizers.shape", 0, 3) {
	case 1:
		m.Finalizers = []string{}
	case 2:
		m.Finalizers = g.names(label+".finalizers", []string{"f1", "f2", "f3"}, 3)
	}
	for _, uid := range g.names(label+".owners", []string{"u1", "u2"}, 2) {
		m.OwnerReferences = append(m.OwnerReferences, exampletypes.OwnerReference{APIVersion: "v1", Kind: "RS", Name: g.pick(label+".owner", "o1", "o2"), UID: uid, Controller: g.boolPtr(label + ".ctl")})
	}
	return m
}

func typedGenDeployment(t *rapid.T) *exampletypes.Deployment {
	g := typedGen{t}
	if g.intn("nil", 0, 19) == 0 {
		return nil
	}
	d := &exampletypes.Deployment{
		TypeMeta:   exampletypes.TypeMeta{Kind: "Deployment", APIVersion: g.pick("apiVersion", "apps/v1", "")},
		ObjectMeta: g.objectMeta("meta"),
	}
	d.Spec.Replicas = g.ptr32("replicas")
	if g.flip("selector") {
		d.Spec.Selector = &exampletypes.LabelSelector{MatchLabels: g.stringMap("matchLabels", []string{"app"}, []string{"web", "api"})}
	}
	d.Spec.Template.Labels = g.stringMap("template.labels", []string{"app", "tier"}, []string{"1", "2"})
	d.Spec.Template.Spec = g.podSpec("pod")
	switch g.intn("strategy", 0, 3) {
	case 1:
		d.Spec.Strategy.Type = "Recreate"
	case 2:
		mu := g.intOrString("maxUnavailable")
		d.Spec.Strategy = exampletypes.DeploymentStrategy{Type: "RollingUpdate", RollingUpdate: &exampletypes.RollingUpdateDeployment{MaxUnavailable: &mu}}
	case 3:
		d.Spec.Strategy.RollingUpdate = &exampletypes.RollingUpdateDeployment{}
	}
	d.Spec.MinReadySeconds = int32(g.intn("minReady", 0, 2))
	d.Spec.Paused = g.flip("paused")
	for _, ty := range g.names("conditions", []string{"Available", "Progressing"}, 2) {
		d.Status.Conditions = append(d.Status.Conditions, exampletypes.DeploymentCondition{Type: ty, Status: g.pick("status", "True", "False"), LastUpdateTime: exampletypes.Time(g.pick("time", "", "2024-05-01T12:00:00Z"))})
	}
	d.Status.Replicas = int32(g.intn("statusReplicas", 0, 2))
	return d
}

func typedGenPod(t *rapid.T) *exampletypes.Pod {
	g := typedGen{t}
	p := &exampletypes.Pod{ObjectMeta: g.objectMeta("meta"), Spec: g.podSpec("spec")}
	p.Status.Phase = g.pick("phase", "", "Running")
	for _, n := range g.names("statuses", []string{"a", "b"}, 2) {
		cs := exampletypes.ContainerStatus{Name: n, Ready: g.flip("ready"), Image: g.pick("image", "x", "y")}
		switch g.intn("state", 0, 3) {
		case 1:
			cs.State.Running = &exampletypes.ContainerStateRunning{StartedAt: "2024-05-01T12:00:00Z"}
		case 2:
			cs.State.Waiting = &exampletypes.ContainerStateWaiting{Reason: g.pick("reason", "", "Pull")}
		case 3:
			cs.State.Terminated = &exampletypes.ContainerStateTerminated{ExitCode: int32(g.intn("exit", 0, 1))}
		}
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, cs)
	}
	return p
}

func typedGenService(t *rapid.T) *exampletypes.Service {
	g := typedGen{t}
	s := &exampletypes.Service{ObjectMeta: g.objectMeta("meta")}
	s.Spec.Selector = g.stringMap("selector", []string{"app"}, []string{"web", "api"})
	s.Spec.Type = g.pick("type", "", "ClusterIP", "NodePort")
	n := g.intn("ports.n", 0, 4)
	for i := range n {
		l := fmt.Sprintf("port%d", i)
		s.Spec.Ports = append(s.Spec.Ports, exampletypes.ServicePort{
			Name:       g.pick(l+".name", "", "dns", "http"),
			Protocol:   g.pick(l+".proto", "", "TCP", "UDP"),
			Port:       int32(g.intn(l+".port", 53, 54)),
			TargetPort: g.intOrString(l + ".target"),
			NodePort:   int32(g.intn(l+".node", 0, 1)),
		})
	}
	return s
}

func typedGenConfigMap(t *rapid.T) *exampletypes.ConfigMap {
	g := typedGen{t}
	c := &exampletypes.ConfigMap{ObjectMeta: g.objectMeta("meta"), Immutable: g.boolPtr("immutable")}
	c.Data = g.stringMap("data", []string{"k1", "k2", "k3"}, []string{"", "v", "w"})
	switch g.intn("binary", 0, 3) {
	case 1:
		c.BinaryData = map[string][]byte{}
	case 2:
		c.BinaryData = map[string][]byte{}
		for _, k := range g.names("binary.keys", []string{"b1", "b2"}, 2) {
			switch g.intn("binary."+k, 0, 2) {
			case 0:
				c.BinaryData[k] = nil
			case 1:
				c.BinaryData[k] = []byte{}
			case 2:
				c.BinaryData[k] = []byte{0, byte(g.intn("byte", 0, 255))}
			}
		}
	}
	return c
}

func typedGenGateway(t *rapid.T) *exampletypes.Gateway {
	g := typedGen{t}
	gw := &exampletypes.Gateway{ObjectMeta: g.objectMeta("meta")}
	gw.Spec.ClassName = g.pick("class", "", "example")
	gw.Spec.Addresses = g.strings("addresses", "10.0.0.1", "10.0.0.2")
	n := g.intn("listeners.n", 0, 4)
	for i := range n {
		l := fmt.Sprintf("listener%d", i)
		li := exampletypes.Listener{
			Name:     g.pick(l+".name", "", "a", "b"),
			Port:     int32(g.intn(l+".port", 80, 81)),
			Protocol: g.pick(l+".proto", "TCP", "UDP", ""),
			Hostname: g.pick(l+".host", "", "example.com"),
		}
		if g.flip(l + ".tls") {
			li.TLS = &exampletypes.ListenerTLS{Mode: g.pick(l+".mode", "", "Terminate")}
			for _, ref := range g.names(l+".refs", []string{"c1", "c2"}, 2) {
				li.TLS.CertificateRefs = append(li.TLS.CertificateRefs, exampletypes.LocalObjectReference{Name: ref})
			}
		}
		gw.Spec.Listeners = append(gw.Spec.Listeners, li)
	}
	return gw
}

func (g typedGen) seedItems(label string) []exampletypes.SeedItem {
	var items []exampletypes.SeedItem
	if g.intn(label+".shape", 0, 5) == 0 {
		return []exampletypes.SeedItem{}
	}
	for i := range g.intn(label+".n", 0, 4) {
		l := fmt.Sprintf("%s%d", label, i)
		it := exampletypes.SeedItem{
			Foo:     g.pick(l+".foo", "a", "b", "a", "b", ""),
			Bar:     g.pick(l+".bar", "", "x", "y"),
			Baz:     g.pick(l+".baz", "", "m"),
			Another: g.pick(l+".another", "", "val"),
		}
		if g.flip(l + ".other?") {
			o := g.intOrString(l + ".other")
			it.Other = &o
		}
		items = append(items, it)
	}
	return items
}

func typedGenSeedRecommended(t *rapid.T) *exampletypes.SeedRecommended {
	return &exampletypes.SeedRecommended{List: typedGen{t}.seedItems("list")}
}

func typedGenSeedRecommendedBaz(t *rapid.T) *exampletypes.SeedRecommendedBaz {
	return &exampletypes.SeedRecommendedBaz{List: typedGen{t}.seedItems("list")}
}

func typedGenSeedMultiKey(t *rapid.T) *exampletypes.SeedMultiKey {
	return &exampletypes.SeedMultiKey{List: typedGen{t}.seedItems("list")}
}

func typedGenSeedUnion(t *rapid.T) *exampletypes.SeedUnion {
	g := typedGen{t}
	if g.intn("union?", 0, 3) == 0 {
		return &exampletypes.SeedUnion{}
	}
	return &exampletypes.SeedUnion{Union: &exampletypes.SeedUnionFields{
		Foo: g.pick("foo", "", "1"), Other: g.pick("other", "", "2"), Another: g.pick("another", "", "3"), Bar: g.pick("bar", "", "4"),
	}}
}

func typedGenSeedDiscriminatedUnion(t *rapid.T) *exampletypes.SeedDiscriminatedUnion {
	g := typedGen{t}
	if g.intn("union?", 0, 3) == 0 {
		return &exampletypes.SeedDiscriminatedUnion{}
	}
	u := &exampletypes.SeedNamedUnion{DiscriminatorName: g.pick("name", "", "foo", "bar")}
	if g.flip("foo") {
		u.FooField = &exampletypes.SeedFooField{FooSubfield: g.pick("foosub", "", "f")}
	}
	if g.flip("bar") {
		u.BarField = &exampletypes.SeedBarField{BarSubfield: g.pick("barsub", "", "b")}
	}
	return &exampletypes.SeedDiscriminatedUnion{UnionName: u}
}

func typedGenSeedOrderedList(t *rapid.T) *exampletypes.SeedOrderedList {
	g := typedGen{t}
	l := &exampletypes.SeedOrderedList{}
	for _, n := range g.names("list", []string{"A", "B", "C", "D"}, 4) {
		l.List = append(l.List, exampletypes.SeedNamedItem{Name: n, Value: g.pick("value", "", "1", "2")})
	}
	return l
}

func typedGenSeedOrderedSet(t *rapid.T) *exampletypes.SeedOrderedSet {
	g := typedGen{t}
	return &exampletypes.SeedOrderedSet{List: g.names("list", []string{"A", "B", "C", "D"}, 4)}
}

func typedGenSeedMergeKeyList(t *rapid.T) *exampletypes.SeedMergeKeyList {
	g := typedGen{t}
	l := &exampletypes.SeedMergeKeyList{}
	for _, n := range g.names("list", []string{"a", "b", "c"}, 3) {
		l.List = append(l.List, exampletypes.SeedMergeKeyItem{MergeKey: n, Other: g.pick("other", "", "x")})
	}
	return l
}
