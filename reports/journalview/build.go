// Package journalview draws a journal as a static HTML page: one swim lane
// per party (editor, agent, CLI, model), one card per message with its
// time, direction and method, its JSON collapsed and the validator's
// findings inline, and filters by session, lane and method. Streamed
// chunks fold into one card with a count, and JSON bodies are cut, so a
// journal of tens of thousands of messages gives a page that loads fast.
//
// A Builder takes the journal's entries one by one (it keeps only what the
// page shows); Write renders the page. `airwire journal view` and the
// conform HTML report use it.
package journalview

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/airwire/airwire/internal/journal"
)

// The parties, one swim lane each, left to right.
const (
	PartyEditor = "editor"
	PartyAgent  = "agent"
	PartyCLI    = "cli"
	PartyModel  = "model"
)

// Bounds of the page.
const (
	// DefaultMaxBody is how much of a message's indented JSON one card shows.
	DefaultMaxBody = 4 << 10
	// DefaultMaxPageBody is how much JSON the whole page shows; the cards
	// past it show none, with a note.
	DefaultMaxPageBody = 16 << 20
	// DefaultMaxPageText is how much text (stderr lines, folded streams,
	// argv) the whole page shows before each further card shows only its
	// first 256 bytes.
	DefaultMaxPageText = 8 << 20
	// maxText is how much of a folded stream's joined text a card shows.
	maxText = 2 << 10
)

// Finding is a validator finding shown inline on the card of its message.
type Finding struct {
	Seq      uint64
	Severity string // "error" or "warning"
	Rule     string
	Section  string
	Pointer  string
	Message  string
}

// Options configure a Builder.
type Options struct {
	// Title names the journal in the page's heading (a file name).
	Title string
	// Note is shown above the lanes (for example that the messages were
	// not checked, and why).
	Note string
	// MaxBody and MaxPageBody bound the JSON shown per card and per page,
	// MaxPageText the other text of the page (0: the defaults).
	MaxBody, MaxPageBody, MaxPageText int
}

// Card is one message, or one folded run of streamed messages, as the page
// shows it.
type Card struct {
	Seq, LastSeq uint64 // the first and last entry it holds
	TNs          int64
	Kind         journal.Kind
	Lane         journal.Lane // the entry's lane (a process entry: its process's)
	From, To     string       // parties; To is "" for a process entry
	Proc         string
	Session      string
	Method       string // the entry's method, for the filter
	Label        string // what the card is: method, update kind or CLI frame type
	Count        int    // messages folded into the card (1: none)
	Body         string // the first message's indented JSON, cut
	BodyCut      bool   // Body is cut; Size is the message's whole size
	Size         int    // the message's size in bytes
	BodyLeftOut  bool   // the page's JSON budget was spent: no Body
	Text         string // a folded stream's joined text, or a stderr line, cut
	TextCut      bool
	Tool         string // a tool call's title
	Findings     []Finding
	fold         string // the fold key: consecutive cards with the same one fold
}

// Builder gathers the cards of one journal.
type Builder struct {
	opts   Options
	header journal.Header
	cards  []Card
	// open maps a stream (lane, session or process) to its last card, when
	// that card may still take folded messages.
	open   map[string]int
	budget int
	// folded maps the seq of each message folded into an earlier card to
	// that card.
	folded map[uint64]int
	// entries counts the entries taken; lastNs is the last one's time.
	entries int
	lastNs  int64
}

// NewBuilder starts a page for the journal of header h.
func NewBuilder(h journal.Header, opts Options) *Builder {
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	if opts.MaxPageBody <= 0 {
		opts.MaxPageBody = DefaultMaxPageBody
	}
	if opts.MaxPageText <= 0 {
		opts.MaxPageText = DefaultMaxPageText
	}
	return &Builder{opts: opts, header: h, open: map[string]int{}, folded: map[uint64]int{}, budget: opts.MaxPageBody}
}

// Cards returns the cards so far, in journal order.
func (b *Builder) Cards() []Card { return b.cards }

// Add takes one entry. A streamed chunk that continues the open stream of
// its lane and session (or CLI process) folds into that stream's card;
// anything else on the stream closes it. Consecutive stderr lines of one
// process fold too.
func (b *Builder) Add(e journal.Entry) {
	b.entries++
	b.lastNs = e.TNs
	var p probe
	if e.Kind == journal.KindMsg {
		p = probeOf(e.Msg)
	}
	stream, fold := streamOf(&e), foldKey(&e, &p)
	i, ok := b.open[stream]
	if stream == "" {
		i, ok = len(b.cards)-1, len(b.cards) > 0
	}
	if ok && fold != "" && b.cards[i].fold == fold {
		b.foldInto(&b.cards[i], &e, &p)
		b.folded[e.Seq] = i
		return
	}
	c := b.card(&e, &p)
	c.fold = fold
	b.cards = append(b.cards, c)
	if stream == "" {
		return
	}
	if fold != "" {
		b.open[stream] = len(b.cards) - 1
	} else {
		delete(b.open, stream)
	}
}

