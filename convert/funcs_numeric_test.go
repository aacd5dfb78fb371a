package convert

import "testing"

func TestNumericFunctionsSameAsOpenTofu(t *testing.T) {
	for _, expr := range []string{
		`abs(-3)`,
		`abs(2.5)`,
		`abs(0)`,
		`abs(-0.125)`,
		`ceil(1.2)`,
		`ceil(-1.2)`,
		`ceil(5)`,
		`floor(1.8)`,
		`floor(-1.2)`,
		`floor(5)`,
		`log(16, 2)`,
		`log(1000, 10)`,
		`log(8, 2)`,
		`log(10, 3)`,
		`log(1, 10)`,
		`ceil(log(256, 2))`,
		`ceil(log(5, 2))`,
		`max(1, 5, 3)`,
		`max(-1.5, -2)`,
		`max(7)`,
		`max([4, 9, 2]...)`,
		`min(1, 5, 3)`,
		`min(-1.5, 2)`,
		`min([4, 9, 2]...)`,
		`parseint("100", 10)`,
		`parseint("FF", 16)`,
		`parseint("-ff", 16)`,
		`parseint("1010", 2)`,
		`parseint("zz", 36)`,
		`parseint("Zz", 62)`,
		`parseint("123456789012345678901234567890", 10)`,
		`parseint("10", 4 * 4)`,
		`pow(2, 10)`,
		`pow(3, 40)`,
		`pow(2, 0.5)`,
		`pow(10, -2)`,
		`pow(5, 0)`,
		`pow(0, 0)`,
		`pow(0, 3)`,
		`signum(-4)`,
		`signum(0)`,
		`signum(-6 / 2)`,
	} {
		t.Run(expr, func(t *testing.T) { checkSameAsOpenTofu(t, expr) })
	}
}

func TestNumbersBeyondCUE(t *testing.T) {
	// A number with more significant digits than CUE's 34 is reported,
	// not rounded silently.
	checkNotConverted(t, `0.12345678901234567890123456789012345`, "35 significant digits")
	// 34 digits, and integers of any size, are written as they are.
	checkSameAsOpenTofu(t, `0.1234567890123456789012345678901234`)
	checkSameAsOpenTofu(t, `123456789012345678901234567890123456789012345678901234567890`)
	checkSameAsOpenTofu(t, `0.1 + 0.2`)
}
