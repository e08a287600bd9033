//go:build !unix

package smp_test

import "time"

// processCPU is unknown here: growth exponents use wall time.
func processCPU() (time.Duration, bool) { return 0, false }
