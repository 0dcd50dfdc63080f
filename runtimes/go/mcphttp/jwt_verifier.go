package mcphttp

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/MicahParks/keyfunc/v3"
	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/time/rate"
)

// jwtVerifier checks bearer JWTs (golang-jwt/jwt/v5): the signature with
// a key of the issuer's JWKS (keyfunc/v3: fetched once, refreshed hourly
// and, for an unknown key id, at most every 30 s), an allowed algorithm,
// iss, aud, exp (required), nbf, with the leeway.
type jwtVerifier struct {
	opts   AuthOptions
	ctx    context.Context // ends the key set's refresh
	parser *jwt.Parser
	keys   atomic.Pointer[keyfunc.Keyfunc]
	mu     sync.Mutex // held while the key set is made
	failed time.Time  // when making it last failed; guarded by mu
	// failedErr is why, answered meanwhile when it is a clearTextError;
	// guarded by mu.
	failedErr error
}

// clearTextError refuses keys that would come over clear HTTP beyond
// loopback: its text is the tokens' refusal.
type clearTextError struct{ text string }

func (e *clearTextError) Error() string { return e.text }

// overTLS returns nil when rawURL is https, or http on a loopback name
// (loopbackNames): the keys deciding who calls every tool must not come
// over clear HTTP.
func overTLS(issuer, what, rawURL string) error {
	u, err := url.Parse(rawURL)
	if err == nil && strings.EqualFold(u.Scheme, "https") {
		return nil
	}
	if err == nil && strings.EqualFold(u.Scheme, "http") {
		name := strings.ToLower(u.Hostname())
		if strings.Contains(name, ":") {
			name = "[" + name + "]" // as loopbackNames writes ::1
		}
		if slices.Contains(loopbackNames, name) {
			return nil
		}
	}
	return &clearTextError{"issuer " + quote(issuer) + ": " + what + " " + quote(rawURL) + " must be https (http only on a loopback host)"}
}

// keysRetry is how long a failure to get the issuer's keys is remembered:
// meanwhile tokens are refused without a fetch, so that clients cannot
// make the server fetch, nor queue behind a slow issuer, on every request.
const keysRetry = 30 * time.Second

// keysTimeout bounds the discovery of the issuer's keys (metadata, then
// the JWKS), whoever asks.
const keysTimeout = 10 * time.Second

func newJWTVerifier(ctx context.Context, opts AuthOptions) *jwtVerifier {
	return &jwtVerifier{
		opts: opts,
		ctx:  ctx,
		parser: jwt.NewParser(
			jwt.WithValidMethods(opts.Algorithms),
			jwt.WithIssuer(opts.Issuer),
			jwt.WithAudience(opts.Audience),
			jwt.WithExpirationRequired(),
			jwt.WithLeeway(opts.Leeway),
		),
	}
}

// verify returns the token's identity, or the check that failed in a few
// words (never the token).
func (v *jwtVerifier) verify(ctx context.Context, token string) (*Identity, string) {
	// The key set is asked for once the token parses with an allowed
	// algorithm: a malformed token fetches nothing.
	var keysErr error
	key := func(t *jwt.Token) (any, error) {
		keys, err := v.keySet(ctx)
		if err != nil {
			keysErr = err
			return nil, err
		}
		// An unknown kid refetches the set at most once per 30 s: not
		// on a context the caller can cancel.
		key, err := (*keys).KeyfuncCtx(context.WithoutCancel(ctx))(t)
		if set, ok := key.(jwt.VerificationKeySet); ok && err == nil {
			return onlyKeyFor(t.Method, set)
		}
		return key, err
	}
	claims := jwt.MapClaims{}
	parsed, err := v.parser.ParseWithClaims(token, claims, key)
	if clear := (*clearTextError)(nil); errors.As(keysErr, &clear) {
		return nil, clear.text
	}
	if keysErr != nil {
		return nil, "could not get the issuer's signing keys"
	}
	if err != nil {
		return nil, v.reason(parsed, claims, err)
	}
	sub, _ := claims["sub"].(string)
	if sub == "" {
		return nil, "token has no sub claim"
	}
	id := &Identity{Subject: sub, Scopes: scopesOf(claims), Claims: claims}
	if exp, err := claims.GetExpirationTime(); err == nil && exp != nil {
		id.ExpiresAt = exp.Time
	}
	return id, ""
}

// reason is the check a parse error says failed (the texts of
// docs/production.md, the same in the three runtimes).
func (v *jwtVerifier) reason(parsed *jwt.Token, claims jwt.MapClaims, err error) string {
	if errors.Is(err, jwt.ErrTokenMalformed) {
		return "malformed token"
	}
	if parsed != nil {
		alg, _ := parsed.Header["alg"].(string)
		if !slices.Contains(v.opts.Algorithms, alg) {
			return "algorithm " + quote(alg) + " is not allowed"
		}
	}
	switch {
	case errors.Is(err, jwt.ErrTokenUnverifiable):
		return "unknown signing key"
	case errors.Is(err, jwt.ErrTokenSignatureInvalid):
		return "bad signature"
	case errors.Is(err, jwt.ErrTokenRequiredClaimMissing):
		// golang-jwt says so of a missing exp, iss or aud alike.
		for _, claim := range []string{"exp", "iss", "aud"} {
			if _, ok := claims[claim]; !ok {
				return "token has no " + claim + " claim"
			}
		}
	case errors.Is(err, jwt.ErrTokenExpired):
		return "token expired"
	case errors.Is(err, jwt.ErrTokenNotValidYet):
		return "token not valid yet"
	case errors.Is(err, jwt.ErrTokenInvalidIssuer):
		return "wrong issuer"
	case errors.Is(err, jwt.ErrTokenInvalidAudience):
		return "wrong audience"
	}
	return "invalid token"
}

