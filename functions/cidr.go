package functions

import (
	"fmt"
	"math/big"
	"net/netip"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/gocty"
)

// prefix is an IP network: its address as an integer, the address length in
// bits (32 or 128) and the prefix length.
type prefix struct {
	addr *big.Int
	bits int
	len  int
}

// parseIP parses an address the way OpenTofu does, which keeps the rules of
// Go before 1.17: IPv4 parts may have leading zeros, which are decimal.
func parseIP(s string) (addr *big.Int, bits int, ok bool) {
	if strings.Contains(s, ":") {
		a, err := netip.ParseAddr(s)
		if err != nil || a.Zone() != "" {
			// netip rejects leading zeros in an embedded IPv4 part; retry
			// with them removed.
			i := strings.LastIndexByte(s, ':')
			v4, v4bits, v4ok := parseIP(s[i+1:])
			if !v4ok || v4bits != 32 {
				return nil, 0, false
			}
			b := v4.FillBytes(make([]byte, 4))
			a, err = netip.ParseAddr(s[:i+1] + netip.AddrFrom4([4]byte(b)).String())
			if err != nil {
				return nil, 0, false
			}
		}
		b := a.As16()
		return new(big.Int).SetBytes(b[:]), 128, true
	}
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return nil, 0, false
	}
	var b [4]byte
	for i, p := range parts {
		n, ok := decimal(p)
		if !ok || n > 255 {
			return nil, 0, false
		}
		b[i] = byte(n)
	}
	return new(big.Int).SetBytes(b[:]), 32, true
}

// parseCIDR parses "address/length" and masks the address to the network.
func parseCIDR(s string) (prefix, error) {
	bad := fmt.Errorf("invalid CIDR address: %s", s)
	addrPart, lenPart, found := strings.Cut(s, "/")
	if !found {
		return prefix{}, bad
	}
	addr, bits, ok := parseIP(addrPart)
	n, nok := decimal(lenPart)
	if !ok || !nok || n > bits {
		return prefix{}, bad
	}
	p := prefix{addr: addr, bits: bits, len: n}
	p.addr = new(big.Int).And(addr, p.mask())
	return p, nil
}

// decimal parses a non-empty run of decimal digits, leading zeros allowed.
func decimal(s string) (int, bool) {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// isV4 tells whether the network is IPv4, as Go's net package decides: a
// 128-bit address in the IPv4-mapped range counts as IPv4.
func (p prefix) isV4() bool {
	return p.bits == 32 || is4in6(p.addr)
}

func is4in6(addr *big.Int) bool {
	return new(big.Int).Rsh(addr, 32).Cmp(big.NewInt(0xffff)) == 0
}

// mask is the network mask as an integer.
func (p prefix) mask() *big.Int {
	all := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(p.bits)), big.NewInt(1))
	host := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(p.bits-p.len)), big.NewInt(1))
	return all.Xor(all, host)
}

// last is the highest address in the network.
func (p prefix) last() *big.Int {
	host := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(p.bits-p.len)), big.NewInt(1))
	return host.Or(host, p.addr)
}

func (p prefix) contains(addr *big.Int) bool {
	return new(big.Int).And(addr, p.mask()).Cmp(p.addr) == 0
}

func (p prefix) String() string {
	return formatIP(p.addr, p.bits) + "/" + strconv.Itoa(p.len)
}

// formatIP prints an address as Go's net.IP does: IPv4 dotted, IPv6 in the
// RFC 5952 form, an IPv4-mapped address as IPv4.
func formatIP(addr *big.Int, bits int) string {
	if bits == 32 {
		return netip.AddrFrom4([4]byte(addr.FillBytes(make([]byte, 4)))).String()
	}
	a := netip.AddrFrom16([16]byte(addr.FillBytes(make([]byte, 16))))
	if a.Is4In6() {
		return a.Unmap().String()
	}
	return a.String()
}

// cidrHostFunc computes the address of host number n in a network; a
// negative n counts back from the last address.
var cidrHostFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
		{Name: "hostnum", Type: cty.Number},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		var num *big.Int
		if err := gocty.FromCtyValue(args[1], &num); err != nil {
			return cty.UnknownVal(cty.String), err
		}
		p, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("invalid CIDR expression: %w", err)
		}
		size := new(big.Int).Lsh(big.NewInt(1), uint(p.bits-p.len))
		host := new(big.Int).Set(num)
		if host.Sign() < 0 {
			host.Add(host, size)
		}
		if host.Sign() < 0 || host.Cmp(size) >= 0 {
			return cty.UnknownVal(cty.String), fmt.Errorf("prefix of %d does not accommodate a host numbered %s", p.len, num)
		}
		return cty.StringVal(formatIP(host.Or(host, p.addr), p.bits)), nil
	},
})

// cidrNetmaskFunc gives the dotted netmask of an IPv4 network.
var cidrNetmaskFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "prefix", Type: cty.String}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		p, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("invalid CIDR expression: %w", err)
		}
		if !p.isV4() {
			return cty.UnknownVal(cty.String), fmt.Errorf("IPv6 addresses cannot have a netmask: %s", args[0].AsString())
		}
		return cty.StringVal(formatIP(p.mask(), p.bits)), nil
	},
})

