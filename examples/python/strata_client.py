"""A minimal Strata client over the generated gRPC stubs: endpoint failover and leader hints.

The server's error contract (docs/server.md, "Errors") decides what is retried here:

- UNAVAILABLE is retryable: the node has no leader or quorum, cannot serve, or cannot be
  reached at all. When the node knows the leader, the status details carry a
  strata.v1.LeaderHint (packed in the google.rpc.Status of the grpc-status-details-bin
  trailer); the client then goes to the leader, else to the next endpoint of its list.
- Everything else (INVALID_ARGUMENT, DEADLINE_EXCEEDED, ...) is raised at once as a
  StrataError: a write that ran out of time may or may not have been applied, so repeating
  it is the caller's decision.

Retries are bounded: after `attempts` tries the last error is raised, naming every endpoint
tried. A Client is not thread-safe; use one per thread.
"""

import os
import sys
import time

import grpc
from grpc_status import rpc_status

# The stubs are generated (generate.sh), never committed: STRATA_PY_GEN or gen/ beside this file.
_GEN = os.environ.get("STRATA_PY_GEN") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen")
sys.path.insert(0, _GEN)
try:
    from strata.v1 import cluster_pb2, cluster_pb2_grpc, errors_pb2, kv_pb2, kv_pb2_grpc  # noqa: E402
except ImportError as e:  # pragma: no cover - a setup error, said plainly
    raise SystemExit(f"the generated stubs are not in {_GEN} ({e}): run ./generate.sh first") from e

__all__ = ["Client", "StrataError", "cluster_pb2", "kv_pb2", "leader_hint"]


class StrataError(Exception):
    """A call that failed for good: the gRPC status code, the server's message and the endpoint."""

    def __init__(self, code, message, endpoint):
        super().__init__(f"{code.name} from {endpoint}: {message}")
        self.code = code
        self.message = message
        self.endpoint = endpoint


def leader_hint(error):
    """The strata.v1.LeaderHint in a failed call's status details, or None."""
    try:
        status = rpc_status.from_call(error)
    except ValueError:  # the trailer contradicts the status line; treat it as absent
        return None
    if status is None:
        return None
    for detail in status.details:
        if detail.Is(errors_pb2.LeaderHint.DESCRIPTOR):
            hint = errors_pb2.LeaderHint()
            detail.Unpack(hint)
            return hint
    return None


class Client:
    """Calls one endpoint at a time and moves on when it is UNAVAILABLE.

    endpoints: host:port strings, tried in order. timeout: seconds each call may take.
    attempts: how many calls one request may make in all (default: two per endpoint, plus one).
    log: a function given one line per failover, or None for silence.
    """

    def __init__(self, endpoints, timeout=10.0, attempts=None, log=print):
        endpoints = [e.strip() for e in endpoints if e.strip()]
        if not endpoints:
            raise ValueError("no endpoints given")
        self._endpoints = endpoints
        self._timeout = timeout
        self._attempts = attempts if attempts is not None else 2 * len(endpoints) + 1
        if self._attempts < 1:
            raise ValueError(f"attempts must be at least 1, not {self._attempts}")
        self._log = log or (lambda line: None)
        self._index = 0
        self._channel = None
        self._kv = None
        self._cluster = None

    @property
    def endpoint(self):
        """The endpoint the next call goes to."""
        return self._endpoints[self._index]

    def kv(self, method, request):
        """Calls strata.v1.KV/<method> (Put, Get, Delete, Range, Txn, Batch) and returns its response."""
        return self._call(lambda: getattr(self._kv, method), method, request)

    def cluster(self, method, request):
        """Calls strata.v1.Cluster/<method> (Status, MemberList, ...) and returns its response."""
        return self._call(lambda: getattr(self._cluster, method), method, request)

    def close(self):
        if self._channel is not None:
            self._channel.close()
            self._channel = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _connect(self):
        if self._channel is None:
            # gRPC refuses responses over 4 MiB by default, and a value may be 16 MiB by default
            # (strata.server.max-value-size, up to 1 GiB): take any size, as etcd's client does.
            unlimited = [("grpc.max_receive_message_length", -1)]
            self._channel = grpc.insecure_channel(self.endpoint, options=unlimited)
            self._kv = kv_pb2_grpc.KVStub(self._channel)
            self._cluster = cluster_pb2_grpc.ClusterStub(self._channel)

    def _move_to(self, endpoint):
        self.close()
        if endpoint not in self._endpoints:
            self._endpoints.append(endpoint)
        self._index = self._endpoints.index(endpoint)

    def _call(self, method_of, name, request):
        tried = []
        for attempt in range(self._attempts):
            self._connect()
            endpoint = self.endpoint
            try:
                return method_of()(request, timeout=self._timeout)
            except grpc.RpcError as e:
                if e.code() != grpc.StatusCode.UNAVAILABLE:
                    raise StrataError(e.code(), e.details(), endpoint) from None
                tried.append(f"{endpoint}: {e.details()}")
                if attempt + 1 == self._attempts:
                    break
                hint = leader_hint(e)
                if hint is not None and hint.endpoint and hint.endpoint != endpoint:
                    self._log(f"  {name} on {endpoint}: UNAVAILABLE; the leader is node {hint.member_id} "
                              f"at {hint.endpoint}, going there")
                    self._move_to(hint.endpoint)
                else:
                    following = self._endpoints[(self._index + 1) % len(self._endpoints)]
                    self._log(f"  {name} on {endpoint}: UNAVAILABLE ({e.details()}); trying {following}")
                    self._move_to(following)
                    # A full round without an answer: give an election time to finish.
                    if self._index == 0:
                        time.sleep(min(0.2 * (attempt + 1), 2.0))
        raise StrataError(grpc.StatusCode.UNAVAILABLE,
                          f"{name} failed on every attempt ({self._attempts}): " + "; ".join(tried),
                          self.endpoint)
