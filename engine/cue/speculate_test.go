package cue

import (
	"testing"

	"github.com/tofucue/tofucue/engine/inputs"
)

// The speculation applies what copies strings in one evaluation, goes
// round again for what depends on other attributes or on a function of a
// string that a marker does not satisfy, and falls back to gradual
// evaluation when a function of a marker makes it guess wrong; the plan
// is the HCL side's in every case.
func TestSpeculation(t *testing.T) {
	type counts struct {
		speculated, carried, specRounds, rounds, evals int
		fellBack                                       bool
	}
	for _, c := range []struct {
		name, src string
		want      counts
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
			want: counts{speculated: 3, specRounds: 1, evals: 2},
		},
		{
			// substr of a marker is a piece of it, which substitution
			// cannot mend: the check at the end finds it and the apply
			// pass runs again without speculation.
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
			want: counts{speculated: 3, specRounds: 1, rounds: 3, evals: 5, fellBack: true},
		},
		{
			// A number has no marker: the subnet waits for the second
			// round, and the instance that copies its id goes with it.
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
			want: counts{speculated: 3, specRounds: 2, evals: 3},
		},
		{
			// cidrsubnet of a marker is an error: the subnet waits for
			// the round after the VPC's, as in the VPC module's IPv6
			// subnets.
			name: "function that fails on a marker",
			src: `
resource "aws_vpc" "a" {
  cidr_block = "10.0.0.0/16"
}
resource "aws_subnet" "b" {
  count           = 2
  vpc_id          = aws_vpc.a.id
  ipv6_cidr_block = cidrsubnet(aws_vpc.a.ipv6_cidr_block, 8, count.index)
}
resource "aws_route_table_association" "c" {
  count     = 2
  subnet_id = aws_subnet.b[count.index].id
}
`,
			want: counts{speculated: 5, specRounds: 2, evals: 3},
		},
		{
			// The subnets' count waits for the zones' names, a list,
			// which has no marker. The read's configuration was known
			// while planning, so the apply pass takes its value as it
			// was read (carried); the subnets can then be listed and
			// are speculated with the VPC, in one round. Their shapes,
			// found in the plan pass, go into that round's program: two
			// evaluations in all, that one and the final one.
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
			want: counts{speculated: 2, carried: 1, specRounds: 1, evals: 2},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"main.tf": c.src})
			b := planBoth(t, dir, inputs.Sources{}, nil)
			requireEqual(t, b)
			s := b.stats
			got := counts{speculated: s.speculated, carried: s.carried, specRounds: s.specRounds, rounds: s.rounds, evals: s.applyEvals, fellBack: s.fellBack}
			if got != c.want {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}
