// Command naming-cost is an example middleware: it enforces a naming rule
// on resource names and tags, and estimates what each resource costs.
// It speaks the middleware protocol (JSON-RPC 2.0, one message per line,
// on stdin and stdout; see engine/middleware). It declares that it takes
// concurrent requests, so the client may send it several before it
// answers (pipelining); it answers them in order, each as it comes, which
// is the fastest way for work this small (a goroutine per request costs
// more than the work).
//
// Hooks:
//   - pre-plan fails a resource whose name (its label) does not match
//     NAME_PATTERN (default ^[a-z][a-z0-9_]*$).
//   - post-plan fails a managed resource whose tags attribute has a Name
//     tag that does not match TAG_PATTERN (default ^[a-z][a-z0-9-]*$) or
//     lacks one of REQUIRED_TAGS (comma-separated); and it returns the
//     estimated cost of the resource as metadata, from a small price
//     table by resource type (and instance type or class).
//   - plan-stage-complete returns the total estimated monthly cost of
//     the resources seen in post-plan, and fails when it is more than
//     BUDGET (dollars a month), if that is set.
//
// examples/middleware/naming-cost-python does exactly the same in Python.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// Prices are in ten-thousandths of a dollar an hour, so that every sum is
// exact; a month is 730 hours.
const hoursPerMonth = 730

var flatPrices = map[string]int64{
	"aws_nat_gateway": 450,
	"aws_lb":          225,
	"aws_eip":         50,
	"aws_s3_bucket":   0,
	"aws_vpc":         0,
	"aws_subnet":      0,
}

// sizedPrices are priced by the attribute named in sizeAttrs.
var sizedPrices = map[string]map[string]int64{
	"aws_instance": {
		"t3.nano": 52, "t3.micro": 104, "t3.small": 208, "t3.medium": 416,
		"m5.large": 960, "m5.xlarge": 1920,
	},
	"aws_db_instance": {
		"db.t3.micro": 170, "db.t3.small": 340, "db.m5.large": 1710,
	},
}

var sizeAttrs = map[string]string{
	"aws_instance":    "instance_type",
	"aws_db_instance": "instance_class",
}

type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

type resourceParams struct {
	ResourceType    string `json:"resource_type"`
	ResourceName    string `json:"resource_name"`
	ResourceMode    string `json:"resource_mode"`
	ResourceAddress string `json:"resource_address"`
	After           any    `json:"after"`
	AfterUnknown    any    `json:"after_unknown"`
}

// after is the planned value as an object; nil when it is not one (it
// is null, or redacted as a whole).
func (p *resourceParams) after() map[string]any {
	m, _ := p.After.(map[string]any)
	return m
}

type server struct {
	namePattern, tagPattern *regexp.Regexp
	requiredTags            []string
	budget                  int64 // in price units; -1 for none

	out   *bufio.Writer
	costs map[string]int64 // monthly, by resource address
}

func main() {
	s := &server{out: bufio.NewWriter(os.Stdout), costs: map[string]int64{}, budget: -1}
	var err error
	if s.namePattern, err = regexp.Compile(env("NAME_PATTERN", `^[a-z][a-z0-9_]*$`)); err != nil {
		fatal("NAME_PATTERN: %v", err)
	}
	if s.tagPattern, err = regexp.Compile(env("TAG_PATTERN", `^[a-z][a-z0-9-]*$`)); err != nil {
		fatal("TAG_PATTERN: %v", err)
	}
	for _, t := range strings.Split(os.Getenv("REQUIRED_TAGS"), ",") {
		if t = strings.TrimSpace(t); t != "" {
			s.requiredTags = append(s.requiredTags, t)
		}
	}
	if b := os.Getenv("BUDGET"); b != "" {
		units, ok := parseDollars(b)
		if !ok {
			fatal("BUDGET must be a number of dollars, such as 250 or 99.50, not %q", b)
		}
		s.budget = units
	}

	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for in.Scan() {
		var req request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			s.reply(json.RawMessage("null"), nil, &rpcError{Code: -32700, Message: "parse error: " + err.Error()})
			continue
		}
		if len(req.ID) == 0 {
			continue // a notification
		}
		s.handle(&req)
	}
}

func env(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}

func fatal(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "naming-cost: "+format+"\n", args...)
	os.Exit(2)
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (s *server) reply(id json.RawMessage, result any, e *rpcError) {
	msg := map[string]any{"jsonrpc": "2.0", "id": id}
	if e != nil {
		msg["error"] = e
	} else {
		msg["result"] = result
	}
	line, err := json.Marshal(msg)
	if err != nil {
		fatal("%v", err)
	}
	_, _ = s.out.Write(append(line, '\n'))
	if err := s.out.Flush(); err != nil {
		os.Exit(1) // the client is gone
	}
}

