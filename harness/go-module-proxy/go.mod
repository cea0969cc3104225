module github.com/runpod-dynamic/runpod-dynamic/harness/go-module-proxy

go 1.26

require golang.org/x/mod v0.38.0
