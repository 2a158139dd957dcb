package dev.strata.client;

import io.grpc.ChannelCredentials;
import io.grpc.ManagedChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.Channel;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.IoHandlerFactory;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollIoHandler;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.nio.NioIoHandler;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioSocketChannel;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;

import java.util.concurrent.TimeUnit;

/**
 * The network threads of one client: a Netty event-loop group that the client's channels share
 * and that {@link #close()} stops. gRPC's default group is shared by the whole JVM and outlives
 * the client by a second, its threads blocked in epoll_wait; a JVM exits only after waiting up to
 * 300 ms for threads in native code, so every one-shot command line paid that wait at its end.
 * Native epoll where Netty has it (as gRPC's default does) unless told otherwise, NIO elsewhere.
 */
final class ClientEventLoop implements AutoCloseable {
    private static final long CLOSE_TIMEOUT_MS = 2_000;

    private final EventLoopGroup group;
    private final Class<? extends Channel> channelType;

    /** @param nativeTransport whether to use epoll where Netty has it (loading it takes about 0.1 s) */
    ClientEventLoop(boolean nativeTransport) {
        boolean epoll = nativeTransport && Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        this.group = new MultiThreadIoEventLoopGroup(Math.max(1, Runtime.getRuntime().availableProcessors()),
                new DefaultThreadFactory("strata-client-io", true), io);
        this.channelType = epoll ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    /** A channel builder for {@code target} on this event loop. */
    ManagedChannelBuilder<?> channelBuilder(String target, ChannelCredentials credentials) {
        return NettyChannelBuilder.forTarget(target, credentials).eventLoopGroup(group).channelType(channelType);
    }

    /** Stops the threads; call after the channels have shut down. */
    @Override
    public void close() {
        group.shutdownGracefully(0, CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS).awaitUninterruptibly(CLOSE_TIMEOUT_MS);
    }
}
