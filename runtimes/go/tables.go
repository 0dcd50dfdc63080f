package aitools

// Stand-ins for the tables every generated file declares from its protos
// (templates/go/tables.hbs). Not inlined: the tests set them.

import (
	"time"

	"google.golang.org/protobuf/proto"
)

// knownAliasPrefixes holds every alias prefix declared in the protos.
var knownAliasPrefixes = map[string]bool{}

// responseFieldPrefixes maps a response field's JSON name to its alias
// prefix, "" for the tool's primary prefix (legacy RegisterFieldsFromJSON).
var responseFieldPrefixes = map[string]string{}

// responseAliasTypes lists, per response message type, the fields whose ids
// register (RegisterResponseJSON).
var responseAliasTypes = map[string][]responseAliasField{}

// toolResponseAliases says, per auto-executed tool, which message its
// response is and how its top-level entity's "id" registers.
var toolResponseAliases = map[string]responseAliasTool{}

// toolArguments holds, per auto-executed tool, its argument table as JSON
// text (docs/runtime.md, "Arguments").
var toolArguments = map[string]string{}

// toolProviderForms holds, per tool, its generated Parameters and each
// provider's form of its schema as JSON text (provider_forms.go;
// docs/compat.md, "What providers accept").
var toolProviderForms = map[string]generatedForms{}

// toolTimeouts holds the deadline of the tools whose annotation sets one.
var toolTimeouts = map[string]time.Duration{}

// toolNeedsApproval holds the tools whose calls need an approval, and
// toolMethods their full gRPC methods ("/pkg.Service/Method").
var (
	toolNeedsApproval = map[string]bool{}
	toolMethods       = map[string]string{}
)

// lenientArguments and jsonNames are constants in a generated file (plugin
// options lenient_arguments and json_names); variables here, for the tests.
var (
	lenientArguments = false
	jsonNames        = false
)

// validateRequest validates a decoded request (protovalidate, set up by the
// generated file when it validates requests); nil: no validation.
var validateRequest func(proto.Message) error
