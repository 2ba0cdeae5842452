// Command ferretdb-local runs FerretDB v1 with its SQLite backend on a loopback
// address, for tests and local runs where no real MongoDB is installed.
//
// The released ferretdb binary cannot be built from the module proxy (its version
// file is generated at release time), so it is embedded here as a library.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	host := flag.String("host", "127.0.0.1", "loopback address to listen on")
	port := flag.Int("port", 0, "port to listen on; 0 picks a free one")
	dir := flag.String("dir", "", "folder for the SQLite files (required unless -postgresql-url is given)")
	pgURL := flag.String("postgresql-url", "", "use this PostgreSQL database as the backend instead of SQLite")
	portFile := flag.String("port-file", "", "file to write the chosen port to once ready")
	flag.Parse()

	config := ferretdb.Config{Handler: "postgresql", PostgreSQLURL: *pgURL}
	if *pgURL == "" {
		if *dir == "" {
			fail("-dir or -postgresql-url is required")
		}
		if err := os.MkdirAll(*dir, 0o755); err != nil {
			fail(err.Error())
		}
		absDir, err := filepath.Abs(*dir)
		if err != nil {
			fail(err.Error())
		}
		config = ferretdb.Config{Handler: "sqlite", SQLiteURL: "file:" + absDir + "/"}
	}

	chosen := *port
	if chosen == 0 {
		chosen = freePort(*host)
	}
	addr := net.JoinHostPort(*host, fmt.Sprint(chosen))

	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	config.Listener = ferretdb.ListenerConfig{TCP: addr}
	config.Logger = logger
	f, err := ferretdb.New(&config)
	if err != nil {
		fail(err.Error())
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	done := make(chan error, 1)
	go func() { done <- f.Run(ctx) }()

	waitListening(addr, done)
	if *portFile != "" {
		if err := os.WriteFile(*portFile, []byte(fmt.Sprint(chosen)), 0o644); err != nil {
			fail(err.Error())
		}
	}
	fmt.Printf("ready mongodb://%s/\n", addr)

	if err := <-done; err != nil && ctx.Err() == nil {
		fail(err.Error())
	}
}

// freePort asks the kernel for an unused port. The tiny window before FerretDB
// binds it is acceptable for local runs; callers retry on a bind failure.
func freePort(host string) int {
	l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		fail(err.Error())
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func waitListening(addr string, done <-chan error) {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-done:
			fail(fmt.Sprintf("ferretdb stopped before listening: %v", err))
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	fail("ferretdb did not start listening within 30s on " + addr)
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "ferretdb-local:", msg)
	os.Exit(1)
}
