package smp

// PreconditionFunc checks a patch before it is returned; a false result
// fails the operation with an ErrPreconditionFailed error. It receives the
// patch as a map[string]any, as in Kubernetes.
type PreconditionFunc func(any) bool

// RequireKeyUnchanged returns a precondition that fails when the patch
// sets the top-level key.
func RequireKeyUnchanged(key string) PreconditionFunc {
	return func(patch any) bool {
		m, ok := patch.(map[string]any)
		if !ok {
			return true
		}
		_, set := m[key]
		return !set
	}
}

// RequireMetadataKeyUnchanged returns a precondition that fails when the
// patch sets the key inside metadata.
func RequireMetadataKeyUnchanged(key string) PreconditionFunc {
	return func(patch any) bool {
		m, ok := patch.(map[string]any)
		if !ok {
			return true
		}
		md, ok := m["metadata"].(map[string]any)
		if !ok {
			return true
		}
		_, set := md[key]
		return !set
	}
}
