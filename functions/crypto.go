package functions

import (
	"crypto/rsa"
	"encoding/asn1"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"golang.org/x/crypto/ssh"
)

// rsaDecryptFunc decrypts Base64 ciphertext (RSA PKCS #1 v1.5) with a
// PEM-encoded private key in any form OpenSSH reads (PKCS #1, PKCS #8,
// OpenSSH).
var rsaDecryptFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "ciphertext", Type: cty.String},
		{Name: "privatekey", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		text := args[0].AsString()
		cipher, err := base64.StdEncoding.DecodeString(text)
		if err != nil {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "failed to decode input %q: cipher text must be base64-encoded", text)
		}
		raw, err := ssh.ParseRawPrivateKey([]byte(args[1].AsString()))
		if err != nil {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(1, "%s", keyError(err))
		}
		key, ok := raw.(*rsa.PrivateKey)
		if !ok {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(1, "invalid private key type %T", raw)
		}
		out, err := rsa.DecryptPKCS1v15(nil, key, cipher) //nolint:staticcheck // rsadecrypt is defined as PKCS #1 v1.5
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to decrypt: %w", err)
		}
		return cty.StringVal(string(out)), nil
	},
})

// keyError words a key parsing error as OpenTofu does.
func keyError(err error) string {
	var syntax asn1.SyntaxError
	var structure asn1.StructuralError
	switch {
	case errors.As(err, &syntax):
		return strings.ReplaceAll(syntax.Error(), "asn1: syntax error", "invalid ASN1 data in the given private key")
	case errors.As(err, &structure):
		return strings.ReplaceAll(structure.Error(), "asn1: structure error", "invalid ASN1 data in the given private key")
	}
	return fmt.Sprintf("invalid private key: %s", err)
}
