package server

import (
	"net/http"
	"strings"

	"github.com/textanalysis/go-textanalysis/textanalysis"
)

// obj is a JSON object of the OpenAPI document.
type obj = map[string]any

func ref(name string) obj { return obj{"$ref": "#/components/schemas/" + name} }

// openAPI builds the OpenAPI 3.0.2 document from the operations table.
func (s *Server) openAPI() obj {
	limits := s.an.Limits()
	paths := obj{}
	for _, op := range operations {
		item, _ := paths[op.Path].(obj)
		if item == nil {
			item = obj{}
			paths[op.Path] = item
		}
		item[strings.ToLower(op.Method)] = s.openAPIOperation(op, limits)
	}
	paths["/"] = obj{"get": obj{
		"operationId": "docs__get",
		"summary":     "API documentation index",
		"description": "Name, version, links to the OpenAPI document and the HTML and markdown docs, the operations, and the models and formats with their meaning.",
		"tags":        []string{"docs"},
		"security":    []obj{},
		"responses": obj{"200": obj{
			"description": "The documentation index.",
			"headers":     responseHeaders(false),
			"content":     obj{"application/json": obj{"schema": ref("DocsIndex")}},
		}},
	}}

	schemas := responseSchemas()
	for _, op := range operations {
		if op.Schema == "" {
			continue
		}
		props := obj{}
		var req []string
		for _, f := range op.Fields {
			props[f.Name] = fieldSchema(f, limits)
			if f.Required {
				req = append(req, f.Name)
			}
		}
		sch := obj{"title": op.Schema, "type": "object", "properties": props}
		if len(req) > 0 {
			sch["required"] = req
		}
		if op.ID == "qa_post" {
			sch["description"] = "Exactly one of `url` and `context` is required."
		}
		schemas[op.Schema] = sch
	}

	return obj{
		"openapi": "3.0.2",
		"info": obj{
			"title":       "go-textanalysis",
			"version":     textanalysis.Version,
			"description": "Text extraction from web pages, named-entity recognition and display, sentiment analysis and extractive question answering. Every analysis path takes GET with query parameters or POST with a JSON body." + s.keysDescription(),
		},
		"externalDocs": obj{"description": "The reference: getting a key, plans and limits, MCP, every operation with an example", "url": s.baseURL() + "/docs.md"},
		"servers":      []obj{{"url": s.cfg.BaseURL + "/"}},
		"tags": []obj{
			{"name": "text", "description": "Main text of a web page"},
			{"name": "ner", "description": "Named entities and their display"},
			{"name": "sentiment", "description": "Sentiment of a text and its sentences"},
			{"name": "qa", "description": "Extractive question answering"},
			{"name": "docs", "description": "Documentation"},
		},
		"paths": paths,
		"components": obj{
			"schemas": schemas,
			"securitySchemes": obj{
				"APIKeyHeader": obj{"type": "apiKey", "in": "header", "name": "X-API-Key", "description": "Your API key."},
				"HTTPBearer":   obj{"type": "http", "scheme": "bearer", "description": "Your API key as a bearer token: `Authorization: Bearer <API_KEY>`."},
			},
			"headers": obj{
				"X-Gw-Remaining": obj{"description": "What is left of your allowance for the current period, after this request.", "schema": obj{"type": "integer"}},
				"X-Gw-Reset":     obj{"description": "When the allowance refills (RFC 3339, UTC).", "schema": obj{"type": "string", "format": "date-time"}},
				"X-Request-Id":   obj{"description": "The id of this request; quote it when you report a problem.", "schema": obj{"type": "string"}},
				"Retry-After":    obj{"description": "Seconds to wait before trying again.", "schema": obj{"type": "integer"}},
			},
		},
	}
}

func tagOf(op operation) string {
	switch {
	case strings.HasPrefix(op.Path, "/ner"):
		return "ner"
	case op.Path == "/text":
		return "text"
	case op.Path == "/sentiment":
		return "sentiment"
	}
	return "qa"
}

// keysDescription is the part of info.description that says where keys
// and the MCP endpoint are; "" on a server without keys.
func (s *Server) keysDescription() string {
	if s.cfg.Gate == nil {
		return ""
	}
	base := s.baseURL()
	dev := s.developerURL(base)
	return "\n\nGet a free key at the developer site, " + dev + "/ (or a trial key at once: POST " + dev + "/trial), " +
		"and send it as X-API-Key. Plans, limits and rate limits: " + base + "/docs.md#getting-a-key. " +
		"The operations are also MCP tools at " + base + "/mcp: " + base + "/docs.md#mcp."
}

