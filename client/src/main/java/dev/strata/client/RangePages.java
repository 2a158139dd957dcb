package dev.strata.client;

import com.google.protobuf.ByteString;
import dev.strata.proto.v1.RangeResponse;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Iterates a range page by page, fetching the next page only when the current one is used up,
 * so memory holds one page whatever the range's size. Each page is read on its own (and
 * retried on its own), so pages may come from different revisions: a key written between two
 * pages shows up when it sorts after the pages already read.
 */
final class RangePages implements Iterator<KeyValue> {
    private final AsyncStrataClient client;
    private final KeyRange keys;
    private final RangeOptions options;
    private long remaining;
    private ByteString token = ByteString.EMPTY;
    private boolean last;
    private Iterator<dev.strata.proto.v1.KeyValue> page = List.<dev.strata.proto.v1.KeyValue>of().iterator();

    RangePages(AsyncStrataClient client, KeyRange keys, RangeOptions options) {
        this.client = client;
        this.keys = keys;
        this.options = options;
        this.remaining = options.limit() == 0 ? Long.MAX_VALUE : options.limit();
    }

    @Override
    public boolean hasNext() {
        while (remaining > 0 && !page.hasNext() && !last) {
            int size = options.pageSize() == 0 ? 0 : (int) Math.min(options.pageSize(), remaining);
            RangeResponse r = AsyncStrataClient.await(client.rangePage(keys, options, size, token, false));
            page = r.getKvsList().iterator();
            token = r.getNextPageToken();
            last = token.isEmpty();
        }
        return remaining > 0 && page.hasNext();
    }

    @Override
    public KeyValue next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        remaining--;
        return Protos.kv(page.next());
    }
}
