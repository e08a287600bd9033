package smp

import "reflect"

// ApplyInPlace applies a strategic merge patch to the value dst points
// to: on success *dst holds what [Apply] would return for it (but for the
// parts kept, below); on failure it is exactly as it was.
//
// Its cost is that of the parts of the value the patch reaches (and a
// measure of the value against [Limits.MaxNodes], which reads list and
// map lengths): what the patch does not reach is kept as it is, not
// copied, so a one-field patch of an object holding a long list costs
// next to nothing. Unlike Apply's copy, the parts kept are not passed
// through JSON: unexported fields, and strings that are not UTF-8, stay
// as they were. The parts the patch reaches are made anew, so nothing
// that other references reach from the old value is changed: a slice or
// pointer taken from *dst before the call still sees the old parts. The
// new value shares the parts kept with the old one, as a shallow copy
// does.
func ApplyInPlace[T any](dst *T, patch Patch, opts ...Option) error {
	if dst == nil {
		return public(newError(ErrInvalidValue, nil, "ApplyInPlace: dst is a nil pointer"))
	}
	v := reflect.ValueOf(dst).Elem()
	res, err := applyTypedValue(v, dst, patch, opts, true)
	if err != nil {
		return public(err)
	}
	v.Set(res)
	return nil
}
