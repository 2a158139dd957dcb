"""The client's failover against fake KV servers in this process: hints, dead endpoints, bounds.

    python -m unittest test_strata_client      (after generate.sh, with requirements.txt installed)

A real cluster rarely answers UNAVAILABLE with a leader hint (a follower forwards to the
leader itself), so the hint is tested here, where a fake node sends it on every call.
"""

import socket
import unittest
from concurrent import futures

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, status_pb2
from grpc_status import rpc_status

from strata_client import Client, StrataError, kv_pb2
from strata.v1 import errors_pb2, kv_pb2_grpc


class FakeKv(kv_pb2_grpc.KVServicer):
    """Answers Get with `answer`, a function of the call's context; counts the calls."""

    def __init__(self, member_id, answer):
        self.member_id = member_id
        self.answer = answer
        self.calls = 0

    def Get(self, request, context):
        self.calls += 1
        return self.answer(request, context)


def value(member_id):
    def answer(request, context):
        return kv_pb2.GetResponse(header=kv_pb2.ResponseHeader(member_id=member_id),
                                  kv=kv_pb2.KeyValue(key=request.key, value=b"v"))
    return answer


def unavailable(hint_endpoint=None):
    def answer(request, context):
        status = status_pb2.Status(code=code_pb2.UNAVAILABLE, message="no leader can serve this right now")
        if hint_endpoint is not None:
            detail = any_pb2.Any()
            detail.Pack(errors_pb2.LeaderHint(member_id=2, endpoint=hint_endpoint))
            status.details.append(detail)
        context.abort_with_status(rpc_status.to_status(status))
    return answer


def invalid(request, context):
    context.abort(grpc.StatusCode.INVALID_ARGUMENT, "key must not be empty")


def closed_port():
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{s.getsockname()[1]}"


class ClientFailoverTest(unittest.TestCase):
    def setUp(self):
        self.servers = []

    def tearDown(self):
        for server in self.servers:
            server.stop(grace=None)

    def serve(self, fake):
        server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
        kv_pb2_grpc.add_KVServicer_to_server(fake, server)
        port = server.add_insecure_port("127.0.0.1:0")
        server.start()
        self.servers.append(server)
        return f"127.0.0.1:{port}"

    def get(self, client):
        return client.kv("Get", kv_pb2.GetRequest(key=b"k"))

    def test_follows_the_leader_hint_to_an_endpoint_it_was_not_given(self):
        leader = FakeKv(2, value(2))
        leader_endpoint = self.serve(leader)
        follower = FakeKv(1, unavailable(hint_endpoint=leader_endpoint))
        with Client([self.serve(follower)], log=None) as client:
            self.assertEqual(self.get(client).header.member_id, 2)
            self.assertEqual(client.endpoint, leader_endpoint)
        self.assertEqual((follower.calls, leader.calls), (1, 1))

    def test_a_dead_endpoint_is_skipped(self):
        node = FakeKv(1, value(1))
        with Client([closed_port(), self.serve(node)], log=None) as client:
            self.assertEqual(self.get(client).header.member_id, 1)

    def test_unavailable_without_a_hint_tries_the_next_endpoint(self):
        first, second = FakeKv(1, unavailable()), FakeKv(2, value(2))
        with Client([self.serve(first), self.serve(second)], log=None) as client:
            self.assertEqual(self.get(client).header.member_id, 2)

    def test_retries_are_bounded_and_end_in_unavailable_naming_each_try(self):
        node = FakeKv(1, unavailable())
        endpoint = self.serve(node)
        with Client([endpoint], attempts=3, log=None) as client:
            with self.assertRaises(StrataError) as raised:
                self.get(client)
        self.assertEqual(raised.exception.code, grpc.StatusCode.UNAVAILABLE)
        self.assertIn("failed on every attempt (3)", raised.exception.message)
        self.assertEqual(node.calls, 3)

    def test_other_errors_are_not_retried(self):
        first, second = FakeKv(1, invalid), FakeKv(2, value(2))
        with Client([self.serve(first), self.serve(second)], log=None) as client:
            with self.assertRaises(StrataError) as raised:
                self.get(client)
        self.assertEqual(raised.exception.code, grpc.StatusCode.INVALID_ARGUMENT)
        self.assertEqual(raised.exception.message, "key must not be empty")
        self.assertEqual((first.calls, second.calls), (1, 0))


if __name__ == "__main__":
    unittest.main()
