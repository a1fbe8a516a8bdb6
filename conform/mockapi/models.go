package mockapi

import (
	"net/http"
	"slices"
	"strconv"
)

// models answers GET /v1/models with a page of Script.Models in the Models
// API's shape: data (type, id, display_name, created_at), has_more,
// first_id and last_id. A page starts after the query's after_id (from the
// start when it is absent or not listed) and holds up to its limit (default
// 20, at most 1000), capped by ModelsPage.
func (s *Server) models(w http.ResponseWriter, r *http.Request, rec *Request) {
	rec.Kind = KindModels
	q := r.URL.Query()
	limit := 20
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			s.fail(w, rec, APIError{Status: 400, Message: "mock-api: limit: want an integer from 1 to 1000, got " + strconv.Quote(v)})
			return
		}
		limit = n
	}
	if s.script.ModelsPage > 0 {
		limit = min(limit, s.script.ModelsPage)
	}
	all := s.script.Models
	start := 0
	if i := slices.Index(all, q.Get("after_id")); i >= 0 {
		start = i + 1
	}
	page := all[start:min(len(all), start+limit)]
	data := make([]map[string]any, len(page))
	for i, id := range page {
		data[i] = map[string]any{"type": "model", "id": id, "display_name": id, "created_at": "2026-01-01T00:00:00Z"}
	}
	body := map[string]any{"data": data, "has_more": start+len(page) < len(all), "first_id": nil, "last_id": nil}
	if len(page) > 0 {
		body["first_id"], body["last_id"] = page[0], page[len(page)-1]
	}
	rec.Status = http.StatusOK
	s.report(*rec, "")
	writeJSON(w, http.StatusOK, body)
}
