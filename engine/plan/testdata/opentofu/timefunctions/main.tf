# OpenTofu's time functions over inputs, which only the plan knows:
# formatdate with every verb and literals that Go's layouts would misread,
# timeadd keeping the offset, timecmp comparing instants.
# ../timefunctions.json is what real OpenTofu's `tofu show -json` printed
# for its plan; opentofu_test.go says how to regenerate it.

variable "stamps" {
  type = list(string)
  default = [
    "2024-02-29T23:30:00+02:00",
    "2018-01-02T09:05:07Z",
    "1950-06-15T00:00:00.5-05:30",
    "2300-12-31T12:59:59.999+00:00",
  ]
}

variable "formats" {
  type = list(string)
  default = [
    "YYYY-MM-DD'T'hh:mm:ssZ",
    "YY M D h H AA aa m s",
    "MMMM MMM EEEE EEE",
    "Ms hh:mm ZZZ ZZZZ ZZZZZ Z",
    "'Jan 2006 15 pm' DD",
  ]
}

resource "terraform_data" "times" {
  count = length(var.stamps)
  input = {
    iso      = formatdate("YYYY-MM-DD'T'hh:mm:ssZ", var.stamps[count.index])
    words    = formatdate("EEEE, D MMMM YYYY 'at' h:mm aa (ZZZ)", var.stamps[count.index])
    digits   = formatdate("Ms hh:mm ZZZ ZZZZ ZZZZZ Z", var.stamps[count.index])
    literal  = formatdate("'Jan 2006 15 pm' DD", var.stamps[count.index])
    later    = timeadd(var.stamps[count.index], "1h30m")
    earlier  = timeadd(var.stamps[count.index], "-1.6s")
    year_on  = timeadd(var.stamps[count.index], "8760h")
    vs_first = timecmp(var.stamps[count.index], var.stamps[0])
  }
}

output "times" {
  value = terraform_data.times[*].input
}
