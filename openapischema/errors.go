package openapischema

import (
	"strconv"
	"strings"
)

// Reason classifies an [Error].
type Reason string

// The reasons [Read] rejects a document.
const (
	ReasonSyntax      Reason = "Syntax"      // not YAML or JSON
	ReasonNotOpenAPI  Reason = "NotOpenAPI"  // neither OpenAPI v2, v3 nor a CustomResourceDefinition
	ReasonInvalid     Reason = "Invalid"     // a node of the wrong JSON type or shape
	ReasonDanglingRef Reason = "DanglingRef" // a $ref naming no schema, or a cycle of bare $refs
	ReasonUnsupported Reason = "Unsupported" // a construct the reader does not handle (external $ref, allOf of several schemas)
	ReasonStrategy    Reason = "Strategy"    // an unknown or misplaced patch strategy or list type
	ReasonMergeKey    Reason = "MergeKey"    // a merge or list-map key that cannot identify elements
)

// Error reports a document, or a schema in it, that cannot work.
type Error struct {
	// Reason says what kind of fault it is.
	Reason Reason
	// Pointer is the JSON pointer of the node at fault, such as
	// "#/definitions/io.k8s.api.core.v1.PodSpec/properties/containers";
	// "#" for the whole document.
	Pointer string
	// Document numbers the document of a YAML stream, from 1; 0 when the
	// input held one document.
	Document int
	// Msg says what is wrong.
	Msg string
}

// Error returns "openapischema: [document N: ]pointer: message".
func (e *Error) Error() string {
	where := e.Pointer
	if e.Document > 0 {
		where = "document " + strconv.Itoa(e.Document) + ": " + where
	}
	return "openapischema: " + where + ": " + e.Msg
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")
var pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")

// child returns the pointer of a member of the node at ptr.
func child(ptr string, tokens ...string) string {
	for _, t := range tokens {
		ptr += "/" + pointerEscaper.Replace(t)
	}
	return ptr
}
