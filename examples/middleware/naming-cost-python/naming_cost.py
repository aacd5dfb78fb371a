#!/usr/bin/env python3
"""naming_cost: an example middleware in Python.

It does exactly what examples/middleware/naming-cost (in Go) does, with
the standard library only: it enforces a naming rule on resource names and
tags, and estimates what each resource costs. It speaks the middleware
protocol (JSON-RPC 2.0, one message per line, on stdin and stdout; see
engine/middleware) and answers one request at a time.

Hooks:
  pre-plan             fails a resource whose name (its label) does not
                       match NAME_PATTERN (default ^[a-z][a-z0-9_]*$).
  post-plan            fails a managed resource whose tags attribute has a
                       Name tag that does not match TAG_PATTERN (default
                       ^[a-z][a-z0-9-]*$) or lacks one of REQUIRED_TAGS
                       (comma-separated); returns the resource's estimated
                       cost as metadata.
  plan-stage-complete  returns the total estimated monthly cost of the
                       resources seen in post-plan, and fails when it is
                       more than BUDGET (dollars a month), if that is set.
"""

import json
import os
import re
import sys

# Prices are in ten-thousandths of a dollar an hour, so that every sum is
# exact; a month is 730 hours.
HOURS_PER_MONTH = 730

FLAT_PRICES = {
    "aws_nat_gateway": 450,
    "aws_lb": 225,
    "aws_eip": 50,
    "aws_s3_bucket": 0,
    "aws_vpc": 0,
    "aws_subnet": 0,
}

SIZED_PRICES = {
    "aws_instance": {
        "t3.nano": 52, "t3.micro": 104, "t3.small": 208, "t3.medium": 416,
        "m5.large": 960, "m5.xlarge": 1920,
    },
    "aws_db_instance": {
        "db.t3.micro": 170, "db.t3.small": 340, "db.m5.large": 1710,
    },
}

SIZE_ATTRS = {"aws_instance": "instance_type", "aws_db_instance": "instance_class"}


def fatal(message):
    print("naming-cost: " + message, file=sys.stderr, flush=True)
    sys.exit(2)


def quote(s):
    return json.dumps(s, ensure_ascii=False)


def dollars(units):
    """An amount in price units as dollars."""
    return units / 10000


