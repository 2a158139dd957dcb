package dev.strata.bench.cluster;

import dev.strata.server.config.ConfigKeys;
import dev.strata.testkit.Ports;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A three-node Strata cluster on loopback, one {@code dev.strata.server.Main} process per node,
 * started as {@code bin/strata-dev} starts its nodes: the same heap and JVM flags, the server
 * jar and {@code server/target/lib/*} as class path, the JDK running this benchmark, and the
 * server's defaults for everything but ports and data (free ports here, since a dev cluster may
 * hold 7100-7122).
 */
final class LocalStrata {
    private static final int NODES = 3;

    private final List<ServerProcess> processes;
    private final List<String> endpoints;
    private final List<Integer> httpPorts;
    private final List<String> jvmFlags;
    private final List<List<String>> commands;

    private LocalStrata(List<ServerProcess> processes, List<String> endpoints, List<Integer> httpPorts, List<String> jvmFlags,
                        List<List<String>> commands) {
        this.processes = processes;
        this.endpoints = endpoints;
        this.httpPorts = httpPorts;
        this.jvmFlags = jvmFlags;
        this.commands = commands;
    }

    /**
     * Starts the three nodes, data and logs under {@code dir}, without waiting for them ({@link #awaitReady}).
     *
     * @param classpath  the server's class path (see {@link StrataInstall})
     * @param heap       each node's -Xms and -Xmx
     * @param javaOptions more JVM flags for every node, after bin/lib/server.sh's (so they override them)
     * @param extraFlags more server flags for every node (--key=value), after the benchmark's own
     */
    static LocalStrata start(String classpath, String heap, List<String> javaOptions, Path dir, List<String> extraFlags,
                             ProcessGroup group) throws IOException {
        int[] client = new int[NODES];
        int[] raft = new int[NODES];
        int[] http = new int[NODES];
        for (int n = 0; n < NODES; n++) {
            client[n] = Ports.free();
            raft[n] = Ports.free();
            http[n] = Ports.free();
        }
        // id=host:raftPort:clientPort, as bin/strata-dev's peers; each node's own entry sets its ports.
        String peers = IntStream.range(0, NODES).mapToObj(n -> (n + 1) + "=127.0.0.1:" + raft[n] + ":" + client[n])
                .collect(Collectors.joining(","));
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> jvm = new ArrayList<>(jvmFlags(heap));
        jvm.addAll(javaOptions);
        List<ServerProcess> processes = new ArrayList<>();
        List<String> endpoints = new ArrayList<>();
        List<Integer> httpPorts = new ArrayList<>();
        List<List<String>> commands = new ArrayList<>();
        for (int n = 0; n < NODES; n++) {
            Path data = Files.createDirectories(dir.resolve("node" + (n + 1)));
            List<String> command = new ArrayList<>();
            command.add(java);
            command.addAll(jvm);
            command.addAll(List.of("-cp", classpath, "dev.strata.server.Main",
                    ConfigKeys.NODE_ID.flag() + "=" + (n + 1),
                    ConfigKeys.PEERS.flag() + "=" + peers,
                    ConfigKeys.DATA_DIR.flag() + "=" + data.resolve("data"),
                    ConfigKeys.HTTP_PORT.flag() + "=" + http[n]));
            command.addAll(extraFlags);
            commands.add(command);
            processes.add(group.add(ServerProcess.start("strata node " + (n + 1), command, data.resolve("server.log"),
                    "STRATA_")));
            endpoints.add("127.0.0.1:" + client[n]);
            httpPorts.add(http[n]);
        }
        return new LocalStrata(processes, endpoints, httpPorts, jvm, commands);
    }

    /**
     * bin/lib/server.sh's flags: the heap fixed, its collector's pause goal, native access for the
     * codecs, zstd-jni's JNI binding, Unsafe for Ratis' Netty on JDK 23+.
     */
    static List<String> jvmFlags(String heap) {
        List<String> flags = new ArrayList<>(List.of("-Xms" + heap, "-Xmx" + heap, "-XX:MaxGCPauseMillis=20",
                "--enable-native-access=ALL-UNNAMED", "-Djdk.util.jar.enableMultiRelease=false"));
        if (Runtime.version().feature() >= 23) {
            flags.add("--sun-misc-unsafe-memory-access=allow");
        }
        return flags;
    }

    List<String> endpoints() {
        return endpoints;
    }

    List<Long> pids() {
        return processes.stream().map(ServerProcess::pid).toList();
    }

    List<String> jvmFlags() {
        return jvmFlags;
    }

    /** Each node's command line, for the report. */
    List<List<String>> commands() {
        return commands;
    }

    /**
     * Waits until every node's {@code /readyz} answers 200 (it has a leader and has applied what
     * was committed).
     *
     * @throws IllegalStateException when a node exited or {@code timeout} passed, with its log's end
     */
    void awaitReady(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        for (int n = 0; n < NODES; n++) {
            ServerProcess p = processes.get(n);
            HttpRequest readyz = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPorts.get(n) + "/readyz"))
                    .timeout(Duration.ofSeconds(2)).build();
            String last = "no answer yet";
            while (true) {
                if (!p.alive()) {
                    throw new IllegalStateException(p + " exited; the end of its log:\n" + p.logTail(20));
                }
                try {
                    HttpResponse<String> r = http.send(readyz, HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() == 200) {
                        break;
                    }
                    last = r.statusCode() + " " + r.body().strip();
                } catch (IOException e) {
                    last = e.toString();
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(p + " was not ready after " + timeout.toSeconds() + " s (/readyz: " + last
                            + "); the end of its log:\n" + p.logTail(20));
                }
                Thread.sleep(250);
            }
        }
    }
}
