package openapischema

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/typedpatch/typedpatch/internal/inputtext"
	"github.com/typedpatch/typedpatch/reflectschema"
)

// ErrUnknownKind is wrapped by the error of [Schemas.Lookup] (and of
// package builtin's Lookup) for a kind the schemas do not define.
var ErrUnknownKind = errors.New("unknown kind")

// Lookup returns the schema of the kind with the given apiVersion
// ("apps/v1", "v1") and kind ("Deployment"). A kind the schemas do not
// define is an error wrapping [ErrUnknownKind] that says what they hold
// instead: the same kind at another apiVersion or in another case, or
// else the kinds of that apiVersion.
func (s *Schemas) Lookup(apiVersion, kind string) (*reflectschema.Type, error) {
	group, version, ok := strings.Cut(apiVersion, "/")
	if !ok {
		group, version = "", apiVersion
	}
	if t := s.kinds[GVK{Group: group, Version: version, Kind: kind}]; t != nil {
		return t, nil
	}
	return nil, fmt.Errorf("openapischema: apiVersion %s kind %s: %w; %s",
		inputtext.Quote(apiVersion), inputtext.Quote(kind), ErrUnknownKind, s.known(apiVersion, kind))
}

// maxKnown is the most kinds an unknown kind's error names.
const maxKnown = 4

// known says which kinds the schemas hold near apiVersion and kind.
func (s *Schemas) known(apiVersion, kind string) string {
	var same, inVersion []string
	nSame, nInVersion, versions := 0, 0, map[string]bool{}
	for _, g := range s.Kinds() {
		versions[g.APIVersion()] = true
		if strings.EqualFold(g.Kind, kind) {
			if nSame++; nSame <= maxKnown {
				same = append(same, g.APIVersion()+" "+g.Kind)
			}
		}
		if g.APIVersion() == apiVersion {
			if nInVersion++; nInVersion <= maxKnown {
				inVersion = append(inVersion, g.Kind)
			}
		}
	}
	switch {
	case nSame > 0:
		return "known: " + list(same, nSame)
	case nInVersion > 0:
		return "that apiVersion holds " + list(inVersion, nInVersion)
	case len(versions) == 0:
		return "the schemas define no kind (see Definition)"
	default:
		return "no kind in that apiVersion; the schemas define " + count(len(s.kinds), "kind") +
			" in " + count(len(versions), "apiVersion")
	}
}

// count writes n things.
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

// list joins names from a document, saying how many there are in all.
func list(names []string, n int) string {
	for i, name := range names {
		names[i] = inputtext.Clean(inputtext.Cut(name, inputtext.EchoHead))
	}
	out := strings.Join(names, ", ")
	if n > len(names) {
		out += ", … (" + strconv.Itoa(n) + " in all)"
	}
	return out
}
