#!/usr/bin/env bash
# Builds etcd's server from the Go module proxy into DIR/etcd, for strata-bench versus-etcd.
#
#   bench/etcd/build-etcd.sh DIR        # then: DIR/etcd --version
#
# `go install go.etcd.io/etcd/server/v3@...` refuses etcd's modules (they carry replace
# directives), so this makes a scratch module in DIR whose main calls etcdmain.Main, as etcd's
# own main does, and builds that. The binary is etcd's server, its flags and defaults unchanged;
# only `etcd --version` shows no Git SHA, since it was not built by etcd's build script.
#
# Environment:
#   ETCD_VERSION   the etcd release to build (default v3.7.3, the one the benchmark was written against)
# Needs Go (1.26 was used) and access to the Go module proxy (or a module cache holding etcd).
set -euo pipefail

die() {
  echo "$(basename "$0"): $*" >&2
  exit 1
}

[[ $# -eq 1 ]] || die "usage: $(basename "$0") DIR   (builds DIR/etcd)"
command -v go >/dev/null || die "go is not on PATH; install Go first"
dir="$1"
version="${ETCD_VERSION:-v3.7.3}"

mkdir -p "$dir"
cd "$dir"
if [[ ! -f go.mod ]]; then
  go mod init strata-bench-etcd
fi
cat > main.go <<'GO'
// The etcd server: etcd's own main, built outside etcd's repository.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
GO
# -mod=mod lets `go get` and `go build` update go.mod and go.sum with what etcd's server needs.
GOFLAGS=-mod=mod go get "go.etcd.io/etcd/server/v3@$version"
GOFLAGS=-mod=mod go build -o etcd .
./etcd --version | head -n 1
echo "built $(pwd)/etcd"
