// Package functions is OpenTofu's built-in functions as cty functions.
package functions
