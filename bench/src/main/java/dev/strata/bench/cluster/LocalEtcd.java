package dev.strata.bench.cluster;

import dev.strata.testkit.Ports;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A three-member etcd on loopback, one process per member, with etcd's defaults apart from
 * where it listens and keeps its data (the same flags as {@code bench/etcd/etcd-cluster.sh},
 * on free ports): in particular every write is in the WAL, fsynced, before etcd answers.
 */
final class LocalEtcd {
    private static final int MEMBERS = 3;

    private final List<ServerProcess> processes;
    private final List<String> endpoints;
    private final List<List<String>> commands;

    private LocalEtcd(List<ServerProcess> processes, List<String> endpoints, List<List<String>> commands) {
        this.processes = processes;
        this.endpoints = endpoints;
        this.commands = commands;
    }

    /**
     * Starts the three members, data and logs under {@code dir}, without waiting for them
     * ({@link #awaitReady}).
     *
     * @param extraFlags more etcd flags for every member (--flag=value), after the benchmark's own
     */
    static LocalEtcd start(Path etcd, Path dir, List<String> extraFlags, ProcessGroup group) throws IOException {
        int[] clientPorts = new int[MEMBERS];
        int[] peerPorts = new int[MEMBERS];
        for (int m = 0; m < MEMBERS; m++) {
            clientPorts[m] = Ports.free();
            peerPorts[m] = Ports.free();
        }
        String initialCluster = java.util.stream.IntStream.range(0, MEMBERS)
                .mapToObj(m -> name(m) + "=http://127.0.0.1:" + peerPorts[m]).collect(Collectors.joining(","));
        List<ServerProcess> processes = new ArrayList<>();
        List<String> endpoints = new ArrayList<>();
        List<List<String>> commands = new ArrayList<>();
        for (int m = 0; m < MEMBERS; m++) {
            Path data = Files.createDirectories(dir.resolve(name(m)));
            List<String> command = new ArrayList<>(List.of(etcd.toString(),
                    "--name=" + name(m),
                    "--data-dir=" + data.resolve("data"),
                    "--listen-client-urls=http://127.0.0.1:" + clientPorts[m],
                    "--advertise-client-urls=http://127.0.0.1:" + clientPorts[m],
                    "--listen-peer-urls=http://127.0.0.1:" + peerPorts[m],
                    "--initial-advertise-peer-urls=http://127.0.0.1:" + peerPorts[m],
                    "--initial-cluster=" + initialCluster,
                    "--initial-cluster-token=strata-bench",
                    "--initial-cluster-state=new"));
            command.addAll(extraFlags);
            commands.add(command);
            processes.add(group.add(ServerProcess.start("etcd " + name(m), command, data.resolve("etcd.log"), "ETCD_")));
            endpoints.add("127.0.0.1:" + clientPorts[m]);
        }
        return new LocalEtcd(processes, endpoints, commands);
    }

    private static String name(int member) {
        return "m" + (member + 1);
    }

    List<String> endpoints() {
        return endpoints;
    }

    List<Long> pids() {
        return processes.stream().map(ServerProcess::pid).toList();
    }

    /** Each member's command line, for the report. */
    List<List<String>> commands() {
        return commands;
    }

    /**
     * Waits until every member answers Maintenance/Status and names a leader.
     *
     * @throws IllegalStateException when a member exited or {@code timeout} passed, with what the members said
     *                               and the end of a log
     */
    void awaitReady(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (KvTarget probe = new EtcdKvTarget(endpoints, Duration.ofSeconds(2))) {
            while (true) {
                for (ServerProcess p : processes) {
                    if (!p.alive()) {
                        throw new IllegalStateException(p + " exited; the end of its log:\n" + p.logTail(20));
                    }
                }
                List<MemberView> views = probe.members(Duration.ofSeconds(2));
                if (views.stream().allMatch(v -> v.answered() && v.leaderId() != 0)) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("etcd was not ready after " + timeout.toSeconds() + " s: " + views
                            + "\n" + processes.getFirst() + ", the end of its log:\n" + processes.getFirst().logTail(20));
                }
                Thread.sleep(250);
            }
        }
    }
}
