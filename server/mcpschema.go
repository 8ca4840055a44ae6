package server

import (
	"slices"
	"strings"
)

// toJSONSchema turns a schema of the OpenAPI 3.0 document into JSON Schema
// 2020-12, the dialect of MCP tool schemas: a $ref to a component is
// inlined from components (the tools have none of their own), nullable:
// true becomes a "null" type, and example becomes examples. Other keywords
// mean the same in both and are kept. The input is not changed.
func toJSONSchema(v any, components obj) any {
	switch v := v.(type) {
	case obj:
		if r, ok := v["$ref"].(string); ok {
			if target, ok := components[strings.TrimPrefix(r, "#/components/schemas/")]; ok {
				return toJSONSchema(target, components)
			}
		}
		out := make(obj, len(v))
		for k, x := range v {
			switch k {
			case "nullable", "example":
			default:
				out[k] = toJSONSchema(x, components)
			}
		}
		if ex, ok := v["example"]; ok {
			out["examples"] = []any{ex}
		}
		if n, _ := v["nullable"].(bool); n {
			switch t := v["type"].(type) {
			case string:
				out["type"] = []any{t, "null"}
			case nil:
				// A oneOf or anyOf: null is one more choice.
				if alts, ok := out["oneOf"].([]any); ok {
					out["oneOf"] = append(slices.Clone(alts), obj{"type": "null"})
				}
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = toJSONSchema(x, components)
		}
		return out
	case []obj:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = toJSONSchema(x, components)
		}
		return out
	}
	return v
}
