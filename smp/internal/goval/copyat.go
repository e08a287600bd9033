package goval

import (
	"reflect"
	"unsafe"

	"github.com/typedpatch/typedpatch/reflectschema"
	"github.com/typedpatch/typedpatch/smp/internal/errpath"
)

// Structs are copied from memory to memory: scalars, structs inline or
// behind a pointer, and slices of structs are read and written at their
// offsets, without a reflect.Value; other fields take CopyValue.

// copyMode says how copyStructAt copies a field.
type copyMode uint8

const (
	copyByReflect copyMode = iota // through CopyValue
	copyByScalar                  // a scalar fast field
	copyByInline                  // a struct field
	copyByPointer                 // a pointer to a struct
	copyBySlice                   // a slice of structs
)

// copyModeOf picks a field's mode once the plan is built.
func copyModeOf(f *Field) copyMode {
	if f.ViaPtr {
		return copyByReflect
	}
	if f.FastScalar() {
		return copyByScalar
	}
	t, n := f.Meta.GoType, f.Node
	switch {
	case t.Kind() == reflect.Struct && copiesAt(n, t) && !f.Meta.OmitZero:
		// omitzero may leave out a struct that is not zero.
		return copyByInline
	case f.Fast == fastPointer && copiesAt(n, t.Elem()):
		return copyByPointer
	case f.Fast == fastSlice && (n.Kind == reflectschema.List || n.Kind == reflectschema.Atomic) &&
		!n.Marshaler && n.Elem != nil && copiesAt(n.Elem, t.Elem()):
		return copyBySlice
	}
	return copyByReflect
}

// copiesAt reports whether values of Go type t are n's structs, which
// copyStructAt copies.
func copiesAt(n *Node, t reflect.Type) bool {
	return n.Kind == reflectschema.Struct && !n.Marshaler && t == n.GoType
}

// copyStructAt copies the struct at ps into the zero struct at pd, both
// of n's type, as CopyValue does.
func (c *Copier) copyStructAt(pd, ps unsafe.Pointer, n *Node) error {
	var dst, src reflect.Value // made for the first field that needs them
	for _, f := range n.Fields {
		var err error
		switch f.copyMode {
		case copyByScalar:
			copyFastScalar(pd, ps, f)
		case copyByInline:
			err = c.copyStructAt(unsafe.Add(pd, f.Offset), unsafe.Add(ps, f.Offset), f.Node)
		case copyByPointer:
			err = c.copyPointerAt(unsafe.Add(pd, f.Offset), unsafe.Add(ps, f.Offset), f.Node)
		case copyBySlice:
			if FastPresent(ps, f) {
				err = c.copySliceAt(unsafe.Add(pd, f.Offset), unsafe.Add(ps, f.Offset), f)
			}
		default:
			if !src.IsValid() {
				dst, src = reflect.NewAt(n.GoType, pd).Elem(), reflect.NewAt(n.GoType, ps).Elem()
			}
			if err := c.copyReflectField(dst, src, f); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return under(err, errpath.FieldStep(f.Name))
		}
	}
	return nil
}

// copyPointerAt copies a pointer to a struct of n's type.
func (c *Copier) copyPointerAt(pd, ps unsafe.Pointer, n *Node) error {
	from := *(*unsafe.Pointer)(ps)
	if from == nil {
		return nil
	}
	to := reflect.New(n.GoType).UnsafePointer()
	if err := c.copyStructAt(to, from, n); err != nil {
		return err
	}
	*(*unsafe.Pointer)(pd) = to
	return nil
}

// copySliceAt copies a slice of structs (a present field): nil stays nil
// and empty stays empty.
func (c *Copier) copySliceAt(pd, ps unsafe.Pointer, f *Field) error {
	from := (*reflectSlice)(ps)
	if from.data == nil {
		return nil
	}
	dst := reflect.NewAt(f.Meta.GoType, pd).Elem()
	MakeSliceIn(dst, from.len)
	to, size, en := (*reflectSlice)(pd).data, f.Node.Elem.GoType.Size(), f.Node.Elem
	for i := range from.len {
		off := uintptr(i) * size
		if err := c.copyStructAt(unsafe.Add(to, off), unsafe.Add(from.data, off), en); err != nil {
			dst.SetZero()
			return under(err, errpath.IndexStep(i))
		}
	}
	return nil
}
