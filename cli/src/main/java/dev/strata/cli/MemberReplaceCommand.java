package dev.strata.cli;

import dev.strata.client.Member;
import dev.strata.client.NodeStatus;
import dev.strata.client.StrataClient;
import dev.strata.client.StrataException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;

/**
 * {@code strata member-replace ID}: brings back a member whose disk was replaced, as a new member
 * under the same id and addresses. A member that lost its data must not vote again until it has
 * caught up (its votes and log are gone); started on its empty directory it waits until the
 * cluster has removed it. So the command removes it, adds it back as a learner once it answers,
 * waits until it has applied what the cluster had committed, and promotes it. Each step looks
 * at the configuration first, so a run that stopped halfway can be run again.
 */
@Command(name = "member-replace", mixinStandardHelpOptions = true,
        description = {"Replaces member ID whose data directory was lost (a new disk): removes it, waits for the node to "
                + "run on its empty directory (started with its usual command; it waits for the removal), adds it back "
                + "as a learner, waits until it has caught up and makes it a voter again. Prints each step and the "
                + "members after."})
final class MemberReplaceCommand implements Callable<Integer> {
    private static final long POLL_MS = 500;

    @Mixin
    ClientOptions client;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "ID", description = "the member's id")
    long id;

    @Option(names = "--wait", defaultValue = "10m", converter = DurationConverter.class, paramLabel = "DURATION",
            description = "how long to wait for the node to start and then to catch up (default: ${DEFAULT-VALUE})")
    Duration wait;

    /** When the whole command gives up: --wait after it started. */
    private long deadlineNanos;
    /**
     * Whether the old member is out of the voters (removed, or a learner from the start): a
     * voter seen after that is the new member, promoted, and must not be removed again.
     */
    private boolean removed;

    @Override
    public Integer call() {
        MemberIds.requirePositive(spec, id);
        PrintWriter out = spec.commandLine().getOut();
        // The steps go to stderr with JSON output, so stdout holds the members' JSON alone.
        PrintWriter steps = client.json() ? spec.commandLine().getErr() : out;
        deadlineNanos = System.nanoTime() + wait.toNanos();
        try (StrataClient c = client.connect()) {
            Optional<Member> found = find(c.members());
            if (found.isEmpty()) {
                spec.commandLine().getErr().println("strata member-replace: node " + id + " is not a member; add a new "
                        + "node with member-add");
                return ExitCode.FAILED;
            }
            Member m = found.get();
            // A leader change fails a step now and then; each step looks at the configuration
            // first, so the whole walk starts over until it is done or the wait is over.
            while (true) {
                try {
                    return replace(c, m, out, steps);
                } catch (StrataException e) {
                    if (System.nanoTime() > deadlineNanos) {
                        throw e;
                    }
                    steps.println("a step failed (" + e.getMessage() + "); trying again");
                    if (!pause(1_000)) {
                        throw e;
                    }
                }
            }
        }
    }

    /** The walk from the configuration as it is now: remove, wait for the node, add, wait, promote. */
    private int replace(StrataClient c, Member m, PrintWriter out, PrintWriter steps) {
        Optional<Member> now = find(c.members());
        boolean voter = now.isPresent() && !now.get().learner();
        if (!removed) {
            if (voter) {
                c.removeMember(id);
                steps.println("removed node " + id + "; waiting for it to run on its empty data directory (a node "
                        + "that was waiting for the removal starts now)");
            }
            removed = true;
        } else if (voter) {
            // Back as a voter after the removal: a promotion whose answer was lost went through.
            MembersCommand.print(out, client.json(), c.members());
            return ExitCode.OK;
        }
        if (!awaitTrue(() -> answersAs(m.clientAddress()).isPresent())) {
            return timedOut("node " + id + " to answer at " + m.clientAddress());
        }
        if (find(c.members()).isEmpty()) {
            c.addMember(id, m.raftAddress(), m.clientAddress());
            steps.println("added node " + id + " as a learner; it catches up from the log or a checkpoint");
        }
        long target = c.status().commitIndex();
        if (!awaitTrue(() -> answersAs(m.clientAddress()).map(s -> s.appliedIndex() >= target).orElse(false))) {
            return timedOut("node " + id + " to apply index " + target);
        }
        if (find(c.members()).map(Member::learner).orElse(true)) {
            steps.println("node " + id + " has applied index " + target + "; promoting it");
            MembersCommand.print(out, client.json(), c.promoteMember(id));
        } else {
            MembersCommand.print(out, client.json(), c.members());
        }
        return ExitCode.OK;
    }

    private Optional<Member> find(List<Member> members) {
        return members.stream().filter(m -> m.id() == id).findFirst();
    }

    /** The status of the node at {@code address}, when it answers and is node {@link #id}. */
    private Optional<NodeStatus> answersAs(String address) {
        try (StrataClient one = client.connectTo(address)) {
            NodeStatus s = one.status();
            return s.memberId() == id ? Optional.of(s) : Optional.empty();
        } catch (StrataException e) {
            return Optional.empty();
        }
    }

    private boolean awaitTrue(BooleanSupplier condition) {
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadlineNanos || !pause(POLL_MS)) {
                return false;
            }
        }
        return true;
    }

    /** Sleeps; false when interrupted. */
    private static boolean pause(long ms) {
        try {
            Thread.sleep(ms);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private int timedOut(String what) {
        spec.commandLine().getErr().println("strata member-replace: gave up after " + wait.toSeconds() + " s waiting for "
                + what + "; run the command again to go on from where it stopped");
        return ExitCode.FAILED;
    }
}
