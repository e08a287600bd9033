package smp

// checkLimits walks a decoded value and reports the first limit it
// exceeds: nesting depth or list length.
func checkLimits(v any, l Limits, what string) error {
	if l.MaxDepth <= 0 && l.MaxListLength <= 0 {
		return nil
	}
	return walkLimits(v, l, what, 0, nil)
}

func walkLimits(v any, l Limits, what string, depth int, at *pathNode) error {
	if l.MaxDepth > 0 && depth > l.MaxDepth {
		return newError(ErrLimit, at, "%s nests deeper than the limit of %d levels", what, l.MaxDepth)
	}
	switch v := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(v) { // sorted: the same path is reported every time
			e := v[k]
			if _, ok := e.(map[string]any); !ok {
				if _, ok := e.([]any); !ok {
					continue
				}
			}
			if err := walkLimits(e, l, what, depth+1, at.field(k)); err != nil {
				return err
			}
		}
	case []any:
		if l.MaxListLength > 0 && len(v) > l.MaxListLength {
			return newError(ErrLimit, at, "%s has a list of %d items, more than %d", what, len(v), l.MaxListLength)
		}
		for i, e := range v {
			if err := walkLimits(e, l, what, depth+1, at.index(i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// decodeLimited decodes a JSON object after checking its size, then
// checks its shape against the limits.
func decodeLimited(data []byte, what string, l Limits) (map[string]any, error) {
	if l.MaxBytes > 0 && len(data) > l.MaxBytes {
		return nil, &Error{Kind: ErrLimit, Msg: what + " is larger than the limit of " + itoa(l.MaxBytes) + " bytes"}
	}
	m, err := decodeObject(data, what)
	if err != nil {
		return nil, err
	}
	if err := checkLimits(m, l, what); err != nil {
		return nil, err
	}
	return m, nil
}
