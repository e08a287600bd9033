package property_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/property"
	"github.com/typedpatch/typedpatch/smp"
)

// The suite on the fixtures types. Each property runs property.DefaultChecks
// cases per type in CI (go test ./property/); -rapid.checks=N runs N.
//
// The exceptions each property states (Property.Doc, and the comments in
// props.go, model.go and skew.go) are the engine's documented behaviour:
//
//   - ThreeWay: modified is the desired state (a field current changed and
//     modified did not is set back, with a conflict); what modified drops is
//     deleted whole unless the kubernetes#48164 narrowing applies (objects
//     current added entries to); a null in modified deletes current's value;
//     $retainKeys clears union members current added, without a conflict;
//     server-filled key fields pair an element of modified with current's;
//     nil ≡ empty; list order is the Order property's; documents have
//     unique merge keys; conflicts compare as Kubernetes'
//     mergingMapsHaveConflicts (sets never conflict, lists replaced whole
//     compare as sets or element by element, whole deletions conflict with
//     any change inside them).
//   - SkewOldServer: order without $setElementOrder; union members another
//     writer set that $retainKeys would have cleared; lists whose default
//     merge key two elements share, outside skew-safe mode (docs/skew.md).
//   - SkewOldClient: order, for the legacy set that cannot express it.
//   - SkewSuperset: the current patch includes the older one (seed 002:
//     "must include the full patch that would have been sent before"),
//     equal for types without recommended keys; lists with recommended keys
//     where the default key pairs elements differently are checked by their
//     result instead (SkewOldServer).

// quantities registers exampletypes.Quantity's values, as a user registers the
// types of their API that marshal themselves. Without it the generator
// would draw them from the pool of JSON values the type accepts.
var quantities = property.OverrideType(rapid.Custom(func(t *rapid.T) exampletypes.Quantity {
	return exampletypes.MustParseQuantity(rapid.SampledFrom([]string{"0", "1", "250m", "1Gi"}).Draw(t, "quantity"))
}))

func TestPod(t *testing.T)             { property.Check[exampletypes.Pod](t, quantities) }
func TestDeployment(t *testing.T)      { property.Check[exampletypes.Deployment](t) }
func TestService(t *testing.T)         { property.Check[exampletypes.Service](t) }
func TestGateway(t *testing.T)         { property.Check[exampletypes.Gateway](t) }
func TestSeedRecommended(t *testing.T) { property.Check[exampletypes.SeedRecommended](t) }
func TestSeedMultiKey(t *testing.T)    { property.Check[exampletypes.SeedMultiKey](t) }
func TestSeedUnion(t *testing.T)       { property.Check[exampletypes.SeedUnion](t) }
func TestConfigMap(t *testing.T)       { property.Check[exampletypes.ConfigMap](t) }

// TestSeedOrdering runs the properties with seed 004's ordering, where
// live items a patch does not mention go first (docs/compat.md).
func TestSeedOrdering(t *testing.T) {
	property.Check[exampletypes.SeedOrderedList](t, property.EngineOptions(smp.WithOrdering(smp.SeedOrder)))
}

// TestKubernetesOrdering is TestSeedOrdering with the default ordering.
func TestKubernetesOrdering(t *testing.T) {
	property.Check[exampletypes.SeedOrderedList](t)
}
