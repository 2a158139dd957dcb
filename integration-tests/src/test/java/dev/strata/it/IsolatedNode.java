package dev.strata.it;

import org.apache.ratis.util.CodeInjectionForTesting;

import java.util.List;

/**
 * Cuts one in-process node off from the other nodes' Raft traffic, both ways, while open: every
 * append, vote request and install notice to or from it fails on arrival, as over a broken
 * link. It uses Ratis's test hooks ({@link CodeInjectionForTesting}), which are global to the
 * JVM: one node at a time, and it takes over (and on close clears) whatever hooks other code
 * had at its three points. Client calls and Strata's own checkpoint transfers still pass.
 */
final class IsolatedNode implements AutoCloseable {
    /** Where Ratis's RaftServerImpl runs the hooks (its package-private point names). */
    private static final List<String> ARRIVALS = List.of(
            "RaftServerImpl.appendEntries", "RaftServerImpl.requestVote", "RaftServerImpl.installSnapshot");

    private IsolatedNode() {}

    /** Cuts node {@code id} off until {@link #close()}. */
    static IsolatedNode isolate(long id) {
        String cut = Long.toString(id);
        // The hook's first two arguments are the receiving server's id and the sender's.
        CodeInjectionForTesting.Code drop = (receiver, sender, args) -> {
            if (cut.equals(String.valueOf(receiver)) || cut.equals(String.valueOf(sender))) {
                throw new IllegalStateException("injected partition: node " + cut + " is cut off");
            }
            return false;
        };
        ARRIVALS.forEach(point -> CodeInjectionForTesting.put(point, drop));
        return new IsolatedNode();
    }

    @Override
    public void close() {
        ARRIVALS.forEach(CodeInjectionForTesting::remove);
    }
}
