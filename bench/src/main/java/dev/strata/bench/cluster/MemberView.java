package dev.strata.bench.cluster;

/**
 * What one endpoint said about itself when asked for its status (Strata's Cluster/Status, etcd's
 * Maintenance/Status): which member answers there and which member it believes leads.
 *
 * @param address  the endpoint, host:port
 * @param memberId the answering member's id; 0 when it did not answer
 * @param leaderId the leader it knows; 0 when none (or it did not answer)
 * @param error    why it did not answer, or null
 */
record MemberView(String address, long memberId, long leaderId, String error) {
    static MemberView failed(String address, String error) {
        return new MemberView(address, 0, 0, error);
    }

    boolean answered() {
        return error == null;
    }

    /** {@code host:port member M leader L}, ids in hex as etcdctl prints them (they are unsigned 64-bit). */
    @Override
    public String toString() {
        return answered() ? address + " member " + Long.toHexString(memberId) + " leader " + Long.toHexString(leaderId)
                : address + " error " + error;
    }
}
