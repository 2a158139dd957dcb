package dev.strata.server.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A node's identity and its initial peers, derived from its place in a Kubernetes StatefulSet.
 *
 * <p>A StatefulSet names its pods {@code <set>-0}, {@code <set>-1}, ... and a headless Service
 * gives each a stable DNS name, {@code <set>-<i>.<service>.<namespace>.svc.cluster.local}. So a
 * pod knows, from its own name alone:
 * <ul>
 *   <li>its node id: its ordinal + 1 (ids are positive; ordinals start at 0);</li>
 *   <li>the initial members: pods 0 .. {@code initialSize}-1, each at its DNS name (from
 *       {@code hostTemplate}) and at this pod's own Raft and client ports, since every pod of a
 *       StatefulSet runs the same container spec;</li>
 *   <li>whether it joins: a pod at or above the initial size was added by scaling up, so it
 *       starts empty and waits to be added with MemberAdd (ids stay ordinal + 1).</li>
 * </ul>
 * The initial size is the replica count the cluster was first created with, not the current
 * one: growing the StatefulSet must not change the initial members older pods were told about.
 *
 * <p>Placeholders in the host template: {@code {pod}} (the peer's pod name),
 * {@code {ordinal}}, {@code {service}} and {@code {namespace}}. Immutable.
 *
 * @param statefulSet the StatefulSet's name (the pod name without {@code -<ordinal>})
 * @param ordinal     this pod's ordinal
 * @param initialSize how many pods formed the cluster
 * @param service     the headless Service's name
 * @param namespace   the pod's namespace, or null when not known
 * @param hostTemplate how a peer's host name is built from the placeholders
 */
record StatefulSetPeers(String statefulSet, int ordinal, int initialSize, String service, String namespace, String hostTemplate) {
    /** The environment variable that carries the pod's name (the downward API's {@code metadata.name}). */
    static final String POD_NAME_ENV = "POD_NAME";
    /** The environment variable that carries the pod's namespace ({@code metadata.namespace}). */
    static final String POD_NAMESPACE_ENV = "POD_NAMESPACE";

    private static final Pattern POD_NAME = Pattern.compile("(.+)-(0|[1-9][0-9]{0,8})");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^{}]*)}");
    private static final List<String> PLACEHOLDERS = List.of("pod", "ordinal", "service", "namespace");

    /**
     * Parses the pod name and checks the template.
     *
     * @throws IllegalArgumentException when the pod name has no ordinal, the size is below 1, the
     *         template names an unknown placeholder, cannot tell pods apart (neither {@code {pod}}
     *         nor {@code {ordinal}}), or needs {@code {namespace}} and none is known
     */
    static StatefulSetPeers of(String podName, String namespace, String service, int initialSize, String hostTemplate) {
        Matcher m = POD_NAME.matcher(podName == null ? "" : podName.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException(POD_NAME_ENV + " must be a StatefulSet pod name such as strata-0 "
                    + "(name, dash, ordinal), was \"" + podName + "\"");
        }
        if (service == null || service.isBlank()) {
            throw new IllegalArgumentException("the headless Service name must not be empty");
        }
        if (initialSize < 1) {
            throw new IllegalArgumentException("the initial cluster size must be at least 1, was " + initialSize);
        }
        Matcher p = PLACEHOLDER.matcher(hostTemplate);
        boolean distinct = false;
        while (p.find()) {
            String name = p.group(1);
            if (!PLACEHOLDERS.contains(name)) {
                throw new IllegalArgumentException("unknown placeholder {" + name + "} in host template \"" + hostTemplate
                        + "\"; known: {pod}, {ordinal}, {service}, {namespace}");
            }
            distinct |= name.equals("pod") || name.equals("ordinal");
            if (name.equals("namespace") && (namespace == null || namespace.isBlank())) {
                throw new IllegalArgumentException("host template \"" + hostTemplate + "\" needs {namespace}: set "
                        + POD_NAMESPACE_ENV + " (the downward API's metadata.namespace)");
            }
        }
        if (!distinct) {
            throw new IllegalArgumentException("host template \"" + hostTemplate
                    + "\" gives every pod the same host; it needs {pod} or {ordinal}");
        }
        return new StatefulSetPeers(m.group(1), Integer.parseInt(m.group(2)), initialSize, service.trim(),
                namespace == null ? null : namespace.trim(), hostTemplate.trim());
    }

    /** This pod's node id: its ordinal + 1. */
    long nodeId() {
        return ordinal + 1L;
    }

    /** Whether this pod was added by scaling up (ordinal at or above the initial size) and must join. */
    boolean joins() {
        return ordinal >= initialSize;
    }

    /** The host name of the pod with {@code ordinal}. */
    String host(int ordinal) {
        String pod = statefulSet + "-" + ordinal;
        Map<String, String> values = Map.of("pod", pod, "ordinal", Integer.toString(ordinal), "service", service,
                "namespace", namespace == null ? "" : namespace);
        return PLACEHOLDER.matcher(hostTemplate).replaceAll(r -> Matcher.quoteReplacement(values.get(r.group(1))));
    }

    /** The initial members, pods 0 .. initialSize-1, all at the given ports. */
    List<PeerSpec> initialPeers(int raftPort, int clientPort) {
        List<PeerSpec> peers = new ArrayList<>(initialSize);
        for (int i = 0; i < initialSize; i++) {
            peers.add(new PeerSpec(i + 1L, host(i), raftPort, clientPort));
        }
        return peers;
    }

    @Override
    public String toString() {
        return statefulSet + "-" + ordinal + " (node " + nodeId() + (joins() ? ", joins" : "") + ") of " + initialSize
                + " via " + host(ordinal);
    }
}
