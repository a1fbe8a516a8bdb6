package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"

	"github.com/airwire/airwire/internal/clisearch"
	"github.com/airwire/airwire/internal/clistart"
	"github.com/airwire/airwire/internal/envlist"
)

// ShimOptions are the inputs of the CLI shim (`airwire __cli-shim`).
type ShimOptions struct {
	Args   []string // the CLI's arguments, as the agent passed them
	Env    []string // this process's environment
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// shimChildEnv gives the real CLI the environment the agent meant for it:
// airwire's variables removed and CLAUDE_CODE_EXECUTABLE restored. With a
// model-lane URL, ANTHROPIC_BASE_URL points at it instead.
func shimChildEnv(env []string, modelURL string) []string {
	orig, hadOrig := envlist.Lookup(env, EnvOrigExecutable)
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case EnvShimSocket, EnvShimToken, EnvRealCLI, EnvOrigExecutable, EnvClaudeExecutable, EnvModelProxy:
			continue
		case EnvAnthropicBaseURL:
			if modelURL != "" {
				continue
			}
		}
		out = append(out, kv)
	}
	if hadOrig && orig != "" {
		out = append(out, EnvClaudeExecutable+"="+orig)
	}
	if modelURL != "" {
		out = append(out, EnvAnthropicBaseURL+"="+modelURL)
	}
	return out
}

// dialRecorder connects to the recorder (nil when it cannot) and, with the
// model lane on, learns this CLI's process name, telling it the model API
// the agent gave the CLI (route): the CLI's model API base URL is then the
// proxy's, under that name.
func dialRecorder(env []string, route cliRoute) (rec *shimClient, modelURL string) {
	sock, _ := envlist.Lookup(env, EnvShimSocket)
	if sock == "" {
		return nil, ""
	}
	token, _ := envlist.Lookup(env, EnvShimToken)
	rec, err := dialShim(sock, token)
	if err != nil {
		return nil, ""
	}
	if base, _ := envlist.Lookup(env, EnvModelProxy); base != "" {
		if proc := rec.name(route); proc != "" {
			modelURL = base + "/" + proc
		}
	}
	return rec, modelURL
}

// shimStartReason is why the real CLI did not start, as the bare agent
// says it when CLAUDE_CODE_EXECUTABLE names it: what that names instead of
// an executable; else why the process could not be created.
func shimStartReason(env []string, real string, err error) string {
	if orig, _ := envlist.Lookup(env, EnvOrigExecutable); orig != "" && orig == real {
		if !strings.ContainsAny(real, `/\`) {
			return clistart.Given(EnvClaudeExecutable, "nothing on PATH")
		}
		if names := clistart.Names(os.Stat, real, runtime.GOOS); names != "" {
			return clistart.Given(EnvClaudeExecutable, names)
		}
	}
	return clistart.Exec(err)
}

// searchCLI finds the Claude CLI in env (the agent's environment, with no
// CLAUDE_CODE_EXECUTABLE) as the bare agent does: on PATH, then where
// Claude Code's installers put it.
func searchCLI(env []string) (string, error) {
	return clisearch.ResolveExecutable(clisearch.Locator{Getenv: func(k string) string {
		v, _ := envlist.Lookup(env, k)
		return v
	}})
}

// notFoundReason is why the search found no CLI, in the bare agent's words.
func notFoundReason(err error) string {
	var nf *clisearch.NotFoundError
	if errors.As(err, &nf) {
		return nf.Reason()
	}
	return err.Error()
}

// RunShim starts the real Claude CLI with opts.Args, forwards its three
// streams byte for byte, reports each chunk to the recorder before
// forwarding it, and returns the CLI's exit code. If the recorder cannot be
// reached the CLI still runs, unrecorded.
func RunShim(ctx context.Context, opts ShimOptions) (int, error) {
	catchSIGPIPE()
	real, _ := envlist.Lookup(opts.Env, EnvRealCLI)
	if real == "" {
		found, err := searchCLI(shimChildEnv(opts.Env, ""))
		if err != nil {
			fmt.Fprintln(opts.Stderr, clistart.ShimLine(notFoundReason(err)))
			return 127, nil
		}
		real = found
	}
	route := routeOf(opts.Env, opts.Args)
	rec, modelURL := dialRecorder(opts.Env, route)
	defer rec.close()
	args := opts.Args
	if modelURL != "" {
		args = route.settings.routed(args, modelURL) // shimroute.go; the journal keeps the agent's
	}
	cmd := exec.Command(real, args...)
	cmd.Env = shimChildEnv(opts.Env, modelURL)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return 1, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return 1, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		return 1, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	group, err := startChild(cmd)
	if err != nil {
		// The first line is the reason the agent passes on to the editor,
		// worded as the bare agent words it; the second has the details.
		fmt.Fprintln(opts.Stderr, clistart.ShimLine(shimStartReason(opts.Env, real, err)))
		fmt.Fprintf(opts.Stderr, "airwire cli shim: cannot start the Claude CLI: %v\n", err)
		return 127, nil
	}
	outW.Close()
	errW.Close()
	stop := make(chan struct{})
	forwardSignals(group, stop)
	defer close(stop)

	h, _ := json.Marshal(shimHello{Argv: append([]string{real}, opts.Args...), Pid: cmd.Process.Pid, ShimPid: os.Getpid(), Secrets: route.values})
	rec.send(frameHello, 0, h)

	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); shimPump(opts.Stdout, outR, rec, streamFromCLI) }()
	go func() { defer wg.Done(); shimPump(opts.Stderr, errR, rec, streamStderr) }()
	go func() {
		shimPump(stdin, opts.Stdin, rec, streamToCLI)
		stdin.Close() // forward EOF
	}()
	wg.Wait() // the CLI closed stdout and stderr
	state, werr := cmd.Process.Wait()
	x, code := exitOf(state, werr)
	xb, _ := json.Marshal(x)
	rec.send(frameExit, 0, xb)
	group.Release(0) // what the CLI left in its group ends with it
	return code, nil
}

// shimPump reads src, reports each chunk, then writes it to dst.
func shimPump(dst io.Writer, src io.Reader, rec *shimClient, stream byte) {
	buf := make([]byte, chunkSize)
	dstOK := true
	for {
		n, err := src.Read(buf)
		if n > 0 {
			rec.send(frameData, stream, buf[:n])
			if dstOK {
				if _, werr := dst.Write(buf[:n]); werr != nil {
					dstOK = false
				}
			}
		}
		if err != nil {
			rec.send(frameEOF, stream, nil)
			return
		}
	}
}
