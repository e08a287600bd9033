package jsonval

// fastDecoder decodes a JSON object in one pass into what encoding/json's
// Decoder with UseNumber stores in an any, checking the limits as it goes.
// It gives up on anything it would not decode exactly so (invalid JSON or
// UTF-8, a breached limit, a top level other than an object), and
// DecodeLimited then takes encoding/json's path, which says what is
// wrong. A map takes its members as they are read (a repeated key: the
// last wins, as in encoding/json); a list's elements wait on a stack until
// it ends, so that its slice is made once, at its final size (the stack
// dies with the decode, so what it held is left in it). Strings and
// numbers without escapes are slices of one copy of the text: a decoded
// string keeps that copy alive, never the caller's bytes. Their boxes and
// the lists come from slabs (slab.go).
type fastDecoder struct {
	data     []byte
	text     string // data's copy, which decoded strings share
	i        int
	maxDepth int // the deepest container allowed, root 0
	maxList  int // the longest list allowed; 0 for no limit
	elems    []any
	slabs
}

// member is an object member being written (encode.go).
type member struct {
	key string
	val any
}

// decodeFast decodes data, an object, within l; ok false means data must
// take the decoding path.
func decodeFast(data []byte, l Limits) (m map[string]any, ok bool) {
	d := fastDecoder{data: data, maxDepth: maxScanNesting - 1, maxList: l.MaxListLength}
	if l.MaxDepth > 0 {
		d.maxDepth = min(d.maxDepth, l.MaxDepth)
	}
	d.skipSpace()
	if d.i >= len(data) || data[d.i] != '{' {
		return nil, false
	}
	d.text = string(data) // only once the text may be an object
	d.elems = make([]any, 0, 16)
	if m, ok = d.object(0); !ok {
		return nil, false
	}
	d.skipSpace()
	return m, d.i == len(data)
}

func (d *fastDecoder) skipSpace() { d.i = SkipSpace(d.data, d.i) }

// more reads the separator after a container's member or element: true
// after a comma, false at the closing byte, and ok false on anything else.
func (d *fastDecoder) more(closing byte) (more, ok bool) {
	d.skipSpace()
	if d.i >= len(d.data) {
		return false, false
	}
	switch d.data[d.i] {
	case ',':
		d.i++
		d.skipSpace()
		return true, true
	case closing:
		d.i++
		return false, true
	}
	return false, false
}

// object decodes the object at d.i, at depth.
func (d *fastDecoder) object(depth int) (map[string]any, bool) {
	d.i++
	d.skipSpace()
	if d.i < len(d.data) && d.data[d.i] == '}' {
		d.i++
		return map[string]any{}, true
	}
	m := make(map[string]any)
	for {
		if d.i >= len(d.data) || d.data[d.i] != '"' {
			return nil, false
		}
		key, ok := d.string()
		if !ok {
			return nil, false
		}
		d.skipSpace()
		if d.i >= len(d.data) || d.data[d.i] != ':' {
			return nil, false
		}
		d.i++
		d.skipSpace()
		val, ok := d.value(depth)
		if !ok {
			return nil, false
		}
		m[key] = val
		if d.i < len(d.data) && d.data[d.i] == ',' { // compact JSON's common case
			d.i++
			d.skipSpace()
			continue
		}
		more, ok := d.more('}')
		if !ok {
			return nil, false
		}
		if !more {
			break
		}
	}
	return m, true
}

// array decodes the array at d.i, at depth.
func (d *fastDecoder) array(depth int) (any, bool) {
	d.i++
	d.skipSpace()
	if d.i < len(d.data) && d.data[d.i] == ']' {
		d.i++
		return emptyList, true
	}
	base := len(d.elems)
	for {
		val, ok := d.value(depth)
		if !ok {
			return nil, false
		}
		d.elems = append(d.elems, val)
		if d.maxList > 0 && len(d.elems)-base > d.maxList {
			return nil, false
		}
		if d.i < len(d.data) && d.data[d.i] == ',' {
			d.i++
			d.skipSpace()
			continue
		}
		more, ok := d.more(']')
		if !ok {
			return nil, false
		}
		if !more {
			break
		}
	}
	l := d.list(d.elems[base:])
	d.elems = d.elems[:base]
	return l, true
}

// value decodes the value at d.i, a member or element of a container at
// depth.
func (d *fastDecoder) value(depth int) (any, bool) {
	if d.i >= len(d.data) {
		return nil, false
	}
	switch c := d.data[d.i]; {
	case c == '{' || c == '[':
		if depth >= d.maxDepth {
			return nil, false
		}
		if c == '{' {
			return d.object(depth + 1)
		}
		return d.array(depth + 1)
	case c == '"':
		s, ok := d.string()
		if !ok {
			return nil, false
		}
		return d.box(stringType, s), true
	case c == '-' || c >= '0' && c <= '9':
		end := scanNumber(d.data, d.i)
		if end < 0 {
			return nil, false
		}
		n := d.box(numberType, d.text[d.i:end])
		d.i = end
		return n, true
	case c == 't':
		return d.literal("true", true)
	case c == 'f':
		return d.literal("false", false)
	case c == 'n':
		return d.literal("null", nil)
	}
	return nil, false
}

// literal decodes text, whose value is val.
func (d *fastDecoder) literal(text string, val any) (any, bool) {
	end := scanLiteral(d.data, d.i, text)
	if end < 0 {
		return nil, false
	}
	d.i = end
	return val, true
}

// string decodes the string at d.i. Only valid UTF-8 is taken, so that
// encoding/json's replacement of invalid bytes stays its own.
func (d *fastDecoder) string() (string, bool) {
	start := d.i
	for i := start + 1; ; i++ {
		if i = toStringStop(d.data, i); i >= len(d.data) {
			break
		}
		c := d.data[i]
		if c == '"' {
			d.i = i + 1
			return d.text[start+1 : i], true
		}
		if c == '\\' || c < 0x20 || c >= 0x80 {
			break
		}
	}
	end, _ := scanString(d.data, start)
	if end < 0 {
		return "", false
	}
	d.i = end
	return DecodeString(d.data[start:end]), true
}
