package cue

import (
	"testing"

	"github.com/tofucue/tofucue/engine/inputs"
)

// The speculation applies what copies strings in one evaluation, falls
// back to gradual evaluation when a function of a marker makes it guess
// wrong, and leaves what depends on other attributes (or on a count that
// waits for one) to the rounds; the plan is the HCL side's in every case.
func TestSpeculation(t *testing.T) {
	for _, c := range []struct {
		name, src  string
		speculated int
		carried    int
		rounds     int
		fellBack   bool
	}{
		{
			name: "copies",
			src: `
resource "aws_vpc" "a" {
  cidr_block = "10.0.0.0/16"
}
resource "aws_subnet" "b" {
  vpc_id = aws_vpc.a.id
  name   = "subnet-of-${aws_vpc.a.id}"
}
resource "aws_instance" "c" {
  subnet_id = aws_subnet.b.id
  tags      = { (aws_subnet.b.id) = aws_vpc.a.id }
}
`,
			speculated: 3,
		},
		{
			name: "function of a marker",
			src: `
resource "aws_vpc" "a" {
  cidr_block = "10.0.0.0/16"
}
resource "aws_subnet" "b" {
  prefix = substr(aws_vpc.a.id, 0, 3)
}
resource "aws_instance" "c" {
  subnet_id = aws_subnet.b.id
}
`,
			speculated: 3,
			rounds:     3,
			fellBack:   true,
		},
		{
			name: "number attribute",
			src: `
resource "aws_vpc" "a" {
  cidr_block = "10.0.0.0/16"
}
resource "aws_subnet" "b" {
  vpc_id = aws_vpc.a.id
  size   = aws_vpc.a.size + 1
}
resource "aws_instance" "c" {
  subnet_id = aws_subnet.b.id
}
`,
			speculated: 1,
			rounds:     2,
		},
		{
			// The subnets' count waits for the zones' names, a list,
			// which has no marker. The read's configuration was known
			// while planning, so the apply pass takes its value as it
			// was read (carried); the subnets can then be listed and
			// are speculated with the VPC, with no round at all.
			name: "count from a read",
			src: `
data "aws_availability_zones" "z" {}
resource "aws_vpc" "a" {
  cidr_block = "10.0.0.0/16"
}
resource "aws_subnet" "s" {
  count             = length(data.aws_availability_zones.z.names)
  vpc_id            = aws_vpc.a.id
  availability_zone = data.aws_availability_zones.z.names[count.index]
}
`,
			speculated: 2,
			carried:    1,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"main.tf": c.src})
			b := planBoth(t, dir, inputs.Sources{}, nil)
			requireEqual(t, b)
			if b.stats.speculated != c.speculated || b.stats.carried != c.carried || b.stats.rounds != c.rounds || b.stats.fellBack != c.fellBack {
				t.Errorf("stats %+v, want speculated %d, carried %d, rounds %d, fell back %t", b.stats, c.speculated, c.carried, c.rounds, c.fellBack)
			}
		})
	}
}
