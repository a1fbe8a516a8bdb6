package claude

import (
	"encoding/json"
	"testing"
)

func TestReferenceSystemPrompt(t *testing.T) {
	tests := []struct {
		name, meta, client, custom string
		want                       string // the initialize body
		wantErr                    string
	}{
		{name: "preset", want: `{}`},
		{name: "preset with custom instructions", custom: "Be brief.", want: `{"appendSystemPrompt":"Be brief."}`},
		{name: "meta string replaces", meta: `{"systemPrompt":"You are X."}`, custom: "Be brief.", want: `{"systemPrompt":["You are X."]}`},
		{name: "meta object", meta: `{"systemPrompt":{"append":"More.","excludeDynamicSections":true,"type":"custom"}}`,
			want: `{"appendSystemPrompt":"More.","excludeDynamicSections":true}`},
		{name: "client append", meta: `{"systemPrompt":"ignored"}`, client: `{"mode":"append","content":[{"type":"text","text":"A"},{"type":"text","text":"B"}]}`,
			custom: "C", want: `{"appendSystemPrompt":"A\n\nB\n\nC"}`},
		{name: "client override", client: `{"mode":"override","content":[{"type":"text","text":"Only this."}]}`, want: `{"systemPrompt":["Only this."]}`},
		{name: "client empty append", client: `{"mode":"append","content":[]}`, want: `{}`},
		{name: "bad mode", client: `{"mode":"prepend","content":[]}`, wantErr: "Unsupported systemPrompt mode: prepend"},
		{name: "image block", client: `{"mode":"append","content":[{"type":"image"}]}`, wantErr: "systemPrompt content must be text, but received a image block"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sp, err := ReferenceSystemPrompt(json.RawMessage(tt.meta), json.RawMessage(tt.client), tt.custom)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("err %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var init Initialize
			sp.Apply(&init)
			got, _ := json.Marshal(init.body(&hookRegistry{}))
			if string(got) != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}
