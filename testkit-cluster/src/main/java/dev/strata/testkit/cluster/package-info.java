/**
 * Clusters of real servers on loopback, for the cluster tests, the fault-injection soak and the
 * benchmarks: {@link dev.strata.testkit.cluster.InProcessCluster} runs nodes in this JVM;
 * {@link dev.strata.testkit.cluster.ProcessCluster} starts, kills, wipes and restarts node
 * processes, and {@link dev.strata.testkit.cluster.FaultProxy} stands between them to drop,
 * delay or cut their links.
 */
package dev.strata.testkit.cluster;
