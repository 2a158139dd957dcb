package dev.strata.server.raft;

import com.google.protobuf.MessageLite;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Small conversions between Strata's messages and Ratis's requests and replies. */
final class RaftReplies {
    private RaftReplies() {}

    /** A Ratis message holding {@code m}. */
    static Message message(MessageLite m) {
        return Message.valueOf(UnsafeByteOperations.unsafeWrap(m.toByteArray()));
    }

    /** The reply's message, or its exception thrown (wrapped for futures) when it failed. */
    static ByteString content(RaftClientReply reply) {
        if (!reply.isSuccess()) {
            Exception e = reply.getException();
            throw new CompletionException(e != null ? e : new IOException("request failed without a reason: " + reply));
        }
        Message m = reply.getMessage();
        return m == null ? ByteString.EMPTY : m.getContent();
    }

    /**
     * Waits for {@code future} up to {@code timeout}; a failure is thrown wrapped in a
     * {@link CompletionException}, a timeout cancels the future.
     *
     * @param what what is being waited for, named in the exceptions
     */
    static <T> T await(CompletableFuture<T> future, Duration timeout, String what) throws IOException, TimeoutException {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while " + what, e);
        } catch (ExecutionException e) {
            throw new CompletionException(e.getCause());
        } catch (TimeoutException e) {
            future.cancel(false);
            TimeoutException t = new TimeoutException(what + " did not finish within " + timeout.toMillis() + " ms");
            t.initCause(e);
            throw t;
        }
    }
}
