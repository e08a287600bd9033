package bench

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/typedpatch/typedpatch/smp"
)

// TestApplyTimesRoundTrip: Apply of a Deployment (copied through its
// DeepCopyInto, its times through their remembered round trips) holding
// metav1.Time values in every form gives what encoding/json's round trip
// of it gives, or fails where that fails (a year MarshalJSON writes but
// UnmarshalJSON refuses). Each is applied three times, so that the later
// ones read what the first remembered.
func TestApplyTimesRoundTrip(t *testing.T) {
	east := time.FixedZone("east", 5*3600+1800)
	times := map[string]time.Time{
		"zero":               {},
		"UTC":                time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
		"UTC nanoseconds":    time.Date(2025, 1, 2, 3, 4, 5, 123456789, time.UTC),
		"Local":              time.Date(2025, 1, 2, 3, 4, 5, 0, time.Local),
		"fixed zone":         time.Date(2025, 1, 2, 3, 4, 5, 0, east),
		"monotonic":          time.Now(),
		"monotonic, later":   time.Now().Add(time.Hour),
		"year 1":             time.Date(1, 1, 1, 0, 0, 1, 0, time.UTC),
		"year 0":             time.Date(0, 6, 1, 0, 0, 0, 0, time.UTC),
		"year 9999":          time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		"year 10000":         time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		"year -1":            time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC),
		"unix epoch, zone":   time.Unix(0, 0).In(east),
		"leap day, Local ns": time.Date(2024, 2, 29, 12, 0, 0, 1, time.Local),
	}
	var applied, refused int
	patches := []string{`{}`, `{"metadata":{"labels":{"app":"web"}}}`, `{"status":{"conditions":[{"type":"Available","reason":"r"}]}}`}
	for name, tm := range times {
		cur := benchDeploymentCurrent(1)
		cur.CreationTimestamp = metav1.NewTime(tm)
		dt := metav1.NewTime(tm.Add(time.Second))
		cur.DeletionTimestamp = &dt
		cur.Status.Conditions[0].LastUpdateTime = metav1.NewTime(tm.Add(time.Nanosecond))
		for _, text := range patches {
			p, err := smp.ParsePatch([]byte(text))
			if err != nil {
				t.Fatal(err)
			}
			want, werr := jsonApply(cur, text)
			for i := range 3 {
				got, err := smp.Apply(cur, p)
				if err == nil {
					applied++
				} else {
					refused++
				}
				if (err == nil) != (werr == nil) {
					t.Fatalf("%s, %s, apply %d: error %v, the JSON round trip's %v", name, text, i, err, werr)
				}
				if err == nil && !reflect.DeepEqual(got, want) {
					t.Fatalf("%s, %s, apply %d: not the JSON round trip's (-got +want, times by their instants):\n%s", name, text, i, cmp.Diff(got, want))
				}
			}
		}
	}
	if applied < 3*3*10 || refused == 0 {
		t.Fatalf("%d applies, %d refused: want most applied, and the years MarshalJSON writes but UnmarshalJSON refuses refused", applied, refused)
	}
}

// jsonApply applies patch text to d through JSON: marshal, ApplyJSON,
// unmarshal, the route a typed Apply's result must equal.
func jsonApply(d *appsv1.Deployment, text string) (*appsv1.Deployment, error) {
	doc, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	res, err := smp.ApplyJSON(doc, []byte(text), appsv1.Deployment{})
	if err != nil {
		return nil, err
	}
	out := new(appsv1.Deployment)
	if err := json.Unmarshal(res, out); err != nil {
		return nil, err
	}
	return out, nil
}
