package builtin

// Namespaced reports whether objects of the built-in kind with the given
// apiVersion and kind live in a namespace, as the API server serves them
// (a Pod does, a Namespace or a ClusterRole does not). ok is false for a
// kind that is not bundled.
func Namespaced(apiVersion, kind string) (namespaced, ok bool) {
	if _, err := Lookup(apiVersion, kind); err != nil {
		return false, false
	}
	return !clusterScoped[apiVersion+" "+kind], true
}
