package engine

import (
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
	"github.com/typedpatch/typedpatch/smp/internal/format"
)

// The steps of a list plan, and the identities of the elements they make.

// mergeOp is one step of a list plan: patch element Elem merged into the
// element at position Pos, or into nothing (Fresh; always so for a new
// element). prev is the position's previous step, or -1.
type mergeOp struct {
	Pos   int
	Elem  *PatchElem
	Fresh bool
	prev  int
}

// mergedField is field f of the element at p after the plan's steps up
// to step op (-1: none): the last patch element to set it, unless a step
// merged into nothing or a $retainKeys dropped it before; else the live
// element's. A field set to null, or to an object that deletes itself,
// is absent.
func (m *ListPlan) mergedField(p, op int, f string) (any, bool) {
	for ; op >= 0; op = m.Ops[op].prev {
		o := &m.Ops[op]
		if v, ok := o.Elem.Body[f]; ok {
			if obj, isObj := v.(map[string]any); isObj && obj[format.KeyPatch] == format.PatchDelete {
				return nil, false
			}
			return v, v != nil
		}
		if o.Fresh || !m.retains(o.Elem.Body, f) {
			return nil, false
		}
	}
	if p >= m.LiveLen {
		return nil, false
	}
	return m.Items.KeyField(p, f)
}

// retains reports whether merging body keeps field f of the element it
// merges into: body has no $retainKeys this applier reads, or lists f.
func (m *ListPlan) retains(body map[string]any, f string) bool {
	raw, ok := body[format.KeyRetainKeys]
	if !ok || !m.Applier.Cfg.Directives.Understood(format.DirRetainKeys) {
		return true
	}
	list, _ := raw.([]any)
	for _, v := range list {
		if v == f {
			return true
		}
	}
	return false
}

// KeyID is the identity under ks of the element at p, after the steps
// planned so far.
func (m *ListPlan) KeyID(p int, ks format.KeySet) string {
	op := m.lastOp(p)
	if op < 0 {
		return m.Items.KeyID(p, ks)
	}
	id, _ := ks.IDBy(func(f string) (any, bool) { return m.mergedField(p, op, f) })
	return id
}

// keyFields returns the element's key fields under ks after step op, in a
// map the next call reuses.
func (m *ListPlan) keyFields(p, op int, ks format.KeySet) map[string]any {
	if m.scratch == nil {
		m.scratch = make(map[string]any, len(ks.Fields))
	}
	clear(m.scratch)
	for _, f := range ks.Fields {
		if v, ok := m.mergedField(p, op, f); ok {
			m.scratch[f] = v
		}
	}
	return m.scratch
}

// keyStep names the element at p by ks, for an error.
func (m *ListPlan) keyStep(p int, ks format.KeySet) errpath.KeyStep {
	return ks.KeyStep(m.keyFields(p, m.lastOp(p), ks))
}

// lastOp is the last step planned for the element at p, or -1.
func (m *ListPlan) lastOp(p int) int {
	if p >= len(m.last) {
		return -1
	}
	return m.last[p]
}

// Plan records a step merging pe into the element at p.
func (m *ListPlan) Plan(p int, pe *PatchElem, fresh bool) {
	if m.last == nil {
		m.last = m.takeInts(m.LiveLen + len(m.Elems))
		for i := range m.last {
			m.last[i] = -1
		}
		m.Ops = make([]mergeOp, 0, len(m.Elems))
	}
	m.Ops = append(m.Ops, mergeOp{Pos: p, Elem: pe, Fresh: fresh, prev: m.last[p]})
	m.last[p] = len(m.Ops) - 1
}

// takeInts returns k integers (not zeroed) from the plan's room for them,
// or new ones when it has too little left.
func (m *ListPlan) takeInts(k int) []int {
	if len(m.ints) < k {
		return make([]int, k)
	}
	s := m.ints[:k:k]
	m.ints = m.ints[k:]
	return s
}
