package mockapi

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
)

type modelsPage struct {
	Data []struct {
		Type, ID string
	} `json:"data"`
	HasMore bool    `json:"has_more"`
	FirstID *string `json:"first_id"`
	LastID  *string `json:"last_id"`
}

func getModels(t *testing.T, url string) (int, modelsPage) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var p modelsPage
	_ = json.NewDecoder(resp.Body).Decode(&p)
	return resp.StatusCode, p
}

// TestModelsListingFollowsAfterID: a client that follows has_more and
// last_id from page to page gets every listed model once, in order, and the
// last page says there is no more.
func TestModelsListingFollowsAfterID(t *testing.T) {
	base, seen := startServer(t, routingScript+"models: [claude-a, claude-b, claude-c]\nmodelsPage: 2\n")
	var got []string
	url := base + "/v1/models?limit=1000"
	for range 5 {
		status, p := getModels(t, url)
		if status != 200 {
			t.Fatalf("GET %s: %d", url, status)
		}
		for _, d := range p.Data {
			if d.Type != "model" {
				t.Errorf("type %q, want model", d.Type)
			}
			got = append(got, d.ID)
		}
		if !p.HasMore {
			break
		}
		if p.LastID == nil {
			t.Fatal("has_more without last_id")
		}
		url = base + "/v1/models?limit=1000&after_id=" + *p.LastID
	}
	if want := []string{"claude-a", "claude-b", "claude-c"}; !slices.Equal(got, want) {
		t.Errorf("listed %v, want %v", got, want)
	}
	if n := len(seen()); n != 2 {
		t.Errorf("%d requests for 3 models in pages of 2, want 2", n)
	}
	if k := seen()[0].Kind; k != KindModels {
		t.Errorf("kind %v, want models", k)
	}
}

// TestModelsListingLimit: the caller's limit caps a page below modelsPage,
// and a limit that is not 1 to 1000 is refused.
func TestModelsListingLimit(t *testing.T) {
	base, _ := startServer(t, routingScript+"models: [claude-a, claude-b, claude-c]\n")
	if status, p := getModels(t, base+"/v1/models?limit=1"); status != 200 || len(p.Data) != 1 || !p.HasMore || *p.FirstID != "claude-a" {
		t.Errorf("limit=1: %d %+v", status, p)
	}
	if status, p := getModels(t, base+"/v1/models"); status != 200 || len(p.Data) != 3 || p.HasMore {
		t.Errorf("no limit: %d %+v", status, p)
	}
	for _, bad := range []string{"0", "1001", "x"} {
		if status, _ := getModels(t, base+"/v1/models?limit="+bad); status != 400 {
			t.Errorf("limit=%s: %d, want 400", bad, status)
		}
	}
}

func TestNegativeModelsPageIsRefused(t *testing.T) {
	if _, err := ParseYAML([]byte(routingScript + "modelsPage: -1\n")); err == nil {
		t.Error("modelsPage -1 was accepted")
	}
}