// foldInto adds one more streamed message (or stderr line) to c.
func (b *Builder) foldInto(c *Card, e *journal.Entry, p *probe) {
	c.Count++
	c.LastSeq = e.Seq
	switch {
	case c.TextCut:
	case e.Kind == journal.KindStderr:
		c.appendText("\n" + e.TextOf())
	default:
		c.appendText(deltaText(p))
	}
}

// appendText adds s to the card's text, up to maxText bytes.
func (c *Card) appendText(s string) {
	if len(c.Text)+len(s) > maxText {
		s = cutUTF8(s, maxText-len(c.Text))
		c.TextCut = true
	}
	c.Text += s
}

// card is the card of one entry.
func (b *Builder) card(e *journal.Entry, p *probe) Card {
	c := Card{Seq: e.Seq, LastSeq: e.Seq, TNs: e.TNs, Kind: e.Kind, Lane: e.Lane, Proc: e.Proc, Session: e.Session,
		Method: e.Method, Count: 1}
	c.From, c.To = parties(e)
	c.Label = labelOf(e, p)
	switch e.Kind {
	case journal.KindMsg:
		b.setBody(&c, e.Msg)
		c.appendText(deltaText(p))
		c.Tool = toolTitle(p)
	case journal.KindNonJSON, journal.KindStderr, journal.KindNote:
		c.appendText(e.TextOf())
		if e.B64 != nil && e.Text == nil {
			c.appendText("(" + strconv.Itoa(len(e.B64)) + " bytes, not UTF-8)")
		}
	case journal.KindSpawn:
		c.appendText(agentLine(e.Argv))
	case journal.KindExit:
		if e.Exit != nil {
			c.appendText(exitText(e.Exit))
		}
	}
	return c
}

// setBody indents msg into the card, cut to MaxBody, while the page's
// budget lasts.
func (b *Builder) setBody(c *Card, msg json.RawMessage) {
	if len(msg) == 0 {
		return
	}
	if b.budget <= 0 {
		c.BodyLeftOut = true
		return
	}
	c.Size = len(msg)
	src := msg
	if len(src) > 4*b.opts.MaxBody { // indent only what can be shown
		src = src[:4*b.opts.MaxBody]
	}
	body := indent(src, b.opts.MaxBody)
	if len(body) > b.opts.MaxBody || len(src) < len(msg) {
		body = cutUTF8(body, b.opts.MaxBody)
		c.BodyCut = true
	}
	c.Body = body
	b.budget -= len(body)
}

// indent indents JSON two spaces a level, as json.Indent does, but also a
// prefix cut anywhere (a cut message); it stops past limit bytes.
func indent(src []byte, limit int) string {
	var out strings.Builder
	depth, inStr, esc := 0, false, false
	newline := func() {
		out.WriteByte('\n')
		for range depth {
			out.WriteString("  ")
		}
	}
	for i := 0; i < len(src) && out.Len() <= limit; i++ {
		c := src[i]
		switch {
		case inStr:
			out.WriteByte(c)
			inStr = esc || c != '"'
			esc = !esc && c == '\\'
		case c == '"':
			out.WriteByte(c)
			inStr = true
		case c == '{' || c == '[':
			out.WriteByte(c)
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				continue
			}
			depth++
			newline()
		case c == '}' || c == ']':
			if i > 0 && src[i-1] != '{' && src[i-1] != '[' {
				depth = max(depth-1, 0)
				newline()
			}
			out.WriteByte(c)
		case c == ',':
			out.WriteByte(c)
			newline()
		case c == ':':
			out.WriteString(": ")
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			out.WriteByte(c)
		}
	}
	return out.String()
}

// SetFindings attaches findings to the cards of their messages (a folded
// card takes those of every message it holds). Findings of an entry the
// page has no card for are dropped.
func (b *Builder) SetFindings(fs []Finding) {
	for _, f := range fs {
		i := b.cardOf(f.Seq)
		if i < 0 {
			continue
		}
		b.cards[i].Findings = append(b.cards[i].Findings, f)
	}
}

// cardOf is the index of the card holding seq, or -1: the card starting
// at seq (cards are in seq order), else the card it was folded into.
func (b *Builder) cardOf(seq uint64) int {
	lo, hi := 0, len(b.cards)
	for lo < hi {
		m := (lo + hi) / 2
		if b.cards[m].Seq < seq {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(b.cards) && b.cards[lo].Seq == seq {
		return lo
	}
	if i, ok := b.folded[seq]; ok {
		return i
	}
	return -1
}