// What pos, neu and neg mean depends on the sentiment model; they add up
// to 1 (up to rounding) for both.
const (
	posDoc   = "Positive: with the default model (hybrid), the probability that the text is positive; with vader, VADER's positive proportion (the positive words' intensity, the neutral words' count and the negative words' intensity are each divided by their sum)."
	neuDoc   = "Neutral: with the default model (hybrid), the probability that the text is neutral; with vader, VADER's neutral proportion (the positive words' intensity, the neutral words' count and the negative words' intensity are each divided by their sum)."
	labelDoc = "The label to read. With the default model (hybrid): neutral only for a text that carries no sentiment, or whose words lean to neither side (a text mixing clear praise and blame gets the side that weighs more) " +
		"(never for one where VADER finds clear sentiment on the side the model leans to; a short text that reads like a tweet is judged by a polar-or-neutral model trained on tweets, " +
		"so one that only reports news or plans is neutral); otherwise the more likely of positive and negative, " +
		"so a weakly polar text gets a polar label with a small compound. With vader: positive for compound >= 0.05, negative for <= -0.05, neutral in between. " +
		"An empty text is neutral with all scores 0."
	compoundDoc = "From -1 (most negative) to 1 (most positive). With the default model (hybrid), pos - neg: its magnitude is a confidence you can threshold " +
		"(0.5 means the model is 50 points surer of one side than of the other; on polar dev texts its sign is right for 99.5% of those at 0.9 or more). With vader, VADER's normalised sum of word valences."
	negDoc = "Negative: with the default model (hybrid), the probability that the text is negative; with vader, VADER's negative proportion (the positive words' intensity, the neutral words' count and the negative words' intensity are each divided by their sum)."
)

func fieldSchema(f field, limits textanalysis.Limits) obj {
	sch := obj{"type": "string", "title": strings.ToUpper(f.Name[:1]) + f.Name[1:], "description": f.Description}
	if f.MinRunes > 0 {
		sch["minLength"] = f.MinRunes
	}
	if f.MaxRunes != nil {
		sch["maxLength"] = f.MaxRunes(limits)
	}
	if f.Enum != nil {
		sch["enum"] = f.Enum()
	}
	if f.Example != "" {
		sch["example"] = f.Example
	}
	if !f.Required {
		// As FastAPI's Optional[str] = None: null means absent.
		sch["nullable"] = true
	}
	if f.SpanArray {
		// Inline, not a $ref: the MCP tools' input schemas use this too,
		// and they have no components to refer to.
		return obj{"title": sch["title"], "description": f.Description, "oneOf": []any{
			obj{"type": "array", "items": spanItemSchema()},
			sch,
		}}
	}
	return sch
}

// queryFieldSchema is a field's schema as a query parameter, which is
// always a string (spans as the text of their JSON array).
func queryFieldSchema(f field, limits textanalysis.Limits) obj {
	f.SpanArray = false
	return fieldSchema(f, limits)
}

// spanItemSchema is one span of the array form of spans.
func spanItemSchema() obj {
	return obj{
		"type": "object", "required": []string{"start", "end", "label"},
		"properties": obj{
			"start": obj{"type": "integer", "minimum": 0, "description": "Code-point offset of the span's first character."},
			"end":   obj{"type": "integer", "minimum": 0, "description": "Code-point offset after the span's last character."},
			"label": obj{"type": "string", "description": "The label drawn, e.g. PERSON."},
		},
	}
}

func responseHeaders(withRetry bool) obj {
	h := obj{
		"X-Gw-Remaining": obj{"$ref": "#/components/headers/X-Gw-Remaining"},
		"X-Gw-Reset":     obj{"$ref": "#/components/headers/X-Gw-Reset"},
		"X-Request-Id":   obj{"$ref": "#/components/headers/X-Request-Id"},
	}
	if withRetry {
		h["Retry-After"] = obj{"$ref": "#/components/headers/Retry-After"}
	}
	return h
}

