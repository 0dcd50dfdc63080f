package mcphttp

import (
	"encoding/json"
	"net/http"
	"strings"
)

// An HTTP-level refusal's body, the same in the three runtimes
// (docs/production.md): {"error": code, "error_description": text}.
type httpRefusal struct {
	Error       string `json:"error"`
	Description string `json:"error_description"`
}

// writeRefusal answers status with the refusal's JSON body.
func writeRefusal(w http.ResponseWriter, status int, code, description string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(httpRefusal{code, description})
}

// bearerChallenge is a WWW-Authenticate value (RFC 6750 §3): "Bearer"
// and the parameters, name and value pairs in order, each value a quoted
// string; a pair with an empty value is left out.
func bearerChallenge(params ...string) string {
	var b strings.Builder
	b.WriteString("Bearer")
	sep := " "
	for i := 0; i+1 < len(params); i += 2 {
		if params[i+1] == "" {
			continue
		}
		b.WriteString(sep + params[i] + `="` + quotedValue(params[i+1]) + `"`)
		sep = ", "
	}
	return b.String()
}

// quotedValue escapes '\' and '"' and replaces what is not printable
// ASCII by a space.
func quotedValue(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e {
			return ' '
		}
		return r
	}, strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s))
}

// challenges writes the 401 and 403 answers of the bearer gate.
type challenges struct {
	metadataURL string   // the protected resource metadata's URL
	scopes      []string // the server-wide scopes
}

// noToken answers a request without a bearer token.
func (c challenges) noToken(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", bearerChallenge("resource_metadata", c.metadataURL, "scope", strings.Join(c.scopes, " ")))
	writeRefusal(w, http.StatusUnauthorized, "invalid_token", "no bearer token")
}

// invalidToken answers a token that failed a check, reason saying which.
func (c challenges) invalidToken(w http.ResponseWriter, reason string) {
	w.Header().Set("WWW-Authenticate", bearerChallenge("error", "invalid_token", "error_description", reason, "resource_metadata", c.metadataURL))
	writeRefusal(w, http.StatusUnauthorized, "invalid_token", reason)
}

// insufficientScope answers a token without every scope of needed.
func (c challenges) insufficientScope(w http.ResponseWriter, needed []string, description string) {
	w.Header().Set("WWW-Authenticate", bearerChallenge("error", "insufficient_scope", "scope", strings.Join(needed, " "), "resource_metadata", c.metadataURL))
	writeRefusal(w, http.StatusForbidden, "insufficient_scope", description)
}