func (s *server) handle(req *request) {
	switch req.Method {
	case "initialize":
		s.reply(req.ID, map[string]any{
			"capabilities": []string{"pre-plan", "post-plan", "plan-stage-complete"},
			"concurrent":   true,
		}, nil)
	case "pre-plan", "post-plan":
		var p resourceParams
		if err := json.Unmarshal(req.Params, &p); err != nil {
			s.reply(req.ID, nil, &rpcError{Code: -32602, Message: "invalid params: " + err.Error()})
			return
		}
		if req.Method == "pre-plan" {
			s.reply(req.ID, s.prePlan(&p), nil)
		} else {
			s.reply(req.ID, s.postPlan(&p), nil)
		}
	case "plan-stage-complete":
		s.reply(req.ID, s.planComplete(), nil)
	default:
		s.reply(req.ID, nil, &rpcError{Code: -32601, Message: "method not found: " + req.Method})
	}
}

func (s *server) prePlan(p *resourceParams) map[string]any {
	if !s.namePattern.MatchString(p.ResourceName) {
		return map[string]any{
			"status":  "fail",
			"message": fmt.Sprintf("resource name %q does not match %s", p.ResourceName, s.namePattern),
		}
	}
	return map[string]any{"status": "success"}
}

func (s *server) postPlan(p *resourceParams) map[string]any {
	if p.ResourceMode != "managed" {
		return map[string]any{"status": "success"}
	}
	var problems []string
	if tags, ok := s.tags(p); ok {
		if name, ok := tags["Name"].(string); ok && !s.tagPattern.MatchString(name) {
			problems = append(problems, fmt.Sprintf("tag Name %q does not match %s", name, s.tagPattern))
		}
		for _, t := range s.requiredTags {
			if _, ok := tags[t]; !ok {
				problems = append(problems, fmt.Sprintf("tag %q is required", t))
			}
		}
	}

	hourly, priced := price(p)
	monthly := hourly * hoursPerMonth
	if priced {
		addr := p.ResourceAddress
		if addr == "" {
			addr = p.ResourceType + "." + p.ResourceName
		}
		s.costs[addr] = monthly
	}
	res := map[string]any{
		"status": "success",
		"metadata": map[string]any{
			"estimated_cost": map[string]any{
				"hourly":   dollars(hourly),
				"monthly":  dollars(monthly),
				"currency": "USD",
				"priced":   priced,
			},
		},
	}
	if priced {
		res["message"] = "Estimated monthly cost: " + cents(monthly)
	} else {
		res["message"] = "No price known for " + p.ResourceType
	}
	if len(problems) > 0 {
		res["status"] = "fail"
		res["message"] = strings.Join(problems, "; ")
	}
	return res
}

// tags returns the resource's tags when it has a tags attribute that is
// known and not redacted.
func (s *server) tags(p *resourceParams) (map[string]any, bool) {
	v, ok := p.after()["tags"]
	if !ok {
		return nil, false
	}
	if unk, ok := p.AfterUnknown.(map[string]any); ok && unk["tags"] == true {
		return nil, false
	}
	if v == nil {
		return map[string]any{}, true
	}
	tags, ok := v.(map[string]any)
	return tags, ok
}

// price is the hourly price of a resource, and whether it is known.
func price(p *resourceParams) (int64, bool) {
	if n, ok := flatPrices[p.ResourceType]; ok {
		return n, true
	}
	table, ok := sizedPrices[p.ResourceType]
	if !ok {
		return 0, false
	}
	size, _ := p.after()[sizeAttrs[p.ResourceType]].(string)
	n, ok := table[size]
	return n, ok
}

func (s *server) planComplete() map[string]any {
	var total int64
	for _, c := range s.costs {
		total += c
	}
	n := len(s.costs)
	res := map[string]any{
		"status":  "success",
		"message": "Total estimated monthly cost: " + cents(total),
		"metadata": map[string]any{
			"total_monthly_cost": dollars(total),
			"currency":           "USD",
			"resources_priced":   n,
		},
	}
	if s.budget >= 0 && total > s.budget {
		res["status"] = "fail"
		res["message"] = fmt.Sprintf("Total estimated monthly cost %s exceeds the budget of %s", cents(total), cents(s.budget))
	}
	return res
}

// dollars is an amount in price units as a JSON number of dollars.
func dollars(units int64) float64 { return float64(units) / 10000 }

// cents writes an amount in price units as dollars and cents, rounding
// half a cent up.
func cents(units int64) string {
	c := (units + 50) / 100
	return fmt.Sprintf("$%d.%02d", c/100, c%100)
}

// parseDollars reads "250" or "99.5" as price units.
func parseDollars(s string) (int64, bool) {
	whole, frac, _ := strings.Cut(strings.TrimSpace(s), ".")
	if len(frac) > 4 {
		return 0, false
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || w < 0 {
		return 0, false
	}
	f := int64(0)
	if frac != "" {
		if f, err = strconv.ParseInt(frac+strings.Repeat("0", 4-len(frac)), 10, 64); err != nil || f < 0 {
			return 0, false
		}
	}
	return w*10000 + f, true
}
