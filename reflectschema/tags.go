package reflectschema

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/fatih/structtag"
)

// Tag keys read from struct fields.
const (
	tagJSON           = "json"
	tagStrategy       = "patchStrategy"
	tagMergeKey       = "patchMergeKey"
	tagRecommendedKey = "recommendedPatchMergeKey"
)

// fieldTags is what one struct field's tags say.
type fieldTags struct {
	name      string // JSON name from the tag, "" if none
	skip      bool   // json:"-"
	omitEmpty bool
	omitZero  bool
	quoted    bool
	inline    bool
	strategy  string // raw patchStrategy value
	mergeKey  string // raw patchMergeKey value
	recKey    string // raw recommendedPatchMergeKey value
}

// parseTags reads the tags of one struct field with structtag.
func parseTags(sf reflect.StructField) (fieldTags, error) {
	var ft fieldTags
	if sf.Tag == "" {
		return ft, nil
	}
	tags, err := structtag.Parse(string(sf.Tag))
	if err != nil {
		return ft, fmt.Errorf("malformed struct tag %q: %v", sf.Tag, err)
	}
	if tags == nil {
		// structtag returns no Tags for a tag of only spaces.
		return ft, nil
	}
	if j, err := tags.Get(tagJSON); err == nil {
		if j.Name == "-" && len(j.Options) == 0 {
			ft.skip = true
		} else {
			ft.name = j.Name
		}
		for _, o := range j.Options {
			switch o {
			case "omitempty":
				ft.omitEmpty = true
			case "omitzero":
				ft.omitZero = true
			case "string":
				ft.quoted = true
			case "inline":
				ft.inline = true
			}
		}
	}
	ft.strategy = rawValue(tags, tagStrategy)
	ft.mergeKey = rawValue(tags, tagMergeKey)
	ft.recKey = rawValue(tags, tagRecommendedKey)
	return ft, nil
}

// rawValue returns a tag's whole value: structtag splits it at commas into
// a name and options, which for the patch tags are all part of the value.
func rawValue(tags *structtag.Tags, key string) string {
	t, err := tags.Get(key)
	if err != nil {
		return ""
	}
	return strings.Join(append([]string{t.Name}, t.Options...), ",")
}

// parseStrategy reads a patchStrategy value. Kubernetes separates
// strategies with commas ("merge,retainKeys"); the retainKeys proposal writes a bar
// ("merge|retainKeys"). Both are accepted.
func parseStrategy(raw string) (Strategy, bool, error) {
	if raw == "" {
		return Default, false, nil
	}
	var s Strategy
	var retain bool
	for part := range strings.FieldsFuncSeq(raw, func(r rune) bool { return r == ',' || r == '|' }) {
		switch part {
		case "merge", "replace":
			next := Merge
			if part == "replace" {
				next = Replace
			}
			if s != Default {
				return 0, false, fmt.Errorf("patchStrategy %q names two strategies (%s and %s)", raw, s, next)
			}
			s = next
		case "retainKeys":
			if retain {
				return 0, false, fmt.Errorf("patchStrategy %q names retainKeys twice", raw)
			}
			retain = true
		default:
			return 0, false, fmt.Errorf("patchStrategy %q: unknown strategy %q (want merge, replace or retainKeys)", raw, part)
		}
	}
	if s == Default && !retain {
		return 0, false, fmt.Errorf("patchStrategy %q names no strategy", raw)
	}
	return s, retain, nil
}

// parseKeys splits a merge key tag at commas and rejects empty or repeated
// names.
func parseKeys(tag, raw string) ([]string, error) {
	if raw == "" {
		return nil, nil
	}
	keys := strings.Split(raw, ",")
	for i, k := range keys {
		k = strings.TrimSpace(k)
		if k == "" {
			return nil, fmt.Errorf("%s %q has an empty key", tag, raw)
		}
		if slices.Contains(keys[:i], k) {
			return nil, fmt.Errorf("%s %q names key %q twice", tag, raw, k)
		}
		keys[i] = k
	}
	return keys, nil
}
