// Package engine is the strategic merge patch engine: the rules every
// walk follows, and their walk over decoded JSON. It applies a patch to a
// document (Applier), writes the patch from one document to another in a
// named pass (Differ), three-way patches, conflicts and composition; and
// it merges objects and values (MergeObjectOf, MergeValueOf), diffs
// objects (DiffObjectOf) and plans merge lists (ListPlan, NewObjList,
// PlanSet, PlanSetDiff) through interfaces the typed walkers implement
// too, so both follow one set of rules. It never imports the typed walkers (typedwalk), which follow its
// rules over Go values.
package engine
