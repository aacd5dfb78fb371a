package convert

import "testing"

func TestNetworkFunctionsSameAsOpenTofu(t *testing.T) {
	for _, expr := range []string{
		`cidrsubnet("192.168.0.0/16", 4, 1)`,
		`cidrsubnet("192.168.0.0/16", 4, 2)`,
		`cidrsubnet("10.1.2.0/24", 4, 15)`,
		`cidrsubnet("10.1.2.3/24", 4, 0)`,
		`cidrsubnet("010.1.2.0/24", 8, 255)`,
		`cidrsubnet("10.0.0.0/8", 0, 0)`,
		`cidrsubnet("0.0.0.0/0", 32, 4294967295)`,
		`cidrsubnet("10.0.0.0/16", 8.0, 4 / 2)`,
		`cidrsubnet("fd00:fd12:3456:7890::/56", 16, 162)`,
		`cidrsubnet("2001:db8::/32", 96, 1)`,
		`cidrsubnet("::/0", 128, 340282366920938463463374607431768211455)`,
		`cidrsubnet("::ffff:10.0.0.0/104", 8, 3)`,
		`cidrsubnet("2001:db8::1.2.3.4/120", 4, 3)`,
		`cidrsubnet("::/0", 96, 65535)`,
		`cidrsubnet("10.0.0.0/16", 8, 255)`,
		`cidrsubnet("172.16.5.7/12", 12, 4095)`,
		`cidrsubnet("2600:1f18:abc:de00::/56", 8, 255)`,
		`cidrsubnet("fd00::/8", 0, 0)`,
		`cidrsubnets("10.1.0.0/16", 4, 4, 8, 4)`,
		`cidrsubnets("10.1.0.0/16")`,
		`cidrsubnets("fd00:fd12:3456:7890::/56", 16, 16, 16, 32)`,
		`cidrsubnets("10.0.0.0/8", 8, 4)`,
		`cidrhost("10.12.112.0/20", 16)`,
		`cidrhost("10.12.112.0/20", 268)`,
		`cidrhost("10.12.112.0/20", -1)`,
		`cidrhost("10.12.112.0/20", -4096)`,
		`cidrhost("fd00:fd12:3456:7890:00a2::/72", 34)`,
		`cidrhost("fd00::/64", -1)`,
		`cidrhost("::/0", -340282366920938463463374607431768211456)`,
		`cidrhost("10.0.0.1/32", 0)`,
		`cidrnetmask("172.16.0.0/12")`,
		`cidrnetmask("10.0.0.0/0")`,
		`cidrnetmask("10.0.0.0/32")`,
		`cidrcontains("192.168.2.0/20", "192.168.2.1")`,
		`cidrcontains("192.168.2.0/20", "192.168.16.1")`,
		`cidrcontains("192.168.2.0/20", "192.168.2.0/24")`,
		`cidrcontains("192.168.2.0/24", "192.168.2.0/20")`,
		`cidrcontains("fd00:fd12:3456:7890::/56", "fd00:fd12:3456:7890:00a2::1")`,
		`cidrcontains("fd00::/8", "fe00::1")`,
		`cidrcontains("10.0.0.0/8", "::ffff:10.1.2.3")`,
		`cidrcontains("::ffff:10.0.0.0/104", "10.1.2.3")`,
	} {
		t.Run(expr, func(t *testing.T) { checkSameAsOpenTofu(t, expr) })
	}
}

// TestNetworkFunctionErrors checks that calls OpenTofu rejects are CUE
// errors, not made-up values.
func TestNetworkFunctionErrors(t *testing.T) {
	for _, expr := range []string{
		`cidrsubnet("192.168.0.0/16", 4, 16)`,
		`cidrsubnet("192.168.0.0/16", 4, -1)`,
		`cidrsubnet("192.168.0.0/16", 17, 0)`,
		`cidrsubnet("192.168.0.0/16", 1.5, 0)`,
		`cidrsubnet("192.168.0.0/33", 1, 0)`,
		`cidrsubnet("192.168.0.256/16", 1, 0)`,
		`cidrsubnet("192.168.0.0", 1, 0)`,
		`cidrsubnet("fe80::1%eth0/64", 1, 0)`,
		`cidrsubnet("fd00::/120", 9, 0)`,
		`cidrhost("10.0.0.0/24", 256)`,
		`cidrhost("10.0.0.0/24", -257)`,
		`cidrnetmask("fd00::/8")`,
		`cidrsubnets("10.0.0.0/24", 1, 1, 1)`,
		`cidrsubnets("0.0.0.0/0", 8)`,
		`cidrsubnets("10.0.0.0/8", 33)`,
		`cidrsubnets("10.0.0.0/8", 0)`,
		`cidrcontains("10.0.0.0/8", "fd00::1")`,
	} {
		t.Run(expr, func(t *testing.T) { checkErrorLikeOpenTofu(t, expr) })
	}
}
