package dev.strata.server.kv;

import dev.strata.proto.v1.GetRequest;
import dev.strata.proto.v1.GetResponse;
import dev.strata.proto.v1.KeyValue;
import dev.strata.proto.v1.RangeRequest;
import dev.strata.proto.v1.RangeResponse;
import dev.strata.proto.v1.ResponseHeader;

/**
 * Serves Get and Range from a {@link KvView}. Range pages stop at the request's limit, at
 * {@link Limits#maxPageEntries()} and before {@link Limits#maxPageBytes()} of entries, always
 * holding at least one entry so paging makes progress; {@code next_page_token} says where the
 * next page starts. Thread-safe (stateless).
 */
public final class KvReader {
    private final Limits limits;

    public KvReader(Limits limits) {
        this.limits = limits;
    }

    /** Requests are validated before they get here ({@link RequestValidator}). */
    public GetResponse get(KvView view, GetRequest request, long revision) {
        byte[] key = request.getKey().toByteArray();
        StoredValue v = view.get(key);
        GetResponse.Builder r = GetResponse.newBuilder().setHeader(header(revision));
        if (v != null) {
            r.setKv(v.toKeyValue(key, false));
        }
        return r.build();
    }

    /**
     * One page of a range.
     *
     * @throws InvalidRequestException for a bad selection or page token (validated again here
     *         because a Txn's ranges reach this only when the entry is applied)
     */
    public RangeResponse range(KvView view, RangeRequest request, long revision) {
        KeyRange range = KeyRange.select(request.getKey(), request.getRangeEnd(), request.getPrefix());
        byte[] start = request.getPageToken().isEmpty() ? range.from() : PageToken.decode(request, range);
        RangeResponse.Builder r = RangeResponse.newBuilder().setHeader(header(revision));
        if (request.getCountOnly()) {
            long count = 0;
            try (KvView.Cursor c = view.scan(start, range.to())) {
                while (c.hasNext()) {
                    c.next();
                    count++;
                }
            }
            return r.setCount(count).build();
        }
        long maxEntries = request.getLimit() > 0 ? Math.min(request.getLimit(), limits.maxPageEntries()) : limits.maxPageEntries();
        long bytes = 0;
        int entries = 0;
        try (KvView.Cursor c = view.scan(start, range.to())) {
            while (c.hasNext()) {
                KvView.Entry e = c.next();
                KeyValue kv = e.value().toKeyValue(e.key(), request.getKeysOnly());
                int size = kv.getSerializedSize();
                if (entries == maxEntries || (entries > 0 && bytes + size > limits.maxPageBytes())) {
                    r.setNextPageToken(PageToken.encode(request, e.key()));
                    break;
                }
                r.addKvs(kv);
                bytes += size;
                entries++;
            }
        }
        return r.setCount(entries).build();
    }

    static ResponseHeader header(long revision) {
        return ResponseHeader.newBuilder().setRevision(revision).build();
    }
}
