"""Checks that the rendered objects of one kustomization agree with each other.

Schema validation sees one object at a time; these are the relations that break a cluster
silently when one side is renamed or resized:

- the StatefulSet's serviceName is a headless Service that publishes not-ready addresses, and
  it is the Service the nodes derive their peers from (STRATA_CLUSTER_STATEFULSET_SERVICE);
- the initial size the nodes are told is at most the replica count;
- POD_NAME and POD_NAMESPACE come from the downward API;
- the probes ask the gRPC health service: liveness the overall service, readiness strata.v1.KV;
- the heap plus the direct-memory cap leave room under the memory limit;
- the PodDisruptionBudget and the Services select the StatefulSet's pods.

Usage: python3 consistency.py RENDERED.yaml  (the output of kustomize build). Exits 1 on a
failed check, naming it. Uses PyYAML (installed with kubernetes-validate).
"""
import re
import sys

import yaml

UNITS = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9, "ki": 2**10, "mi": 2**20, "gi": 2**30}


def quantity(text):
    """A Kubernetes memory quantity (2Gi) or a JVM size (1g, 384m: binary) in bytes."""
    m = re.fullmatch(r"(\d+)([kKmMgG]i?)?", str(text).strip())
    if not m:
        raise ValueError(f"cannot read the size {text!r}")
    unit = (m.group(2) or "").lower()
    if unit in ("k", "m", "g") and not str(text).strip()[-1].isupper():
        unit += "i"  # the JVM's 1g is 2^30 bytes
    return int(m.group(1)) * UNITS[unit]


def main(path):
    with open(path) as f:
        objects = [o for o in yaml.safe_load_all(f) if o]
    failures = []

    def check(ok, message):
        if not ok:
            failures.append(message)

    sets = [o for o in objects if o["kind"] == "StatefulSet"]
    if not sets:
        print(f"INFO {path}: no StatefulSet, nothing to relate")
        return 0
    services = {o["metadata"]["name"]: o for o in objects if o["kind"] == "Service"}
    configs = {o["metadata"]["name"]: o.get("data", {}) for o in objects if o["kind"] == "ConfigMap"}
    for sts in sets:
        name = sts["metadata"]["name"]
        pod = sts["spec"]["template"]
        labels = pod["metadata"].get("labels", {})
        container = pod["spec"]["containers"][0]
        env = {}
        for source in container.get("envFrom", []):
            env.update(configs.get(source.get("configMapRef", {}).get("name"), {}))
        field_refs = {e["name"]: e.get("valueFrom", {}).get("fieldRef", {}).get("fieldPath")
                      for e in container.get("env", [])}
        for e in container.get("env", []):
            if "value" in e:
                env[e["name"]] = e["value"]

        peer_service = sts["spec"].get("serviceName")
        headless = services.get(peer_service)
        check(headless is not None, f"{name}: serviceName {peer_service} is not a Service here")
        if headless:
            check(headless["spec"].get("clusterIP") == "None", f"{peer_service}: must be headless (clusterIP: None)")
            check(headless["spec"].get("publishNotReadyAddresses") is True,
                  f"{peer_service}: needs publishNotReadyAddresses: true, or peers cannot find each other before they are ready")
        check(env.get("STRATA_CLUSTER_STATEFULSET_SERVICE") == peer_service,
              f"{name}: STRATA_CLUSTER_STATEFULSET_SERVICE is {env.get('STRATA_CLUSTER_STATEFULSET_SERVICE')!r}, "
              f"but the StatefulSet's serviceName is {peer_service!r}")
        initial = int(env.get("STRATA_CLUSTER_STATEFULSET_INITIAL_SIZE", "3"))
        check(initial <= sts["spec"]["replicas"], f"{name}: initial size {initial} is above replicas {sts['spec']['replicas']}")
        check(field_refs.get("POD_NAME") == "metadata.name", f"{name}: POD_NAME must come from metadata.name")
        check(field_refs.get("POD_NAMESPACE") == "metadata.namespace", f"{name}: POD_NAMESPACE must come from metadata.namespace")
        check(sts["spec"].get("podManagementPolicy") == "Parallel",
              f"{name}: podManagementPolicy must be Parallel: no pod is ready before a majority runs")

        live = container.get("livenessProbe", {}).get("grpc", {})
        ready = container.get("readinessProbe", {}).get("grpc", {})
        check(live and live.get("service", "") == "", f"{name}: the liveness probe must ask gRPC health for the overall service")
        check(ready.get("service") == "strata.v1.KV", f"{name}: the readiness probe must ask gRPC health for strata.v1.KV")
        check("startupProbe" in container, f"{name}: needs a startup probe for long recoveries")

        limit = container.get("resources", {}).get("limits", {}).get("memory")
        heap = env.get("STRATA_SERVER_HEAP")
        direct = re.search(r"-XX:MaxDirectMemorySize=(\S+)", env.get("STRATA_SERVER_JAVA_OPTS", ""))
        check(limit and heap and direct, f"{name}: needs a memory limit, STRATA_SERVER_HEAP and -XX:MaxDirectMemorySize")
        if limit and heap and direct:
            used = quantity(heap) + quantity(direct.group(1))
            check(used <= 0.75 * quantity(limit),
                  f"{name}: heap {heap} + direct {direct.group(1)} leave less than a quarter of the {limit} limit "
                  "for metaspace, threads and native memory")

        selector = sts["spec"]["selector"]["matchLabels"]
        check(all(labels.get(k) == v for k, v in selector.items()), f"{name}: the selector does not match the pod labels")
        for svc in services.values():
            sel = svc["spec"].get("selector", {})
            check(all(labels.get(k) == v for k, v in sel.items()),
                  f"Service {svc['metadata']['name']}: its selector does not match {name}'s pods")
        for pdb in (o for o in objects if o["kind"] == "PodDisruptionBudget"):
            sel = pdb["spec"]["selector"].get("matchLabels", {})
            check(all(labels.get(k) == v for k, v in sel.items()),
                  f"PodDisruptionBudget {pdb['metadata']['name']}: its selector does not match {name}'s pods")

    for f in failures:
        print(f"ERROR {path}: {f}", file=sys.stderr)
    if not failures:
        print(f"INFO {path}: the StatefulSet, its Services, ConfigMap, probes and budget agree")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(max(main(p) for p in sys.argv[1:]))
