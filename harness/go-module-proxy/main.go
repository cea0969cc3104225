// Command go-module-proxy writes one version of a Go module in the layout of a module proxy
// (https://go.dev/ref/mod#goproxy-protocol) served from files: <out>/<module>/@v/{list,
// <version>.info,<version>.mod,<version>.zip}, the zip made by the go command's own module zip
// code, so `GOPROXY=file://<out>` (or the folder served over HTTP) resolves the version as a tag of
// the repository would.
//
//	go run . <module dir> <version> <out>
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: go run . <module dir> <version> <out>")
		os.Exit(2)
	}
	if err := write(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func write(dir, version, out string) error {
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	path := modfile.ModulePath(gomod)
	if path == "" {
		return fmt.Errorf("%s/go.mod names no module", dir)
	}
	mod := module.Version{Path: path, Version: version}
	if err := module.Check(path, version); err != nil {
		return err
	}
	escaped, err := module.EscapePath(path)
	if err != nil {
		return err
	}
	at := filepath.Join(out, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(at, version+".zip"))
	if err != nil {
		return err
	}
	if err := zip.CreateFromDir(f, mod, dir); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	info, err := json.Marshal(struct{ Version, Time string }{version, time.Now().UTC().Format(time.RFC3339)})
	if err != nil {
		return err
	}
	files := map[string][]byte{
		version + ".mod":  gomod,
		version + ".info": info,
		"list":            []byte(version + "\n"),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(at, name), data, 0o644); err != nil {
			return err
		}
	}
	fmt.Println(filepath.Join(at, version+".zip"))
	return nil
}