// subnet extends p by newBits bits and selects subnet number num.
func (p prefix) subnet(newBits int, num *big.Int) (prefix, error) {
	if newBits < 0 || p.len+newBits > p.bits {
		return prefix{}, fmt.Errorf("insufficient address space to extend prefix of %d by %d", p.len, newBits)
	}
	if num.Sign() < 0 || num.BitLen() > newBits {
		return prefix{}, fmt.Errorf("prefix extension of %d does not accommodate a subnet numbered %s", newBits, num)
	}
	n := p.len + newBits
	shifted := new(big.Int).Lsh(num, uint(p.bits-n))
	return prefix{addr: shifted.Or(shifted, p.addr), bits: p.bits, len: n}, nil
}

// cidrSubnetFunc computes one subnet address of a network.
var cidrSubnetFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
		{Name: "newbits", Type: cty.Number},
		{Name: "netnum", Type: cty.Number},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		var newBits int
		if err := gocty.FromCtyValue(args[1], &newBits); err != nil {
			return cty.UnknownVal(cty.String), err
		}
		var num *big.Int
		if err := gocty.FromCtyValue(args[2], &num); err != nil {
			return cty.UnknownVal(cty.String), err
		}
		p, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("invalid CIDR expression: %w", err)
		}
		sub, err := p.subnet(newBits, num)
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		return cty.StringVal(sub.String()), nil
	},
})

// cidrSubnetsFunc allocates consecutive subnets of the given sizes (in bits
// added to the prefix), each aligned to its own size, after the previous one.
var cidrSubnetsFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "prefix", Type: cty.String}},
	VarParam:     &function.Parameter{Name: "newbits", Type: cty.Number},
	Type:         function.StaticReturnType(cty.List(cty.String)),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		p, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(retType), function.NewArgErrorf(0, "invalid CIDR expression: %s", err)
		}
		if len(args) == 1 {
			return cty.ListValEmpty(cty.String), nil
		}
		protocol := "IPv4"
		if p.bits == 128 {
			protocol = "IPv6"
		}
		out := make([]cty.Value, 0, len(args)-1)
		next := new(big.Int).Set(p.addr) // the first address not yet allocated
		var prev prefix
		for i, arg := range args[1:] {
			var newBits int
			if err := gocty.FromCtyValue(arg, &newBits); err != nil {
				return cty.UnknownVal(retType), function.NewArgError(i+1, err)
			}
			switch {
			case newBits < 1:
				return cty.UnknownVal(retType), function.NewArgErrorf(i+1, "must extend prefix by at least one bit")
			case newBits > 32:
				return cty.UnknownVal(retType), function.NewArgErrorf(i+1, "may not extend prefix by more than 32 bits")
			case p.len+newBits > p.bits:
				return cty.UnknownVal(retType), function.NewArgErrorf(i+1, "would extend prefix to %d bits, which is too long for an %s address", p.len+newBits, protocol)
			}
			n := p.len + newBits
			sub := prefix{bits: p.bits, len: n}
			// Round next up to a multiple of this subnet's size.
			size := new(big.Int).Lsh(big.NewInt(1), uint(p.bits-n))
			start := new(big.Int).Add(next, new(big.Int).Sub(size, big.NewInt(1)))
			sub.addr = start.And(start, sub.mask())
			// OpenTofu starts from the subnet before the network and counts
			// stepping past the top address as running out, so a network
			// at address zero has no room at all.
			if !p.contains(sub.addr) || (i == 0 && p.addr.Sign() == 0) {
				after := prev
				if i == 0 {
					after = prefix{addr: new(big.Int).Sub(p.addr, size), bits: p.bits, len: n}
					if after.addr.Sign() < 0 {
						after.addr.Add(after.addr, new(big.Int).Lsh(big.NewInt(1), uint(p.bits)))
					}
				}
				return cty.UnknownVal(retType), function.NewArgErrorf(i+1, "not enough remaining address space for a subnet with a prefix of %d bits after %s", n, after)
			}
			out = append(out, cty.StringVal(sub.String()))
			next = new(big.Int).Add(sub.last(), big.NewInt(1))
			prev = sub
		}
		return cty.ListVal(out), nil
	},
})

// cidrContainsFunc tells whether an address, or every address of a network,
// is inside a network of the same family.
var cidrContainsFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "containing_prefix", Type: cty.String},
		{Name: "contained_ip_or_prefix", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.Bool),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		container, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.Bool), err
		}
		s := args[1].AsString()
		first, bits, ok := parseIP(s)
		last := first
		if !ok {
			inner, err := parseCIDR(s)
			if err != nil {
				return cty.UnknownVal(cty.Bool), fmt.Errorf("invalid IP address or prefix: %s", s)
			}
			first, last, bits = inner.addr, inner.last(), inner.bits
		}
		if (bits == 32 || is4in6(first)) != container.isV4() {
			return cty.UnknownVal(cty.Bool), fmt.Errorf("address family mismatch: %s vs. %s", args[0].AsString(), s)
		}
		// Go's net package compares an IPv4-mapped address as IPv4, and an
		// IPv4 address never matches a network written in IPv6 notation.
		inside := func(addr *big.Int) bool {
			b := bits
			if b == 128 && is4in6(addr) {
				addr, b = new(big.Int).And(addr, big.NewInt(0xffffffff)), 32
			}
			return b == container.bits && container.contains(addr)
		}
		return cty.BoolVal(inside(first) && inside(last)), nil
	},
})
