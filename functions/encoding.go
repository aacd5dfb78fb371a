package functions

import (
	"bytes"
	"compress/gzip"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/url"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	textencoding "golang.org/x/text/encoding"
	"golang.org/x/text/encoding/ianaindex"
)

// stringFunc makes a function of one string to a string that cannot fail.
func stringFunc(f func(string) string) function.Function {
	return function.New(&function.Spec{
		Params:       []function.Parameter{{Name: "str", Type: cty.String}},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return cty.StringVal(f(args[0].AsString())), nil
		},
	})
}

// The digests of the hash functions, as OpenTofu prints them.
func md5Hex(b []byte) string    { s := md5.Sum(b); return hex.EncodeToString(s[:]) }
func sha1Hex(b []byte) string   { s := sha1.Sum(b); return hex.EncodeToString(s[:]) }
func sha256Hex(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }
func sha512Hex(b []byte) string { s := sha512.Sum512(b); return hex.EncodeToString(s[:]) }
func sha256Base64(b []byte) string {
	s := sha256.Sum256(b)
	return base64.StdEncoding.EncodeToString(s[:])
}
func sha512Base64(b []byte) string {
	s := sha512.Sum512(b)
	return base64.StdEncoding.EncodeToString(s[:])
}

var (
	base64SHA256Func = stringFunc(func(s string) string { return sha256Base64([]byte(s)) })
	base64SHA512Func = stringFunc(func(s string) string { return sha512Base64([]byte(s)) })
)

// base64DecodeFunc decodes standard Base64 whose bytes must be UTF-8 text.
var base64DecodeFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "str", Type: cty.String, AllowMarked: true}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		str, marks := args[0].Unmark()
		b, err := base64.StdEncoding.DecodeString(str.AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to decode base64 data %s", redact(str.AsString(), marks))
		}
		if !utf8.Valid(b) {
			return cty.UnknownVal(cty.String), errors.New("the result of decoding the provided string is not valid UTF-8")
		}
		return cty.StringVal(string(b)).WithMarks(marks), nil
	},
})

// base64GzipFunc gzips the UTF-8 bytes of a string and encodes them in
// Base64.
var base64GzipFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "str", Type: cty.String}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		var buf bytes.Buffer
		w := gzip.NewWriter(&buf)
		if _, err := w.Write([]byte(args[0].AsString())); err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to write gzip raw data: %w", err)
		}
		// OpenTofu flushes before closing, which adds an empty block to the
		// stream; the output is byte for byte the same only with it.
		if err := w.Flush(); err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to flush gzip writer: %w", err)
		}
		if err := w.Close(); err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to close gzip writer: %w", err)
		}
		return cty.StringVal(base64.StdEncoding.EncodeToString(buf.Bytes())), nil
	},
})

// maxGunzip bounds what base64gunzip inflates, so that a small input cannot
// exhaust memory.
const maxGunzip = 256 << 20

// base64GunzipFunc reverses base64gzip.
var base64GunzipFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "str", Type: cty.String, AllowMarked: true}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		str, marks := args[0].Unmark()
		b, err := base64.StdEncoding.DecodeString(str.AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to decode base64 data %s", redact(str.AsString(), marks))
		}
		r, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to gunzip bytestream: %w", err)
		}
		out, err := io.ReadAll(io.LimitReader(r, maxGunzip+1))
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to read gunzip raw data: %w", err)
		}
		if len(out) > maxGunzip {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to read gunzip raw data: more than %d bytes", maxGunzip)
		}
		return cty.StringVal(string(out)).WithMarks(marks), nil
	},
})

// textEncodeBase64Func encodes a string in a named character encoding and
// then in Base64.
var textEncodeBase64Func = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "string", Type: cty.String},
		{Name: "encoding", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		enc, name, err := ianaEncoding(args[1].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		b, err := enc.NewEncoder().Bytes([]byte(args[0].AsString()))
		if err != nil {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "the given string contains characters that cannot be represented in %s", name)
		}
		return cty.StringVal(base64.StdEncoding.EncodeToString(b)), nil
	},
})

// textDecodeBase64Func decodes Base64 and then a named character encoding.
var textDecodeBase64Func = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "source", Type: cty.String},
		{Name: "encoding", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		enc, name, err := ianaEncoding(args[1].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		raw, err := base64.StdEncoding.DecodeString(args[0].AsString())
		if err != nil {
			var corrupt base64.CorruptInputError
			if errors.As(err, &corrupt) {
				return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "the given value is has an invalid base64 symbol at offset %d", int(corrupt))
			}
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "invalid source string: %w", err)
		}
		b, err := enc.NewDecoder().Bytes(raw)
		if err != nil || bytes.ContainsRune(b, utf8.RuneError) {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "the given string contains symbols that are not defined for %s", name)
		}
		return cty.StringVal(string(b)), nil
	},
})

// ianaEncoding looks up a character encoding by IANA name or alias and
// returns it with its canonical name.
func ianaEncoding(alias string) (textencoding.Encoding, string, error) {
	enc, err := ianaindex.IANA.Encoding(alias)
	if err != nil || enc == nil {
		return nil, "", function.NewArgErrorf(1, "%q is not a supported IANA encoding name or alias in this OpenTofu version", alias)
	}
	name, err := ianaindex.IANA.Name(enc)
	if err != nil {
		name = alias
	}
	return enc, name, nil
}

// urlDecodeFunc reverses urlencode (query escaping: "+" is a space).
var urlDecodeFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "str", Type: cty.String}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		s, err := url.QueryUnescape(args[0].AsString())
		if err != nil {
			// OpenTofu quotes the (empty) partial result here, not the input.
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to decode URL '%s': %w", s, err)
		}
		return cty.StringVal(s), nil
	},
})