func (s *Server) openAPIOperation(op operation, limits textanalysis.Limits) obj {
	jsonOf := func(schema string) obj { return obj{"application/json": obj{"schema": ref(schema)}} }
	ok := obj{"description": "Successful Response", "headers": responseHeaders(false)}
	if op.Result == "html" {
		ok["content"] = obj{"text/html": obj{"schema": obj{"type": "string"}}}
	} else {
		ok["content"] = jsonOf(op.Result)
	}
	responses := obj{
		"200": ok,
		"401": obj{"description": "The API key is missing, unknown, revoked or issued for another API.", "headers": responseHeaders(false), "content": jsonOf("Error")},
		"422": obj{"description": "Validation Error", "headers": responseHeaders(false), "content": jsonOf("HTTPValidationError")},
		"429": obj{"description": "The allowance or the rate limit is used up; the body says whether to wait, upgrade or claim the key.", "headers": responseHeaders(true), "content": jsonOf("Error")},
		"500": obj{"description": "Internal error; the body carries the request id.", "headers": responseHeaders(false), "content": jsonOf("Error")},
		"503": obj{"description": "The server is busy with other requests (`error`: `overloaded`), or keys cannot be checked right now (`unavailable`); not counted; try again after `Retry-After`.", "headers": responseHeaders(true), "content": jsonOf("Error")},
		"504": obj{"description": "The request took longer than the server allows.", "headers": responseHeaders(false), "content": jsonOf("Error")},
	}
	if op.Method == http.MethodPost {
		responses["413"] = obj{"description": "The request body is larger than the limit.", "headers": responseHeaders(false), "content": jsonOf("Error")}
	}
	if op.Fetches {
		responses["502"] = obj{"description": "The web page could not be fetched; `cause` says why.", "headers": responseHeaders(false), "content": jsonOf("Error")}
	}
	o := obj{
		"operationId": op.ID,
		"summary":     op.Summary,
		"description": op.Description,
		"tags":        []string{tagOf(op)},
		"responses":   responses,
		"security":    []obj{{"APIKeyHeader": []string{}}, {"HTTPBearer": []string{}}},
	}
	if op.Method == http.MethodGet {
		var params []obj
		for _, f := range op.Fields {
			params = append(params, obj{
				"name": f.Name, "in": "query", "required": f.Required,
				"description": f.Description, "schema": queryFieldSchema(f, limits),
			})
		}
		o["parameters"] = params
	} else {
		o["requestBody"] = obj{"required": true, "content": jsonOf(op.Schema)}
	}
	return o
}