// onlyKeyFor is the key verifying a token without a key id: the one key
// of set whose type fits the token's algorithm; none or several is an
// unknown signing key (the rule of the three runtimes: jose's).
func onlyKeyFor(method jwt.SigningMethod, set jwt.VerificationKeySet) (any, error) {
	var fits []jwt.VerificationKey
	for _, k := range set.Keys {
		switch k.(type) {
		case *rsa.PublicKey:
			if _, ok := method.(*jwt.SigningMethodRSA); ok {
				fits = append(fits, k)
			} else if _, ok := method.(*jwt.SigningMethodRSAPSS); ok {
				fits = append(fits, k)
			}
		case *ecdsa.PublicKey:
			if _, ok := method.(*jwt.SigningMethodECDSA); ok {
				fits = append(fits, k)
			}
		case ed25519.PublicKey:
			if _, ok := method.(*jwt.SigningMethodEd25519); ok {
				fits = append(fits, k)
			}
		}
	}
	if len(fits) != 1 {
		return nil, errors.New("a token without kid needs exactly one key of its algorithm in the key set, found " + strconv.Itoa(len(fits)))
	}
	return fits[0], nil
}

// scopesOf reads "scope" (space-separated, RFC 8693) or "scp" (a list or
// a string, as some issuers write it).
func scopesOf(claims jwt.MapClaims) []string {
	switch s := claims["scope"].(type) {
	case string:
		return strings.Fields(s)
	}
	switch s := claims["scp"].(type) {
	case string:
		return strings.Fields(s)
	case []any:
		var out []string
		for _, x := range s {
			if str, ok := x.(string); ok {
				out = append(out, str)
			}
		}
		return out
	}
	return nil
}

// keySet is the issuer's JWKS, made on the first token: at JWKSURL, else
// at the jwks_uri of the issuer's metadata. A failure is tried again by a
// token keysRetry later at the earliest.
func (v *jwtVerifier) keySet(ctx context.Context) (*keyfunc.Keyfunc, error) {
	if k := v.keys.Load(); k != nil {
		return k, nil
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if k := v.keys.Load(); k != nil {
		return k, nil
	}
	if !v.failed.IsZero() && time.Since(v.failed) < keysRetry {
		if clear := (*clearTextError)(nil); errors.As(v.failedErr, &clear) {
			return nil, clear
		}
		return nil, errors.New("the issuer's keys failed less than 30 s ago")
	}
	// Discovery is the verifier's, not the caller's: a client hanging up
	// must neither stop it nor be remembered as the issuer being down.
	fetch, cancel := context.WithTimeout(context.WithoutCancel(ctx), keysTimeout)
	defer cancel()
	k, err := v.makeKeySet(fetch)
	if err != nil {
		if !errors.Is(err, context.Canceled) {
			v.failed, v.failedErr = time.Now(), err
		}
		return nil, err
	}
	v.keys.Store(k)
	return k, nil
}

// makeKeySet makes the key set of JWKSURL or of the issuer's metadata.
func (v *jwtVerifier) makeKeySet(ctx context.Context) (*keyfunc.Keyfunc, error) {
	jwksURL := v.opts.JWKSURL
	if jwksURL != "" {
		if err := overTLS(v.opts.Issuer, "its JWKS URL", jwksURL); err != nil {
			return nil, err
		}
	} else {
		var err error
		if jwksURL, err = discoverJWKS(ctx, v.opts.Issuer); err != nil {
			return nil, err
		}
	}
	k, err := keyfunc.NewDefaultOverrideCtx(v.ctx, []string{jwksURL}, keyfunc.Override{
		HTTPTimeout:       5 * time.Second,
		RefreshUnknownKID: rate.NewLimiter(rate.Every(30*time.Second), 1),
		RateLimitWaitMax:  5 * time.Second,
	})
	if err != nil {
		return nil, err
	}
	return &k, nil
}

// discoverJWKS reads the jwks_uri of the issuer's metadata (RFC 8414, then
// OpenID Connect discovery); the issuer and the jwks_uri must be over TLS.
func discoverJWKS(ctx context.Context, issuer string) (string, error) {
	if err := overTLS(issuer, "its URL", issuer); err != nil {
		return "", err
	}
	u, err := url.Parse(issuer)
	if err != nil {
		return "", err
	}
	path := strings.TrimSuffix(u.Path, "/")
	client := &http.Client{Timeout: 5 * time.Second}
	for _, p := range []string{"/.well-known/oauth-authorization-server" + path, path + "/.well-known/openid-configuration"} {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.Scheme+"://"+u.Host+p, nil)
		if err != nil {
			return "", err
		}
		resp, err := client.Do(req)
		if err != nil {
			continue
		}
		var meta struct {
			JWKSURI string `json:"jwks_uri"`
		}
		err = json.NewDecoder(resp.Body).Decode(&meta)
		resp.Body.Close()
		if err == nil && resp.StatusCode == http.StatusOK && meta.JWKSURI != "" {
			return meta.JWKSURI, overTLS(issuer, "its jwks_uri", meta.JWKSURI)
		}
	}
	return "", errors.New("issuer " + quote(issuer) + " has no jwks_uri")
}
