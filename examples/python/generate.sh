#!/usr/bin/env bash
# Generates the Python messages and gRPC stubs of Strata's client API from proto/ into gen/
# (git-ignored), as the packages strata.v1.kv_pb2, kv_pb2_grpc, cluster_pb2, ...
#
#   ./generate.sh [python]     python: one with grpcio-tools installed (default: python3)
#
# Environment:
#   STRATA_PY_GEN   where the stubs go (default: gen/ beside this script)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python="${1:-python3}"
protos="$here/../../proto/src/main/proto"
out="${STRATA_PY_GEN:-$here/gen}"

# Only the client API (strata/v1): strata/internal/v1 holds what the servers say among themselves.
# Only what protoc writes goes, in case STRATA_PY_GEN names a directory that holds more.
rm -rf "$out/strata"
mkdir -p "$out"
"$python" -m grpc_tools.protoc -I "$protos" \
  --python_out="$out" --pyi_out="$out" --grpc_python_out="$out" \
  strata/v1/kv.proto strata/v1/cluster.proto strata/v1/errors.proto
echo "generated the strata.v1 stubs in $out"
