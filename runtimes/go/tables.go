package aitools

// Stand-ins for the tables every generated file declares from its protos
// (templates/go/tables.hbs). Not inlined: the tests set them.

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
