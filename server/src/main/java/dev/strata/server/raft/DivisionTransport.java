package dev.strata.server.raft;

import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientRpc;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientAsynchronousProtocol;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * How this node's requests reach the log: straight into the local Raft division (the proposer's
 * batches when this node leads, and its ReadIndex rounds), or to the leader over Ratis's client
 * transport (without its client, whose retries and ordering the {@link Proposer} does itself).
 */
final class DivisionTransport implements Proposer.Transport {
    private final RaftServer server;
    private final Supplier<RaftServer.Division> division;
    private final RaftClient forwardingClient;
    private final RaftPeerId selfId;
    private final RaftGroupId groupId;
    /** Identifies this node's own ReadIndex rounds to its server. */
    private final ClientId localClientId = ClientId.randomId();
    private final AtomicLong callIds = new AtomicLong();

    /**
     * @param division         this node's Raft division, null until started
     * @param forwardingClient carries requests to the leader; closed by the caller
     */
    DivisionTransport(RaftServer server, Supplier<RaftServer.Division> division, RaftClient forwardingClient,
                      RaftPeerId selfId, RaftGroupId groupId) {
        this.server = server;
        this.division = division;
        this.forwardingClient = forwardingClient;
        this.selfId = selfId;
        this.groupId = groupId;
    }

    /** One ReadIndex round on the local server: completes once this node has applied the read index. */
    CompletableFuture<Void> readIndexRound() {
        RaftClientRequest request = RaftClientRequest.newBuilder()
                .setClientId(localClientId)
                .setServerId(selfId)
                .setGroupId(groupId)
                .setCallId(callIds.incrementAndGet())
                .setMessage(Message.EMPTY)
                .setType(RaftClientRequest.readRequestType(false, false, true))
                .build();
        try {
            return submitLocally(request).thenApply(reply -> {
                RaftReplies.content(reply);
                return null;
            });
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public boolean leading() {
        RaftServer.Division d = division.get();
        return d != null && d.getInfo().isLeader();
    }

    @Override
    public RaftPeerId leader() {
        RaftServer.Division d = division.get();
        return d == null ? null : d.getInfo().getLeaderId();
    }

    /**
     * Submits a request to this node's Raft division on the calling thread. The server-level
     * {@code submitClientRequestAsync} hands every request to an executor and blocks until it
     * is queued, a thread switch per request; calls come here from the API's and the proposer's
     * own threads instead, never from Ratis's callbacks (where Ratis holds locks the submission
     * takes).
     */
    @Override
    public CompletableFuture<RaftClientReply> submitLocally(RaftClientRequest request) throws IOException {
        if (division.get() instanceof RaftClientAsynchronousProtocol direct) {
            return direct.submitClientRequestAsync(request);
        }
        return server.submitClientRequestAsync(request);
    }

    @Override
    public CompletableFuture<RaftClientReply> send(RaftPeerId target, RaftClientRequest request) {
        RaftClientRpc rpc = forwardingClient.getClientRpc();
        // Members added since this node started are unknown to the transport until now.
        RaftServer.Division d = division.get();
        if (d != null) {
            rpc.addRaftPeers(d.getRaftConf().getAllPeers());
        }
        return rpc.sendRequestAsyncUnordered(request);
    }

    @Override
    public void transportFailed(RaftPeerId target, Throwable cause) {
        forwardingClient.getClientRpc().handleException(target, cause, false);
    }
}
