package dev.strata.server.raft;

import org.apache.ratis.protocol.RaftPeer;

/**
 * What the state machine tells the node it runs in. The state machine finds these out on
 * Ratis's threads; the node decides what they mean. Given once, when the state machine is built,
 * so that calls go one way: the node builds the state machine, the state machine reports to it.
 * No method may block the thread it is called on.
 */
interface NodeEvents {
    /** The engine failed to apply a committed entry; once, on the apply thread. */
    void engineFailed();

    /**
     * The Raft log could not be written; once, on Ratis's log worker thread. It may wait a little
     * (the worker fails the entries' futures, and so the leader's requests, only after it returns),
     * but must not wait for the worker itself.
     */
    void raftLogFailed();

    /** Ratis closed the state machine, which it does when it closes the Raft server; on its closing thread. */
    void stateMachineClosed();

    /** The client address of {@code leader}, where its checkpoint service listens, or null when unknown. */
    String leaderClientAddress(RaftPeer leader);
}
