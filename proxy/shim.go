package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
)

// ShimOptions are the inputs of the CLI shim (`airwire __cli-shim`).
type ShimOptions struct {
	Args   []string // the CLI's arguments, as the agent passed them
	Env    []string // this process's environment
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

func envLookup(env []string, k string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], k+"="); ok {
			return v, true
		}
	}
	return "", false
}

// shimChildEnv gives the real CLI the environment the agent meant for it:
// airwire's variables removed and CLAUDE_CODE_EXECUTABLE restored.
func shimChildEnv(env []string) []string {
	orig, hadOrig := envLookup(env, EnvOrigExecutable)
	out := make([]string, 0, len(env))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case EnvShimSocket, EnvRealCLI, EnvOrigExecutable, EnvClaudeExecutable:
			continue
		}
		out = append(out, kv)
	}
	if hadOrig && orig != "" {
		out = append(out, EnvClaudeExecutable+"="+orig)
	}
	return out
}

// RunShim starts the real Claude CLI with opts.Args, forwards its three
// streams byte for byte, reports each chunk to the recorder before
// forwarding it, and returns the CLI's exit code. If the recorder cannot be
// reached the CLI still runs, unrecorded.
func RunShim(ctx context.Context, opts ShimOptions) (int, error) {
	catchSIGPIPE()
	real, _ := envLookup(opts.Env, EnvRealCLI)
	if real == "" {
		fmt.Fprintln(opts.Stderr, "airwire cli shim:", errNoRealCLI)
		return 127, nil
	}
	cmd := exec.Command(real, opts.Args...)
	cmd.Env = shimChildEnv(opts.Env)
	cmd.SysProcAttr = childAttr()
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
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(opts.Stderr, "airwire cli shim: cannot start the Claude CLI: %v\n", err)
		return 127, nil
	}
	outW.Close()
	errW.Close()
	stop := make(chan struct{})
	forwardSignals(cmd.Process, stop)
	defer close(stop)

	var rec *shimClient
	if sock, _ := envLookup(opts.Env, EnvShimSocket); sock != "" {
		if c, err := dialShim(sock); err == nil {
			rec = c
			h, _ := json.Marshal(shimHello{Argv: append([]string{real}, opts.Args...), Pid: cmd.Process.Pid, ShimPid: os.Getpid()})
			rec.send(frameHello, 0, h)
		}
	}
	defer rec.close()

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
