package smp

// bounded returns l with MaxDepth within the ceiling every operation
// keeps (cycle.go).
func (l Limits) bounded() Limits {
	if l.MaxDepth <= 0 || l.MaxDepth > maxNesting {
		l.MaxDepth = maxNesting
	}
	return l
}

// checkLimits walks a decoded value and reports the first limit it
// exceeds: nesting depth or list length.
func checkLimits(v any, l Limits, what string) error {
	if l.MaxDepth <= 0 && l.MaxListLength <= 0 {
		return nil
	}
	return walkLimits(v, l, what, 0, nil)
}

func walkLimits(v any, l Limits, what string, depth int, at *pathNode) error {
	if msg, _ := limitBreach(v, l, what, depth, false); msg == "" {
		return nil
	}
	// Again in key order, so that the same breach is reported every time.
	msg, steps := limitBreach(v, l, what, depth, true)
	for i := len(steps) - 1; i >= 0; i-- {
		at = at.Append(steps[i])
	}
	return newError(ErrLimit, at, "%s", msg)
}

// limitBreach finds the first limit v exceeds: its message and the steps
// to it, innermost first. No path is built while nothing is wrong.
func limitBreach(v any, l Limits, what string, depth int, sorted bool) (string, []Step) {
	if l.MaxDepth > 0 && depth > l.MaxDepth {
		return what + " nests deeper than the limit of " + itoa(l.MaxDepth) + " levels", nil
	}
	switch v := v.(type) {
	case map[string]any:
		visit := func(k string, e any) (string, []Step) {
			if isScalar(e) {
				return "", nil
			}
			if msg, steps := limitBreach(e, l, what, depth+1, sorted); msg != "" {
				return msg, append(steps, FieldStep(k))
			}
			return "", nil
		}
		if sorted {
			for _, k := range sortedKeys(v) {
				if msg, steps := visit(k, v[k]); msg != "" {
					return msg, steps
				}
			}
		} else {
			for k, e := range v {
				if msg, steps := visit(k, e); msg != "" {
					return msg, steps
				}
			}
		}
	case []any:
		if l.MaxListLength > 0 && len(v) > l.MaxListLength {
			return what + " has a list of " + itoa(len(v)) + " items, more than " + itoa(l.MaxListLength), nil
		}
		for i, e := range v {
			if isScalar(e) {
				continue
			}
			if msg, steps := limitBreach(e, l, what, depth+1, sorted); msg != "" {
				return msg, append(steps, IndexStep(i))
			}
		}
	}
	return "", nil
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
