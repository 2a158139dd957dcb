#!/usr/bin/env python3
"""Talks to a Strata cluster from Python: put, get, a large value, range in pages, compare-and-set, errors.

    python strata_example.py [--endpoints 127.0.0.1:7100,127.0.0.1:7110] [--prefix example/]

Every step prints what it did, and checks what the server answered: the values read back, the
pages of a range, the outcome of each Txn, the status codes of bad requests. The first result
that differs from what the API promises ends the run with exit code 1; a call that fails for
good (every endpoint UNAVAILABLE, say) ends it with exit code 2. The keys it writes live under
a prefix unique to the run and are deleted at the end.
"""

import argparse
import os
import sys

import grpc

from strata_client import Client, StrataError, cluster_pb2, kv_pb2

PAGE_SIZE = 2
KEYS = 5
# Above gRPC's default 4 MiB response limit and below the server's default 16 MiB value limit.
LARGE_VALUE = 6 << 20


class Unexpected(Exception):
    """The server answered, but not what the API promises."""


def check(condition, what):
    if not condition:
        raise Unexpected(what)


def show(key):
    return key.decode("utf-8", "backslashreplace")


def status(client):
    s = client.cluster("Status", cluster_pb2.StatusRequest())
    role = cluster_pb2.StatusResponse.Role.Name(s.role)
    print(f"status: {client.endpoint} is node {s.header.member_id}, {role} in term {s.header.raft_term}; "
          f"leader node {s.leader_id} at {s.leader_endpoint or '(unknown)'}; commit index {s.commit_index}")
    members = client.cluster("MemberList", cluster_pb2.MemberListRequest()).members
    print("members: " + ", ".join(f"{m.id}={m.client_address or '?'}{' (learner)' if m.is_learner else ''}"
                                  for m in members))


def put_and_get(client, prefix):
    """Puts KEYS keys, overwrites one asking for the previous value, reads them all back."""
    revisions = []
    for i in range(KEYS):
        key, value = prefix + b"key-%02d" % i, b"value-%d" % i
        r = client.kv("Put", kv_pb2.PutRequest(key=key, value=value))
        print(f"put {show(key)} = {show(value)} -> revision {r.header.revision}")
        check(not revisions or r.header.revision > revisions[-1],
              f"revision {r.header.revision} of a later put is not above {revisions[-1:]}")
        revisions.append(r.header.revision)

    key = prefix + b"key-00"
    r = client.kv("Put", kv_pb2.PutRequest(key=key, value=b"value-0b", prev_kv=True))
    print(f"put {show(key)} = value-0b with prev_kv -> previous {show(r.prev_kv.value)!r} "
          f"(version {r.prev_kv.version})")
    check(r.HasField("prev_kv") and r.prev_kv.value == b"value-0", f"prev_kv of {show(key)} is {r.prev_kv}")

    for i in range(KEYS):
        key = prefix + b"key-%02d" % i
        want = b"value-0b" if i == 0 else b"value-%d" % i
        r = client.kv("Get", kv_pb2.GetRequest(key=key))
        print(f"get {show(key)} -> {show(r.kv.value)!r} (version {r.kv.version}, "
              f"mod_revision {r.kv.mod_revision}, read at revision {r.header.revision})")
        check(r.HasField("kv") and r.kv.value == want, f"get {show(key)} returned {r.kv.value!r}, not {want!r}")
        check(r.kv.version == (2 if i == 0 else 1), f"version of {show(key)} is {r.kv.version}")
        check(r.header.revision >= r.kv.mod_revision,
              f"read revision {r.header.revision} is below the key's mod_revision {r.kv.mod_revision}")

    key = prefix + b"absent"
    r = client.kv("Get", kv_pb2.GetRequest(key=key, consistency=kv_pb2.SERIALIZABLE))
    print(f"get {show(key)} (serializable) -> {'absent' if not r.HasField('kv') else r.kv}")
    check(not r.HasField("kv"), f"an absent key came back as {r.kv}")


