package dev.strata.bench.cluster;

import java.util.List;

/**
 * The endpoints one run sends to, by index into its target's endpoint list; operation {@code i}
 * goes to {@code endpoints[i mod n]}, so a single-endpoint route pins every request to one node.
 *
 * @param placement what was asked for
 * @param endpoints indexes into {@link KvTarget#endpoints()}
 * @param addresses the same endpoints as host:port, for the report
 */
record Route(Placement placement, int[] endpoints, List<String> addresses) {
    Route {
        if (endpoints.length == 0) {
            throw new IllegalArgumentException("a route needs an endpoint");
        }
    }

    /** The endpoint of operation {@code i}. */
    int endpointOf(long i) {
        return endpoints[(int) Math.floorMod(i, (long) endpoints.length)];
    }
}
