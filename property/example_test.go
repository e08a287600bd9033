package property_test

import (
	"fmt"
	"os"

	"github.com/typedpatch/typedpatch/exampletypes"
	"github.com/typedpatch/typedpatch/openapischema"
	"github.com/typedpatch/typedpatch/property"
)

// reporter is a small property.TB that records failures and prints them:
// what a harness of one's own needs to run the properties outside
// go test's *testing.T.
type reporter struct {
	name   string
	failed bool
}

func (r *reporter) Helper()              {}
func (r *reporter) Name() string         { return r.name }
func (r *reporter) Logf(string, ...any)  {}
func (r *reporter) Log(...any)           {}
func (r *reporter) Skipf(string, ...any) {}
func (r *reporter) Skip(...any)          {}
func (r *reporter) SkipNow()             {}
func (r *reporter) Errorf(format string, args ...any) {
	r.failed = true
	fmt.Printf(format+"\n", args...)
}
func (r *reporter) Error(args ...any)                 { r.failed = true; fmt.Println(args...) }
func (r *reporter) Fatalf(format string, args ...any) { r.Errorf(format, args...) }
func (r *reporter) Fatal(args ...any)                 { r.Error(args...) }
func (r *reporter) FailNow()                          { r.failed = true }
func (r *reporter) Fail()                             { r.failed = true }
func (r *reporter) Failed() bool                      { return r.failed }

// The properties of the suite, run one by one on a type of the fixtures
// with a TB of one's own. In a test, property.Check[exampletypes.SeedUnion](t)
// runs them all as subtests.
func Example() {
	for _, p := range property.Properties[exampletypes.SeedUnion](property.Checks(200)) {
		r := &reporter{name: "ExampleSeedUnion_" + p.Name}
		p.Run(r)
		fmt.Printf("%s passed: %v\n", p.Name, !r.Failed())
	}
	// Output:
	// RoundTrip passed: true
	// Identity passed: true
	// ThreeWay passed: true
	// Idempotence passed: true
	// Order passed: true
	// SkewOldClient passed: true
	// SkewOldServer passed: true
	// SkewSuperset passed: true
}

// Run runs every property in turn on one TB, without subtests.
func ExampleRun() {
	r := &reporter{name: "ExampleRun"}
	ok := property.Run[exampletypes.SeedMultiKey](r, property.Checks(100), property.Only(property.RoundTrip, property.Identity))
	fmt.Println("passed:", ok)
	// Output:
	// passed: true
}

// Properties on a CustomResourceDefinition, with no Go type: the schema
// openapischema reads from the game server CRD of its test data, whose
// ports are keyed by port and protocol. In a test,
// property.CheckSchema(t, schema) runs all eight as subtests.
func ExampleSchemaProperties() {
	crd, err := os.ReadFile("../openapischema/testdata/gameserver-crd.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	schemas, err := openapischema.Read(crd)
	if err != nil {
		fmt.Println(err)
		return
	}
	gs, err := schemas.Lookup("example.com/v1", "GameServer")
	if err != nil {
		fmt.Println(err)
		return
	}
	ps, err := property.SchemaProperties(gs, property.Checks(100),
		property.Only(property.RoundTrip, property.ThreeWay, property.Order, property.SkewOldServer))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range ps {
		r := &reporter{name: "ExampleSchemaProperties_" + p.Name}
		p.Run(r)
		fmt.Printf("%s passed: %v\n", p.Name, !r.Failed())
	}
	// Output:
	// RoundTrip passed: true
	// ThreeWay passed: true
	// Order passed: true
	// SkewOldServer passed: true
}
