package bench

import (
	"testing"

	"github.com/typedpatch/typedpatch/smp"
)

// BenchmarkTypedApplyParts splits the typed-apply row of
// BenchmarkTargets into its parts, each measured alone on the
// ten-container Deployment: ParsePatch of its two-way patch, the
// generated DeepCopy of the live object (Kubernetes' code), and Apply and
// ApplyInPlace (on a shallow copy) of the parsed patch. The row's floor
// and ours both count ParsePatch; these say what each part costs.
func BenchmarkTypedApplyParts(b *testing.B) {
	c := newDeploymentCase(b, 10)
	p, err := smp.ParsePatch(c.twoWay)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("containers=10/parse/ours", func(b *testing.B) {
		benchLoop(b, func() error {
			_, err := smp.ParsePatch(c.twoWay)
			return err
		})
	})
	b.Run("containers=10/deepcopy/k8s", func(b *testing.B) {
		benchLoop(b, func() error {
			_ = c.current.DeepCopy()
			return nil
		})
	})
	b.Run("containers=10/apply/ours", func(b *testing.B) {
		benchLoop(b, func() error {
			_, err := smp.Apply(c.current, p)
			return err
		})
	})
	b.Run("containers=10/applyinplace/ours", func(b *testing.B) {
		benchLoop(b, func() error {
			d := *c.current // ApplyInPlace changes nothing the live object reaches
			return smp.ApplyInPlace(&d, p)
		})
	})
}
