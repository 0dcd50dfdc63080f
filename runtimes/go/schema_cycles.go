//aitools:inline providers

package aitools

import (
	"sort"
	"strings"
)

// providerRefCycle returns the first place ("#" or "#/$defs/<name>") that a
// $ref of the schema leads back to, through required properties only when
// onlyRequired; "" when the schema has no such cycle. A compact strict tool
// generated for OpenAI alone (providers=openai) keeps its recursion, which
// Anthropic strict tool use refuses outright and Gemini refuses through
// required properties (docs/compat.md, "$defs and $ref").
func providerRefCycle(root map[string]any, onlyRequired bool) string {
	edges := map[string][]string{}
	var order []string
	collect := func(at string, node any) {
		refs := map[string]bool{}
		providerRefsBelow(node, onlyRequired, refs)
		list := make([]string, 0, len(refs))
		for r := range refs {
			list = append(list, r)
		}
		sort.Strings(list)
		edges[at] = list
		order = append(order, at)
	}
	top := map[string]any{}
	for k, v := range root {
		if k != "$defs" {
			top[k] = v
		}
	}
	collect("#", top)
	if defs, ok := root["$defs"].(map[string]any); ok {
		names := make([]string, 0, len(defs))
		for name := range defs {
			names = append(names, name)
		}
		sort.Strings(names)
		escape := strings.NewReplacer("~", "~0", "/", "~1")
		for _, name := range names {
			collect("#/$defs/"+escape.Replace(name), defs[name])
		}
	}
	done := map[string]bool{}
	var visit func(at string, stack []string) string
	visit = func(at string, stack []string) string {
		for _, s := range stack {
			if s == at {
				return at
			}
		}
		if done[at] {
			return ""
		}
		stack = append(stack, at)
		for _, target := range edges[at] {
			if found := visit(target, stack); found != "" {
				return found
			}
		}
		done[at] = true
		return ""
	}
	for _, at := range order {
		if found := visit(at, nil); found != "" {
			return found
		}
	}
	return ""
}

// providerRefsBelow adds the $ref targets below node (not followed) to out,
// passing only properties their object requires when onlyRequired.
func providerRefsBelow(node any, onlyRequired bool, out map[string]bool) {
	obj, ok := node.(map[string]any)
	if !ok {
		return
	}
	if ref, ok := obj["$ref"].(string); ok {
		out[ref] = true
	}
	if properties, ok := obj["properties"].(map[string]any); ok {
		required, _ := obj["required"].([]any)
		for name, sub := range properties {
			if !onlyRequired || containsValue(required, name) {
				providerRefsBelow(sub, onlyRequired, out)
			}
		}
	}
	providerRefsBelow(obj["items"], onlyRequired, out)
	providerRefsBelow(obj["additionalProperties"], onlyRequired, out)
	for _, key := range []string{"anyOf", "oneOf", "allOf"} {
		if branches, ok := obj[key].([]any); ok {
			for _, b := range branches {
				providerRefsBelow(b, onlyRequired, out)
			}
		}
	}
}
