#!/usr/bin/env bash
# Starts a three-member etcd on this machine's loopback, one process per member, for
# `strata bench --target etcd` (the side-by-side `strata-bench versus-etcd` starts its own). Ctrl-C stops the three members (by their process ids) and leaves the data.
#
#   bench/etcd/etcd-cluster.sh ETCD DATA_DIR     # ETCD: an etcd binary (bench/etcd/build-etcd.sh builds one)
#
#   member   client (gRPC and HTTP)   peer              data and log
#   m1       127.0.0.1:2379           127.0.0.1:2380    DATA_DIR/m1/data, DATA_DIR/m1/etcd.log
#   m2       127.0.0.1:22379          127.0.0.1:22380   DATA_DIR/m2/...
#   m3       127.0.0.1:32379          127.0.0.1:32380   DATA_DIR/m3/...
#
# Ports apart from Strata's dev cluster (7100-7122). Every other setting is etcd's default; in
# particular each write is fsynced to the WAL before it is acknowledged. These are the flags
# versus-etcd gives its members (dev.strata.bench.cluster.LocalEtcd), on other ports.
# ETCD_* environment variables are removed first: etcd reads its flags from them too.
set -euo pipefail

die() {
  echo "$(basename "$0"): $*" >&2
  exit 1
}

[[ $# -eq 2 ]] || die "usage: $(basename "$0") ETCD DATA_DIR"
etcd="$(readlink -f "$1")"
data="$2"
[[ -x "$etcd" ]] || die "$1 is not an executable etcd; build one with bench/etcd/build-etcd.sh DIR"

names=(m1 m2 m3)
client_ports=(2379 22379 32379)
peer_ports=(2380 22380 32380)

# True when something accepts connections on 127.0.0.1:$1.
port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# True when the member with client port $1 answers /health with health true (it has a leader).
member_healthy() {
  local body
  body="$({ exec 3<>"/dev/tcp/127.0.0.1/$1" && printf 'GET /health HTTP/1.0\r\n\r\n' >&3 && cat <&3; } 2>/dev/null)" \
    || return 1
  [[ "$body" == *'"health":"true"'* ]]
}

for i in 0 1 2; do
  for port in "${client_ports[$i]}" "${peer_ports[$i]}"; do
    if port_open "$port"; then
      die "port $port (member ${names[$i]}) is already in use: is another etcd running?"
    fi
  done
done

initial_cluster=""
for i in 0 1 2; do
  initial_cluster+="${initial_cluster:+,}${names[$i]}=http://127.0.0.1:${peer_ports[$i]}"
done

while IFS= read -r var; do
  unset "$var"
done < <(compgen -e | grep '^ETCD_' || true)

pids=()
stopping=0
stop_all() {
  (( stopping )) && return
  stopping=1
  trap - INT TERM
  echo
  echo "Stopping etcd (pids ${pids[*]})..."
  local pid
  for pid in "${pids[@]}"; do
    kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  echo "Stopped. The data stays in $data/."
}
trap 'stop_all; exit 130' INT TERM
trap 'stop_all' EXIT

for i in 0 1 2; do
  name="${names[$i]}"
  mkdir -p "$data/$name"
  "$etcd" \
    --name="$name" \
    --data-dir="$data/$name/data" \
    --listen-client-urls="http://127.0.0.1:${client_ports[$i]}" \
    --advertise-client-urls="http://127.0.0.1:${client_ports[$i]}" \
    --listen-peer-urls="http://127.0.0.1:${peer_ports[$i]}" \
    --initial-advertise-peer-urls="http://127.0.0.1:${peer_ports[$i]}" \
    --initial-cluster="$initial_cluster" \
    --initial-cluster-token=strata-bench \
    --initial-cluster-state=new \
    >>"$data/$name/etcd.log" 2>&1 &
  pids+=($!)
done

echo "Starting three etcd members (logs in $data/m{1,2,3}/etcd.log)..."
deadline=$((SECONDS + 120))
for i in 0 1 2; do
  until member_healthy "${client_ports[$i]}"; do
    if ! kill -0 "${pids[$i]}" 2>/dev/null; then
      echo "member ${names[$i]} exited; the end of its log:" >&2
      tail -n 20 "$data/${names[$i]}/etcd.log" >&2
      exit 1
    fi
    (( SECONDS < deadline )) || die "member ${names[$i]} was not healthy after 120 s; see $data/${names[$i]}/etcd.log"
    sleep 0.5
  done
done

cat <<INFO

etcd $("$etcd" --version | head -n 1 | sed 's/^etcd Version: //') is running: three members on 127.0.0.1, data in $data/.

  member   pid       client endpoint
$(for i in 0 1 2; do printf '  %-8s %-9s 127.0.0.1:%s\n' "${names[$i]}" "${pids[$i]}" "${client_ports[$i]}"; done)

pids: ${pids[0]},${pids[1]},${pids[2]}
endpoints: 127.0.0.1:2379,127.0.0.1:22379,127.0.0.1:32379

Measure it from another terminal:

  bin/strata bench --target etcd --server-pids ${pids[0]},${pids[1]},${pids[2]}

Press Ctrl-C to stop the three members.
INFO

# Wait for the members; if one stops by itself, say so and keep the others running.
remaining=${#pids[@]}
while (( remaining > 0 )); do
  if wait -n "${pids[@]}" 2>/dev/null; then
    status=0
  else
    status=$?
  fi
  remaining=0
  for pid in "${pids[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then
      remaining=$((remaining + 1))
    fi
  done
  if (( remaining > 0 )); then
    echo "A member stopped (exit $status); $remaining still running. See $data/m*/etcd.log." >&2
  fi
done