def cents(units):
    """An amount in price units as dollars and cents, half a cent up."""
    c = (units + 50) // 100
    return "$%d.%02d" % (c // 100, c % 100)


def parse_dollars(s):
    """Reads "250" or "99.5" as price units, or None."""
    whole, _, frac = s.strip().partition(".")
    if len(frac) > 4 or not whole.isdigit() or (frac and not frac.isdigit()):
        return None
    return int(whole) * 10000 + (int(frac.ljust(4, "0")) if frac else 0)


class Server:
    def __init__(self):
        self.name_source = os.environ.get("NAME_PATTERN", r"^[a-z][a-z0-9_]*$")
        self.tag_source = os.environ.get("TAG_PATTERN", r"^[a-z][a-z0-9-]*$")
        try:
            self.name_pattern = re.compile(self.name_source)
        except re.error as e:
            fatal("NAME_PATTERN: %s" % e)
        try:
            self.tag_pattern = re.compile(self.tag_source)
        except re.error as e:
            fatal("TAG_PATTERN: %s" % e)
        self.required_tags = [t.strip() for t in os.environ.get("REQUIRED_TAGS", "").split(",") if t.strip()]
        self.budget = None
        if os.environ.get("BUDGET", "") != "":
            self.budget = parse_dollars(os.environ["BUDGET"])
            if self.budget is None:
                fatal("BUDGET must be a number of dollars, such as 250 or 99.50, not %s" % quote(os.environ["BUDGET"]))
        self.costs = {}  # monthly, by resource address

    def reply(self, id_, result=None, error=None):
        msg = {"jsonrpc": "2.0", "id": id_}
        if error is not None:
            msg["error"] = error
        else:
            msg["result"] = result
        try:
            sys.stdout.write(json.dumps(msg) + "\n")
            sys.stdout.flush()
        except BrokenPipeError:
            sys.exit(1)  # the client is gone

    def handle(self, req):
        method, id_ = req.get("method"), req.get("id")
        params = req.get("params") or {}
        if method == "initialize":
            self.reply(id_, {"capabilities": ["pre-plan", "post-plan", "plan-stage-complete"], "concurrent": False})
        elif method == "pre-plan":
            self.reply(id_, self.pre_plan(params))
        elif method == "post-plan":
            self.reply(id_, self.post_plan(params))
        elif method == "plan-stage-complete":
            self.reply(id_, self.plan_complete())
        else:
            self.reply(id_, error={"code": -32601, "message": "method not found: %s" % method})

    def pre_plan(self, p):
        name = p.get("resource_name", "")
        if not self.name_pattern.search(name):
            return {"status": "fail", "message": "resource name %s does not match %s" % (quote(name), self.name_source)}
        return {"status": "success"}

    def tags(self, p):
        after = p.get("after") or {}
        if not isinstance(after, dict) or "tags" not in after:
            return None
        unknown = p.get("after_unknown")
        if isinstance(unknown, dict) and unknown.get("tags") is True:
            return None
        tags = after["tags"]
        if tags is None:
            return {}
        return tags if isinstance(tags, dict) else None

    def price(self, p):
        rtype = p.get("resource_type", "")
        if rtype in FLAT_PRICES:
            return FLAT_PRICES[rtype], True
        table = SIZED_PRICES.get(rtype)
        if table is None:
            return 0, False
        after = p.get("after") or {}
        size = after.get(SIZE_ATTRS[rtype]) if isinstance(after, dict) else None
        if isinstance(size, str) and size in table:
            return table[size], True
        return 0, False

    def post_plan(self, p):
        if p.get("resource_mode") != "managed":
            return {"status": "success"}
        problems = []
        tags = self.tags(p)
        if tags is not None:
            name = tags.get("Name")
            if isinstance(name, str) and not self.tag_pattern.search(name):
                problems.append("tag Name %s does not match %s" % (quote(name), self.tag_source))
            for t in self.required_tags:
                if t not in tags:
                    problems.append("tag %s is required" % quote(t))

        hourly, priced = self.price(p)
        monthly = hourly * HOURS_PER_MONTH
        if priced:
            addr = p.get("resource_address") or "%s.%s" % (p.get("resource_type"), p.get("resource_name"))
            self.costs[addr] = monthly
        res = {
            "status": "success",
            "metadata": {
                "estimated_cost": {
                    "hourly": dollars(hourly),
                    "monthly": dollars(monthly),
                    "currency": "USD",
                    "priced": priced,
                },
            },
        }
        if priced:
            res["message"] = "Estimated monthly cost: " + cents(monthly)
        else:
            res["message"] = "No price known for " + p.get("resource_type", "")
        if problems:
            res["status"] = "fail"
            res["message"] = "; ".join(problems)
        return res

    def plan_complete(self):
        total = sum(self.costs.values())
        res = {
            "status": "success",
            "message": "Total estimated monthly cost: " + cents(total),
            "metadata": {
                "total_monthly_cost": dollars(total),
                "currency": "USD",
                "resources_priced": len(self.costs),
            },
        }
        if self.budget is not None and total > self.budget:
            res["status"] = "fail"
            res["message"] = "Total estimated monthly cost %s exceeds the budget of %s" % (cents(total), cents(self.budget))
        return res


def main():
    server = Server()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
        except ValueError as e:
            server.reply(None, error={"code": -32700, "message": "parse error: %s" % e})
            continue
        if not isinstance(req, dict) or "id" not in req:
            continue  # a notification
        try:
            server.handle(req)
        except Exception as e:  # report, keep serving
            server.reply(req["id"], error={"code": -32603, "message": "internal error: %s" % e})


if __name__ == "__main__":
    main()
