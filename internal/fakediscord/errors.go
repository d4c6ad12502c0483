package fakediscord

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// Errors in Discord's shape: {"message": ..., "code": ..., "errors": ...}.

// apiError is an error answer: {"message": ..., "code": ..., "errors": ...}.
type apiError struct {
	Status  int
	Code    int
	Message string
	Errors  map[string]any // nested field errors (code 50035)
	Detail  string         // for RESTError.Detail
}

func (e *apiError) Error() string {
	return strconv.Itoa(e.Status) + " " + strconv.Itoa(e.Code) + " " + e.Message + " " + e.Detail
}

func writeAPIError(w http.ResponseWriter, e *apiError) {
	body := map[string]any{"message": e.Message, "code": e.Code}
	if len(e.Errors) > 0 {
		body["errors"] = e.Errors
	}
	writeJSON(w, e.Status, body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writeRaw(w, status, b)
}

func writeRaw(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// formErrors collects 50035 "Invalid Form Body" field errors.
type formErrors struct {
	tree   map[string]any
	detail []string
}

func newFormErrors() *formErrors { return &formErrors{tree: map[string]any{}} }

func (f *formErrors) add(path []string, code, msg string) {
	node := f.tree
	for _, p := range path {
		next, ok := node[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			node[p] = next
		}
		node = next
	}
	errs, _ := node["_errors"].([]any)
	node["_errors"] = append(errs, map[string]any{"code": code, "message": msg})
	f.detail = append(f.detail, strings.Join(path, ".")+": "+code+": "+msg)
}

// length adds Discord's BASE_TYPE_BAD_LENGTH at path unless 1 <= n <= most.
func (f *formErrors) length(path []string, n, most int) {
	if n < 1 || n > most {
		f.add(path, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and "+strconv.Itoa(most)+" in length.")
	}
}

func (f *formErrors) any() bool { return len(f.detail) > 0 }

func (f *formErrors) err() *apiError {
	return &apiError{Status: http.StatusBadRequest, Code: 50035, Message: "Invalid Form Body",
		Errors: f.tree, Detail: strings.Join(f.detail, "; ")}
}

func itoa(i int) string { return strconv.Itoa(i) }

var (
	errUnauthorized    = &apiError{Status: http.StatusUnauthorized, Code: 0, Message: "401: Unauthorized"}
	errNotFound        = &apiError{Status: http.StatusNotFound, Code: 0, Message: "404: Not Found"}
	errMethod          = &apiError{Status: http.StatusMethodNotAllowed, Code: 0, Message: "405: Method Not Allowed"}
	errUnknownMessage  = &apiError{Status: http.StatusNotFound, Code: 10008, Message: "Unknown Message"}
	errUnknownWebhook  = &apiError{Status: http.StatusNotFound, Code: 10015, Message: "Unknown Webhook"}
	errUnknownIx       = &apiError{Status: http.StatusNotFound, Code: 10062, Message: "Unknown interaction"}
	errAlreadyAcked    = &apiError{Status: http.StatusBadRequest, Code: 40060, Message: "Interaction has already been acknowledged."}
	errInvalidJSON     = &apiError{Status: http.StatusBadRequest, Code: 50109, Message: "The request body contains invalid JSON."}
	errTooLarge        = &apiError{Status: http.StatusRequestEntityTooLarge, Code: 40005, Message: "Request entity too large"}
	errMissingAccess   = &apiError{Status: http.StatusForbidden, Code: 50001, Message: "Missing Access"}
	errNotAuthor       = &apiError{Status: http.StatusForbidden, Code: 50005, Message: "Cannot edit a message authored by another user"}
	errInvalidWHToken  = &apiError{Status: http.StatusUnauthorized, Code: 50027, Message: "Invalid Webhook Token"}
	errMissingPerms    = &apiError{Status: http.StatusForbidden, Code: 50013, Message: "Missing Permissions"}
	errEmptyMessage    = &apiError{Status: http.StatusBadRequest, Code: 50006, Message: "Cannot send an empty message"}
	errEntryPoint      = &apiError{Status: http.StatusBadRequest, Code: 50240, Message: "You cannot remove this app's Entry Point command in a bulk update operation. Please include the Entry Point command in your update request or delete it separately."}
	errUnknownGuild    = &apiError{Status: http.StatusNotFound, Code: 10004, Message: "Unknown Guild"}
	errInvalidRespType = &apiError{Status: http.StatusBadRequest, Code: 50035, Message: "Invalid Form Body",
		Errors: map[string]any{"type": map[string]any{"_errors": []any{map[string]any{
			"code": "INTERACTION_RESPONSE_TYPE_INVALID", "message": "Invalid interaction response type for this interaction."}}}}}
)

func withDetail(e *apiError, detail string) *apiError {
	c := *e
	c.Detail = detail
	return &c
}