// responseSchemas are the 200 bodies of DESIGN.md §2 and the error shapes.
func responseSchemas() obj {
	str := obj{"type": "string"}
	nullableStr := func(desc string) obj { return obj{"type": "string", "nullable": true, "description": desc} }
	integer := func(desc string) obj { return obj{"type": "integer", "description": desc} }
	number := func(desc string) obj { return obj{"type": "number", "description": desc} }
	label := obj{"type": "string", "enum": []string{"positive", "negative", "neutral"}, "description": labelDoc}
	return obj{
		"TextResult": obj{
			"title": "TextResult", "type": "object",
			"required": []string{"url", "final_url", "title", "author", "published", "language", "language_tag", "text", "word_count"},
			"properties": obj{
				"url":          obj{"type": "string", "description": "The URL asked for."},
				"final_url":    obj{"type": "string", "description": "The URL after redirects."},
				"title":        nullableStr("The page's title; null when not found."),
				"author":       nullableStr("The author; null when not found."),
				"published":    nullableStr("Publication date (ISO 8601); null when not found."),
				"language":     nullableStr("The page's language as a BCP 47 primary language subtag, e.g. `en` for a page that declares `en-US`; null when unknown."),
				"language_tag": nullableStr("The language tag as the page declares it, e.g. `en-US`; null when it declares none."),
				"text":         obj{"type": "string", "description": "The main text; paragraphs are separated by a blank line."},
				"word_count":   integer("Words in `text`."),
				"warning":      nullableStr("Why `text` may be empty or incomplete although the page was read, e.g. `javascript_required: …` for a page that builds its content with JavaScript; null when there is nothing to say."),
				"page_type":    nullableStr("The kind of page the extractor's classifier sees: `article`, `collection`, `documentation`, `forum`, `listing`, `product` or `service`; null when unknown (pages not in English are not classified)."),
			},
		},
		"Entity": obj{
			"title": "Entity", "type": "object", "required": []string{"text", "label", "start", "end"},
			"properties": obj{
				"text":  obj{"type": "string", "description": "The entity as it appears in the text."},
				"label": obj{"type": "string", "description": "OntoNotes label: PERSON, NORP, FAC, ORG, GPE, LOC, PRODUCT, EVENT, WORK_OF_ART, LAW, LANGUAGE, DATE, TIME, PERCENT, MONEY, QUANTITY, ORDINAL or CARDINAL."},
				"start": integer("Offset of the first character, in Unicode code points."),
				"end":   integer("Offset after the last character (exclusive), in code points."),
			},
		},
		"NERResult": obj{
			"title": "NERResult", "type": "object", "required": []string{"model", "entities"},
			"properties": obj{
				"model":    obj{"type": "string", "description": "The model that found the entities."},
				"entities": obj{"type": "array", "items": ref("Entity")},
			},
		},
		"SentenceSentiment": obj{
			"title": "SentenceSentiment", "type": "object", "required": []string{"text", "start", "end", "label", "compound", "pos", "neu", "neg"},
			"properties": obj{
				"text": str, "start": integer("Code-point offset of the sentence."), "end": integer("Code-point offset after the sentence."),
				"label": label, "compound": obj{"type": "number", "minimum": -1, "maximum": 1, "description": compoundDoc},
				"pos": number(posDoc), "neu": number(neuDoc), "neg": number(negDoc),
			},
		},
		"SentimentResult": obj{
			"title": "SentimentResult", "type": "object", "required": []string{"label", "compound", "pos", "neu", "neg", "sentences"},
			"properties": obj{
				"label":     label,
				"compound":  obj{"type": "number", "minimum": -1, "maximum": 1, "description": compoundDoc},
				"pos":       number(posDoc),
				"neu":       number(neuDoc),
				"neg":       number(negDoc),
				"sentences": obj{"type": "array", "items": ref("SentenceSentiment")},
			},
		},
		"QAResult": obj{
			"title": "QAResult", "type": "object", "required": []string{"answer", "score", "start", "end", "source"},
			"properties": obj{
				"answer":  nullableStr("The answer, a span of the searched text; null when nothing answers well enough."),
				"score":   obj{"type": "number", "minimum": 0, "maximum": 1, "description": "Confidence in the answer."},
				"start":   obj{"type": "integer", "nullable": true, "description": "Code-point offset of the answer in the searched text."},
				"end":     obj{"type": "integer", "nullable": true, "description": "Code-point offset after the answer."},
				"source":  obj{"type": "string", "enum": []string{"context", "url"}},
				"url":     obj{"type": "string", "description": "The page searched, after redirects (source `url`)."},
				"context": obj{"type": "string", "description": "The searched text, when asked for."},
			},
		},
		"DocsIndex": obj{
			"title": "DocsIndex", "type": "object", "required": []string{"name", "version", "openapi", "docs", "operations"},
			"properties": obj{
				"name": str, "version": str, "openapi": str,
				"docs": obj{"type": "object", "properties": obj{"html": str, "markdown": str}},
				"operations": obj{"type": "array", "items": obj{
					"type": "object", "required": []string{"operation_id", "method", "path", "summary", "markdown"},
					"properties": obj{"operation_id": str, "method": str, "path": str, "summary": str, "markdown": str},
				}},
				"ner_models":       obj{"type": "array", "items": obj{"type": "object"}},
				"display_formats":  obj{"type": "array", "items": obj{"type": "object"}},
				"sentiment_models": obj{"type": "array", "items": obj{"type": "object"}},
				"limits":           obj{"type": "object"},
			},
		},
		"Error": obj{
			"title": "Error", "type": "object", "required": []string{"detail", "error"},
			"properties": obj{
				"detail":      obj{"type": "string", "description": "What went wrong, for a person."},
				"error":       obj{"type": "string", "description": "Machine-readable code."},
				"action":      obj{"type": "string", "enum": []string{"wait", "upgrade", "claim"}, "description": "On 429: what to do."},
				"reset":       obj{"type": "string", "format": "date-time", "description": "On 429: when waiting ends (RFC 3339, UTC). For error rate_limited, the per-second limit, it is when the next request is allowed (as Retry-After says); for allowance_exhausted, when the allowance refills (as X-Gw-Reset says)."},
				"upgrade_url": str,
				"claim_url":   str,
				"cause":       obj{"type": "string", "description": "On 502: why the page could not be fetched."},
				"url":         str,
				"request_id":  str,
			},
		},
		"ValidationError": obj{
			"title": "ValidationError", "type": "object", "required": []string{"loc", "msg", "type"},
			"properties": obj{
				"loc":   obj{"title": "Location", "type": "array", "items": obj{"anyOf": []obj{{"type": "string"}, {"type": "integer"}}}},
				"msg":   obj{"title": "Message", "type": "string"},
				"type":  obj{"title": "Error Type", "type": "string"},
				"input": obj{"title": "Input", "description": "The value at fault, as given."},
				"ctx":   obj{"title": "Context", "type": "object"},
			},
		},
		"HTTPValidationError": obj{
			"title": "HTTPValidationError", "type": "object",
			"properties": obj{"detail": obj{"title": "Detail", "type": "array", "items": ref("ValidationError")}},
		},
	}
}
