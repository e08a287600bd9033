package typedwalk

import (
	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/engine"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
)

// Shorthands for what every walker names at every level.
type (
	slot     = reflectschema.Slot
	config   = engine.Config
	pathNode = errpath.Node
)

func under(err error, s errpath.Step) error   { return errpath.Under(err, s) }
func underPath(err error, at *pathNode) error { return errpath.UnderPath(err, at) }
