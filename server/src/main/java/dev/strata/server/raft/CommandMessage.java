package dev.strata.server.raft;

import dev.strata.proto.internal.v1.Command;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;

/**
 * A Ratis message that keeps its {@link Command} parsed. Submitted on the leader, the request
 * never leaves the process, so the state machine's {@code startTransaction} takes the command
 * as it is instead of parsing the bytes this node just wrote; the bytes are made once, when
 * the log (or a forward to another node) first asks for them. Thread-safe.
 */
final class CommandMessage implements Message {
    private final Command command;
    private volatile ByteString content;

    CommandMessage(Command command) {
        this.command = command;
    }

    Command command() {
        return command;
    }

    @Override
    public ByteString getContent() {
        ByteString c = content;
        if (c == null) {
            c = UnsafeByteOperations.unsafeWrap(command.toByteArray());
            content = c;
        }
        return c;
    }

    @Override
    public int size() {
        return command.getSerializedSize();
    }

    @Override
    public String toString() {
        return "Command(" + command.getOpCase() + ", " + size() + " bytes)";
    }
}
