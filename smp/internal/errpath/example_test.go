package errpath_test

import (
	"fmt"

	"github.com/typedpatch/typedpatch/smp/internal/errpath"
)

// A walker extends a Node as it descends; the Path is built only when an
// error needs it, and input in the message is quoted.
func Example() {
	var root *errpath.Node
	at := root.Field("spec").Field("containers").Key(errpath.KeyStep{{Name: "name", Value: "nginx"}}).Field("image")
	err := errpath.New(errpath.ErrTypeMismatch, at, "want a string, got %q", "line\nbreak")
	fmt.Println(err)
	fmt.Println(errpath.KindOf(err))
	// Output:
	// spec.containers[name=nginx].image: want a string, got "line\nbreak"
	// TypeMismatch
}