def range_in_pages(client, prefix):
    """Reads the prefix PAGE_SIZE keys at a time, following next_page_token."""
    request = kv_pb2.RangeRequest(key=prefix, prefix=True, limit=PAGE_SIZE)
    keys, pages = [], 0
    while True:
        r = client.kv("Range", request)
        pages += 1
        page = [show(kv.key) for kv in r.kvs]
        print(f"range {show(prefix)}* page {pages}: {page}{' (more follow)' if r.next_page_token else ''}")
        check(len(r.kvs) == r.count, f"page {pages} holds {len(r.kvs)} entries but says count {r.count}")
        check(0 < len(r.kvs) <= PAGE_SIZE, f"page {pages} holds {len(r.kvs)} entries, limit {PAGE_SIZE}")
        keys += [kv.key for kv in r.kvs]
        if not r.next_page_token:
            break
        check(pages < KEYS, "the range does not end")
        request = kv_pb2.RangeRequest(key=prefix, prefix=True, limit=PAGE_SIZE, page_token=r.next_page_token)
    want = [prefix + b"key-%02d" % i for i in range(KEYS)]
    check(keys == want, f"the pages held {keys}, not {want}")
    check(pages == -(-KEYS // PAGE_SIZE), f"{KEYS} keys came in {pages} pages of at most {PAGE_SIZE}")

    r = client.kv("Range", kv_pb2.RangeRequest(key=prefix, prefix=True, count_only=True))
    print(f"range {show(prefix)}* count_only -> {r.count}")
    check(r.count == KEYS and not r.kvs, f"count_only said {r.count} with {len(r.kvs)} entries")


def compare_and_set(client, prefix):
    """Increments a counter with a Txn that holds only if nobody wrote it since it was read."""
    key = prefix + b"counter"
    client.kv("Put", kv_pb2.PutRequest(key=key, value=b"1"))
    seen = client.kv("Get", kv_pb2.GetRequest(key=key)).kv

    def cas(expected_mod_revision, new_value):
        return client.kv("Txn", kv_pb2.TxnRequest(
            compare=[kv_pb2.Compare(key=key, target=kv_pb2.Compare.MOD_REVISION, result=kv_pb2.Compare.EQUAL,
                                    mod_revision=expected_mod_revision)],
            success=[kv_pb2.RequestOp(put=kv_pb2.PutRequest(key=key, value=new_value))],
            failure=[kv_pb2.RequestOp(range=kv_pb2.RangeRequest(key=key))]))

    r = cas(seen.mod_revision, b"2")
    print(f"txn: if mod_revision({show(key)}) == {seen.mod_revision} then put 2 -> succeeded={r.succeeded}, "
          f"revision {r.header.revision}")
    check(r.succeeded, "the compare-and-set on an unchanged key failed")
    check(len(r.responses) == 1 and r.responses[0].WhichOneof("response") == "put",
          f"the success branch answered {r.responses}")

    r = cas(seen.mod_revision, b"3")  # the same compare, now stale
    current = r.responses[0].range.kvs[0].value if r.responses and r.responses[0].range.kvs else None
    print(f"txn: if mod_revision({show(key)}) == {seen.mod_revision} then put 3 -> succeeded={r.succeeded}, "
          f"the failure branch read {current!r}")
    check(not r.succeeded, "a compare-and-set with a stale mod_revision succeeded")
    check(current == b"2", f"the failure branch read {current!r}, not b'2'")

    got = client.kv("Get", kv_pb2.GetRequest(key=key)).kv
    check(got.value == b"2" and got.version == 2, f"the counter is {got.value!r} at version {got.version}")
    print(f"get {show(key)} -> {show(got.value)!r} (version {got.version})")


def expect_error(what, code, call):
    try:
        call()
    except StrataError as e:
        print(f"{what} -> {e.code.name}: {e.message}")
        check(e.code == code, f"{what} failed with {e.code.name}, not {code.name}")
        return
    raise Unexpected(f"{what} succeeded; it should fail with {code.name}")


def bad_requests(client, prefix):
    """The server rejects malformed requests with INVALID_ARGUMENT and says why."""
    expect_error("put with an empty key", grpc.StatusCode.INVALID_ARGUMENT,
                 lambda: client.kv("Put", kv_pb2.PutRequest(key=b"", value=b"x")))
    first = client.kv("Range", kv_pb2.RangeRequest(key=prefix, prefix=True, limit=1))
    check(first.next_page_token, "a one-entry page of several keys has no next_page_token")
    expect_error("range with a cut page token", grpc.StatusCode.INVALID_ARGUMENT,
                 lambda: client.kv("Range", kv_pb2.RangeRequest(key=prefix, prefix=True, limit=1,
                                                                page_token=first.next_page_token[:-1])))


def large_value(client, prefix):
    """Puts a value larger than gRPC's default response limit and reads it back whole."""
    key, value = prefix + b"large", os.urandom(LARGE_VALUE)
    r = client.kv("Put", kv_pb2.PutRequest(key=key, value=value))
    print(f"put {show(key)} = {len(value)} random bytes -> revision {r.header.revision}")
    got = client.kv("Get", kv_pb2.GetRequest(key=key)).kv.value
    print(f"get {show(key)} -> {len(got)} bytes")
    check(got == value, f"get {show(key)} returned {len(got)} bytes that differ from the {len(value)} put")
    deleted = client.kv("Delete", kv_pb2.DeleteRequest(key=key)).deleted
    check(deleted == 1, f"delete {show(key)} deleted {deleted} keys")


def clean_up(client, prefix):
    r = client.kv("Delete", kv_pb2.DeleteRequest(key=prefix, prefix=True))
    print(f"delete {show(prefix)}* -> {r.deleted} keys")
    check(r.deleted == KEYS + 1, f"deleted {r.deleted} keys, not {KEYS + 1}")
    left = client.kv("Range", kv_pb2.RangeRequest(key=prefix, prefix=True, count_only=True)).count
    check(left == 0, f"{left} keys are left under the prefix")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--endpoints", default="127.0.0.1:7100",
                        help="comma-separated host:port gRPC endpoints, tried in order (default: %(default)s, "
                             "bin/strata-dev's first node)")
    parser.add_argument("--prefix", default=None,
                        help="where the keys go (default: example/<random>/, new each run)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per call (default: %(default)s)")
    args = parser.parse_args(argv)
    prefix = (args.prefix or f"example/{os.urandom(4).hex()}/").encode()

    with Client(args.endpoints.split(","), timeout=args.timeout) as client:
        try:
            status(client)
            put_and_get(client, prefix)
            large_value(client, prefix)
            range_in_pages(client, prefix)
            compare_and_set(client, prefix)
            bad_requests(client, prefix)
            clean_up(client, prefix)
        except Unexpected as e:
            print(f"FAILED: {e}", file=sys.stderr)
            return 1
        except StrataError as e:
            print(f"FAILED: {e}", file=sys.stderr)
            return 2
    print("OK: every answer was as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
