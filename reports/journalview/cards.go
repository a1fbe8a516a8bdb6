package journalview

import (
	"bufio"
	"encoding/json"
)

// cutText is how much text a card shows once the page's text budget is
// spent.
const cutText = 256

// cardData is one card as the page's script draws it.
type cardData struct {
	Seq      uint64        `json:"seq"`
	Last     uint64        `json:"last,omitempty"` // a folded card's last seq
	Time     string        `json:"t"`
	Class    string        `json:"cls"`
	Lane     string        `json:"lane,omitempty"`
	Session  string        `json:"session,omitempty"`
	Method   string        `json:"method,omitempty"`
	Arrow    string        `json:"arrow"`
	Label    string        `json:"label"`
	Count    int           `json:"n,omitempty"` // folded messages (2 or more)
	Proc     string        `json:"proc,omitempty"`
	Tool     string        `json:"tool,omitempty"`
	Text     string        `json:"text,omitempty"`
	TextCut  bool          `json:"textCut,omitempty"`
	Findings []findingData `json:"findings,omitempty"`
	Body     string        `json:"body,omitempty"`
	BodyCut  bool          `json:"bodyCut,omitempty"`
	Size     int           `json:"size,omitempty"`
	LeftOut  bool          `json:"leftOut,omitempty"`
}

type findingData struct {
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Pointer  string `json:"pointer,omitempty"`
	Rule     string `json:"rule"`
	Section  string `json:"section,omitempty"`
}

// data is the card as the page's script draws it.
func (c *Card) data() cardData {
	d := cardData{Seq: c.Seq, Time: c.Time(), Class: c.Class(), Lane: c.FilterLane(), Session: c.Session, Method: c.Method,
		Arrow: c.Arrow(), Label: c.Label, Proc: c.Proc, Tool: c.Tool, Text: c.Text, TextCut: c.TextCut, Body: c.Body,
		BodyCut: c.BodyCut, LeftOut: c.BodyLeftOut}
	if c.Count > 1 {
		d.Count, d.Last = c.Count, c.LastSeq
	}
	if c.BodyCut {
		d.Size = c.Size
	}
	for _, f := range c.Findings {
		d.Findings = append(d.Findings, findingData{Severity: f.Severity, Message: f.Message, Pointer: f.Pointer, Rule: f.Rule,
			Section: f.Section})
	}
	return d
}

// writeCards writes the cards as one script element of JSON, which the
// page's script draws a screenful at a time: however many cards a page
// has, it loads as fast as a short one. encoding/json escapes <, > and &,
// so nothing the journal holds ends the script element; the page's script
// puts every value into the page as text, never as markup.
//
// Past maxText bytes of card text in all (stderr lines, folded streams,
// argv), each further card shows only the first cutText bytes of its text.
func writeCards(w *bufio.Writer, cards []Card, maxText int) error {
	w.WriteString(`<script id="cards" type="application/json">[`)
	for i := range cards {
		if i > 0 {
			w.WriteByte(',')
		}
		d := cards[i].data()
		if maxText <= 0 && len(d.Text) > cutText {
			d.Text, d.TextCut = cutUTF8(d.Text, cutText), true
		}
		maxText -= len(d.Text)
		b, err := json.Marshal(d)
		if err != nil {
			return err
		}
		w.Write(b)
		if i%64 == 63 {
			w.WriteByte('\n')
		}
	}
	_, err := w.WriteString("]</script>\n")
	return err
}
