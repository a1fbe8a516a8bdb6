// Command agent is a stand-in ACP agent for the proxy tests. Modes:
//
//	echo        copy stdin to stdout byte for byte; exit 0 at EOF
//	sink        read stdin to EOF, print the byte count on stdout
//	emit FILE   write FILE to stdout, then exit 0
//	stream N    write N JSON lines, print "ready PID" on stderr, sleep
//	spawn-cli   for each stdin line "ARGS…", run $CLAUDE_CODE_EXECUTABLE
//	            with those args, write "hello" lines to it, copy its
//	            stdout to our stdout
//	env-spawn ARGS…  print our ANTHROPIC_BASE_URL on stderr, then run
//	            $CLAUDE_CODE_EXECUTABLE ARGS… (its stdio ours) and wait
//	fake-cli    act as a stream-json CLI: answer each stdin line with
//	            {"type":"echo","n":N}; print {"loggedIn":false} for auth
//	model-post ARGS…  act as a CLI that asks its model API once: POST
//	            /v1/messages to ANTHROPIC_BASE_URL with the headers of
//	            ANTHROPIC_CUSTOM_HEADERS, the --settings JSON's env over the
//	            environment's as Claude Code reads them; print the status
//	            and the body on stderr
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "agent: mode?")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "echo":
		fmt.Fprintln(os.Stderr, "agent: echo starting")
		if _, err := io.Copy(os.Stdout, os.Stdin); err != nil {
			os.Exit(1)
		}
	case "sink":
		n, _ := io.Copy(io.Discard, os.Stdin)
		fmt.Println(n)
	case "emit":
		b, err := os.ReadFile(os.Args[2])
		if err != nil {
			os.Exit(1)
		}
		os.Stdout.Write(b)
	case "stream":
		n, _ := strconv.Atoi(os.Args[2])
		w := bufio.NewWriter(os.Stdout)
		for i := 1; i <= n; i++ {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","n":%d}}`+"\n", i)
		}
		w.Flush()
		fmt.Fprintf(os.Stderr, "ready %d\n", os.Getpid())
		time.Sleep(time.Hour)
	case "spawn-cli":
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			args := strings.Fields(sc.Text())
			cmd := exec.Command(os.Getenv("CLAUDE_CODE_EXECUTABLE"), args...)
			in, _ := cmd.StdinPipe()
			cmd.Stdout = os.Stdout
			cmd.Stderr = os.Stderr
			if err := cmd.Start(); err != nil {
				fmt.Fprintln(os.Stderr, "agent: spawn:", err)
				os.Exit(3)
			}
			if len(args) > 0 && args[0] != "auth" {
				fmt.Fprintln(in, `{"type":"control_request","request_id":"r1","request":{"subtype":"initialize"}}`)
				fmt.Fprintln(in, `{"type":"user","message":{"role":"user","content":"hi sk-ant-api03-abcdefghijkl"}}`)
			}
			in.Close()
			cmd.Wait()
		}
	case "flood":
		// write N MiB of 1 KiB JSON lines, then report on stderr
		n, _ := strconv.Atoi(os.Args[2])
		line := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","t":"` + strings.Repeat("f", 1024-78) + `"}}` + "\n")
		w := bufio.NewWriterSize(os.Stdout, 1<<16)
		for i := 0; i < n*1024; i++ {
			w.Write(line)
		}
		w.Flush()
		fmt.Fprintln(os.Stderr, "flood done")
	case "env-spawn":
		fmt.Fprintf(os.Stderr, "agent: base=%s\n", os.Getenv("ANTHROPIC_BASE_URL"))
		cmd := exec.Command(os.Getenv("CLAUDE_CODE_EXECUTABLE"), os.Args[2:]...)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "agent: spawn:", err)
			os.Exit(3)
		}
	case "spawn-and-leave":
		// start a CLI that will not die, and leave it behind
		cmd := exec.Command(os.Getenv("CLAUDE_CODE_EXECUTABLE"), "--output-format", "stream-json", "linger")
		cmd.Stdout = os.Stdout
		if err := cmd.Start(); err != nil {
			os.Exit(3)
		}
		time.Sleep(300 * time.Millisecond)
		os.Exit(0)
	case "model-post":
		modelPost(os.Args[2:])
	case "fake-cli":
		if len(os.Args) > 4 && os.Args[4] == "linger" {
			signal.Ignore(syscall.SIGTERM, syscall.SIGHUP)
			fmt.Printf("{\"pid\":%d}\n", os.Getpid())
			time.Sleep(time.Hour)
		}
		if len(os.Args) > 2 && os.Args[2] == "auth" {
			fmt.Print("{\n  \"loggedIn\": false\n}\n")
			fmt.Fprintln(os.Stderr, "fake-cli: auth done")
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "fake-cli: exe=%s\n", os.Getenv("CLAUDE_CODE_EXECUTABLE"))
		sc := bufio.NewScanner(os.Stdin)
		n := 0
		for sc.Scan() {
			n++
			if strings.Contains(sc.Text(), "control_request") {
				fmt.Printf(`{"type":"control_response","response":{"subtype":"success","request_id":"r1","response":{}}}` + "\n")
				continue
			}
			fmt.Printf(`{"type":"echo","n":%d}`+"\n", n)
		}
	default:
		fmt.Fprintln(os.Stderr, "agent: unknown mode")
		os.Exit(2)
	}
}

// modelPost is the model-post mode.
func modelPost(args []string) {
	env := map[string]string{"ANTHROPIC_BASE_URL": os.Getenv("ANTHROPIC_BASE_URL"),
		"ANTHROPIC_CUSTOM_HEADERS": os.Getenv("ANTHROPIC_CUSTOM_HEADERS")}
	for i, a := range args {
		if a == "--settings" && i+1 < len(args) {
			var s struct{ Env map[string]string }
			if err := json.Unmarshal([]byte(args[i+1]), &s); err != nil {
				fmt.Fprintln(os.Stderr, "cli: settings:", err)
				os.Exit(2)
			}
			for k, v := range s.Env {
				env[k] = v
			}
		}
	}
	req, err := http.NewRequest("POST", env["ANTHROPIC_BASE_URL"]+"/v1/messages", strings.NewReader(`{"model":"m"}`))
	if err != nil {
		fmt.Fprintln(os.Stderr, "cli:", err)
		os.Exit(2)
	}
	req.Header.Set("Content-Type", "application/json")
	for _, line := range strings.Split(env["ANTHROPIC_CUSTOM_HEADERS"], "\n") {
		if name, val, ok := strings.Cut(line, ":"); ok {
			req.Header.Set(strings.TrimSpace(name), strings.TrimSpace(val))
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintln(os.Stderr, "cli:", err)
		os.Exit(1)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Fprintf(os.Stderr, "cli: status=%d body=%s\n", resp.StatusCode, body)
}
