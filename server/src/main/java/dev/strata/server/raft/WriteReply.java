package dev.strata.server.raft;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;

/**
 * The leader's response to one replicated write: the response object itself when this node
 * applied the write as leader, or its encoded bytes when another node did. Immutable.
 */
public final class WriteReply {
    private final MessageLite message;
    private final ByteString bytes;

    private WriteReply(MessageLite message, ByteString bytes) {
        this.message = message;
        this.bytes = bytes;
    }

    static WriteReply of(MessageLite response) {
        return new WriteReply(response, null);
    }

    static WriteReply encoded(ByteString response) {
        return new WriteReply(null, response);
    }

    /**
     * The response as a {@code type}, parsed with {@code parser} when it came encoded.
     *
     * @throws InvalidProtocolBufferException when the bytes are not a {@code type}
     */
    public <T extends MessageLite> T as(Class<T> type, Parser<T> parser) throws InvalidProtocolBufferException {
        if (message != null) {
            if (!type.isInstance(message)) {
                throw new InvalidProtocolBufferException("the response is a " + message.getClass().getSimpleName()
                        + ", not a " + type.getSimpleName());
            }
            return type.cast(message);
        }
        return parser.parseFrom(bytes);
    }
}
